import AASA
import Testing

@Suite("Lint rules")
struct AASALintTests {
    /// Each row: a document and exactly the `code@path` findings it must produce, in order.
    static let cases: [(String, [String])] = [
        // Valid modern files: no findings, no `paths` or `"apps": []` required.
        (#"{"applinks":{"details":[{"appIDs":["9JA89QQLNQ.com.example.app"],"components":[{"/":"/buy/*"}]}]}}"#, []),
        (#"{"webcredentials":{"apps":["9JA89QQLNQ.com.example.app"]}}"#, []),
        (#"{"applinks":{"apps":[],"details":[{"appID":"9JA89QQLNQ.com.example.app","paths":["/a/*","NOT /b"]}]}}"#, []),
        (#"{"applinks":{"details":{"9JA89QQLNQ.com.example.app":{"paths":["*"]}}}}"#, []),
        (
            #"{"applinks":{"substitutionVariables":{"food":["pizza"]},"details":[{"appIDs":["9JA89QQLNQ.a.b"],"components":[{"/":"/$(lang)_$(region)/$(food)/"}]}]}}"#,
            []
        ),
        // Structure.
        (#"{}"#, ["aasa.no_services@$"]),
        (#"{"applink":{}}"#, ["aasa.unknown_key@$.applink", "aasa.no_services@$"]),
        (#"[]"#, ["aasa.type@$"]),
        (#"{"applinks":[]}"#, ["aasa.type@$.applinks"]),
        (#"{"applinks":{"details":"x"}}"#, ["aasa.type@$.applinks.details"]),
        (
            #"{"applinks":{"details":[{"appIDs":"9JA89QQLNQ.a.b","components":[]}]}}"#,
            [
                "aasa.type@$.applinks.details[0].appIDs", "aasa.empty_app_ids@$.applinks.details[0]",
                "aasa.no_rules@$.applinks.details[0]",
            ]
        ),
        (
            #"{"applinks":{"details":[{"appIDs":["9JA89QQLNQ.a.b"],"components":[{"/":"/a","exclude":"true"}]}]}}"#,
            [#"aasa.type@$.applinks.details[0].components[0].exclude"#]
        ),
        (#"{"webcredentials":{"apps":["9JA89QQLNQ.a.b",7]}}"#, ["aasa.type@$.webcredentials.apps[1]"]),
        // Unknown keys, with suggestions.
        (
            #"{"applinks":{"details":[{"appIDs":["9JA89QQLNQ.a.b"],"components":[{"/":"/a","casesensitive":false,"exlude":true}]}]}}"#,
            [
                #"aasa.unknown_key@$.applinks.details[0].components[0].casesensitive"#,
                #"aasa.unknown_key@$.applinks.details[0].components[0].exlude"#,
            ]
        ),
        (
            #"{"applinks":{"detail":[],"default":{}}}"#,
            ["aasa.unknown_key@$.applinks.detail", "aasa.unknown_key@$.applinks.default"]
        ),
        (
            #"{"applinks":{"details":[{"appIDs":["9JA89QQLNQ.a.b"],"path":["/a"]}]}}"#,
            ["aasa.unknown_key@$.applinks.details[0].path", "aasa.no_rules@$.applinks.details[0]"]
        ),
        (#"{"futureservice":{"x":1},"webcredentials":{"apps":[]}}"#, []),
        // App IDs.
        (
            #"{"webcredentials":{"apps":["9JA89QQLNQ.com.example.app "]}}"#,
            ["aasa.appid_format@$.webcredentials.apps[0]"]
        ),
        (#"{"webcredentials":{"apps":["ABCDE1234.com.example.app"]}}"#, ["aasa.appid_format@$.webcredentials.apps[0]"]),
        (
            #"{"webcredentials":{"apps":["com.example.app.9JA89QQLNQ"]}}"#,
            ["aasa.appid_format@$.webcredentials.apps[0]"]
        ),
        (#"{"webcredentials":{"apps":["9JA89QQLNQ"]}}"#, ["aasa.appid_format@$.webcredentials.apps[0]"]),
        (
            #"{"webcredentials":{"apps":["9JA89QQLN_.com.example.app"]}}"#,
            ["aasa.appid_format@$.webcredentials.apps[0]"]
        ),
        (#"{"webcredentials":{"apps":["9JA89QQLNQ.com.exa_mple"]}}"#, ["aasa.appid_format@$.webcredentials.apps[0]"]),
        (
            #"{"webcredentials":{"apps":["TEAMID.com.example.app"]}}"#,
            ["aasa.appid_placeholder@$.webcredentials.apps[0]"]
        ),
        (
            #"{"webcredentials":{"apps":["XXXXXXXXXX.com.example.app"]}}"#,
            ["aasa.appid_placeholder@$.webcredentials.apps[0]"]
        ),
        (
            #"{"webcredentials":{"apps":["ABCDE12345.com.example.app"]}}"#,
            ["aasa.appid_placeholder@$.webcredentials.apps[0]"]
        ),
        (
            #"{"webcredentials":{"apps":["1234567891.com.example.app"]}}"#,
            ["aasa.appid_numeric_prefix@$.webcredentials.apps[0]"]
        ),
        (
            #"{"applinks":{"details":[{"appID":"9JA89QQLNQ.a b","paths":["*"]}]}}"#,
            ["aasa.appid_format@$.applinks.details[0].appID"]
        ),
        // Formats and rules.
        (
            #"{"applinks":{"details":[{"appIDs":["9JA89QQLNQ.a.b"],"paths":["*"],"components":[{"/":"*"}]}]}}"#,
            ["aasa.mixed_formats@$.applinks.details[0]"]
        ),
        (
            #"{"applinks":{"details":[{"appIDs":["9JA89QQLNQ.a.b"],"components":[{"?":{"id":1}}]}]}}"#,
            [#"aasa.query_not_string@$.applinks.details[0].components[0]["?"].id"#]
        ),
        (
            #"{"applinks":{"details":[{"appIDs":["9JA89QQLNQ.a.b"],"components":[{"/":"/$(fod)/*"}]}],"substitutionVariables":{"food":["a"]}}}"#,
            [#"aasa.undefined_variable@$.applinks.details[0].components[0]["/"]"#]
        ),
        (
            #"{"applinks":{"defaults":{"/":"/$(nope)"},"details":[]}}"#,
            [#"aasa.undefined_variable@$.applinks.defaults["/"]"#]
        ),
        (#"{"applinks":{"apps":["9JA89QQLNQ.a.b"],"details":[]}}"#, ["aasa.legacy_apps@$.applinks.apps"]),
        (
            #"{"applinks":{"details":[{"appIDs":["9JA89QQLNQ.a.b"],"paths":["NOT/private/*","/*"]}]}}"#,
            ["aasa.not_without_space@$.applinks.details[0].paths[0]"]
        ),
        (
            #"{"applinks":{"details":[{"appIDs":["9JA89QQLNQ.a.b"],"paths":["/p?id=*","/#/market/*"]}]}}"#,
            ["aasa.query_in_path@$.applinks.details[0].paths[0]", "aasa.query_in_path@$.applinks.details[0].paths[1]"]
        ),
        (
            #"{"applinks":{"details":[{"appIDs":["9JA89QQLNQ.a.b"],"components":[{"/":"/#/market/*"}]}]}}"#,
            [#"aasa.query_in_path@$.applinks.details[0].components[0]["/"]"#]
        ),
        (#"{"webcredentials":{"apps":[]},"webcredentials":{"apps":[]}}"#, ["aasa.duplicate_key@$.webcredentials"]),
        // Body level.
        ("\u{FEFF}{\"webcredentials\":{\"apps\":[]}}", ["origin.bom@-"]),
        ("<html>", ["origin.json@-"]),
        ("", ["origin.json@-"]),
        (#"{"webcredentials":{"apps":[]}} trailing"#, ["origin.json@-"]),
        (
            #"{"applinks":{"details":[{"appIDs":["1234567891.a.b"],"paths":["*"],}]}}"#,
            ["origin.json@-", "aasa.appid_numeric_prefix@$.applinks.details[0].appIDs[0]"]
        ),
    ]

    @Test("each document produces exactly its findings", arguments: cases)
    func findings(text: String, expected: [String]) {
        #expect(ParserTestSupport.codes(text) == expected)
    }

    @Test("unknown keys name the key that was probably meant")
    func suggestions() {
        let text =
            #"{"applinks":{"details":[{"appIDs":["9JA89QQLNQ.a.b"],"components":[{"casesensitive":false,"exlude":true,"Query":"a"}]}]}}"#
        let messages = ParserTestSupport.lint(text).map(\.message)
        #expect(messages.count == 3)
        #expect(messages[0].contains(#"did you mean "caseSensitive"?"#))
        #expect(messages[1].contains(#"did you mean "exclude"?"#))
        #expect(messages[2].contains(#"did you mean "?"?"#))
    }

    @Test("app ID messages say what to write instead")
    func appIDMessages() {
        let swapped = ParserTestSupport.lint(#"{"webcredentials":{"apps":["com.example.app.9JA89QQLNQ"]}}"#)
        #expect(swapped.first?.message.contains(#"write "9JA89QQLNQ.com.example.app""#) == true)
        let spaced = ParserTestSupport.lint(#"{"webcredentials":{"apps":[" 9JA89QQLNQ.com.example.app\n"]}}"#)
        #expect(spaced.first?.message.contains(#"write "9JA89QQLNQ.com.example.app""#) == true)
    }

    @Test("every finding has a message and its code's documented severity")
    func severities() {
        let text =
            #"{"applinks":{"apps":["x"],"details":[{"appIDs":["bad"],"paths":["*"],"components":[{"?":{"a":true},"x":1}]}]}}"#
        for finding in ParserTestSupport.lint(text) {
            #expect(!finding.message.isEmpty)
            #expect(finding.severity == finding.findingCode.severity)
            switch finding.code {
            case "aasa.appid_format", "aasa.query_not_string", "aasa.type": #expect(finding.severity == .error)
            default: #expect(finding.severity == .warning)
            }
        }
    }

    @Test("the 2015 dictionary form of details becomes one entry per app")
    func dictionaryDetails() throws {
        let document = try #require(
            ParserTestSupport.document(
                #"{"applinks":{"details":{"9JA89QQLNQ.a.b":{"paths":["/x"]},"9JA89QQLNQ.c.d":{"paths":["/y"]}}}}"#))
        let entries = try #require(document.applinks?.details)
        #expect(entries.map(\.appIDs) == [["9JA89QQLNQ.a.b"], ["9JA89QQLNQ.c.d"]])
        #expect(entries.map(\.paths) == [["/x"], ["/y"]])
        #expect(entries[0].jsonPath == #"$.applinks.details["9JA89QQLNQ.a.b"]"#)
    }

    @Test("appID and appIDs combine without repeating an app")
    func appIDAndAppIDs() throws {
        let document = try #require(
            ParserTestSupport.document(
                #"{"applinks":{"details":[{"appID":"9JA89QQLNQ.a.b","appIDs":["9JA89QQLNQ.c.d","9JA89QQLNQ.a.b"],"paths":["*"]}]}}"#
            ))
        #expect(document.applinks?.details.first?.appIDs == ["9JA89QQLNQ.c.d", "9JA89QQLNQ.a.b"])
    }

    @Test("a query dictionary with a non-string value is disregarded")
    func disregardedQuery() throws {
        let document = try #require(
            ParserTestSupport.document(
                #"{"applinks":{"details":[{"appIDs":["9JA89QQLNQ.a.b"],"components":[{"?":{"a":"1","b":false}},{"?":{"a":"1"}},{"?":"x=1"}]}]}}"#
            ))
        let queries = document.applinks?.details.first?.components?.map(\.query)
        #expect(queries == [.disregarded, .items([QueryItemRule(name: "a", pattern: "1")]), .string("x=1")])
    }

    @Test("the last of duplicate keys gives the meaning")
    func lastDuplicateWins() throws {
        let document = try #require(
            ParserTestSupport.document(
                #"{"webcredentials":{"apps":["9JA89QQLNQ.a.b"]},"webcredentials":{"apps":["9JA89QQLNQ.c.d"]}}"#))
        #expect(document.webcredentials?.apps == ["9JA89QQLNQ.c.d"])
    }
}
