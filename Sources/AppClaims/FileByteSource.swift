import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A regular file read by ranges with `pread`: a multi-gigabyte executable costs only the ranges asked for.
///
/// `final class` because it owns a file descriptor, closed in `deinit`. Only regular files are opened (a FIFO or a
/// device would block or never end), and with `O_NONBLOCK` so that opening a FIFO named by mistake cannot hang.
final class FileByteSource: ByteSource {
    let path: String
    let count: UInt64
    private let descriptor: Int32

    init(path: String) throws(AppClaimsError) {
        self.path = path
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw AppClaimsError(.unreadable, "cannot open: \(String(cString: strerror(errno)))")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw AppClaimsError(.unreadable, "not a regular file")
        }
        self.descriptor = descriptor
        self.count = UInt64(status.st_size)
    }

    deinit { close(descriptor) }

    func bytes(in range: Range<UInt64>) throws(AppClaimsError) -> [UInt8] {
        guard range.upperBound <= count else {
            throw AppClaimsError(.truncated, "bytes \(range) run past the end of the file (\(count) bytes)")
        }
        var buffer = [UInt8](repeating: 0, count: range.count)
        var done = 0
        while done < buffer.count {
            let read = buffer.withUnsafeMutableBytes { raw in
                pread(descriptor, raw.baseAddress! + done, raw.count - done, off_t(range.lowerBound) + off_t(done))
            }
            if read < 0, errno == EINTR { continue }
            guard read > 0 else {
                throw AppClaimsError(
                    read == 0 ? .truncated : .unreadable,
                    read == 0
                        ? "the file ended at byte \(range.lowerBound + UInt64(done)) while reading \(range)"
                        : "read failed: \(String(cString: strerror(errno)))")
            }
            done += read
        }
        return buffer
    }

    /// The whole file, refused above `limit` bytes.
    func all(limit: Int, what: String) throws(AppClaimsError) -> [UInt8] {
        guard count <= UInt64(limit) else {
            throw AppClaimsError(.tooLarge, "\(what) is \(count) bytes; over \(limit) bytes are not read")
        }
        return try bytes(in: 0..<count)
    }
}
