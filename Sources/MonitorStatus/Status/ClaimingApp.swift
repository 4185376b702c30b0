import MonitorCore
import MonitorEvaluation
import MonitorStore

/// An app whose claims a domain is checked for (`apps:` in the daemon's configuration), as `status DOMAIN` names
/// it: even a passing domain says which builds it is checked for.
package struct ClaimingApp: Sendable, Hashable, Encodable {
    package var appID: String
    /// The services it claims of the domain, in the order first claimed.
    package var services: [String]
    /// Each claim: the app file, the binary and the entry (`Shop.ipa Payload/Shop.app/Shop: applinks:shop.test`).
    package var claimedBy: [String]

    enum CodingKeys: String, CodingKey {
        case services
        case appID = "app_id"
        case claimedBy = "claimed_by"
    }

    /// The apps of `claims`, in the order first claimed.
    package static func of(_ claims: [ClaimCheck]) -> [ClaimingApp] {
        var apps: [ClaimingApp] = []
        for claim in claims {
            guard let index = apps.firstIndex(where: { $0.appID == claim.appID }) else {
                apps.append(ClaimingApp(appID: claim.appID, services: [claim.service], claimedBy: [claim.claimedBy]))
                continue
            }
            if !apps[index].services.contains(claim.service) { apps[index].services.append(claim.service) }
            if !apps[index].claimedBy.contains(claim.claimedBy) { apps[index].claimedBy.append(claim.claimedBy) }
        }
        return apps
    }

    /// `9JA89QQLNQ.com.example.shop (applinks, webcredentials)`.
    package var text: String { "\(appID) (\(services.joined(separator: ", ")))" }
}

extension StatusReader {
    /// The apps whose claims the daemon checks `domain` for, from the report of its current run (a run starts anew
    /// when the claims checked change: `RunKey`); `nil` before its first check. Read from the database, not from
    /// the app files, which `status` does not open.
    package func claimingApps(domain: String) async throws -> [ClaimingApp]? {
        guard let run = try await store.runs(domain: domain, limit: 1).first,
            let report = try await store.runReport(id: run.id)
        else { return nil }
        return ClaimingApp.of(report.claims ?? [])
    }
}
