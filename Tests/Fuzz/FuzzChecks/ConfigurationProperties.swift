import MonitorEvaluation

/// The configuration loader (issue 26 §2): every refusal names a line of the file, and nothing crashes, however
/// the YAML uses anchors, aliases, tags or nesting.
///
/// The input's first byte chooses a wrapping: the text as it is, or nested inside hundreds of flow sequences,
/// block mappings or block sequences (deep nesting is hard for a mutator to grow one byte at a time), or
/// behind a chain of aliases that doubles at each anchor (a "billion laughs"). Files the configuration names
/// read as a short secret, except `missing*`, which do not exist; `AASA_FUZZ_*` variables are set.
enum ConfigurationProperties {
    static func check(_ bytes: [UInt8]) throws(PropertyViolation) {
        var input = FuzzInput(bytes)
        let wrapping = input.byte()
        let depth = Int(input.byte()) * 4
        let text = wrap(String(decoding: input.rest(), as: UTF8.self), wrapping: wrapping, depth: depth)
        // Lines as YAML counts them: CR LF, CR, LF, NEL, LS and PS each end one (`\r\n` is one Character). Counted
        // one Character at a time: `filter` would build a String, where a CR and an LF that were apart join into one.
        let breaks: Set<Character> = ["\r\n", "\r", "\n", "\u{85}", "\u{2028}", "\u{2029}"]
        let lineCount = 1 + text.reduce(into: 0) { count, character in count += breaks.contains(character) ? 1 : 0 }
        do {
            _ = try ConfigurationLoader.load(
                text: text, fileName: "fuzz.yml", environment: ["AASA_FUZZ_SECRET": "s3cret", "AASA_FUZZ_URL": "x"],
                readFile: { path in
                    if path.contains("missing") { throw PropertyViolation("no such file") }
                    return "secret-from-\(path.count)\n"
                })
        } catch {
            for problem in error.problems {
                guard let line = problem.line else {
                    throw PropertyViolation("a refusal without a line number: \(problem)")
                }
                try PropertyViolation.require(
                    line >= 1 && line <= lineCount + 1, "a refusal at line \(line) of \(lineCount): \(problem)")
            }
        }
    }

    private static func wrap(_ text: String, wrapping: UInt8, depth: Int) -> String {
        switch wrapping % 8 {
        case 4:
            return "domains: " + String(repeating: "[", count: depth) + text + String(repeating: "]", count: depth)
        case 5:
            return (0..<depth).map { String(repeating: "  ", count: $0) + "k\($0):\n" }.joined()
                + String(repeating: "  ", count: depth) + text
        case 6:
            return "domains:\n" + (0..<depth).map { String(repeating: "  ", count: $0) + "-\n" }.joined()
                + String(repeating: "  ", count: depth) + "- " + text
        case 7:
            let levels = min(depth / 4, 40)
            var lines = ["x0: &a0 [\"" + text.filter { $0.isLetter } + "\", 1]"]
            for level in 1...max(levels, 1) {
                lines.append("x\(level): &a\(level) [*a\(level - 1), *a\(level - 1)]")
            }
            lines.append("domains: *a\(max(levels, 1))")
            return lines.joined(separator: "\n") + "\n"
        default:
            return text
        }
    }
}
