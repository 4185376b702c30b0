import MonitorCore
import MonitorEvaluation
import Testing

@Suite("configuration problems name the file, line and key path")
struct ConfigurationProblemTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var yaml: String
        var line: Int
        var keyPath: String
        var message: String
        var testDescription: String { "\(keyPath): \(message)" }
    }

    static let cases: [Case] = [
        Case(yaml: "intervall: 5m\n", line: 1, keyPath: "intervall", message: "did you mean 'interval'?"),
        Case(yaml: "interval: 15\n", line: 1, keyPath: "interval", message: "a number needs a unit: 15s, 15m"),
        Case(yaml: "interval: 0\n", line: 1, keyPath: "interval", message: "must be at least 1s"),
        Case(yaml: "listen: 9090\n", line: 1, keyPath: "listen", message: "expected a string, found a number \"9090\""),
        Case(yaml: "listen: ::1:9090\n", line: 1, keyPath: "listen", message: "an IPv6 address goes in brackets"),
        Case(
            yaml: "http:\n  concurrency: 0\n", line: 2, keyPath: "http.concurrency",
            message: "expected a number from 1 to 1024, found 0"),
        Case(
            yaml: "http:\n  connect_to:\n    - origin.test:443\n", line: 3, keyPath: "http.connect_to[0]",
            message: "(4 fields), found 2"),
        Case(yaml: "http: [1]\n", line: 1, keyPath: "http", message: "expected a mapping, found a list"),
        Case(
            yaml: "cdn:\n  base_url: http://cdn.test/\n", line: 2, keyPath: "cdn.base_url",
            message: "expected an https URL"),
        Case(
            yaml: "alerts:\n  send_resolved: maybe\n", line: 2, keyPath: "alerts.send_resolved",
            message: "expected true or false, found \"maybe\""),
        Case(
            yaml: """
                domains:
                  - example.com
                  - name: example.org
                    expect:
                      urls:
                        - url: https://example.org/a
                          app: ABCDE12345.com.example
                          decision: matches
                """, line: 8, keyPath: "domains[1].expect.urls[0].decision",
            message: "expected one of match, exclude, no_match, not_match, found \"matches\""),
        Case(
            yaml: "domains:\n  - name: example.com\n    expect:\n      apps: [com.example.app]\n", line: 4,
            keyPath: "domains[0].expect.apps[0]", message: "expected an app ID"),
        Case(
            yaml: "domains:\n  - name: example.com\n    expect:\n      apps: ['mail:ABCDE12345.a']\n", line: 4,
            keyPath: "domains[0].expect.apps[0]", message: "unknown service 'mail'"),
        Case(
            yaml: "domains:\n  - name: example.com\n    expect:\n      urls:\n        - url: /relative\n"
                + "          app: ABCDE12345.a\n", line: 5, keyPath: "domains[0].expect.urls[0].url",
            message: "expected an absolute http or https URL"),
        Case(
            yaml: "domains:\n  - name: example.com\n    expect:\n      urls:\n        - url: https://example.com/\n",
            line: 5, keyPath: "domains[0].expect.urls[0]", message: "missing 'app'"),
        Case(yaml: "domains:\n  - interval: 1m\n", line: 2, keyPath: "domains[0]", message: "missing 'name'"),
        Case(
            yaml: "domains:\n  - https://example.com/\n", line: 2, keyPath: "domains[0]",
            message: "not allowed in a domain name"),
        Case(
            yaml: "domains:\n  - example.com\n  - Example.com\n", line: 3, keyPath: "domains[1]",
            message: "same domain as 'example.com' at config.yml:2"),
        Case(
            yaml: "domains:\n  - name: example.com\n  - name: example.com.\n", line: 3, keyPath: "domains[1].name",
            message: "same domain as 'example.com' at config.yml:2"),
        Case(
            yaml: "domains: example.com\n", line: 1, keyPath: "domains",
            message: "expected a list, found \"example.com\""),
        Case(
            yaml: "webhooks:\n  - name: ops\n    format: slackk\n    url: https://hooks.test/x\n", line: 3,
            keyPath: "webhooks[0].format", message: "expected one of standard, slack, discord, teams"),
        Case(
            yaml: "webhooks:\n  - name: ops\n", line: 2, keyPath: "webhooks[0]",
            message: "missing the url: give one of url, url_file, url_env"),
        Case(
            yaml: "webhooks:\n  - name: ops\n    url: https://hooks.test/x\n    url_env: HOOK\n", line: 4,
            keyPath: "webhooks[0].url_env", message: "give only one of url, url_env"),
        Case(
            yaml: "webhooks:\n  - name: ops\n    url: https://hooks.test/x\n    events: [alert.fired]\n", line: 4,
            keyPath: "webhooks[0].events[0]", message: "expected one of alert.firing, alert.resolved"),
        Case(
            yaml: "webhooks:\n  - name: ops\n    url: https://hooks.test/x\n    domains: [example.net]\n", line: 4,
            keyPath: "webhooks[0].domains[0]", message: "'example.net' is not one of the configured domains"),
        Case(
            yaml: "webhooks:\n  - {name: a, url: 'https://h.test/1'}\n  - {name: a, url: 'https://h.test/2'}\n",
            line: 3, keyPath: "webhooks[1].name", message: "already used by the webhook at config.yml:2"),
        Case(yaml: "domains:\n  - example.com\n - example.org\n", line: 3, keyPath: "", message: "invalid YAML"),
        Case(yaml: "interval: 1m\ninterval: 2m\n", line: 1, keyPath: "", message: "appears more than once"),
    ]

    @Test("each broken configuration reports its line and key path", arguments: cases)
    func brokenConfiguration(_ testCase: Case) throws {
        let problems = ConfigurationTestSupport.problems(testCase.yaml)
        let problem = try #require(problems.first, "no problem reported")
        #expect(problems.count == 1, "\(problems)")
        #expect(problem.file == "config.yml")
        #expect(problem.line == testCase.line)
        #expect(problem.keyPath == testCase.keyPath)
        #expect(problem.message.contains(testCase.message), "\(problem.message)")
    }

    @Test("every problem is reported, not just the first, each on its own line")
    func collectsAll() {
        let problems = ConfigurationTestSupport.problems(
            """
            intervall: 5m
            http:
              timeout: ten seconds
            domains:
              - name: example.com
                colour: blue
            """)
        #expect(problems.map(\.line) == [1, 3, 6])
        #expect(problems.map(\.keyPath) == ["intervall", "http.timeout", "domains[0].colour"])
        let text = ConfigurationErrors(problems: problems).description
        #expect(
            text.split(separator: "\n").first
                == "config.yml:1: intervall: unknown key 'intervall'; did you mean 'interval'?")
    }

    @Test("a key far from every known key lists the allowed keys instead of guessing")
    func unknownWithoutSuggestion() throws {
        let problem = try #require(ConfigurationTestSupport.problems("tls:\n  ciphers: all\n").first)
        #expect(problem.message == "unknown key 'ciphers'; expected one of expiry_warning, expiry_critical")
    }
}

@Suite("a configuration wrong everywhere")
struct ConfigurationFloodTests {
    @Test("lists the first 200 problems and says that more were left out")
    func capped() throws {
        let yaml = "domains:\n" + (0..<500).map { "  - name: bad_\($0)_/\n" }.joined()
        let problems = ConfigurationTestSupport.problems(yaml)
        #expect(problems.count == 201)
        #expect(problems.last?.message.hasPrefix("more than 200 problems") == true)
        #expect(problems.first?.line == 2)
    }
}
