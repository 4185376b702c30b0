import AASA
import Foundation

/// AASA parse, lint, canonical form and diff (issue 26 §2).
///
/// The input is one document, or two separated by a NUL byte. For each document that parses: its canonical form
/// parses to a document with the same canonical form (a fixed point), and the diff between the document and its
/// re-serialised canonical form is empty. For two documents: the diff says the same meaning exactly when the
/// canonical hashes agree, lists changes exactly when they differ, agrees in both directions on whether behaviour
/// can change, and encodes to JSON.
enum AASAProperties {
    static func check(_ bytes: [UInt8]) throws(PropertyViolation) {
        let parts = bytes.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
        let first = try checkOne(Array(parts[0]))
        guard parts.count == 2, let first, let second = try checkOne(Array(parts[1])) else { return }
        try checkPair(first, second)
    }

    /// Lints `bytes`; for a document, checks its canonical form and returns it.
    private static func checkOne(_ bytes: [UInt8]) throws(PropertyViolation) -> AASADocument? {
        let result = AASALint.lint(bytes)
        try PropertyViolation.require(
            result.findings.allSatisfy { !$0.code.isEmpty }, "a finding without a code")
        guard let document = result.document else { return nil }
        let canonical = CanonicalJSON.bytes(of: document.json)
        let reparsed = AASALint.lint(canonical)
        guard let again = reparsed.document else {
            throw PropertyViolation(
                "the canonical form does not parse: \(reparsed.jsonError.map { "\($0)" } ?? "no document")")
        }
        let canonicalAgain = CanonicalJSON.bytes(of: again.json)
        try PropertyViolation.require(
            canonicalAgain == canonical,
            "the canonical form is not a fixed point:\n\(text(canonical))\nbecame\n\(text(canonicalAgain))")
        let diff = AASADiff.compare(document, again)
        try PropertyViolation.require(
            diff.sameMeaning && diff.changes.isEmpty && !diff.canChangeBehavior,
            "a document differs from its canonical form: \(diff.changes.map(\.summary))")
        try PropertyViolation.require(
            result.canonicalHash == reparsed.canonicalHash, "the canonical hash changes when re-serialised")
        return document
    }

    private static func checkPair(_ a: AASADocument, _ b: AASADocument) throws(PropertyViolation) {
        let forward = AASADiff.compare(a, b)
        let backward = AASADiff.compare(b, a)
        let same = CanonicalJSON.bytes(of: a.json) == CanonicalJSON.bytes(of: b.json)
        try PropertyViolation.require(
            forward.sameMeaning == same && backward.sameMeaning == same,
            "sameMeaning is \(forward.sameMeaning)/\(backward.sameMeaning) for canonical forms that are "
                + (same ? "equal" : "different"))
        try PropertyViolation.require(
            forward.changes.isEmpty == same && backward.changes.isEmpty == same,
            "changes listed for the same meaning, or none for a different one")
        try PropertyViolation.require(
            forward.canChangeBehavior == backward.canChangeBehavior,
            "canChangeBehavior is \(forward.canChangeBehavior) one way and \(backward.canChangeBehavior) the other")
        try PropertyViolation.require(
            forward.changes.allSatisfy { !$0.affectsBehavior || forward.canChangeBehavior },
            "a change affects behaviour but the diff says behaviour cannot change")
        do {
            let encoded = try JSONEncoder().encode(forward)
            let decoded = try JSONDecoder().decode(DocumentDiff.self, from: encoded)
            try PropertyViolation.require(decoded == forward, "the diff does not survive a JSON round trip")
        } catch let violation as PropertyViolation {
            throw violation
        } catch {
            throw PropertyViolation("the diff does not encode: \(error)")
        }
    }

    private static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.prefix(2000), as: UTF8.self)
    }
}
