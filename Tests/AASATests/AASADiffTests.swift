import AASA
import Foundation
import Testing

@Suite("Semantic diff")
struct AASADiffTests {
    static let base = #"""
        {"applinks":{"defaults":{"caseSensitive":false},"substitutionVariables":{"food":["pizza"]},
         "details":[{"appIDs":["9JA89QQLNQ.a.b"],"components":[{"/":"/buy/*"},{"/":"/help/*","comment":"help"}]}]},
         "webcredentials":{"apps":["9JA89QQLNQ.a.b"]}}
        """#

    func diff(_ a: String, _ b: String) throws -> DocumentDiff {
        let documentA = try #require(ParserTestSupport.document(a))
        let documentB = try #require(ParserTestSupport.document(b))
        return AASADiff.compare(documentA, documentB)
    }

    func edited(_ replacements: [(String, String)]) -> String {
        replacements.reduce(Self.base) { text, pair in text.replacingOccurrences(of: pair.0, with: pair.1) }
    }

    @Test("whitespace, key order and number spelling are the same meaning")
    func sameMeaning() throws {
        let respelled =
            #"{"webcredentials" : {"apps":["9JA89QQLNQ.a.b"]}, "applinks": {"details":[{"components":[{"/":"/buy/*"},{"comment":"help","/":"/help/*"}],"appIDs":["9JA89QQLNQ.a.b"]}],"substitutionVariables":{"food":["pizza"]},"defaults":{"caseSensitive":false}}}"#
        let result = try diff(Self.base, respelled)
        #expect(result.sameMeaning)
        #expect(result.changes.isEmpty)
        #expect(result.hashA == result.hashB)
    }

    @Test(
        "each kind of edit is reported in the user's terms",
        arguments: [
            (
                [(#""/":"/buy/*"},"#, #""/":"/buy/*"},{"/":"/new/*"},"#)], "rule_added",
                #"$.applinks.details[0].components[1]"#, true
            ),
            ([(#"{"/":"/buy/*"},"#, "")], "rule_removed", #"$.applinks.details[0].components[0]"#, true),
            ([(#""/help/*""#, #""/support/*""#)], "rule_changed", #"$.applinks.details[0].components[1]"#, true),
            (
                [(#""comment":"help""#, #""comment":"support""#)], "rule_changed",
                #"$.applinks.details[0].components[1]"#, false
            ),
            (
                [(#""comment":"help""#, #""unknownKey":1"#)], "rule_changed", #"$.applinks.details[0].components[1]"#,
                false
            ),
            ([(#""caseSensitive":false"#, #""caseSensitive":true"#)], "defaults_changed", "$.applinks.defaults", true),
            (
                [(#"["pizza"]"#, #"["pizza","sushi"]"#)], "variable_changed", "$.applinks.substitutionVariables.food",
                true
            ),
            (
                [(#""food":["pizza"]"#, #""food":["pizza"],"drink":["tea"]"#)], "variable_added",
                "$.applinks.substitutionVariables.drink", true
            ),
            (
                [
                    (
                        #""webcredentials":{"apps":["9JA89QQLNQ.a.b"]}"#,
                        #""webcredentials":{"apps":["9JA89QQLNQ.a.b","9JA89QQLNQ.c.d"]}"#
                    )
                ], "app_added", "$.webcredentials.apps", true
            ),
            (
                [(#""appIDs":["9JA89QQLNQ.a.b"]"#, #""appIDs":["9JA89QQLNQ.c.d"]"#)], "app_removed",
                "$.applinks.details[0]", true
            ),
            (
                [(#""webcredentials""#, #""unknownservice":1,"webcredentials""#)], "service_added", "$.unknownservice",
                false
            ),
            (
                [(#""webcredentials":{"apps":["9JA89QQLNQ.a.b"]}"#, #""appclips":{"apps":[]}"#)], "service_removed",
                "$.webcredentials", true
            ),
        ] as [([(String, String)], String, String, Bool)])
    func edits(replacements: [(String, String)], kind: String, path: String, affects: Bool) throws {
        let result = try diff(Self.base, edited(replacements))
        #expect(!result.sameMeaning)
        let change = try #require(result.changes.first { $0.kind.rawValue == kind }, "\(result.changes)")
        #expect(change.path == path)
        #expect(change.affectsBehavior == affects)
        #expect(result.canChangeBehavior == affects)
    }

    @Test("reordering what a device cannot tell apart changes nothing it can observe")
    func reorderingWithoutBehaviorChange() throws {
        let two = #"""
            {"applinks":{"details":[{"appIDs":["9JA89QQLNQ.a.b"],"components":[{"/":"/a"}]},
              {"appIDs":["9JA89QQLNQ.c.d"],"components":[{"/":"/c"}]}]},
             "webcredentials":{"apps":["9JA89QQLNQ.a.b","9JA89QQLNQ.c.d"]}}
            """#
        let swapped = #"""
            {"applinks":{"details":[{"appIDs":["9JA89QQLNQ.c.d"],"components":[{"/":"/c"}]},
              {"appIDs":["9JA89QQLNQ.a.b"],"components":[{"/":"/a"}]}]},
             "webcredentials":{"apps":["9JA89QQLNQ.c.d","9JA89QQLNQ.a.b"]}}
            """#
        let result = try diff(two, swapped)
        #expect(!result.sameMeaning)
        #expect(!result.canChangeBehavior)
        #expect(result.changes.allSatisfy { !$0.affectsBehavior })
    }

    @Test("reordering two entries for the same app can change behaviour")
    func reorderingSameApp() throws {
        let two = #"""
            {"applinks":{"details":[{"appIDs":["9JA89QQLNQ.a.b"],"components":[{"/":"/x","exclude":true}]},
              {"appIDs":["9JA89QQLNQ.a.b"],"components":[{"/":"/*"}]}]}}
            """#
        let swapped = #"""
            {"applinks":{"details":[{"appIDs":["9JA89QQLNQ.a.b"],"components":[{"/":"/*"}]},
              {"appIDs":["9JA89QQLNQ.a.b"],"components":[{"/":"/x","exclude":true}]}]}}
            """#
        #expect(try diff(two, swapped).canChangeBehavior)
    }

    @Test("inserting a rule at the top is one addition, not a change of every rule")
    func insertionAtTop() throws {
        let result = try diff(Self.base, edited([(#""components":["#, #""components":[{"/":"/first/*"},"#)]))
        #expect(result.changes.map(\.kind) == [.ruleAdded])
        #expect(result.changes.first?.index == 0)
        #expect(result.changes.first?.app == "9JA89QQLNQ.a.b")
    }

    @Test("an added entry for a known app and an unknown key in an entry are told apart")
    func entriesAndUnknownKeys() throws {
        let twoEntries = edited([(#""details":["#, #""details":[{"appIDs":["9JA89QQLNQ.a.b"],"paths":["/x"]},"#)])
        let added = try diff(Self.base, twoEntries)
        #expect(added.changes.contains { $0.kind == .entryAdded })
        let unknown = try diff(Self.base, edited([(#""appIDs":"#, #""note":"x","appIDs":"#)]))
        #expect(unknown.changes.map(\.kind) == [.otherChanged])
        #expect(!unknown.canChangeBehavior)
    }

    @Test("diff JSON uses snake_case keys")
    func codable() throws {
        let result = try diff(Self.base, edited([(#""comment":"help""#, #""comment":"x""#)]))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(result), as: UTF8.self)
        #expect(text.contains(#""same_meaning":false"#))
        #expect(text.contains(#""affects_behavior":false"#))
        #expect(text.contains(#""hash_a":"sha256:"#))
        #expect(text.contains(#""index_before":1"#))
    }
}
