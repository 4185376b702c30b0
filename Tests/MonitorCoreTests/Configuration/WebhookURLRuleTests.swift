import MonitorCore
import MonitorEvaluation
import Testing

/// Webhook URLs: http(s) only, no credentials, no link-local or unique-local literal unless `allow_private`.
@Suite("webhook URL rules")
struct WebhookURLRuleTests {
    static func problems(_ url: String, allowPrivate: Bool = false) -> [ConfigurationProblem] {
        ConfigurationTestSupport.problems(
            "webhooks:\n  - name: ops\n    url: \"\(url)\"\n" + (allowPrivate ? "    allow_private: true\n" : ""))
    }

    @Test(
        "refused, with the reason and without the value",
        arguments: [
            ("file:///etc/passwd", "the scheme file:// is refused"),
            ("gopher://example.com:70/_x", "the scheme gopher:// is refused"),
            ("https://user:token-123@hooks.example.com/", "carries credentials"),
            ("https://token-123@hooks.example.com/", "carries credentials"),
            ("http://169.254.169.254/latest/meta-data", "link-local 169.254.0.0/16"),
            ("http://169.254.0.1:8080/", "link-local 169.254.0.0/16"),
            ("http://2852039166/", "link-local 169.254.0.0/16"),
            ("http://0xa9fea9fe/", "link-local 169.254.0.0/16"),
            ("http://0251.0376.0251.0376/", "link-local 169.254.0.0/16"),
            ("http://169.254.43518/", "link-local 169.254.0.0/16"),
            ("http://[fd00:ec2::254]/", "unique-local fd00::/8"),
            ("http://[FDAB::1]/", "unique-local fd00::/8"),
            ("http://[fe80::1]/", "link-local fe80::/10"),
            ("http://[::ffff:169.254.169.254]/", "link-local 169.254.0.0/16"),
        ])
    func refused(url: String, reason: String) {
        let problems = Self.problems(url)
        #expect(problems.count == 1)
        #expect(problems.first?.keyPath == "webhooks[0].url")
        #expect(problems.first?.message.contains(reason) == true, "\(problems)")
        #expect(problems.first?.message.contains("value not shown") == true)
        #expect(problems.first?.message.contains("token-123") == false)
    }

    @Test(
        "accepted",
        arguments: [
            "https://hooks.slack.com/services/T0/B0/x", "http://10.0.0.5:9093/alerts", "https://[2001:db8::1]/x",
            "https://169.255.0.1/", "https://fc00.example.com/",
        ])
    func accepted(url: String) {
        #expect(Self.problems(url).isEmpty)
    }

    @Test("allow_private lets a link-local receiver through")
    func allowPrivate() {
        #expect(Self.problems("http://169.254.169.254/", allowPrivate: true).isEmpty)
        #expect(Self.problems("http://[fd00::1]/", allowPrivate: true).isEmpty)
    }
}
