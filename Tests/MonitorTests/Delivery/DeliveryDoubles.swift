import Foundation
import HTTPEngine
import Logging
import MonitorDaemon
import Synchronization

/// A transport that answers from a script: each request gets the next step's answer or failure (the last step
/// repeats). Records every request it saw.
final class ScriptedTransport: WebhookTransport {
    /// One scripted answer.
    enum Step: Sendable {
        case status(Int, headers: HTTPHeaders = [:], body: String = "")
        case failure(any Error & Sendable)
    }

    private let state: Mutex<(steps: [Step], requests: [HTTPRequest])>

    init(_ steps: [Step]) {
        state = Mutex((steps, []))
    }

    var requests: [HTTPRequest] { state.withLock { $0.requests } }

    /// Replaces the script (a receiver that comes back).
    func answer(_ steps: [Step]) {
        state.withLock { $0.steps = steps }
    }

    func perform(_ request: HTTPRequest) async throws -> HTTPResponse {
        let step = state.withLock { state -> Step in
            state.requests.append(request)
            return state.steps.count > 1 ? state.steps.removeFirst() : state.steps[0]
        }
        switch step {
        case .status(let status, let headers, let body):
            return HTTPResponse(
                url: request.url, status: status, headers: headers, body: Array(body.utf8), redirectURL: nil,
                httpVersion: .http2, primaryIP: "127.0.0.1", primaryPort: 443, timings: HTTPTimings(),
                certificate: nil)
        case .failure(let error):
            throw error
        }
    }
}

/// A clock a test moves by hand.
final class TestClock: Sendable {
    private let time: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        time = Mutex(start)
    }

    var now: Date { time.withLock { $0 } }

    func set(_ date: Date) { time.withLock { $0 = date } }

    func advance(_ seconds: TimeInterval) { time.withLock { $0 = $0.addingTimeInterval(seconds) } }

    /// The clock as the services take it.
    var function: @Sendable () -> Date { { self.now } }
}

/// Keeps every log line a test produced, rendered as message plus every field, for greps.
final class CapturedLog: Sendable {
    private let lines = Mutex<[String]>([])

    var all: [String] { lines.withLock { $0 } }

    func append(_ line: String) { lines.withLock { $0.append(line) } }

    func logger(label: String) -> Logger {
        Logger(label: label) { label in CapturingHandler(label: label, log: self) }
    }
}

struct CapturingHandler: LogHandler {
    let label: String
    let log: CapturedLog
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let fields = metadata.merging(event.metadata ?? [:]) { $1 }.sorted { $0.key < $1.key }
        log.append("\(label): \(event.message)" + fields.map { " \($0.key)=\($0.value)" }.joined())
    }
}

/// Jitter values that differ from one call to the next but are the same in every run (the golden-ratio
/// sequence), so retries drift apart deterministically.
final class SpreadRandom: Sendable {
    private let calls = Mutex(0)

    func next() -> Double {
        let call = calls.withLock { value -> Int in
            value += 1
            return value
        }
        return (Double(call) * 0.618_033_988_75).truncatingRemainder(dividingBy: 1)
    }
}
