import MonitorDaemon
import Testing

@Suite("Webhook URLs in text")
struct WebhookURLTextTests {
    @Test(
        "only scheme and host are shown",
        arguments: [
            ("https://hooks.slack.com/services/T00/B00/XXXXSECRET", "https://hooks.slack.com/…"),
            ("https://user:pass@receiver.internal:8443/hook?token=abc", "https://receiver.internal:8443/…"),
            ("http://[::1]:9000/x", "http://[::1]:9000/…"),
            ("not a url", "(webhook URL not shown)"),
        ])
    func shown(url: String, expected: String) {
        #expect(WebhookURLText.shown(url) == expected)
    }

    @Test("the URL, its path, query, long segments and query values are cut out of text that echoes them")
    func scrub() {
        let url = "https://hooks.example.test/services/T0KEN5ecret/B1?key=Qu3ryS3cret&x=1"
        let echoes = [
            "Cannot POST /services/T0KEN5ecret/B1?key=Qu3ryS3cret&x=1",
            "invalid token T0KEN5ecret",
            "key Qu3ryS3cret rejected",
            "Failed to fetch \(url) after 10 ms",
        ]
        for echo in echoes {
            let scrubbed = WebhookURLText.scrub(echo, url: url)
            #expect(!scrubbed.contains("T0KEN5ecret") && !scrubbed.contains("Qu3ryS3cret"), "\(scrubbed)")
        }
        #expect(
            WebhookURLText.scrub("Failed to fetch \(url) after 10 ms", url: url)
                == "Failed to fetch https://hooks.example.test/… after 10 ms")
        #expect(WebhookURLText.scrub("Connection refused", url: url) == "Connection refused")
    }
}
