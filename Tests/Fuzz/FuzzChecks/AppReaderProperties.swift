import AASA
import AppClaims
import Foundation

/// The app reader (issue 26 §2): Mach-O files and their code signature, property lists, associated-domains
/// entries and archives, each from bytes nobody vouches for.
///
/// The input's first byte chooses the reader; the rest is the file. Every reader either answers or throws an
/// `AppClaimsError` with a kind and a message. A claim comes from one of the entries read, at most once each,
/// and names a domain; the findings name codes. An archive is written to a temporary file and read by path,
/// as `check --app` does: no binary it reports lies outside the archive.
enum AppReaderProperties {
    static let appID = "ABCDE12345.com.example.app"

    static func check(_ bytes: [UInt8]) throws(PropertyViolation) {
        var input = FuzzInput(bytes)
        let reader = input.choose(5)
        let file = input.rest()
        do {
            switch reader {
            case 0:
                try checkClaims(AppClaimsParser.binary(file, path: "Fuzz"))
            case 1:
                _ = try PropertyListReader.value(file, what: "the fuzz input")
            case 2:
                try checkClaims(AppClaimsParser.entitlementsFile(file, path: "fuzz.entitlements", appID: appID))
            case 3:
                let entries = String(decoding: file, as: UTF8.self).split(separator: "\n").map(String.init)
                let (claims, findings) = AppClaimsParser.domainClaims(entries, isDevelopment: file.first == 0x31)
                try checkClaims(claims, findings: findings.map(\.code.id), entries: entries)
            default:
                try readArchive(file)
            }
        } catch let violation as PropertyViolation {
            throw violation
        } catch let error as AppClaimsError {
            try PropertyViolation.require(
                !error.kind.name.isEmpty && !error.description.isEmpty, "an error without a kind or message")
        } catch {
            throw PropertyViolation("an error that is not an AppClaimsError: \(error)")
        }
    }

    private static func checkClaims(_ binary: BinaryClaims) throws(PropertyViolation) {
        // Slices that differ (app.slices_differ) each bring their claims, while `entitlements` is one slice's.
        let slicesDiffer = binary.findings.contains { $0.code == .appSlicesDiffer }
        try checkClaims(
            binary.claims, findings: binary.findings.map(\.code.id),
            entries: slicesDiffer ? nil : binary.entitlements[Entitlement.associatedDomains]?.stringArray)
    }

    private static func checkClaims(
        _ claims: [DomainClaim], findings: [String], entries: [String]?
    ) throws(PropertyViolation) {
        try PropertyViolation.require(Set(claims).count == claims.count, "a claim listed twice: \(claims)")
        try PropertyViolation.require(findings.allSatisfy { !$0.isEmpty }, "a finding without a code")
        for claim in claims {
            try PropertyViolation.require(!claim.domain.isEmpty, "a claim without a domain: \(claim)")
            if let entries {
                try PropertyViolation.require(
                    entries.contains(claim.entry), "a claim from no entry: \(claim.entry.debugDescription)")
            }
        }
    }

    private static func readArchive(_ bytes: [UInt8]) throws(AppClaimsError) {
        let path = scratchDirectory + "/fuzz-\(getpid()).ipa"
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            fatalError("cannot write \(path)")
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let report = try AppReader.read(path: path)
        for binary in report.binaries {
            let components = binary.path.split(separator: "/")
            if components.contains("..") || binary.path.hasPrefix("/") {
                fatalError("a binary outside the archive: \(binary.path)")
            }
        }
    }

    /// Memory rather than disk where there is some: the target writes every archive it tries.
    private static let scratchDirectory =
        FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
}
