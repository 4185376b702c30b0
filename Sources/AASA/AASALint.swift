/// The lint rules of one document, in the shared language of `aasa.*` finding codes.
///
/// Every rule reports what Apple will actually do with the file and what to change. The rules are written
/// against Apple's documented behaviour and the swcutil probes, and deliberately never require legacy shapes:
/// a components-only file without `paths` or `"apps": []` is valid and gets no finding.
public enum AASALint {
    /// Every finding for a body: the parser's (`origin.*`, `aasa.type`, …), this linter's, and the matcher's
    /// (`aasa.unreachable_rule`, `aasa.exclude_matches_all`). When the JSON is invalid only because of trailing
    /// commas, the rest of the file is linted as if they were absent, so one run shows every problem.
    public static func lint(_ bytes: some Collection<UInt8>) -> ParseResult {
        var result = AASAParser.parse(bytes)
        if let document = result.document {
            result.findings.append(contentsOf: findings(in: document))
        } else if let recovered = result.recoveredDocument {
            result.findings.append(contentsOf: result.recoveredFindings + findings(in: recovered))
        }
        return result
    }

    /// The document-level findings (everything except what the parser itself reports).
    public static func findings(in document: AASADocument) -> [Finding] {
        var findings: [Finding] = []
        guard case .object(let members) = document.json else { return findings }
        if !members.contains(where: { KnownKeys.services.contains($0.key) }) {
            findings.append(
                Finding(
                    code: .aasaNoServices, severity: .error, path: JSONPath.root,
                    message: "no known service at the top level; add \"applinks\", \"webcredentials\", "
                        + "\"appclips\" or \"activitycontinuation\""
                ))
        }
        findings.append(contentsOf: appLinksFindings(document))
        for name in ["webcredentials", "appclips", "activitycontinuation"] {
            guard let apps = document.json[name]?["apps"], case .array(let elements) = apps else { continue }
            let path = JSONPath.child(JSONPath.child(JSONPath.root, name), "apps")
            for (index, element) in elements.enumerated() {
                guard case .string(let appID) = element else { continue }
                findings.append(contentsOf: AppIDLint.findings(for: appID, at: JSONPath.index(path, index)))
            }
        }
        if let applinks = document.applinks {
            findings.append(contentsOf: PatternLint.findings(in: applinks))
        }
        findings.append(contentsOf: MatchingLint.findings(in: document))
        return findings
    }

    private static func appLinksFindings(_ document: AASADocument) -> [Finding] {
        guard let service = document.applinks else { return [] }
        var findings: [Finding] = []
        let path = JSONPath.child(JSONPath.root, "applinks")
        if let apps = service.apps, !apps.isEmpty {
            findings.append(
                Finding(
                    code: .aasaLegacyApps, severity: .warning, path: JSONPath.child(path, "apps"),
                    message: "the legacy \"apps\" array must be empty (iOS 9–12 expect []) and is not read for "
                        + "app IDs; list apps in details[].appIDs and write \"apps\": [] or drop the key"
                ))
        }
        // The entries' objects as written, indexed once: a file of many entries costs one pass.
        var raws: [String: JSONValue] = [:]
        if case .array? = document.json["applinks"]?["details"] {
            for raw in RawEntry.all(in: document) { raws[raw.path] = raw.json }
        }
        for entry in service.details {
            findings.append(contentsOf: entryFindings(entry, raw: raws[entry.jsonPath]))
        }
        return findings
    }

    /// `raw` is the entry's object as written (array form), `nil` for the 2015 dictionary form.
    private static func entryFindings(_ entry: AppLinksEntry, raw: JSONValue?) -> [Finding] {
        var findings: [Finding] = []
        if let raw {
            if case .string(let appID) = raw["appID"] ?? .null {
                findings += AppIDLint.findings(for: appID, at: JSONPath.child(entry.jsonPath, "appID"))
            }
            if case .array(let elements) = raw["appIDs"] ?? .null {
                let idsPath = JSONPath.child(entry.jsonPath, "appIDs")
                for (index, element) in elements.enumerated() {
                    guard case .string(let appID) = element else { continue }
                    findings += AppIDLint.findings(for: appID, at: JSONPath.index(idsPath, index))
                }
            }
        } else if let appID = entry.appIDs.first {
            // The 2015 dictionary form: the key is the app ID.
            findings += AppIDLint.findings(for: appID, at: entry.jsonPath)
        }
        if entry.appIDs.isEmpty {
            findings.append(
                Finding(
                    code: .aasaEmptyAppIDs, severity: .warning, path: entry.jsonPath,
                    message: "this entry lists no app, so no app gets these rules; add the app ID to \"appIDs\" "
                        + "or remove the entry"
                ))
        }
        if entry.paths != nil && entry.components != nil {
            findings.append(
                Finding(
                    code: .aasaMixedFormats, severity: .warning, path: entry.jsonPath,
                    message: "the entry has both \"paths\" and \"components\"; iOS 13+ and macOS 10.15+ ignore "
                        + "\"paths\" here, so keep only \"components\" unless you still support iOS 12"
                ))
        }
        let hasRules = !(entry.paths ?? []).isEmpty || !(entry.components ?? []).isEmpty
        if !hasRules {
            findings.append(
                Finding(
                    code: .aasaNoRules, severity: .warning, path: entry.jsonPath,
                    message: "the entry has no \"components\" (or legacy \"paths\") rules, so it matches no URL; "
                        + "add e.g. \"components\": [{\"/\": \"/*\"}]"
                ))
        }
        return findings
    }
}
