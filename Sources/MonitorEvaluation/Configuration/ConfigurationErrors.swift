/// One problem in a configuration file, pointing at the file, line and key path.
///
/// Messages never carry webhook URLs or secret values: a chat webhook URL is itself a credential.
public struct ConfigurationProblem: Sendable, Hashable, CustomStringConvertible {
    /// The file name as given to the loader.
    public var file: String
    /// The 1-based line, when known.
    public var line: Int?
    /// Where in the document, e.g. `domains[1].expect.urls[0].decision`; empty for the file as a whole.
    public var keyPath: String
    /// What is wrong, and what was expected.
    public var message: String

    public init(file: String, line: Int?, keyPath: String, message: String) {
        self.file = file
        self.line = line
        self.keyPath = keyPath
        self.message = message
    }

    /// `file:line: key.path: message`, the form editors and CI logs link to.
    public var description: String {
        let location = line.map { "\(file):\($0)" } ?? file
        return keyPath.isEmpty ? "\(location): \(message)" : "\(location): \(keyPath): \(message)"
    }
}

/// Every problem found in a configuration file: the loader collects them all instead of stopping at the first.
public struct ConfigurationErrors: Error, Sendable, Hashable, CustomStringConvertible {
    public var problems: [ConfigurationProblem]

    public init(problems: [ConfigurationProblem]) {
        self.problems = problems
    }

    /// One problem per line.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
