import Foundation

extension DomainProbe {
    /// Observes many domains, at most `settings.concurrency` at once, yielding each observation as it completes.
    ///
    /// A sliding window: a new domain starts whenever one finishes, so one slow or hanging domain holds one slot
    /// for at most about twice the timeout and never delays the others. Observations arrive in completion order,
    /// not in the order of `domains`. Stopping iteration early cancels the domains still running.
    public func observeAll(domains: [String], now: @escaping @Sendable () -> Date) -> AsyncStream<DomainObservation> {
        let (stream, continuation) = AsyncStream.makeStream(of: DomainObservation.self)
        let limit = settings.concurrency
        let work = Task {
            await withTaskGroup(of: DomainObservation.self) { group in
                var pending = domains[...]
                for _ in 0..<limit {
                    guard let domain = pending.popFirst() else { break }
                    group.addTask { await observe(domain: domain, now: now) }
                }
                for await observation in group {
                    continuation.yield(observation)
                    if let domain = pending.popFirst(), !Task.isCancelled {
                        group.addTask { await observe(domain: domain, now: now) }
                    }
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in work.cancel() }
        return stream
    }
}
