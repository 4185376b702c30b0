import Foundation
import HTTPEngine
import MonitorCheck
import MonitorCore
import MonitorDaemon
import TestSupport

/// `aasa-bench daemon bare-fleet <domains> <port> <ca-file> <concurrency>`: the limit of issue 24, against nginx.
///
/// A bare libcurl multi client (the daemon's HTTP engine, configured as `ProbeSettings` configures it) fetching
/// the daemon's 4 URLs per domain for `dN.fleet.test`, `concurrency` domains at a time, all at once: no
/// evaluation, no database, no scheduler, no pacing. A domain is fetched as `DomainProbe` fetches it: the CDN copy
/// (waiting to multiplex on the CDN's one connection) beside the origin's `.well-known` with Apple's user agent,
/// which opens a fresh connection and reads the certificate chain, then the plain user agent's `.well-known` and
/// the root path (which closes the connection) on that warm connection. Same timeouts, body cap, `connect-to`
/// rule and trust (`systemAnd`, as `http.ca_file` gives the daemon). It runs in its own process so that its
/// `getrusage` is its own, and prints `RESULT requests=… failures=… cpu=… maxrss_kb=… domains=…`.
enum BareFleet {
    static func run(domains: Int, port: Int, caFile: String, concurrency: Int) async throws {
        let requests = try Requests(port: port, caFile: caFile)
        let before = ResourceUsage.now()
        let engine = try CurlEngine(
            configuration: ProbeSettings(version: MonitorVersion.current, concurrency: concurrency).engineConfiguration)
        let failures = await withTaskGroup(of: Int.self) { group in
            var failures = 0
            var running = 0
            for index in 0..<domains {
                while running >= concurrency, let failed = await group.next() {
                    failures += failed
                    running -= 1
                }
                group.addTask { await requests.check(NginxFleet.domain(index), engine: engine) }
                running += 1
            }
            for await failed in group { failures += failed }
            return failures
        }
        await engine.shutdown()
        let after = ResourceUsage.now()
        print(
            "RESULT requests=\(domains * 4) failures=\(failures) cpu=\(after.cpuSeconds - before.cpuSeconds) "
                + "maxrss_kb=\(after.maxRSSKilobytes) domains=\(domains)")
        fflush(nil)
    }

    /// The daemon's four requests for a domain (`ProbeSettings.request`'s settings, copied: it is internal).
    struct Requests: Sendable {
        let rule: ConnectToRule
        let trust: TrustConfiguration
        static let appleUserAgent = ProbeSettings.appleFetcherUserAgent
        static let plainUserAgent = "aasa-monitor/\(MonitorVersion.current)"

        init(port: Int, caFile: String) throws {
            rule = try ConnectToRule(parsing: "::127.0.0.1:\(port)")
            trust = .systemAnd(extraCAFile: caFile)
        }

        func request(
            _ url: String, userAgent: String, readsCertificate: Bool = false, waitsForMultiplexing: Bool = false,
            closesConnection: Bool = false
        ) -> HTTPRequest {
            var request = HTTPRequest(
                url: url, userAgent: userAgent, timeout: .seconds(10), connectTimeout: .seconds(10),
                maxBodyBytes: 131_072, connectTo: [rule], trust: trust, readsCertificate: readsCertificate,
                describesRejectedCertificate: readsCertificate, waitsForMultiplexing: waitsForMultiplexing)
            request.closesConnection = closesConnection
            return request
        }

        /// How many of the domain's four requests failed.
        func check(_ domain: String, engine: CurlEngine) async -> Int {
            let wellKnownURL = "https://\(domain)/.well-known/apple-app-site-association"
            async let cdn = fetch(
                request(
                    "https://\(NginxFleet.cdnHost)/a/v1/\(domain)", userAgent: Self.plainUserAgent,
                    waitsForMultiplexing: true),
                engine: engine)
            let wellKnown = await fetch(
                request(wellKnownURL, userAgent: Self.appleUserAgent, readsCertificate: true), engine: engine)
            async let plain = fetch(request(wellKnownURL, userAgent: Self.plainUserAgent), engine: engine)
            async let root = fetch(
                request(
                    "https://\(domain)/apple-app-site-association", userAgent: Self.appleUserAgent,
                    closesConnection: true),
                engine: engine)
            return await wellKnown + plain + root + cdn
        }

        /// 1 when the request got no HTTP answer (any status is an answer, as for the daemon).
        private func fetch(_ request: HTTPRequest, engine: CurlEngine) async -> Int {
            do {
                _ = try await engine.perform(request)
                return 0
            } catch {
                FileHandle.standardError.write(Data("bare request \(request.url) failed: \(error)\n".utf8))
                return 1
            }
        }
    }
}
