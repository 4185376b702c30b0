import AASA
import AppClaims
import ArgumentParser

/// `aasa-monitor app PATH`: what an app claims, read offline from the build itself (issue 22, item 1).
///
/// Every signed binary (main app, App Clips, extensions) with its app ID, whether it is a development build, and
/// its associated domains as (service, domain, mode). Exit codes follow `lint`: an error finding (a developer-mode
/// claim in a distribution build, an unknown service) is 1; a file that cannot be read — including every hostile
/// one — is 2 with one line naming it.
struct AppCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app",
        abstract: "Print what an app claims: each binary's app ID and associated domains, read offline.",
        discussion: """
            PATH is an .ipa, an .app or .xcarchive folder, a Mach-O executable (thin or universal) or an \
            .entitlements file (XML or binary property list). In an app, the main binary, every App Clip \
            (AppClips/*.app) and every extension (PlugIns/*.appex, Extensions/*.appex) is read from its code \
            signature (or a simulator build's __TEXT,__entitlements section); nothing is unpacked to disk. An \
            .entitlements file names no app: give --app-id TEAMID.bundle.id.

            Prints, per binary, its app ID, whether it is a development build (get-task-allow), and each claim of \
            com.apple.developer.associated-domains with the domain whose file is read for it (*.example.com is \
            read at example.com). A ?mode=developer claim is an error in a distribution build (customers' devices \
            ignore it) and information in a development build. Exit codes: 0 no error finding; 1 an error \
            finding; 2 usage error, or a file that cannot be read (truncated, not an app, hostile).
            """
    )

    @Argument(help: "The .ipa, .app, .xcarchive, Mach-O executable or .entitlements file.", completion: .file())
    var path: String

    @Option(name: .customLong("app-id"), help: "The app ID an .entitlements file is for (TEAMID.bundle.id).")
    var appID: String?

    @Flag(name: .long, help: "Print one JSON document on standard output.")
    var json = false

    func run() throws {
        let report: AppReport
        do {
            report = try AppReader.read(path: path, appID: appID)
        } catch  where error.kind == .appIDRequired {
            throw CommandFailure.usage(
                "\(TerminalText.safe(path)) is an .entitlements file, which names no app: give --app-id "
                    + "TEAMID.bundle.id")
        } catch  where error.kind == .invalidAppID && appID != nil && error.member == nil {
            throw CommandFailure.usage("--app-id: \(TerminalText.safe(error.reason))")
        } catch {
            throw CommandFailure.usage(TerminalText.safe(error.description))
        }
        if json {
            try JSONOutput.print(AppJSONReport(report))
        } else {
            printForTerminal(AppText.render(report))
        }
        if report.binaries.contains(where: { $0.findings.contains { $0.severity == .error } }) {
            throw CommandFailure.negative
        }
    }
}

/// The text form of `app`: one block per binary.
enum AppText {
    static func render(_ report: AppReport) -> String {
        var lines = ["\(report.path) (\(report.kind.rawValue)): \(count(report.binaries.count, "binary", "binaries"))"]
        for binary in report.binaries {
            lines.append("")
            lines.append("\(binary.path) (\(binary.role.rawValue))")
            let team = binary.teamID.map { " (team \($0))" } ?? ""
            lines.append("  app ID: \(binary.appID ?? "none")\(team)")
            lines.append(
                "  build: " + (binary.isDevelopment ? "development (get-task-allow)" : "distribution"))
            if let origin = binary.entitlementsOrigin {
                let architectures =
                    binary.architectures.isEmpty ? "" : "; " + binary.architectures.joined(separator: ", ")
                lines.append("  entitlements: \(describe(origin))\(architectures)")
            }
            if binary.claims.isEmpty { lines.append("  claims: none") }
            for claim in binary.claims {
                var line = "  \(claim.service.rawValue) \(claim.domain)"
                if claim.isWildcard { line += " (read at \(claim.readDomain))" }
                if claim.mode != .standard { line += " ?mode=\(claim.mode.rawValue) (origin only)" }
                lines.append(line)
            }
            for finding in binary.findings {
                lines.append("  \(finding.severity.rawValue) \(finding.code): \(finding.message)")
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func describe(_ origin: EntitlementsOrigin) -> String {
        switch origin {
        case .signatureXML: "code signature (XML)"
        case .signatureDER: "code signature (DER)"
        case .simulatorSection: "simulator section __TEXT,__entitlements"
        case .file: "entitlements file"
        }
    }

    private static func count(_ value: Int, _ one: String, _ many: String) -> String {
        "\(value) \(value == 1 ? one : many)"
    }
}

/// The `app --json` document: snake_case keys, and absent values written as `null` so every binary has the same
/// keys (the JSON interface's rule).
struct AppJSONReport: Encodable {
    var path: String
    var kind: String
    var binaries: [Binary]

    init(_ report: AppReport) {
        path = report.path
        kind = report.kind.rawValue
        binaries = report.binaries.map(Binary.init)
    }

    struct Binary: Encodable {
        var binary: BinaryClaims

        enum CodingKeys: String, CodingKey {
            case path, role, claims, findings, architectures
            case bundleIdentifier = "bundle_identifier"
            case appID = "app_id"
            case teamID = "team_id"
            case development
            case entitlementsOrigin = "entitlements_origin"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(binary.path, forKey: .path)
            try container.encode(binary.role.rawValue, forKey: .role)
            try container.encode(binary.bundleIdentifier, forKey: .bundleIdentifier)
            try container.encode(binary.appID, forKey: .appID)
            try container.encode(binary.teamID, forKey: .teamID)
            try container.encode(binary.isDevelopment, forKey: .development)
            try container.encode(binary.architectures, forKey: .architectures)
            try container.encode(binary.entitlementsOrigin?.rawValue, forKey: .entitlementsOrigin)
            try container.encode(binary.claims.map(Claim.init), forKey: .claims)
            try container.encode(binary.findings.map(Finding.init), forKey: .findings)
        }
    }

    struct Claim: Encodable {
        var entry: String
        var service: String
        var domain: String
        var readDomain: String
        var wildcard: Bool
        var mode: String
        var readsThroughAppleCDN: Bool

        init(_ claim: DomainClaim) {
            entry = claim.entry
            service = claim.service.rawValue
            domain = claim.domain
            readDomain = claim.readDomain
            wildcard = claim.isWildcard
            mode = claim.mode.rawValue
            readsThroughAppleCDN = claim.readsThroughAppleCDN
        }

        enum CodingKeys: String, CodingKey {
            case entry, service, domain, wildcard, mode
            case readDomain = "read_domain"
            case readsThroughAppleCDN = "reads_through_apple_cdn"
        }
    }

    struct Finding: Encodable {
        var finding: ClaimFinding

        enum CodingKeys: String, CodingKey { case code, severity, entry, message }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(finding.code.id, forKey: .code)
            try container.encode(finding.severity.rawValue, forKey: .severity)
            try container.encode(finding.entry, forKey: .entry)
            try container.encode(finding.message, forKey: .message)
        }
    }
}
