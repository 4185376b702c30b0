import Foundation
import Synchronization
import TestSupport

/// The fleet and the receiver of a soak run. Each origin `sN.soak.test` flaps on its own period: broken (404) for a
/// quarter of it, and its file changes meaning every 5 minutes; Apple's CDN (`cdn.soak.test`) serves what the
/// origin served 90 s earlier, so copies lag. The receiver records every delivery and answers 503 while "down".
final class SoakWorld: Sendable {
    static let cdnHost = "cdn.soak.test"
    let start = Date()
    let receiverDown = Mutex(false)
    /// Set once the chaos is over: every origin healthy and Apple in sync, so events stop and the outbox can drain.
    let settled = Mutex(false)
    /// Every delivery that reached the receiver while it was up, in arrival order.
    let received = Mutex<[Delivery]>([])

    struct Delivery: Sendable {
        var id: String
        var type: String
        var domain: String
        var code: String
        var source: String
        var subject: String
        var reminder: Bool
        var occurredAt: String
    }

    static func domain(_ index: Int) -> String { "s\(index).soak.test" }

    static func document(version: Int) -> String {
        let path = version == 0 ? "/buy/*" : "/shop/*"
        return #"{"applinks":{"details":[{"appIDs":["9JA89QQLNQ.com.example.soak"],"components":[{"/":""#
            + path + #""}]}]}}"#
    }

    /// Whether origin `index` is broken at `seconds` into the run, and which version it serves.
    static func origin(_ index: Int, at seconds: Double) -> (broken: Bool, version: Int) {
        let period = Double(120 + (index % 7) * 30)
        let phase = (seconds + Double(index * 13)).truncatingRemainder(dividingBy: period)
        let version = Int((seconds + Double(index * 7)) / 300) % 2
        return (phase < period / 4, version)
    }

    func seconds() -> Double { Date().timeIntervalSince(start) }

    func fleetRoutes(domains: Int) -> [FixtureRoute] {
        let json = [("Content-Type", "application/json")]
        let wellKnown = FixtureRoute("/.well-known/apple-app-site-association") { request in
            guard let index = Self.index(of: request) else { return FixtureResponse(status: 404) }
            let state =
                self.settled.withLock({ $0 }) ? (broken: false, version: 0) : Self.origin(index, at: self.seconds())
            return state.broken
                ? FixtureResponse(status: 404) : .text(Self.document(version: state.version), headers: json)
        }
        let root = FixtureRoute("/apple-app-site-association", FixtureResponse(status: 404))
        let cdn = (0..<domains).map { index in
            FixtureRoute("/a/v1/\(Self.domain(index))") { _ in
                let earlier =
                    self.settled.withLock({ $0 })
                    ? (broken: false, version: 0) : Self.origin(index, at: max(0, self.seconds() - 90))
                return .text(
                    Self.document(version: earlier.version),
                    headers: json + [("Cache-Control", "max-age=60"), ("Age", "0")])
            }
        }
        return [wellKnown, root] + cdn
    }

    func receiverRoutes() -> [FixtureRoute] {
        [
            FixtureRoute("/standard") { request in
                if self.receiverDown.withLock({ $0 }) { return FixtureResponse(status: 503) }
                let id = request.headerValues("webhook-id").first ?? ""
                let body = (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any] ?? [:]
                let delivery = Delivery(
                    id: id, type: body["type"] as? String ?? "", domain: body["domain"] as? String ?? "",
                    code: body["code"] as? String ?? "", source: body["source"] as? String ?? "",
                    subject: body["subject"] as? String ?? "", reminder: body["reminder"] as? Bool ?? false,
                    occurredAt: body["timestamp"] as? String ?? "")
                self.received.withLock { $0.append(delivery) }
                return .text(#"{"ok":true}"#)
            }
        ]
    }

    /// The fleet index of the request's host (`s17.soak.test` → 17).
    static func index(of request: RecordedRequest) -> Int? {
        let host =
            (request.headerValues(":authority").first ?? request.headerValues("host").first ?? "")
            .split(separator: ":").first ?? ""
        guard host.hasPrefix("s"), let dot = host.firstIndex(of: ".") else { return nil }
        return Int(host[host.index(after: host.startIndex)..<dot])
    }

    func configuration(fleet: FixtureServer, receiver: FixtureServer, options: SoakOptions, state: String) -> String {
        """
        state_dir: \(state)
        interval: \(options.interval)s
        http:
          ca_file: \(fleet.caFile)
          connect_to: ["\(fleet.wildcardConnectTo)"]
          concurrency: 16
        cdn:
          base_url: https://\(Self.cdnHost)/a/v1/
        alerts: { failure_threshold: 1, success_threshold: 1, repeat_after: 0, give_up_after: 6h }
        webhooks:
          - name: soak
            url: https://localhost:\(receiver.port)/standard
            format: standard
            ca_file: \(receiver.caFile)
            secret: whsec_\(Data((0..<32).map { UInt8($0) }).base64EncodedString())
            timeout: 3s
        domains:

        """ + (0..<options.domains).map { "  - \(Self.domain($0))\n" }.joined()
    }
}
