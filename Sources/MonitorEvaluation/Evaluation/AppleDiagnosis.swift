import AASA
import Foundation

/// Apple's own diagnosis, believed: `origin.apple_failure` when the CDN's `Apple-Failure-Reason` blames the origin
/// and nothing we observed explains it.
///
/// Apple's fetcher is the only client whose view counts, and it comes from Apple's network with its own user
/// agent, so a geo or IP firewall, or an origin that answers us in time but Apple not, is invisible to our own
/// fetch. When Apple says the origin answered with a bad status, timed out or served bad content, the origin is
/// broken for every device, whatever we saw: the verdict is `origin_broken`, never "wait for Apple". Only an answer
/// Apple cached before the origin's last change (`CachedFailure`) is not believed: it is about the file as it was.
enum AppleDiagnosis {
    static func finding(
        reason: AppleFailureReason, wellKnown: LocationFacts, cdn: CDNFacts, now: Date
    ) -> ReportFinding? {
        guard let family = AppleReasonFamily(reason) else { return nil }
        let seen = whatWeSaw(wellKnown)
        var message: String
        switch family {
        case .httpStatus:
            message =
                "Apple's CDN reports \(reason.raw) for this origin, while \(seen): a firewall, geo or IP rule "
                + "answers Apple's network differently — allow Apple's fetcher (AASA-Bot/1.0.0, Apple's IP ranges) "
                + "on /.well-known/apple-app-site-association"
        case .timeout:
            message =
                "Apple's CDN reports \(reason.raw): \(seen); Apple gave up — make the file answer quickly "
                + "from everywhere (serve it statically, from a CDN), and check that Apple's network can reach it"
        case .address:
            message =
                "Apple's CDN reports \(reason.raw): Apple's resolver sees a private or reserved address for this "
                + "name — publish a public address in public DNS"
        case .content:
            message =
                "Apple's CDN reports \(reason.raw) while \(seen): Apple's fetcher gets different content — check "
                + "what Apple's network and user agent are served"
        }
        if let answer = answerAge(cdn, now: now) { message += " (\(answer))" }
        return ReportFinding(
            code: .originAppleFailure, severity: .error, source: .wellKnown, message: message,
            detail: [
                "apple_failure_reason": .object([
                    "code": .optional(reason.code), "text": .string(reason.text), "raw": .string(reason.raw),
                ]),
                "our_status": .optional(wellKnown.status), "our_seconds": .double(wellKnown.totalSeconds),
            ])
    }

    /// `Apple's answer was cached 5 min ago, expires … (in 55 min): …`: Apple's answer is old news for a change
    /// nobody can date (a firewall rule lifted), so the person should know how old it is and when it goes.
    private static func answerAge(_ cdn: CDNFacts, now: Date) -> String? {
        guard let cachedAt = CachedFailure.cachedAt(cdn, now: now) else { return nil }
        var text = "Apple's answer was cached \(DurationText.describe(now.timeIntervalSince(cachedAt))) ago"
        if let expiry = CDNExpiry.phrase(cdn.expiresAt, now: now) { text += ", \(expiry)" }
        return text + ": a fix made since then shows once Apple fetches again"
    }

    /// `we got 200 in 7.0 s`, `our fetch failed (timeout)`.
    private static func whatWeSaw(_ facts: LocationFacts) -> String {
        let seconds = String(format: "%.1f s", facts.totalSeconds)
        if let status = facts.status { return "our own fetch got \(status) in \(seconds)" }
        return "our own fetch failed (\(facts.error ?? "no answer")) after \(seconds)"
    }
}
