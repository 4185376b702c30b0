import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Writes bytes to a file descriptor completely, or says why it could not.
///
/// A descriptor may be non-blocking: a parent process (Node's `child_process`, some CI runners) can hand `check`
/// a pipe with `O_NONBLOCK` set. A full pipe then answers `EAGAIN`, which only means "not yet": wait until the
/// reader makes room (`poll`), then go on. Only a real failure (`EPIPE`, `ENOSPC`, `EIO`) ends the write.
package enum DescriptorWriter {
    /// Writes all of `data` to `descriptor`; returns 0, or the `errno` of the write that failed.
    package static func writeAll(_ data: Data, to descriptor: Int32) -> Int32 {
        data.withUnsafeBytes { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return 0 }
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                    continue
                }
                guard written < 0 else { return EIO }
                switch errno {
                case EINTR:
                    continue
                case EAGAIN, EWOULDBLOCK:
                    if let failure = waitUntilWritable(descriptor) { return failure }
                default:
                    return errno
                }
            }
            return 0
        }
    }

    /// Blocks until `descriptor` accepts more bytes; returns an `errno` when waiting itself fails. A reader that
    /// went away wakes `poll` too (`POLLERR`), and the next write then reports `EPIPE`.
    private static func waitUntilWritable(_ descriptor: Int32) -> Int32? {
        var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        while poll(&entry, 1, -1) < 0 {
            if errno != EINTR { return errno }
        }
        return nil
    }
}
