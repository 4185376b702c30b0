import AppClaims
import MonitorCore
import MonitorEvaluation

extension ClaimedDomains {
    /// What the app file at `path` claims, as the configuration's `apps[]` takes it
    /// (`ConfigurationSurroundings.readApp`): a file that cannot be read is a problem at the key it concerns, with
    /// the reader's one line (`apps[0].path: Shop.ipa: truncated …`), so `config check` fails and a reload keeps
    /// the running configuration.
    static func configured(path: String, appID: String?) throws(AppFileProblem) -> ClaimedApp {
        let claimed: ClaimedDomains
        do throws(AppClaimsError) {
            claimed = try read(path: path, appID: appID)
        } catch {
            switch error.kind {
            case .appIDRequired: throw AppFileProblem(key: .missingAppID, message: error.description)
            case .invalidAppID: throw AppFileProblem(key: appID == nil ? .path : .appID, message: error.description)
            default: throw AppFileProblem(key: .path, message: error.description)
            }
        }
        return ClaimedApp(
            domains: claimed.domains.map { DomainConfiguration(name: $0.domain, expect: $0.expectations) },
            problems: claimed.problems.map { $0.line })
    }
}
