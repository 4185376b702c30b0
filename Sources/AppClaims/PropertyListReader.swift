import Foundation

/// Reads an XML or binary property list into `EntitlementValue`s through Foundation's `PropertyListSerialization`,
/// after checking that it nests no deeper than `maximumDepth`.
///
/// Foundation's parsers recurse once per level of nesting: a 100,000-deep list overflows the stack and kills the
/// process (issue 22, item 5). `PropertyListDepth` measures the depth first, without recursion, in time linear in
/// the size. Only XML (starting with `<`, after an optional UTF-8 BOM and white space) and binary (`bplist00`)
/// lists are accepted: the OpenStep text format, also recursive, is never handed to Foundation.
public enum PropertyListReader {
    /// Real entitlements and Info.plist files nest a few levels; this leaves room and stays far from the stack.
    public static let maximumDepth = 128
    /// Entitlements are kilobytes; Info.plist tens of kilobytes.
    public static let maximumSize = 4 << 20

    /// The top-level dictionary of `bytes`; `what` names the list in errors ("the entitlements blob").
    public static func dictionary(_ bytes: [UInt8], what: String) throws(AppClaimsError) -> [String: EntitlementValue] {
        guard case .dictionary(let dictionary) = try value(bytes, what: what) else {
            throw AppClaimsError(.notPropertyList, "\(what) is a property list but not a dictionary")
        }
        return dictionary
    }

    /// The root value of `bytes`.
    public static func value(_ bytes: [UInt8], what: String) throws(AppClaimsError) -> EntitlementValue {
        guard bytes.count <= maximumSize else {
            throw AppClaimsError(.tooLarge, "\(what) is \(bytes.count) bytes; over \(maximumSize) bytes are not read")
        }
        let depth: Int
        switch PropertyListDepth.format(of: bytes) {
        case .xml: depth = try PropertyListDepth.xmlDepth(bytes, limit: maximumDepth, what: what)
        case .binary: depth = try PropertyListDepth.binaryDepth(bytes, limit: maximumDepth, what: what)
        case nil:
            throw AppClaimsError(
                .notPropertyList,
                "\(what) is not a property list (neither XML nor binary; starts with \(PropertyListDepth.preview(bytes)))"
            )
        }
        guard depth <= maximumDepth else {
            throw AppClaimsError(.tooDeep, "\(what) nests more than \(maximumDepth) levels deep")
        }
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            throw AppClaimsError(
                .notPropertyList, "\(what) is not a valid property list" + (detail.map { ": \($0)" } ?? ""))
        }
        return try convert(object, what: what)
    }

    /// Foundation's objects as values; bounded recursion (the depth was checked before parsing).
    private static func convert(_ object: Any, what: String) throws(AppClaimsError) -> EntitlementValue {
        // On Linux, booleans come back as `Bool` and numbers as `NSNumber`; `1` also casts to `Bool`, so the
        // dynamic type decides.
        if type(of: object) == Bool.self, let bool = object as? Bool { return .boolean(bool) }
        if let string = object as? String { return .string(string) }
        if let number = object as? NSNumber {
            let kind = String(cString: number.objCType)
            if kind == "c" || kind == "B" { return .boolean(number.boolValue) }
            if kind == "d" || kind == "f" { return .real(number.doubleValue) }
            return .integer(number.int64Value)
        }
        if let data = object as? Data { return .data([UInt8](data)) }
        if let date = object as? Date { return .date(date.timeIntervalSince1970) }
        if let array = object as? [Any] {
            var values: [EntitlementValue] = []
            for element in array { values.append(try convert(element, what: what)) }
            return .array(values)
        }
        if let dictionary = object as? [String: Any] {
            var values: [String: EntitlementValue] = [:]
            for (key, element) in dictionary { values[key] = try convert(element, what: what) }
            return .dictionary(values)
        }
        throw AppClaimsError(.notPropertyList, "\(what) holds a value of unexpected type \(type(of: object))")
    }
}
