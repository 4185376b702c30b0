import Foundation
import Synchronization

/// How many end-to-end tests (a spawned `aasa-monitor`, in-process fixture servers) run at once.
///
/// Swift Testing starts every test at once; forty binaries and their fixture servers on two cores made answers arrive
/// after timeouts and a loaded machine fail tests at random (issue 31). A test takes a slot for its whole run through
/// the `.endToEndSlot` trait of its suite; pure tests take none and keep running in parallel. `FixtureServer.start`
/// and `RunningMonitor` refuse to start under `swift test` without a slot, so a new suite cannot forget the trait.
public enum EndToEndSlots {
    /// Whether the running task (and its child tasks) holds a slot.
    @TaskLocal public static var isHeld = false

    /// `AASA_TEST_SLOTS` if set, else one per core, at least two: the spawned processes mostly wait on loopback I/O,
    /// so one per core keeps the cores busy without making any test wait for CPU behind many others.
    public static let count: Int = {
        if let text = ProcessInfo.processInfo.environment["AASA_TEST_SLOTS"], let value = Int(text), value > 0 {
            return value
        }
        return max(2, ProcessInfo.processInfo.activeProcessorCount)
    }()

    private static let limiter = SlotLimiter(slots: count)

    /// Runs `body` holding a slot, waiting for one first; a task that already holds one runs at once (no nesting).
    public static func withSlot<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        if isHeld { return try await body() }
        await limiter.acquire()
        defer { limiter.release() }
        return try await $isHeld.withValue(true) { try await body() }
    }

    /// Throws unless the task holds a slot, when running under `swift test` (benchmarks use the fixtures freely).
    static func requireSlot(toStart what: String) throws {
        guard !isHeld, CommandLine.arguments.first?.hasSuffix(".xctest") == true else { return }
        throw SlotMissingError(what: what)
    }
}

/// A test started a process or server without a slot.
public struct SlotMissingError: Error, CustomStringConvertible {
    public var what: String
    public var description: String {
        "\(what) started outside an end-to-end slot: add .endToEndSlot to the test's suite (Tests/EndToEndSlot)"
    }
}

/// A counting semaphore for async code: waiters are resumed first come, first served.
final class SlotLimiter: Sendable {
    private struct State {
        var free: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }
    private let state: Mutex<State>

    init(slots: Int) { state = Mutex(State(free: slots)) }

    func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state -> Bool in
                if state.free > 0 {
                    state.free -= 1
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if granted { continuation.resume() }
        }
    }

    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiting.isEmpty {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
