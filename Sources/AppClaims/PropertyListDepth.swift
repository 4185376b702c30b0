/// Measures how deep a property list nests without parsing it recursively, so that Foundation's recursive parsers
/// only ever see lists they can handle (`PropertyListReader`).
///
/// Both measures may overestimate (that only refuses an absurd list) but never underestimate what Foundation's
/// parser would recurse through.
enum PropertyListDepth {
    enum Format {
        case xml
        case binary
    }

    /// XML when the first byte after an optional UTF-8 byte-order mark and white space is `<`; binary for `bplist`.
    static func format(of bytes: [UInt8]) -> Format? {
        if bytes.starts(with: Array("bplist".utf8)) { return .binary }
        var index = bytes.starts(with: [0xef, 0xbb, 0xbf]) ? 3 : 0
        while index < bytes.count, [0x20, 0x09, 0x0a, 0x0d].contains(bytes[index]) { index += 1 }
        return index < bytes.count && bytes[index] == UInt8(ascii: "<") ? .xml : nil
    }

    /// The first bytes, escaped, for an error line.
    static func preview(_ bytes: [UInt8]) -> String {
        let head = bytes.prefix(8).map { byte -> String in
            (0x20..<0x7f).contains(byte) && byte != UInt8(ascii: "\\")
                ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
        }
        return bytes.isEmpty ? "nothing (empty)" : "\"" + head.joined() + "\""
    }

    // MARK: XML

    /// The deepest nesting of `<dict>`, `<array>` and `<plist>` elements, scanning tags in one pass.
    ///
    /// Comments, CDATA sections and processing instructions are skipped as Foundation's parser skips them (to
    /// `-->`, `]]>`, `?>`), so a closing tag inside them cannot hide depth. A document type declaration with an
    /// internal subset (`<!DOCTYPE x [ … ]>`) is refused: where it ends is for the parser to decide, and no
    /// property list has one. Stops as soon as `limit` is exceeded.
    static func xmlDepth(_ bytes: [UInt8], limit: Int, what: String) throws(AppClaimsError) -> Int {
        var depth = 0
        var deepest = 0
        var index = 0
        let count = bytes.count
        while index < count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            if matches(bytes, at: index, "<!--") {
                index = end(of: bytes, from: index + 4, terminator: "-->")
            } else if matches(bytes, at: index, "<![CDATA[") {
                index = end(of: bytes, from: index + 9, terminator: "]]>")
            } else if matches(bytes, at: index, "<?") {
                index = end(of: bytes, from: index + 2, terminator: "?>")
            } else if matches(bytes, at: index, "<!") {
                let close = end(of: bytes, from: index + 2, terminator: ">")
                if bytes[index..<min(close, count)].contains(UInt8(ascii: "[")) {
                    throw AppClaimsError(
                        .notPropertyList, "\(what) has a document type with an internal subset, which no plist has")
                }
                index = close
            } else {
                let close = end(of: bytes, from: index + 1, terminator: ">")
                let closing = index + 1 < count && bytes[index + 1] == UInt8(ascii: "/")
                let nameStart = closing ? index + 2 : index + 1
                var nameEnd = nameStart
                while nameEnd < count, !isNameTerminator(bytes[nameEnd]) { nameEnd += 1 }
                let name = bytes[nameStart..<nameEnd]
                if name.elementsEqual("dict".utf8) || name.elementsEqual("array".utf8)
                    || name.elementsEqual("plist".utf8)
                {
                    let selfClosing = close - 2 > index && close <= count && bytes[close - 2] == UInt8(ascii: "/")
                    if closing {
                        depth = max(0, depth - 1)
                    } else if !selfClosing {
                        depth += 1
                        deepest = max(deepest, depth)
                        if deepest > limit { return deepest }
                    }
                }
                index = close
            }
        }
        return deepest
    }

    private static func isNameTerminator(_ byte: UInt8) -> Bool {
        [UInt8(ascii: ">"), UInt8(ascii: "/"), 0x20, 0x09, 0x0a, 0x0d].contains(byte)
    }

    private static func matches(_ bytes: [UInt8], at index: Int, _ text: StaticString) -> Bool {
        let pattern = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        guard index + pattern.count <= bytes.count else { return false }
        for offset in 0..<pattern.count where bytes[index + offset] != pattern[offset] { return false }
        return true
    }

    /// The index just past the first `terminator` at or after `from`, or the end of `bytes`.
    private static func end(of bytes: [UInt8], from: Int, terminator: StaticString) -> Int {
        var index = from
        while index < bytes.count {
            if matches(bytes, at: index, terminator) { return index + terminator.utf8CodeUnitCount }
            index += 1
        }
        return bytes.count
    }

    // MARK: Binary

    /// The deepest chain of container references from the top object of a `bplist00` file, found by an
    /// iterative depth-first walk that remembers each object's height (linear in the references).
    ///
    /// The trailer's sizes, counts and offsets, every object offset and every reference are checked; a cycle is
    /// an error (Foundation refuses it too, after recursing).
    static func binaryDepth(_ bytes: [UInt8], limit: Int, what: String) throws(AppClaimsError) -> Int {
        let list = try BinaryPropertyList(bytes, what: what)
        enum Mark {
            case unvisited, open
            case done(height: Int, size: Int)
        }
        var marks = [Mark](repeating: .unvisited, count: list.objectCount)
        // (object, its children, the next child to visit, the tallest child so far, the values below so far)
        var stack: [(object: Int, children: [Int], next: Int, height: Int, size: Int)] = []
        func push(_ object: Int) throws(AppClaimsError) {
            marks[object] = .open
            stack.append((object, try list.children(of: object), 0, 0, 1))
        }
        func settle(height: Int, size: Int) throws(AppClaimsError) {
            guard !stack.isEmpty else { return }
            let parent = stack.count - 1
            stack[parent].height = max(stack[parent].height, height)
            stack[parent].size += size
            // Shared references expand: `[[x, x], [x, x]]` nested 40 times is 2^40 values once parsed.
            guard stack[parent].size <= maximumExpandedValues else {
                throw AppClaimsError(
                    .tooLarge, "\(what) expands to more than \(maximumExpandedValues) values through shared references")
            }
        }
        try push(list.topObject)
        while let top = stack.last {
            if stack.count > limit + 1 { return stack.count }
            if top.next == top.children.count {
                stack.removeLast()
                let height = top.children.isEmpty ? (list.isContainer(top.object) ? 1 : 0) : top.height + 1
                marks[top.object] = .done(height: height, size: top.size)
                try settle(height: height, size: top.size)
                continue
            }
            let child = top.children[top.next]
            stack[stack.count - 1].next += 1
            switch marks[child] {
            case .unvisited: try push(child)
            case .open: throw AppClaimsError(.malformed, "\(what) refers to itself (object \(child) contains itself)")
            case .done(let height, let size): try settle(height: height, size: size)
            }
        }
        guard case .done(let height, _) = marks[list.topObject] else { return 0 }
        return height
    }

    /// More values than any entitlements or Info.plist holds, once shared references are expanded.
    static let maximumExpandedValues = 1_000_000
}

