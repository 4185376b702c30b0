import AASA
import TestSupport

/// Random AASA-shaped documents and random, meaning-preserving re-spellings of them.
enum RandomDocuments {
    static let keys = [
        "applinks", "details", "appIDs", "components", "/", "?", "#", "exclude", "comment", "é", "a\"b", "\u{1}", "z",
    ]
    static let strings = [
        "", "/buy/*", "ABCDE12345.com.example.app", "caf\u{e9}", "\"quoted\"", "back\\slash", "tab\t", "😀", "\u{7f}",
    ]

    static func value(depth: Int = 0, using generator: inout SeededGenerator) -> JSONValue {
        let choice = depth > 3 ? Int.random(in: 0..<4, using: &generator) : Int.random(in: 0..<6, using: &generator)
        switch choice {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2:
            return .number(["0", "1", "-2", "1.5", "1e3", "12345678901234567890123"].randomElement(using: &generator)!)
        case 3: return .string(strings.randomElement(using: &generator)!)
        case 4:
            let count = Int.random(in: 0..<4, using: &generator)
            return .array((0..<count).map { _ in value(depth: depth + 1, using: &generator) })
        default:
            var members: [JSONMember] = []
            for key in keys.shuffled(using: &generator).prefix(Int.random(in: 0..<5, using: &generator)) {
                members.append(JSONMember(key: key, value: value(depth: depth + 1, using: &generator)))
            }
            return .object(members)
        }
    }

    /// JSON text for `value` with shuffled keys, random whitespace, random escapes and random number spellings:
    /// everything a re-serializer may change without changing the meaning.
    static func respell(_ value: JSONValue, using generator: inout SeededGenerator) -> String {
        let space = { (generator: inout SeededGenerator) -> String in
            [" ", "", "\n", "\t", "  \r\n"].randomElement(using: &generator)!
        }
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let literal): return respellNumber(literal, using: &generator)
        case .string(let string): return respellString(string, using: &generator)
        case .array(let elements):
            return "[" + space(&generator)
                + elements.map { respell($0, using: &generator) + space(&generator) }.joined(separator: ",") + "]"
        case .object(let members):
            return "{" + space(&generator)
                + members.shuffled(using: &generator).map { member in
                    respellString(member.key, using: &generator) + space(&generator) + ":"
                        + respell(member.value, using: &generator)
                }.joined(separator: "," + space(&generator)) + "}"
        }
    }

    static func respellNumber(_ literal: String, using generator: inout SeededGenerator) -> String {
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: return literal
        case 1: return literal.contains("e") ? literal : literal + "e0"
        default: return literal.contains(".") || literal.contains("e") ? literal : literal + ".000"
        }
    }

    static func respellString(_ string: String, using generator: inout SeededGenerator) -> String {
        var output = "\""
        for scalar in string.unicodeScalars {
            let escape = Bool.random(using: &generator)
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case _ where scalar.value < 0x20 || escape:
                for unit in String(scalar).utf16 {
                    let hex = String(unit, radix: 16)
                    output +=
                        "\\u" + String(repeating: "0", count: 4 - hex.count)
                        + (Bool.random(using: &generator) ? hex : hex.uppercased())
                }
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}
