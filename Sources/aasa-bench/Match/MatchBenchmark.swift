import AASA
import Foundation

/// Matcher decisions per second on a large realistic document and on adversarial patterns.
enum MatchBenchmark {
    static let app = "ABCDE12345.com.example.app"

    static func run() {
        let realistic = realisticDocument()
        report(
            "realistic document (\(realistic.bytes) bytes, \(realistic.rules) rules in 40 entries)",
            document: realistic.document, urls: realisticURLs())
        let adversarial = adversarialDocument()
        report(
            "adversarial patterns (many *, ?*, variables with wildcard values, a 10 000-value variable used 300 times)",
            document: adversarial,
            urls: adversarialURLs())
        runHostile()
    }

    /// Single hostile decisions from issue 12, in milliseconds and steps: they must stay well under a second.
    static func runHostile() {
        let stars = "/" + String(repeating: "*a", count: 60_000) + "b"
        let longURL = "https://example.com/" + String(repeating: "a", count: 100_000)
        time("120 KB *a*a…b rule, 100 KB URL", paths: [stars], url: longURL + "b")
        let quadratic = "/*" + String(repeating: "a?", count: 3_000) + "b*"
        time("a?a?…b rule that spends the budget (undecided), 100 KB URL", paths: [quadratic], url: longURL)
        var random = SplitMix(seed: 12)
        let pieces = ["?", "*a", "a*b", "?*c", "$(lang)", "/", "x", "ab", "$(digit)", "*b?"]
        let fuzzed = (0..<26_550).map { _ in
            "/" + (0..<Int(random.next() % 8 + 8)).map { _ in pieces[Int(random.next() % 10)] }.joined()
        }
        let mediumURL = "https://example.com/" + String(repeating: "ab/x", count: 250) + "z?q=1"
        time("26,550 fuzzed paths (\(fuzzed.joined().utf8.count / 1024) KB), 1 KB URL", paths: fuzzed, url: mediumURL)
    }

    private static func time(_ name: String, paths: [String], url text: String) {
        let list = paths.map { "\"\($0)\"" }.joined(separator: ",")
        let json = #"{"applinks": {"details": [{"appIDs": ["\#(app)"], "paths": [\#(list)]}]}}"#
        guard let document = AASAParser.parse(Array(json.utf8)).document, let url = try? MatchableURL(text) else {
            fatalError("the hostile document does not parse")
        }
        let matcher = URLMatcher(document: document)
        var result = matcher.decideCountingSteps(url, appID: app)
        let seconds = Measurement.medianWallAndCPUSeconds(runs: 5) {
            result = matcher.decideCountingSteps(url, appID: app)
        }
        print(
            "hostile \(name): \(result.outcome.decision.rawValue) in \(String(format: "%.2f", seconds.cpu * 1000)) ms CPU, "
                + "\(Measurement.format(Double(result.steps))) steps (median of 5 runs)")
    }

    private static func report(_ name: String, document: AASADocument, urls: [MatchableURL]) {
        let compile = Measurement.medianWallAndCPUSeconds {
            for _ in 0..<10 { _ = URLMatcher(document: document) }
        }
        print("match  \(name): compiled in \(String(format: "%.2f", compile.cpu * 100)) ms CPU (median of 7 runs)")
        let matcher = URLMatcher(document: document)
        var decisions = [0, 0, 0]
        let repetitions = 20
        let seconds = Measurement.medianWallAndCPUSeconds {
            for _ in 0..<repetitions {
                for url in urls {
                    switch matcher.decide(url, appID: app, domain: "example.com").decision {
                    case .match: decisions[0] += 1
                    case .exclude: decisions[1] += 1
                    case .noMatch, .undecided: decisions[2] += 1
                    }
                }
            }
        }
        let total = decisions.reduce(0, +)
        let rate = Double(urls.count * repetitions) / seconds.wall
        let cpuRate = Double(urls.count * repetitions) / seconds.cpu
        print(
            "match  \(name): \(Measurement.format(rate)) decisions/s wall, \(Measurement.format(cpuRate)) per "
                + "CPU-second (median of 7 runs; "
                + "mix \(decisions[0] * 100 / total)% match, \(decisions[1] * 100 / total)% exclude, "
                + "\(decisions[2] * 100 / total)% no_match)")
    }

