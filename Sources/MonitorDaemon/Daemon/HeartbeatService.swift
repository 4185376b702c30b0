import AASA
import Foundation
import HTTPEngine
import Logging
import MonitorCore
import MonitorEvaluation
import MonitorStore
import ServiceLifecycle

/// The dead man's switch: every `heartbeat.every`, pings the configured URL while the daemon is healthy, or its
/// `/fail` form while it is not (`HeartbeatPing`), so an external service pages when the pings stop or fail.
///
/// Healthy is what `/healthz` says (the scheduler going round, no check stuck or overdue, the store committing,
/// descriptors to spare) and, beyond it, no `monitor.*` condition: a daemon that cannot reach Apple's CDN is
/// running but not watching. Pings go through the webhook transport and its `Receiver` guard; a ping that fails is
/// logged and not retried (the next one is due in `every`). It is listed after the scheduler in the service group,
/// so it stops first at shutdown and a stopping daemon sends nothing.
struct HeartbeatService: Service {
    let executor: DaemonExecutor
    let store: MonitorStore
    let transport: any WebhookTransport
    let logger: Logger
    let clock: @Sendable () -> Date
    /// How long to wait for a configuration with a heartbeat (a reload may add one).
    var idleWait: Duration = .seconds(5)

    func run() async throws {
        // Logged on a change between healthy and unhealthy only: the reasons carry changing numbers (seconds,
        // descriptors), and a stuck daemon must not log a line every `every`.
        var wasHealthy: Bool?
        while !Task.isCancelledOrShuttingDown {
            guard let settings = await executor.configuration.heartbeat else {
                await pause(idleWait)
                continue
            }
            let started = ContinuousClock.now
            let failure = await failure(now: clock())
            if wasHealthy != (failure == nil) {
                if let failure {
                    logger.warning("heartbeat: unhealthy", metadata: ["reason": "\(failure)"])
                } else if wasHealthy != nil {
                    logger.notice("heartbeat: healthy again")
                }
                wasHealthy = failure == nil
            }
            if let ping = HeartbeatPing.decide(failure: failure, settings: settings), !Task.isCancelledOrShuttingDown {
                await send(ping, settings: settings)
            }
            await pause(until: started + settings.every)
        }
    }

    /// Why the daemon is not healthy now, or `nil` when it is.
    func failure(now: Date) async -> String? {
        if case .unhealthy(let reason) = await DaemonHealth.check(executor: executor, store: store, now: now) {
            return reason
        }
        let conditions = await executor.activeConditions.values.sorted { $0.code < $1.code }
        return conditions.first.map { "\($0.code): \($0.message)" }
    }

    private func send(_ ping: HeartbeatPing, settings: HeartbeatConfiguration) async {
        let receiver = Receiver(heartbeat: settings, url: ping.url)
        var headers: HTTPHeaders = [:]
        var body: [UInt8]?
        if settings.method == .post {
            headers.append("Content-Type", "application/json")
            body = (try? MonitorJSON.encoder().encode(ping.body(version: MonitorVersion.current, at: clock())))
                .map(Array.init)
        }
        let request = receiver.request(
            method: settings.method == .post ? "POST" : "GET", headers: headers, body: body, maxBodyBytes: 4 << 10)
        let kind = ping.failure == nil ? "ok" : "fail"
        do {
            let response = try await transport.perform(request)
            if (200..<300).contains(response.status) {
                logger.debug("heartbeat sent", metadata: ["ping": "\(kind)", "status": "\(response.status)"])
            } else {
                logger.warning("heartbeat refused", metadata: ["ping": "\(kind)", "status": "\(response.status)"])
            }
        } catch let failure as HTTPFailure {
            if let refused = failure.refused {
                logger.error("heartbeat not sent", metadata: ["reason": "\(receiver.refusal(refused))"])
            } else if failure.kind == .tooLarge, let status = failure.status {
                // An answer over 4 KiB was cut: its status still says whether the ping URL is right.
                if (200..<300).contains(status) {
                    logger.debug("heartbeat sent", metadata: ["ping": "\(kind)", "status": "\(status)"])
                } else {
                    logger.warning("heartbeat refused", metadata: ["ping": "\(kind)", "status": "\(status)"])
                }
            } else {
                let text = WebhookURLText.scrub(failure.curlMessage, url: receiver.url)
                logger.warning("heartbeat failed", metadata: ["ping": "\(kind)", "error": "\(text)"])
            }
        } catch {
            // Never `error.description` of an engine error: it carries the URL.
            logger.warning("heartbeat failed", metadata: ["ping": "\(kind)", "error": "\(type(of: error))"])
        }
    }

    private func pause(_ duration: Duration) async {
        try? await cancelWhenGracefulShutdown { try await Task.sleep(for: duration) }
    }

    private func pause(until deadline: ContinuousClock.Instant) async {
        try? await cancelWhenGracefulShutdown { try await Task.sleep(until: deadline) }
    }
}

extension HeartbeatService: CustomStringConvertible {
    /// A short name for lifecycle logs.
    var description: String { "heartbeat" }
}
