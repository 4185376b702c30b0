/// One value of an entitlements dictionary (or Info.plist), independent of the form it was read from: XML and
/// binary property lists and DER entitlements all read into this, so slices can be compared for equality.
public indirect enum EntitlementValue: Sendable, Hashable {
    case string(String)
    case boolean(Bool)
    case integer(Int64)
    case real(Double)
    case data([UInt8])
    /// Seconds since 1970.
    case date(Double)
    case array([EntitlementValue])
    case dictionary([String: EntitlementValue])

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var boolValue: Bool? {
        if case .boolean(let value) = self { return value }
        return nil
    }

    /// The strings of an array; `nil` when this is not an array of strings only.
    public var stringArray: [String]? {
        guard case .array(let values) = self else { return nil }
        var strings: [String] = []
        for value in values {
            guard let string = value.stringValue else { return nil }
            strings.append(string)
        }
        return strings
    }
}
