/// Builds the JSON paths that findings and diffs point at (`$.applinks.details[0].components[2]["/"]`).
///
/// Identifier-like keys use dot notation because that is how people read them; any other key (`/`, `?`, an app
/// ID with dots) uses bracket notation with a JSON-escaped string, so every path is unambiguous.
enum JSONPath {
    static let root = "$"

    static func child(_ parent: String, _ key: String) -> String {
        if isIdentifier(key) { return parent + "." + key }
        return parent + "[" + CanonicalJSON.quoted(key) + "]"
    }

    static func index(_ parent: String, _ index: Int) -> String {
        parent + "[\(index)]"
    }

    private static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            return false
        }
        return key.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                true
            default: false
            }
        }
    }
}
