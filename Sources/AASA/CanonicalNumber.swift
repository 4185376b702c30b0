/// One spelling per numeric value, computed exactly from the literal's digits (no `Double` rounding).
///
/// The value `±D × 10^E` (D without leading or trailing zeros) is written as an integer when `E ≥ 0` and the
/// result has at most 21 digits, as a plain decimal when the point falls inside or just before the digits (at most
/// six leading zeros), and otherwise in scientific form `d.ddde±x`. So `1`, `1.0`, `1e0` and `10e-1` all become
/// `1`, and `-0` becomes `0`. Exactness matters more than brevity here: two different values must never share a
/// hash, which rounding through `Double` would allow for long literals.
enum CanonicalNumber {
    static func text(of literal: String) -> String {
        var bytes = Array(literal.utf8)[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }

        var digits: [UInt8] = []
        var exponent = 0
        var seenPoint = false
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                seenPoint = true
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                exponent += parseExponent(bytes[(index + 1)...])
                break
            } else {
                digits.append(byte)
                if seenPoint { exponent -= 1 }
            }
            index += 1
        }
        // Strip leading zeros (they change nothing) and trailing zeros (they move into the exponent).
        let firstNonZero = digits.firstIndex { $0 != UInt8(ascii: "0") }
        guard let firstNonZero else { return "0" }
        digits.removeFirst(firstNonZero)
        while digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            exponent = exponent.addingSaturating(1)
        }
        let sign = negative ? "-" : ""
        let count = digits.count
        let digitText = String(decoding: digits, as: UTF8.self)
        let pointPosition = count.addingSaturating(exponent)  // digits before the decimal point
        if exponent >= 0 && pointPosition <= 21 {
            return sign + digitText + String(repeating: "0", count: exponent)
        }
        if exponent < 0 && pointPosition > 0 {
            let split = digitText.index(digitText.startIndex, offsetBy: pointPosition)
            return sign + digitText[..<split] + "." + digitText[split...]
        }
        if exponent < 0 && pointPosition > -6 {
            return sign + "0." + String(repeating: "0", count: -pointPosition) + digitText
        }
        // Clamped to the bound `parseExponent` saturates at, so the canonical text parses back to itself: a fuzzer
        // found `0.1e-405678901234567890123` written as `1e-1000000000001`, which then read as `1e-1000000000000`.
        let scientificExponent = min(max(pointPosition.addingSaturating(-1), -maximumExponent), maximumExponent)
        let mantissa = count == 1 ? digitText : String(digitText.prefix(1)) + "." + digitText.dropFirst()
        let exponentSign = scientificExponent < 0 ? "-" : "+"
        return sign + mantissa + "e" + exponentSign + String(scientificExponent.magnitude)
    }

    /// Where exponents saturate: far beyond any meaningful range, so hostile literals cannot overflow.
    private static let maximumExponent = 1_000_000_000_000

    /// The exponent's value, saturated at `maximumExponent`.
    private static func parseExponent(_ bytes: ArraySlice<UInt8>) -> Int {
        var negative = false
        var value = 0
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "-"): negative = true
            case UInt8(ascii: "+"): break
            default: value = min(value * 10 + Int(byte - UInt8(ascii: "0")), maximumExponent)
            }
        }
        return negative ? -value : value
    }
}

extension Int {
    fileprivate func addingSaturating(_ other: Int) -> Int {
        let (result, overflow) = addingReportingOverflow(other)
        if overflow { return other > 0 ? .max : .min }
        return result
    }
}
