import Foundation
import HTTPEngine
import Testing

@testable import MonitorDaemon
@testable import MonitorEndpoint
@testable import MonitorStore

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite("Badges: /badge/{domain}.svg")
struct APIBadgeTests {
    typealias F = APIFixture

    /// The texts of an SVG document, read by Foundation's XML parser; `nil` when it is not well-formed XML.
    final class SVGTexts: NSObject, XMLParserDelegate {
        var root: String?
        var texts: [String] = []
        var fills: [String] = []
        private var inText = false

        static func read(_ bytes: [UInt8]) -> SVGTexts? {
            let reader = SVGTexts()
            let parser = XMLParser(data: Data(bytes))
            parser.delegate = reader
            return parser.parse() ? reader : nil
        }

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if root == nil { root = name }
            inText = name == "text" || name == "title"
            if name == "rect", let fill = attributes["fill"] { fills.append(fill) }
            if inText { texts.append("") }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if inText { texts[texts.count - 1] += string }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            inText = false
        }
    }

    @Test("a configured domain's badge is valid SVG saying its verdict, cached a minute, and changes colour with it")
    func badges() async throws {
        try await F.with { api in
            var colours: [String: String] = [:]
            for (domain, verdict) in F.verdicts.map({ ($0.key, ListedVerdict($0.value)) }) + [
                ("fresh.example", .notChecked)
            ] {
                let response = try await api.get("/badge/\(domain).svg")
                #expect(response.status == 200)
                #expect(response.headers.first("content-type") == "image/svg+xml; charset=utf-8")
                #expect(response.headers.first("cache-control") == "max-age=60")
                #expect(response.headers.first("x-content-type-options") == "nosniff")
                let svg = try #require(SVGTexts.read(response.body), "\(domain): not well-formed")
                #expect(svg.root == "svg")
                let word = Badge.appearance(verdict).word
                #expect(svg.texts.contains("universal links"))
                #expect(svg.texts.contains(word), "\(domain): \(svg.texts)")
                #expect(svg.texts.first == "universal links of \(domain): \(word)")
                // The clip's white, the label's grey, then the message's colour.
                colours[verdict.rawValue] = svg.fills.dropFirst(2).first
            }
            #expect(colours["ready"] == "#4c1")
            #expect(colours["origin_broken"] == "#e05d44")
            #expect(colours["ready"] != colours["cdn_stale"])
        }
    }

    @Test("every verdict has its own word and a colour")
    func everyVerdict() {
        let words = ListedVerdict.allCases.map { Badge.appearance($0).word }
        #expect(Set(words).count == ListedVerdict.allCases.count)
        for verdict in ListedVerdict.allCases {
            #expect(Badge.appearance(verdict).color.hasPrefix("#"))
        }
    }

    @Test("a domain that is not monitored gets a 404 badge, and no name is echoed")
    func unknownDomain() async throws {
        try await F.with { api in
            for path in ["/badge/other.example.svg", "/badge/ready.example", "/badge/%3Cscript%3E.svg"] {
                let response = try await api.get(path)
                #expect(response.status == 404)
                let svg = try #require(SVGTexts.read(response.body))
                #expect(svg.texts.contains("not monitored"))
                #expect(!String(decoding: response.body, as: UTF8.self).contains("script"))
            }
        }
    }

    @Test("text is escaped: a hostile title still parses and says what it said")
    func escaping() throws {
        let hostile = #"<script>alert("x") & 'y'</script>]]>"#
        let badge = Badge(label: hostile, message: "ready\u{7}", color: "#4c1", title: hostile)
        let svg = try #require(SVGTexts.read(Array(badge.svg.utf8)))
        #expect(svg.texts.first == hostile)
        #expect(svg.texts.contains("ready"))
        #expect(!badge.svg.contains("<script>"))
    }

    @Test("wider words make wider badges")
    func widths() {
        #expect(Badge.textWidth("universal links") > Badge.textWidth("ready"))
        #expect(Badge.textWidth("expectation failed") > Badge.textWidth("cdn stale"))
        #expect(Badge.textWidth("ünïcode") > 0)
    }
}