    /// 40 entries of 30 rules each, in the shapes real files use: other apps first, directory rules, query
    /// dictionaries, excludes, `$(lang)_$(region)` prefixes and `caseSensitive: false`; the monitored app is
    /// last, so most decisions walk many rules.
    private static func realisticDocument() -> (document: AASADocument, bytes: Int, rules: Int) {
        var entries: [String] = []
        for entry in 0..<40 {
            let appID = entry == 39 ? app : "ABCDE12345.com.example.app\(entry)"
            var components: [String] = []
            for rule in 0..<30 {
                switch rule % 6 {
                case 0: components.append(##"{"/": "/section\##(rule)/*", "comment": "section \##(rule)"}"##)
                case 1: components.append(##"{"/": "/section\##(rule)/private/*", "exclude": true}"##)
                case 2: components.append(##"{"/": "/p/*", "?": {"id": "?*", "ref\##(rule)": "*"}}"##)
                case 3: components.append(##"{"/": "/$(lang)_$(region)/shop\##(rule)/*"}"##)
                case 4: components.append(##"{"/": "/Campaign\##(rule)/*", "caseSensitive": false, "#": "*"}"##)
                default: components.append(##"{"/": "/item/????/\##(rule)/*.html", "#": "?*"}"##)
                }
            }
            entries.append(##"{"appIDs": ["\##(appID)"], "components": [\##(components.joined(separator: ","))]}"##)
        }
        let json = ##"{"applinks": {"details": [\##(entries.joined(separator: ","))]}}"##
        let result = AASAParser.parse(Array(json.utf8))
        guard let document = result.document else { fatalError("the generated document does not parse") }
        return (document, json.utf8.count, 40 * 30)
    }

    private static func realisticURLs() -> [MatchableURL] {
        var texts: [String] = []
        for index in 0..<500 {
            switch index % 8 {
            case 0: texts.append("https://example.com/section\(index % 30)/article/\(index)")
            case 1: texts.append("https://example.com/section1/private/\(index)")
            case 2: texts.append("https://example.com/p/view?id=\(index)&ref2=mail&utm_source=x")
            case 3: texts.append("https://example.com/en_US/shop3/cart?step=\(index)")
            case 4: texts.append("https://example.com/CAMPAIGN4/spring-\(index)#top")
            case 5: texts.append("https://example.com/item/\(1000 + index)/5/detail.html#reviews")
            case 6: texts.append("https://example.com/unknown/path/\(index)?q=\(index)")
            default: texts.append("https://example.com/")
            }
        }
        return texts.compactMap { try? MatchableURL($0) }
    }

    private static func adversarialDocument() -> AASADocument {
        let stars = String(repeating: "*a", count: 30) + "b"
        let wild = (0..<500).map { "\"v\($0)-*\"" }.joined(separator: ",")
        let big = (0..<10_000).map { "\"w\($0)\"" }.joined(separator: ",")
        let manyUses = Array(repeating: "$(big)", count: 300).joined(separator: "-")
        let json = #"""
            {"applinks": {"substitutionVariables": {"wild": [\#(wild)], "big": [\#(big)]},
             "details": [{"appIDs": ["\#(app)"], "components": [
                {"/": "/\#(stars)"}, {"#": "\#(String(repeating: "?*", count: 40))z"},
                {"/": "/$(wild)$(wild)$(wild)"}, {"?": {"q": "\#(String(repeating: "*x*y", count: 20))"}},
                {"/": "/$(lang)$(lang)$(lang)$(lang)*$(region)"}, {"/": "/\#(manyUses)/x"}]}]}}
            """#
        guard let document = AASAParser.parse(Array(json.utf8)).document else {
            fatalError("the adversarial document does not parse")
        }
        return document
    }

    private static func adversarialURLs() -> [MatchableURL] {
        let longA = String(repeating: "a", count: 1000)
        let texts = [
            "https://example.com/\(longA)#\(String(repeating: "y", count: 1000))",
            "https://example.com/\(longA)b",
            "https://example.com/v1-xv2-yv499-z",
            "https://example.com/?q=\(String(repeating: "xy", count: 500))",
            "https://example.com/enfrdeitxxxxxxxxxxxxxxxxxxxxxxxxxxUS",
            "https://example.com/" + Array(repeating: "w9999", count: 300).joined(separator: "-") + "/x",
        ]
        return texts.compactMap { try? MatchableURL($0) }
    }
}

/// A small seeded generator, so the fuzzed document is the same on every run.
struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
