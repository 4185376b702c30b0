import AASA
import AppClaims
import Foundation
import MonitorCore
import MonitorEvaluation

/// What an app's build claims, as the expectations of every domain it claims: the release gate reads the app
/// instead of a person typing `--expect-app` (`check --app`, the daemon's `apps:`).
///
/// Each claim `SERVICE:DOMAIN[?mode=MODE]` of each binary with an app ID becomes "this app ID is listed in that
/// service of DOMAIN's file" (a wildcard is judged where Apple reads it, its base; names become A-labels). A
/// developer- or managed-mode claim is judged on the origin only: devices fetch it from there; a domain with no
/// other claim is then origin-only (`Expectations.originOnly`), Apple's copy deciding nothing. What an entry says
/// that no file can fix (`?mode=developer` in a distribution build) becomes a `ClaimNote` of its domain; what
/// belongs to no domain (an unknown service, a binary without app ID) is a problem of the app.
package struct ClaimedDomains: Sendable {
    /// A problem of the app itself, one line naming the file and the binary.
    package struct Problem: Sendable, Hashable {
        package var isError: Bool
        package var line: String
    }

    /// Each claimed domain with its expectations, in the order first claimed.
    package private(set) var domains: [(domain: String, expectations: Expectations)] = []
    package private(set) var problems: [Problem] = []
    /// Where each domain is in `domains`: an app may make thousands of claims, each merged into its domain.
    private var positions: [String: Int] = [:]

    package init() {}

    /// Reads `path` (`appID` only for an `.entitlements` file) and collects its claims.
    package static func read(path: String, appID: String? = nil) throws(AppClaimsError) -> ClaimedDomains {
        var claimed = ClaimedDomains()
        claimed.add(try AppReader.read(path: path, appID: appID))
        return claimed
    }

    /// Adds what `report` claims; a domain claimed again gets the new expectations merged in.
    package mutating func add(_ report: AppReport) {
        let file = (report.path as NSString).lastPathComponent
        for binary in report.binaries {
            let origin = "\(file) \(binary.path)"
            var domainOfEntry: [String: (domain: String, originOnly: Bool)] = [:]
            for claim in binary.claims {
                // A claimed name that is no domain (`a b`, `evil.test/x?`) is never fetched: it is the app's problem.
                let domain: String
                do throws(DomainNameError) {
                    domain = try DomainName.normalize(claim.readDomain)
                } catch {
                    problems.append(Problem(isError: true, line: "\(origin): \(claim.entry): \(error.description)"))
                    continue
                }
                let originOnly = !claim.readsThroughAppleCDN
                domainOfEntry[claim.entry] = (domain, originOnly)
                guard let appID = binary.appID else { continue }
                let app = ExpectedApp(
                    service: claim.service.rawValue, appID: appID, originOnly: originOnly,
                    claimedBy: "\(origin): \(claim.entry)")
                merge(domain, Expectations(apps: [app], originOnly: originOnly))
            }
            for finding in binary.findings {
                if let entry = finding.entry, let (domain, originOnly) = domainOfEntry[entry] {
                    let note = ClaimNote(
                        code: finding.code, isError: finding.severity == .error, message: finding.message,
                        claimedBy: "\(origin): \(entry)")
                    merge(domain, Expectations(claimNotes: [note], originOnly: originOnly))
                } else if finding.severity != .info {
                    problems.append(
                        Problem(
                            isError: finding.severity == .error,
                            line: "\(origin): \(finding.severity.rawValue) \(finding.code.id): \(finding.message)"
                        ))
                }
            }
        }
    }

    private mutating func merge(_ domain: String, _ expectations: Expectations) {
        if let index = positions[domain] {
            domains[index].expectations.merge(expectations)
        } else {
            positions[domain] = domains.count
            domains.append((domain, expectations))
        }
    }
}
