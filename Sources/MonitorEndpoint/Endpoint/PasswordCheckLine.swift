import Synchronization

/// Who may start a password check now, who waits and who is refused: the admission policy of the endpoint's
/// password checks, pure (no clock, no threads) so that tests can play any sequence of arrivals and ends.
///
/// The hashing work as a whole is bounded (issue 32 §3: 40 wrong passwords from 40 addresses held every uncached
/// legitimate request 6.9–11.5 s behind their bcrypt checks):
/// - At most `parallelism` checks run at once, one per core.
/// - Two lanes. The *known* lane is for a credential that verified within `AuthAttempts.knownLifetime` (its
///   60 s cache entry expired, or its header is spelled differently): nobody who lacks the password can enter it,
///   since the record it matches is a keyed hash of user, password and stored hash. The *open* lane is everyone
///   else: a new credential, a wrong password, an unknown user.
/// - The open lane runs at most `openParallelism` checks, one core fewer than there are (but at least one): with
///   more than one core, one is kept for the known lane, so a known credential under a flood starts its check at
///   once instead of behind the flood's; on one core it is next, ahead of every open attempt that waits.
/// - At most `openWaiting` open attempts wait (two per open core, so one that waits is answered within about
///   three check times); another is refused at once, without a check (429 with `Retry-After`), however many
///   addresses send them. The known lane waits up to `knownWaiting`; beyond that a known attempt queues as an
///   open one.
///
/// A known record only orders the line; it never lets a request through: the check still decides.
struct PasswordCheckLine: Sendable {
    enum Lane: Sendable, Hashable {
        case known, open
    }

    /// What an arriving attempt does.
    enum Admission: Sendable, Hashable {
        /// Runs its check now.
        case run(Lane)
        /// Waits in `Lane`; `finish` names it when its turn comes.
        case wait(Lane)
        /// Is answered 429 at once, without a check.
        case refuse
    }

    /// What a refused attempt is told to wait before it retries.
    static let busyRetryAfter: Duration = .seconds(1)

    let parallelism: Int
    let openParallelism: Int
    let openWaiting: Int
    let knownWaiting: Int

    private(set) var runningKnown = 0
    private(set) var runningOpen = 0
    /// Waiting tickets, first come first served within a lane.
    private var waitingKnown: [Int] = []
    private var waitingOpen: [Int] = []

    /// The line for `parallelism` cores.
    init(parallelism: Int, knownWaiting: Int = 16) {
        self.parallelism = max(1, parallelism)
        openParallelism = max(1, self.parallelism - 1)
        openWaiting = 2 * openParallelism
        self.knownWaiting = knownWaiting
    }

    var running: Int { runningKnown + runningOpen }
    var waiting: (known: Int, open: Int) { (waitingKnown.count, waitingOpen.count) }

    /// Admits attempt `ticket` in `lane`.
    mutating func arrive(_ ticket: Int, lane: Lane) -> Admission {
        if lane == .known {
            if running < parallelism {
                runningKnown += 1
                return .run(.known)
            }
            if waitingKnown.count < knownWaiting {
                waitingKnown.append(ticket)
                return .wait(.known)
            }
        }
        if running < parallelism, runningOpen < openParallelism {
            runningOpen += 1
            return .run(.open)
        }
        if waitingOpen.count < openWaiting {
            waitingOpen.append(ticket)
            return .wait(.open)
        }
        return .refuse
    }

    /// A check of `lane` ended: the tickets that start now (known ones first), already counted as running.
    mutating func finish(_ lane: Lane) -> [Int] {
        switch lane {
        case .known: runningKnown = max(0, runningKnown - 1)
        case .open: runningOpen = max(0, runningOpen - 1)
        }
        var started: [Int] = []
        while running < parallelism, !waitingKnown.isEmpty {
            started.append(waitingKnown.removeFirst())
            runningKnown += 1
        }
        while running < parallelism, runningOpen < openParallelism, !waitingOpen.isEmpty {
            started.append(waitingOpen.removeFirst())
            runningOpen += 1
        }
        return started
    }
}

/// `PasswordCheckLine` for async callers: `enter` returns once the attempt may run its check (or is refused),
/// `leave` ends it and starts whoever is next.
final class PasswordCheckQueue: Sendable {
    private struct State {
        var line: PasswordCheckLine
        var nextTicket = 0
        var waiting:
            [Int: (lane: PasswordCheckLine.Lane, continuation: CheckedContinuation<PasswordCheckLine.Lane?, Never>)] =
                [:]
    }

    private let state: Mutex<State>

    init(parallelism: Int) {
        state = Mutex(State(line: PasswordCheckLine(parallelism: parallelism)))
    }

    /// The lane the check runs in, or nil when the line is full (answer 429 at once). Pair with `leave`.
    func enter(_ lane: PasswordCheckLine.Lane) async -> PasswordCheckLine.Lane? {
        await withCheckedContinuation { (continuation: CheckedContinuation<PasswordCheckLine.Lane?, Never>) in
            let admission = state.withLock { state -> PasswordCheckLine.Admission in
                let ticket = state.nextTicket
                state.nextTicket &+= 1
                let admission = state.line.arrive(ticket, lane: lane)
                if case .wait(let waitingLane) = admission {
                    // Resumed by `leave` once its turn comes, in the lane it waited in.
                    state.waiting[ticket] = (waitingLane, continuation)
                }
                return admission
            }
            switch admission {
            case .run(let running): continuation.resume(returning: running)
            case .refuse: continuation.resume(returning: nil)
            case .wait: break
            }
        }
    }

    /// Ends a check that `enter` let run in `lane`.
    func leave(_ lane: PasswordCheckLine.Lane) {
        let started = state.withLock { state in
            state.line.finish(lane).compactMap { state.waiting.removeValue(forKey: $0) }
        }
        for (lane, continuation) in started { continuation.resume(returning: lane) }
    }

    /// How many attempts wait, in both lanes.
    var waitingCount: Int { state.withLock { $0.waiting.count } }
}
