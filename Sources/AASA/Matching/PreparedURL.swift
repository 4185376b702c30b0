/// The texts of one URL in the forms rules ask for, written into one scratch buffer per decision.
///
/// A rule may want a part encoded or decoded (`percentEncoded`) and with case kept or folded (`caseSensitive`),
/// so there are up to four forms of each part; each is written at most once per decision, on first use. Decoding
/// and folding never lengthen a text, so the buffer is sized up front (`capacity`) and preparing a URL allocates
/// nothing else: the caller takes the buffer from `withUnsafeTemporaryAllocation`, on the stack for usual URLs.
struct PreparedURL {
    /// How a rule wants the text: decoded for `percentEncoded: false`, folded for `caseSensitive: false`.
    struct Form: Hashable, Sendable {
        var decodes: Bool
        var folds: Bool

        var slot: Int { (decodes ? 2 : 0) + (folds ? 1 : 0) }

        init(decodes: Bool, folds: Bool) {
            self.decodes = decodes
            self.folds = folds
        }

        init(slot: Int) {
            self.init(decodes: slot & 2 != 0, folds: slot & 1 != 0)
        }
    }

    /// A query item as split from the encoded query: `name=value`, `value` empty when there is no `=`.
    struct QueryItem {
        var name: UnsafeBufferPointer<UInt32>
        var value: UnsafeBufferPointer<UInt32>
    }

    private enum Part: Int {
        case path, query, fragment, items
    }

    private let url: MatchableURL
    private let buffer: UnsafeMutableBufferPointer<UInt32>
    private let sizes: Sizes
    /// Where each form's region starts in `buffer`, or -1 before the form is first used.
    private var regions = SIMD4<Int32>(repeating: -1)
    private var nextRegion = 0
    /// The length of each (form, part) once written, or -1; for `items`, the number of items.
    private var lengths = SIMD16<Int32>(repeating: -1)

    /// The encoded lengths of the URL's parts, which bound every form of them.
    struct Sizes {
        var path: Int
        var query: Int
        var fragment: Int
        var items: Int

        init(_ url: MatchableURL) {
            path = url.path.utf8.count
            query = url.query?.utf8.count ?? 0
            fragment = url.fragment?.utf8.count ?? 0
            items = url.query.map { PreparedURL.itemCount(of: $0) } ?? 0
        }

        /// One form's region: the path (one more for `/` when empty), the whole query, the fragment, the items'
        /// names and values, and four offsets per item.
        var region: Int { path + 1 + query + fragment + query + 4 * items }
    }

    /// The scratch size for `forms` forms of a URL of these sizes.
    static func capacity(_ sizes: Sizes, forms: Int) -> Int {
        max(1, sizes.region * forms)
    }

    init(_ url: MatchableURL, sizes: Sizes, buffer: UnsafeMutableBufferPointer<UInt32>) {
        self.url = url
        self.sizes = sizes
        self.buffer = buffer
    }

    /// The path (rules P3 and P6: every trailing `/` dropped, and an empty path or what remains of `//` is `/`).
    ///
    /// Normalized after decoding: with `percentEncoded: false` Apple compares the decoded path, where `%2F` is a
    /// `/` like any other, so a trailing `%2F` is as insignificant as a trailing `/` (P3, see `URLMatcher`).
    mutating func path(_ form: Form) -> UnsafeBufferPointer<UInt32> {
        let start = region(form)
        if let known = known(form, .path) { return text(start, known) }
        var count = Self.withBytes(url.path) { write($0, decodes: form.decodes, folds: form.folds, at: start) }
        let slash = UInt32(UInt8(ascii: "/"))
        if count == 0 {
            buffer[start] = slash
            count = 1
        }
        while count > 1 && buffer[start + count - 1] == slash { count -= 1 }
        remember(form, .path, count)
        return text(start, count)
    }

    /// The whole query string; a URL without one behaves as `""`.
    mutating func query(_ form: Form) -> UnsafeBufferPointer<UInt32> {
        let start = region(form) + sizes.path + 1
        if let known = known(form, .query) { return text(start, known) }
        let count = Self.withBytes(url.query ?? "") { write($0, decodes: form.decodes, folds: form.folds, at: start) }
        remember(form, .query, count)
        return text(start, count)
    }

    /// The fragment; a URL without one behaves as `""`.
    mutating func fragment(_ form: Form) -> UnsafeBufferPointer<UInt32> {
        let start = region(form) + sizes.path + 1 + sizes.query
        if let known = known(form, .fragment) { return text(start, known) }
        let count = Self.withBytes(url.fragment ?? "") {
            write($0, decodes: form.decodes, folds: form.folds, at: start)
        }
        remember(form, .fragment, count)
        return text(start, count)
    }

    /// The number of query items, splitting them in `form` on first use.
    mutating func itemCount(_ form: Form) -> Int {
        if let known = known(form, .items) { return known }
        let textStart = region(form) + sizes.path + 1 + sizes.query + sizes.fragment
        let offsetStart = textStart + sizes.query
        let count = Self.withBytes(url.query ?? "") { query in
            split(query, form: form, textStart: textStart, offsetStart: offsetStart)
        }
        remember(form, .items, count)
        return count
    }

