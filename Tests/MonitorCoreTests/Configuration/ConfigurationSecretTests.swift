import MonitorCore
import MonitorEvaluation
import Testing

@Suite("webhook URLs and secrets from the file, files and the environment")
struct ConfigurationSecretTests {
    static let secret = "whsec_c2VjcmV0LWtleS1ieXRlcw=="  // "secret-key-bytes"
    static let hookURL = "https://hooks.slack.test/services/T000/B000/XXXXSECRETXXXX"

    @Test("url_env and secret_file are resolved, a trailing newline trimmed")
    func resolved() throws {
        let configuration = try ConfigurationTestSupport.load(
            """
            webhooks:
              - name: ops
                url_env: OPS_HOOK
                secret_file: /etc/secret
            """, environment: ["OPS_HOOK": Self.hookURL], files: ["/etc/secret": Self.secret + "\n"])
        let webhook = try #require(configuration.webhooks.first)
        #expect(webhook.url == Self.hookURL)
        #expect(webhook.secret?.text == Self.secret)
        #expect(webhook.secret?.key == Array("secret-key-bytes".utf8))
        #expect(webhook.format == .standard)
        #expect(webhook.events == Set(WebhookEvent.allCases))
        #expect(webhook.domains == nil)
        #expect(!String(describing: webhook).contains("hooks.slack"))
        #expect(!String(describing: webhook.secret!).contains("c2Vj"))
    }

    @Test("url_file and secret_env are resolved; relative files are next to the configuration")
    func resolvedOtherWay() throws {
        let configuration = try ConfigurationLoader.load(
            text: "webhooks:\n  - name: ops\n    url_file: hook.url\n    secret_env: SECRET\n",
            fileName: "/etc/aasa-monitor/config.yml", environment: ["SECRET": Self.secret]
        ) { path in
            guard path == "/etc/aasa-monitor/hook.url" else { throw ConfigurationTestSupport.MissingFile() }
            return Self.hookURL + "\r\n"
        }
        #expect(configuration.webhooks.first?.url == Self.hookURL)
        #expect(configuration.webhooks.first?.secret?.text == Self.secret)
    }

    @Test(
        "a missing variable or file is an error naming the key",
        arguments: [
            ("url_env: NOPE", "webhooks[0].url_env", "the environment variable NOPE is not set"),
            ("url_file: /nope", "webhooks[0].url_file", "cannot read /nope: No such file or directory"),
            ("url_env: EMPTY", "webhooks[0].url_env", "the environment variable EMPTY is empty"),
        ])
    func missing(line: String, keyPath: String, message: String) throws {
        let problems = ConfigurationTestSupport.problems(
            "webhooks:\n  - name: ops\n    \(line)\n", environment: ["EMPTY": ""])
        let problem = try #require(problems.first)
        #expect(problems.count == 1)
        #expect(problem.line == 3)
        #expect(problem.keyPath == keyPath)
        #expect(problem.message == message)
    }

    @Test(
        "secrets must be whsec_ and base64, and only standard webhooks take one",
        arguments: [
            ("secret: not-a-secret-value", "expected whsec_ followed by at least 16 base64"),
            ("secret: whsec_c2hvcnQ=", "expected whsec_ followed by at least 16 base64"),
            ("secret: whsec_%%%not-base64%%%", "expected whsec_ followed by at least 16 base64"),
            ("secret: whsec_c2VjcmV0LWtleS1ieXRlcw==\n    format: slack", "only standard webhooks are signed"),
        ])
    func badSecrets(line: String, message: String) throws {
        let text = "webhooks:\n  - name: ops\n    url: https://hooks.test/x\n    \(line)\n"
        let problem = try #require(ConfigurationTestSupport.problems(text).first)
        #expect(problem.keyPath == "webhooks[0].secret")
        #expect(problem.message.contains(message), "\(problem.message)")
    }

    @Test("secret values and webhook URLs never appear in error text")
    func neverLeaked() {
        let yaml = """
            webhooks:
              - name: a
                url: "hxxps://hooks.slack.test/services/T000/B000/XXXXSECRETXXXX"
              - name: b
                url: https://hooks.test/ok
                secret: whsec_TOPSECRET%%%
              - name: c
                url: https://hooks.test/ok
                format: teams
                secret: whsec_c2VjcmV0LWtleS1ieXRlcw==
              - name: d
                url_file: /etc/hook
                secret_env: S
              - name: e
                url: 12345
            """
        let problems = ConfigurationTestSupport.problems(
            yaml, environment: ["S": "whsec_ENVSECRET%%%"], files: ["/etc/hook": "ftp://FILESECRET\n"])
        #expect(problems.count == 6, "\(problems)")
        let text = ConfigurationErrors(problems: problems).description
        for leaked in ["XXXXSECRETXXXX", "TOPSECRET", "c2VjcmV0", "ENVSECRET", "FILESECRET", "12345"] {
            #expect(!text.contains(leaked), "\(leaked) leaked into: \(text)")
        }
    }
}
