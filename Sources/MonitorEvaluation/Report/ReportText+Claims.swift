import Foundation

extension ReportText {
    /// The app claims a check judged, held or not, one line each: `check --app` says what passed, not only what
    /// failed, so that a passing gate can be audited.
    static func claimLines(_ claims: [ClaimCheck]) -> [String] {
        guard !claims.isEmpty else { return [] }
        var lines = ["  claims: \(claims.count { $0.held }) of \(claims.count) held"]
        for claim in claims {
            let state = (claim.held ? "held" : "not held").padding(toLength: 10, withPad: " ", startingAt: 0)
            lines.append("    \(state)\(claim.service) \(claim.appID)\(outcome(claim)) (\(claim.claimedBy))")
        }
        return lines
    }

    /// Where the claim held, or why not.
    private static func outcome(_ claim: ClaimCheck) -> String {
        switch (claim.origin, claim.originOnly, claim.cdn) {
        case (true?, true, _): " on the origin, which devices read directly for this claim"
        case (true?, false, true?): " on the origin and Apple's copy"
        case (true?, false, false?): ": listed on the origin, not on Apple's copy"
        case (true?, false, nil): ": listed on the origin; Apple serves no valid copy"
        case (false?, _, _): ": not listed on the origin"
        case (nil, _, _): ": the origin serves no valid file"
        }
    }
}
