import Foundation
import HTTPEngine
import MonitorCore
import MonitorEvaluation

/// Fetches one domain's association file the way Apple does, and records what came back.
///
/// Four requests per domain: `.well-known` with Apple's user agent (the answer that counts, with the certificate
/// chain read), the same URL with a plain user agent (to catch a WAF that treats Apple differently; not sent after
/// an answer Apple would not wait for), the legacy root path, and Apple's CDN copy. The origin requests go one after the other on the one TLS connection the first
/// opens, so a domain costs one handshake; the CDN request does not wait for the origin.
///
/// Nothing here throws for network trouble: every failure becomes a `FetchObservation` whose outcome is
/// `.failure`, so a hostile or unreachable domain is an observation like any other. The probe does not own the
/// engine: whoever created it shuts it down.
package struct DomainProbe: Sendable {
    /// The engine all requests go through; sharing it shares its connection cache.
    package let engine: CurlEngine
    /// How to fetch.
    package let settings: ProbeSettings

    /// Creates a probe that sends its requests through `engine`.
    package init(engine: CurlEngine, settings: ProbeSettings) {
        self.engine = engine
        self.settings = settings
    }

    /// The least time the root request gets when the plain one used up the follow-ups' timeout: enough for an answer
    /// on a healthy origin, short enough that a stalling one still ends its check at about twice the timeout.
    static let leastRootTimeout = Duration.seconds(1)

    /// The root request's timeout: what the plain request left of the follow-ups' shared `timeout`, at least
    /// `leastRootTimeout` (never more than `timeout` itself).
    package static func rootTimeout(sharing timeout: Duration, after plainTook: Duration) -> Duration {
        max(min(timeout, leastRootTimeout), timeout - plainTook)
    }

    /// Whether the plain user agent's comparison is worth a request after Apple's answer `first`: not when `first`
    /// timed out or took longer than Apple waits (`appleBudget`). Apple gives up on such an origin whatever the
    /// comparison would show, and the comparison would wait as long again: a 7 s origin took 14 s to check.
    package static func comparesUserAgents(after first: FetchObservation, appleBudget: Duration) -> Bool {
        first.failure?.kind != .timeout && first.totalSeconds <= appleBudget.seconds
    }

    /// Observes one domain: both origin locations, both user agents, and the CDN.
    ///
    /// - Parameters:
    ///   - domain: the normalized domain (lower-case A-label, no port, no trailing dot).
    ///   - now: the clock, read at the start and the end of the check.
    /// - Returns: the fetches (no plain one after a slow first answer); takes at most about twice `settings.timeout`
    ///   (plus `leastRootTimeout`).
    package func observe(domain: String, now: () -> Date) async -> DomainObservation {
        let startedAt = now()
        async let cdn = observeCDN(domain: domain)
        // Decided once for the domain's three origin requests (its URLs are built from the domain, on port 443).
        let originRouted = settings.routesThroughConnectTo(host: domain, port: 443)
        var wellKnown = await fetch(
            settings.request(
                url: settings.wellKnownURL(for: domain), userAgent: settings.appleUserAgent,
                readsCertificate: true),
            viaConnectTo: originRouted)
        // A routed name was resolved as its connect-to target: the resolver cannot say whether `domain` exists.
        if !originRouted { wellKnown = await wellKnown.askingResolver(host: domain, within: settings.timeout) }
        // Only now is the connection up (or known to be unreachable): the follow-ups reuse it, one after the other,
        // and the root request, last, closes it. Sent together, they cost a second handshake whenever the root
        // request ended before the plain one reached libcurl (10% of checks in the paced daemon, measured by the
        // TLS client hellos per domain), and always on an HTTP/1.1 origin, where two requests at once need two
        // connections. One more round trip per check costs no CPU; a handshake does.
        // They share one timeout, so an origin that stalls each answer holds the check's slot about twice the
        // timeout (as when they ran together), not three times: the root request gets what the plain one left.
        // An origin that let Apple's request time out has had the follow-ups' time already: the root request gets
        // the least, so a hanging origin holds its slot about the timeout and a second, not twice the timeout.
        let followUpsStarted = ContinuousClock.now
        var wellKnownPlain: FetchObservation?
        if Self.comparesUserAgents(after: wellKnown, appleBudget: settings.appleBudget) {
            wellKnownPlain = await fetch(
                settings.request(url: settings.wellKnownURL(for: domain), userAgent: settings.plainUserAgent),
                viaConnectTo: originRouted)
        }
        var rootRequest = settings.request(
            url: settings.rootURL(for: domain), userAgent: settings.appleUserAgent, closesConnection: true)
        rootRequest.timeout = Self.rootTimeout(
            sharing: settings.timeout,
            after: wellKnown.failure?.kind == .timeout ? settings.timeout : ContinuousClock.now - followUpsStarted)
        let root = await fetch(rootRequest, viaConnectTo: originRouted)
        let observation = DomainObservation(
            domain: domain,
            startedAt: startedAt,
            finishedAt: startedAt,
            wellKnown: wellKnown,
            wellKnownPlain: wellKnownPlain,
            root: root,
            cdn: await cdn
        )
        return observation.finished(at: now())
    }

    /// Observes only Apple's CDN copy of `domain`, for a re-check once the CDN's cached copy should have expired.
    ///
    /// Plain user agent (the CDN answers a bare client as it answers a device) and no chain read, so the CDN
    /// requests of every domain share one connection to the CDN.
    ///
    /// A failure of the shared connection itself (an HTTP/2 framing error or a reset when many domains'
    /// requests share it; seen with 1000 domains at once) is tried once more on a fresh stream: it says nothing about
    /// the domain, and reporting `cdn.unreachable` for it would blank the domain's verdict for a whole interval.
    package func observeCDN(domain: String) async -> FetchObservation {
        let request = settings.request(
            url: settings.cdnURL(for: domain), userAgent: settings.plainUserAgent, waitsForMultiplexing: true)
        let routed = settings.routesThroughConnectTo(request.url)
        let first = await fetch(request, viaConnectTo: routed)
        guard let failure = first.failure, failure.kind == .other || failure.kind == .connect, !Task.isCancelled
        else { return first }
        return await fetch(request, viaConnectTo: routed)
    }

    /// Performs `request` and turns whatever happens into an observation; `viaConnectTo` says whether a
    /// `connect-to` rule sends it elsewhere (decided by the caller, once per host rather than once per request).
    private func fetch(_ request: HTTPRequest, viaConnectTo: Bool) async -> FetchObservation {
        let userAgent = request.userAgent ?? ""
        do {
            let response = try await engine.perform(request)
            return FetchObservation(response: response, userAgent: userAgent, viaConnectTo: viaConnectTo)
        } catch let failure as HTTPFailure {
            // The engine kept its descriptor reserve: this process's trouble, even if it is over once the check ends.
            if failure.descriptorShortage != nil { LocalResources.noteFault(at: Date()) }
            return FetchObservation(failure: failure, userAgent: userAgent, viaConnectTo: viaConnectTo)
        } catch {
            return FetchObservation(
                url: request.url, userAgent: userAgent, viaConnectTo: viaConnectTo, unexpected: error)
        }
    }
}

extension DomainObservation {
    /// This observation with its end time set.
    fileprivate func finished(at date: Date) -> DomainObservation {
        var copy = self
        copy.finishedAt = date
        return copy
    }
}
