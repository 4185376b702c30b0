import Yams

/// Turns a Yams parse error into a line and a message that quotes nothing from the file.
///
/// Yams' own descriptions append a snippet of the file (and for duplicate keys the whole text), which could hold a
/// webhook URL or a secret, so only the problem and the position are kept.
enum YAMLSyntaxProblem {
    static func describe(_ error: any Error, text: String) -> (line: Int?, message: String) {
        guard let error = error as? YamlError else { return (nil, "the file could not be parsed") }
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let during = context.map { " (\($0.text))" } ?? ""
            return (mark.line, "\(problem)\(during)")
        case .reader(let problem, let offset, _, _):
            return (offset.map { line(atCharacterOffset: $0, in: text) }, problem)
        case .duplicatedKeysInMapping(let duplicates, let context):
            let keys = duplicates.map { "'\(ConfigurationReader.truncated($0))'" }.joined(separator: ", ")
            return (context.mark.line, "the key \(keys) appears more than once in the same mapping")
        case .dataCouldNotBeDecoded:
            return (nil, "the file is not UTF-8 text")
        default:
            return (nil, "the file could not be parsed")
        }
    }

    private static func line(atCharacterOffset offset: Int, in text: String) -> Int {
        1 + text.prefix(offset).reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
    }
}