    /// Item `index` (after `itemCount(form)`): its name decoded with the form but never folded, since whether
    /// Apple folds item names is not known (no documentation, no observation), and its value in `form`.
    func item(_ index: Int, _ form: Form) -> QueryItem {
        let offsets = Int(regions[form.slot]) + sizes.path + 1 + 2 * sizes.query + sizes.fragment + 4 * index
        let nameStart = Int(buffer[offsets])
        let valueStart = Int(buffer[offsets + 2])
        return QueryItem(
            name: text(nameStart, Int(buffer[offsets + 1]) - nameStart),
            value: text(valueStart, Int(buffer[offsets + 3]) - valueStart))
    }

    /// The number of items `split` finds: pieces between `&`, empty ones left out.
    static func itemCount(of query: String) -> Int {
        var count = 0
        var inItem = false
        for byte in query.utf8 {
            if byte == UInt8(ascii: "&") {
                inItem = false
            } else if !inItem {
                inItem = true
                count += 1
            }
        }
        return count
    }

    /// Splits on `&`, then each item at its first `=`; `+` stays `+` (Apple never turns it into a space).
    private func split(_ query: UnsafeBufferPointer<UInt8>, form: Form, textStart: Int, offsetStart: Int) -> Int {
        var cursor = textStart
        var count = 0
        var itemStart = 0
        while itemStart < query.count {
            var itemEnd = itemStart
            while itemEnd < query.count && query[itemEnd] != UInt8(ascii: "&") { itemEnd += 1 }
            if itemEnd > itemStart {
                var equals = itemStart
                while equals < itemEnd && query[equals] != UInt8(ascii: "=") { equals += 1 }
                let name = UnsafeBufferPointer(rebasing: query[itemStart..<equals])
                let value = UnsafeBufferPointer(rebasing: query[min(equals + 1, itemEnd)..<itemEnd])
                let offsets = offsetStart + 4 * count
                buffer[offsets] = UInt32(cursor)
                cursor += write(name, decodes: form.decodes, folds: false, at: cursor)
                buffer[offsets + 1] = UInt32(cursor)
                buffer[offsets + 2] = UInt32(cursor)
                cursor += write(value, decodes: form.decodes, folds: form.folds, at: cursor)
                buffer[offsets + 3] = UInt32(cursor)
                count += 1
            }
            itemStart = itemEnd + 1
        }
        return count
    }

    private mutating func region(_ form: Form) -> Int {
        let known = regions[form.slot]
        if known >= 0 { return Int(known) }
        let start = nextRegion
        regions[form.slot] = Int32(start)
        nextRegion += sizes.region
        precondition(nextRegion <= buffer.count, "URL scratch sized for fewer forms than the rules use")
        return start
    }

    private func known(_ form: Form, _ part: Part) -> Int? {
        let length = lengths[form.slot * 4 + part.rawValue]
        return length >= 0 ? Int(length) : nil
    }

    private mutating func remember(_ form: Form, _ part: Part, _ length: Int) {
        lengths[form.slot * 4 + part.rawValue] = Int32(length)
    }

    private func text(_ start: Int, _ count: Int) -> UnsafeBufferPointer<UInt32> {
        UnsafeBufferPointer(start: buffer.baseAddress.map { $0 + start }, count: count)
    }

    /// Writes an encoded URL part (ASCII) at `start`, decoded and folded as asked; returns the scalars written.
    ///
    /// Decoding turns `%XX` into bytes and reads them as UTF-8 in place (bytes that are not UTF-8 become U+FFFD,
    /// which no pattern character equals except a wildcard); an escape that is not two hex digits stays as written.
    private func write(_ bytes: UnsafeBufferPointer<UInt8>, decodes: Bool, folds: Bool, at start: Int) -> Int {
        var count = 0
        var index = 0
        var escaped = false
        while index < bytes.count {
            let byte = bytes[index]
            if decodes, byte == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = PercentDecoding.hexValue(bytes[index + 1]),
                let low = PercentDecoding.hexValue(bytes[index + 2])
            {
                buffer[start + count] = UInt32(high << 4 | low)
                escaped = true
                index += 3
            } else {
                buffer[start + count] = UInt32(byte)
                index += 1
            }
            count += 1
        }
        if escaped { count = decodeUTF8InPlace(start, count) }
        if folds {
            for position in start..<(start + count) { buffer[position] = CaseFolding.fold(buffer[position]) }
        }
        return count
    }

    /// Reads `buffer[start..<start + count]` (one byte per element) as UTF-8 and writes the scalars back from
    /// `start`; a scalar never takes more elements than its bytes did, so writing never overtakes reading.
    private func decodeUTF8InPlace(_ start: Int, _ count: Int) -> Int {
        var bytes = ByteReader(buffer: buffer, position: start, end: start + count)
        var parser = Unicode.UTF8.ForwardParser()
        var written = start
        while true {
            switch parser.parseScalar(from: &bytes) {
            case .valid(let encoded):
                buffer[written] = Unicode.UTF8.decode(encoded).value
            case .error:
                buffer[written] = 0xFFFD
            case .emptyInput:
                return written - start
            }
            written += 1
        }
    }

    private struct ByteReader: IteratorProtocol {
        let buffer: UnsafeMutableBufferPointer<UInt32>
        var position: Int
        let end: Int

        mutating func next() -> UInt8? {
            guard position < end else { return nil }
            defer { position += 1 }
            return UInt8(truncatingIfNeeded: buffer[position])
        }
    }

    private static func withBytes<Result>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }
}
