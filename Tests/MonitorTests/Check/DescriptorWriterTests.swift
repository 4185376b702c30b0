import Foundation
import MonitorCheck
import MonitorDaemon
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Writing check's report to a descriptor")
struct DescriptorWriterTests {
    @Test("a full non-blocking pipe is waited on until the reader makes room, and every byte arrives")
    func nonBlockingPipeWaits() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        defer { close(readEnd) }
        try #require(fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK) == 0)
        // Fill the pipe first, so the writer's first write is refused with EAGAIN.
        let chunk = [UInt8](repeating: 0x61, count: 4096)
        var prefilled = 0
        while case let written = write(writeEnd, chunk, chunk.count), written > 0 { prefilled += written }
        try #require(errno == EAGAIN, "the pipe is full")
        let payload = Data(repeating: 0x62, count: 1 << 20)
        let outcome = Mutex<Int32?>(nil)
        let writer = Thread {
            outcome.withLock { $0 = DescriptorWriter.writeAll(payload, to: writeEnd) }
            close(writeEnd)
        }
        writer.start()
        var received = 0
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while case let count = read(readEnd, &buffer, buffer.count), count != 0 {
            if count < 0, errno == EINTR { continue }
            try #require(count > 0, "read failed: \(String(cString: strerror(errno)))")
            received += count
        }
        #expect(outcome.withLock { $0 } == 0)
        #expect(received == prefilled + payload.count)
    }

    @Test("a reader that went away is EPIPE, reported rather than retried")
    func closedReaderIsEPIPE() throws {
        signal(SIGPIPE, SIG_IGN)
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        close(ends[0])
        defer { close(ends[1]) }
        #expect(DescriptorWriter.writeAll(Data("x".utf8), to: ends[1]) == EPIPE)
    }
}