/// The object table of a binary property list (`bplist00`), read just enough to follow container references.
///
/// Layout (CoreFoundation's `CFBinaryPList.c`): the last 32 bytes are a trailer (offset-integer size,
/// object-reference size, object count, top object, offset-table offset); the offset table gives each object's
/// start; an object's marker byte says its type, containers (`0xA` array, `0xB`/`0xC` sets, `0xD` dictionary)
/// hold a count then references.
struct BinaryPropertyList {
    let bytes: [UInt8]
    let what: String
    let objectCount: Int
    let topObject: Int
    let offsetSize: Int
    let referenceSize: Int
    let offsetTable: Int

    init(_ bytes: [UInt8], what: String) throws(AppClaimsError) {
        self.bytes = bytes
        self.what = what
        guard bytes.count >= 8 + 32, bytes.starts(with: Array("bplist00".utf8)) else {
            throw AppClaimsError(.notPropertyList, "\(what) is not a bplist00 binary property list")
        }
        let trailer = bytes.count - 32
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        let cursor = BinaryCursor(bytes: bytes, bigEndian: true, what: what)
        let count = try cursor.uint64(at: trailer + 8)
        let top = try cursor.uint64(at: trailer + 16)
        let table = try cursor.uint64(at: trailer + 24)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), count >= 1,
            count <= UInt64(bytes.count), top < count, table >= 8, table <= UInt64(trailer),
            count * UInt64(offsetSize) <= UInt64(trailer) - table
        else {
            throw AppClaimsError(
                .malformed,
                "\(what) has an impossible binary plist trailer (\(count) objects, offset table at \(table), "
                    + "integer sizes \(offsetSize)/\(referenceSize))")
        }
        objectCount = Int(count)
        topObject = Int(top)
        offsetTable = Int(table)
    }

    private func integer(at offset: Int, size: Int) throws(AppClaimsError) -> UInt64 {
        guard offset >= 0, size <= 8, offset <= bytes.count - size else {
            throw AppClaimsError(.outOfBounds, "\(what) has an integer at offset \(offset) past its end")
        }
        var value: UInt64 = 0
        for index in 0..<size { value = value << 8 | UInt64(bytes[offset + index]) }
        return value
    }

    private func offset(of object: Int) throws(AppClaimsError) -> Int {
        let offset = try integer(at: offsetTable + object * offsetSize, size: offsetSize)
        guard offset >= 8, offset < UInt64(offsetTable) else {
            throw AppClaimsError(.outOfBounds, "\(what): object \(object) is at offset \(offset), outside the objects")
        }
        return Int(offset)
    }

    func isContainer(_ object: Int) -> Bool {
        guard let offset = try? offset(of: object) else { return false }
        return [0xa, 0xb, 0xc, 0xd].contains(bytes[offset] >> 4)
    }

    /// The objects a container refers to (keys and values of a dictionary); none for other objects.
    func children(of object: Int) throws(AppClaimsError) -> [Int] {
        let start = try offset(of: object)
        let marker = bytes[start]
        let kind = marker >> 4
        guard [0xa, 0xb, 0xc, 0xd].contains(kind) else { return [] }
        var count = UInt64(marker & 0xf)
        var position = start + 1
        if count == 0xf {
            guard position < offsetTable, bytes[position] >> 4 == 0x1 else {
                throw AppClaimsError(.malformed, "\(what): object \(object) has an unreadable element count")
            }
            let size = 1 << Int(bytes[position] & 0xf)
            count = try integer(at: position + 1, size: size)
            position += 1 + size
        }
        let references = kind == 0xd ? count.multipliedReportingOverflow(by: 2) : (partialValue: count, overflow: false)
        guard !references.overflow, references.partialValue <= UInt64(offsetTable - position) / UInt64(referenceSize)
        else {
            throw AppClaimsError(
                .outOfBounds, "\(what): object \(object) claims \(count) elements, past the end of the objects")
        }
        var children: [Int] = []
        children.reserveCapacity(Int(references.partialValue))
        for index in 0..<Int(references.partialValue) {
            let child = try integer(at: position + index * referenceSize, size: referenceSize)
            guard child < UInt64(objectCount) else {
                throw AppClaimsError(
                    .outOfBounds, "\(what): object \(object) refers to object \(child) of \(objectCount)")
            }
            children.append(Int(child))
        }
        return children
    }
}
