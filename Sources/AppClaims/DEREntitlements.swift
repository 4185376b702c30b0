import SwiftASN1

/// Reads DER entitlements (the code signature's `0xfade7172` blob, or a simulator's `__TEXT,__ents_der`).
///
/// The layout, as Apple's `codesign` writes it and rcodesign documents it:
/// `[APPLICATION 16] { INTEGER 1, [CONTEXT 16] dict }`, where a dict is a SET of SEQUENCE { UTF8String key,
/// value }, an array a SEQUENCE, a string a UTF8String, a boolean a BOOLEAN and a number an INTEGER. swift-asn1
/// bounds the nesting (50 levels) and checks every length against the bytes.
enum DEREntitlements {
    static func dictionary(_ bytes: [UInt8], what: String) throws(AppClaimsError) -> [String: EntitlementValue] {
        do {
            let root = try DER.parse(bytes)
            guard root.identifier == ASN1Identifier(tagWithNumber: 16, tagClass: .application),
                case .constructed(let children) = root.content
            else {
                throw AppClaimsError(.notPropertyList, "\(what) is not DER entitlements ([APPLICATION 16] expected)")
            }
            var iterator = children.makeIterator()
            guard let version = iterator.next(), let body = iterator.next(), iterator.next() == nil,
                (try? Int(derEncoded: version)) == 1,
                body.identifier == ASN1Identifier(tagWithNumber: 16, tagClass: .contextSpecific),
                case .constructed(let wrapped) = body.content
            else {
                throw AppClaimsError(
                    .notPropertyList, "\(what) is not DER entitlements (version 1 and [CONTEXT 16] expected)")
            }
            var inner = wrapped.makeIterator()
            guard let dictionary = inner.next(), inner.next() == nil,
                case .dictionary(let entries) = try value(dictionary, what: what)
            else {
                throw AppClaimsError(.notPropertyList, "\(what) does not hold a dictionary")
            }
            return entries
        } catch let error as AppClaimsError {
            throw error
        } catch {
            throw AppClaimsError(.notPropertyList, "\(what) is not valid DER: \(error)")
        }
    }

    private static func value(_ node: ASN1Node, what: String) throws -> EntitlementValue {
        switch node.identifier {
        case .utf8String:
            return .string(String(try ASN1UTF8String(derEncoded: node)))
        case .boolean:
            return .boolean(try Bool(derEncoded: node))
        case .integer:
            return .integer(try Int64(derEncoded: node))
        case .sequence:
            guard case .constructed(let children) = node.content else { break }
            return .array(try children.map { try value($0, what: what) })
        case .set:
            guard case .constructed(let children) = node.content else { break }
            var entries: [String: EntitlementValue] = [:]
            for pair in children {
                guard pair.identifier == .sequence, case .constructed(let parts) = pair.content else {
                    throw AppClaimsError(.notPropertyList, "\(what) has a dictionary entry that is not a SEQUENCE")
                }
                var iterator = parts.makeIterator()
                guard let key = iterator.next(), let element = iterator.next(), iterator.next() == nil,
                    key.identifier == .utf8String
                else {
                    throw AppClaimsError(.notPropertyList, "\(what) has a dictionary entry that is not (key, value)")
                }
                entries[String(try ASN1UTF8String(derEncoded: key))] = try value(element, what: what)
            }
            return .dictionary(entries)
        default:
            break
        }
        throw AppClaimsError(.notPropertyList, "\(what) holds an unexpected DER element (\(node.identifier))")
    }
}
