import Foundation

/// Whether `descriptor` has something to read (data, or the peer's close) within `limit`.
///
/// A signal to the calling thread (the suite spawns and reaps processes) ends `poll` early with EINTR: that is no
/// answer yet, so it polls again for what is left of `limit`.
func pollReadable(_ descriptor: Int32, within limit: Duration) -> Bool {
    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    let deadline = ContinuousClock.now + limit
    var ready: Int32
    repeat {
        let left = max(.zero, deadline - ContinuousClock.now)
        ready = poll(&poller, 1, Int32(left / .milliseconds(1)))
    } while ready < 0 && errno == EINTR
    return ready > 0
}
