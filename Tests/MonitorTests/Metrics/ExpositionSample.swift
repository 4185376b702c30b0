/// One sample line of the Prometheus text format, parsed strictly enough to prove the escaping is right.
struct ExpositionSample: Hashable {
    var name: String
    var labels: [String: String]
    var value: Double

    struct Malformed: Error, CustomStringConvertible {
        var line: String
        var description: String { "malformed sample line: \(line)" }
    }

    /// Every sample of an exposition; `# HELP` and `# TYPE` lines are skipped.
    static func parse(_ text: String) throws -> [ExpositionSample] {
        try text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { try parse(line: String($0)) }
    }

    /// The value of the sample with this name and exactly these labels, if any.
    static func value(_ name: String, _ labels: [String: String] = [:], in samples: [ExpositionSample]) -> Double? {
        samples.first { $0.name == name && $0.labels == labels }?.value
    }

    private static func parse(line: String) throws -> ExpositionSample {
        var characters = Substring(line)
        let name = String(characters.prefix { $0 != "{" && $0 != " " })
        characters = characters.dropFirst(name.count)
        var labels: [String: String] = [:]
        if characters.first == "{" {
            characters = characters.dropFirst()
            while characters.first != "}" {
                let key = String(characters.prefix { $0 != "=" })
                characters = characters.dropFirst(key.count)
                guard characters.hasPrefix("=\"") else { throw Malformed(line: line) }
                characters = characters.dropFirst(2)
                var value = ""
                while let character = characters.first, character != "\"" {
                    characters = characters.dropFirst()
                    if character == "\\" {
                        switch characters.first {
                        case "\\": value.append("\\")
                        case "\"": value.append("\"")
                        case "n": value.append("\n")
                        default: throw Malformed(line: line)
                        }
                        characters = characters.dropFirst()
                    } else {
                        value.append(character)
                    }
                }
                guard characters.first == "\"" else { throw Malformed(line: line) }
                characters = characters.dropFirst()
                labels[key] = value
                if characters.first == "," { characters = characters.dropFirst() }
            }
            characters = characters.dropFirst()
        }
        guard characters.first == " ", let value = Double(characters.dropFirst()) else { throw Malformed(line: line) }
        return ExpositionSample(name: name, labels: labels, value: value)
    }
}
