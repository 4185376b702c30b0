import Foundation
import MonitorCore
import MonitorDaemon
import MonitorEndpoint
import MonitorEvaluation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

// `aasa-bench endpoint --password-flood [--runs N]` (issue 32 §3): the endpoint with basic_auth_file (bcrypt cost
// 12), while 40 clients on 127.0.0.2 … 127.0.0.41 send wrong passwords as fast as they are answered (a 429 paces
// one 50 ms: these clients share the machine's cores with the endpoint, an attacker's would not). Measured: the
// wall time of a request whose credential verified a minute before but whose header is not cached (spelled with
// one more space each run), so that it is checked again; the same alone, before the flood; and a credential never
// verified (200, or 429 when the line of checks is full). Before issue 32, the first waited 6.9–11.5 s.

/// The `Authorization` header of `user:password`, with `spaces` spaces after `Basic`.
func basicHeader(_ user: String, _ password: String, spaces: Int = 1) -> String {
    "Basic" + String(repeating: " ", count: spaces) + Data("\(user):\(password)".utf8).base64EncodedString()
}

/// A blocking `GET path` to 127.0.0.1:`port` from `source`: the answer's status, or -1.
func statusFrom(_ source: String, port: Int, path: String, authorization: String) -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { return -1 }
    defer { close(descriptor) }
    var timeout = timeval(tv_sec: 60, tv_usec: 0)
    _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    func address(_ host: String, _ port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr(host)
        return address
    }
    var local = address(source, 0)
    var remote = address("127.0.0.1", port)
    let size = socklen_t(MemoryLayout<sockaddr_in>.size)
    guard
        withUnsafePointer(
            to: &local, { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, size) } }) == 0,
        withUnsafePointer(
            to: &remote, { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, size) } })
            == 0
    else { return -1 }
    let request = Array(
        "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: \(authorization)\r\nConnection: close\r\n\r\n"
            .utf8)
    guard send(descriptor, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else { return -1 }
    var buffer = [UInt8](repeating: 0, count: 256)
    let count = recv(descriptor, &buffer, buffer.count, 0)
    guard count > 12 else { return -1 }
    return Int(String(decoding: buffer[9..<12], as: UTF8.self)) ?? -1
}

/// Milliseconds `body` took, and what it returned.
func timed<T>(_ body: () async -> T) async -> (milliseconds: Double, value: T) {
    let start = ContinuousClock.now
    let value = await body()
    let elapsed = ContinuousClock.now - start
    return (Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15, value)
}

/// `statusFrom` on a thread of its own.
func statusFromThread(_ source: String, port: Int, authorization: String) async -> Int {
    await withCheckedContinuation { continuation in
        Thread {
            continuation.resume(
                returning: statusFrom(source, port: port, path: "/status", authorization: authorization))
        }.start()
    }
}

/// What the attackers' threads share: when to stop, and how their requests were answered.
final class FloodState: Sendable {
    let stop = Atomic(false)
    let counts = Mutex([Int: Int]())
}

func measurePasswordFlood(runs: Int) async throws {
    // Python's crypt for "letmein", bcrypt cost 12.
    let users = BasicAuthUsers(
        hashes: [
            "scraper": "$2b$12$e8UajMip.B4WfiP1y06fJexuxrbHgDOc/F0lTCdnxN8ke5YC1EBKi",
            "other": "$2b$12$8Tx5uZcHIBaYU7cn2TUFEOdPJTn9yzwxf5vqb7dOc5lQ/2T9Wizda",
        ], file: "htpasswd")
    let sources = EndpointSources(
        metrics: { throw PageUnavailable() }, health: { .healthy }, status: { Array("{}".utf8) },
        basicAuth: { users })
    try await withMonitorEndpoint(listen: ListenAddress(host: "127.0.0.1", port: 0), sources: sources) { address in
        let port = address.port
        var spaces = 1
        func next() -> String {
            spaces += 1
            return basicHeader("scraper", "letmein", spaces: spaces)
        }
        guard await statusFromThread("127.0.0.1", port: port, authorization: next()) == 200 else {
            refuse("the endpoint refused the benchmark's own password")
        }
        var alone: [Double] = []
        for _ in 0..<runs {
            let header = next()
            alone.append(await timed { await statusFromThread("127.0.0.1", port: port, authorization: header) }.0)
        }
        let flood = FloodState()
        let threads = (2...41).map { last in
            let thread = Thread {
                var round = 0
                while !flood.stop.load(ordering: .relaxed) {
                    let user = (last + round).isMultiple(of: 2) ? "scraper" : "nobody"
                    let status = statusFrom(
                        "127.0.0.\(last)", port: port, path: "/status",
                        authorization: basicHeader(user, "wrong\(round)"))
                    flood.counts.withLock { $0[status, default: 0] += 1 }
                    if status != 401 { usleep(50_000) }
                    round += 1
                }
            }
            thread.start()
            return thread
        }
        let floodStart = ContinuousClock.now
        try await Task.sleep(for: .seconds(2))
        var flooded: [(Double, Int)] = []
        for _ in 0..<runs {
            let header = next()
            flooded.append(await timed { await statusFromThread("127.0.0.1", port: port, authorization: header) })
            try await Task.sleep(for: .milliseconds(300))
        }
        let newcomer = await timed {
            await statusFromThread("127.0.0.1", port: port, authorization: basicHeader("other", "letmein"))
        }
        let floodSeconds = Double((ContinuousClock.now - floodStart).components.seconds)
        flood.stop.store(true, ordering: .relaxed)
        while !threads.allSatisfy(\.isFinished) { try await Task.sleep(for: .milliseconds(20)) }
        let times = flooded.map(\.0).sorted()
        let answered = flood.counts.withLock { $0 }
        print("password flood: 40 addresses sending wrong passwords, bcrypt cost 12, \(runs) runs")
        print(
            String(
                format:
                    "  verified credential, header not cached: alone median %.0f ms; under the flood median %.0f ms,"
                    + " max %.0f ms (statuses %@)",
                alone.sorted()[alone.count / 2], times[times.count / 2], times.last ?? 0,
                Set(flooded.map(\.1)).sorted().map(String.init).joined(separator: ",")))
        print(String(format: "  credential never verified: %d in %.0f ms", newcomer.value, newcomer.milliseconds))
        print(
            "  the flood's answers in about \(Int(floodSeconds)) s: \(answered[401] ?? 0) × 401 (checked), "
                + "\(answered[429] ?? 0) × 429 (refused without a check), \(answered[-1] ?? 0) × no answer")
    }
}
