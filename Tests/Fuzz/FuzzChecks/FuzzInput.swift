/// Reads a fuzz input as a sequence of choices, so that every byte string is a valid structured case and a
/// mutation of one byte changes one choice. Past the end every choice is the first.
struct FuzzInput {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { index >= bytes.count }

    /// The next byte, or 0 past the end.
    mutating func byte() -> UInt8 {
        defer { index += 1 }
        return index < bytes.count ? bytes[index] : 0
    }

    /// A number in `0..<count`.
    mutating func choose(_ count: Int) -> Int {
        Int(byte()) % count
    }

    mutating func flag() -> Bool {
        byte() & 1 == 1
    }

    /// Up to `maximumLength` pieces drawn from `alphabet`, joined.
    mutating func text(from alphabet: [String], maximumLength: Int) -> String {
        (0..<choose(maximumLength + 1)).map { _ in alphabet[choose(alphabet.count)] }.joined()
    }

    /// The bytes not read yet.
    mutating func rest() -> [UInt8] {
        defer { index = bytes.count }
        return index < bytes.count ? Array(bytes[index...]) : []
    }
}
