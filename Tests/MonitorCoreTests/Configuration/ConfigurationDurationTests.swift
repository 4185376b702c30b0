import MonitorCore
import MonitorEvaluation
import Testing

@Suite("durations in the configuration")
struct ConfigurationDurationTests {
    @Test(
        "valid durations read as seconds",
        arguments: [
            ("30s", 30), ("15m", 900), ("24h", 86_400), ("14d", 1_209_600), ("1h30m", 5_400), ("2w", 1_209_600),
            ("1d12h", 129_600),
        ] as [(String, Int64)])
    func valid(text: String, seconds: Int64) throws {
        let configuration = try ConfigurationTestSupport.load("cdn:\n  stale_after: \(text)\n")
        #expect(configuration.cdn.staleAfter == .seconds(seconds))
    }

    @Test(
        "invalid durations say what is wrong",
        arguments: [
            ("15", "a number needs a unit"), ("15x", "expected a duration like"), ("m", "expected a number before 'm'"),
            ("1.5h", "expected a duration like"), ("1h30", "expected a duration like"), ("-5m", "cannot be negative"),
            ("true", "expected a duration like 30s"), ("99999999999999d", "longer than 100 years"),
            ("30m", "must be at least 1h"),
        ])
    func invalid(text: String, message: String) throws {
        let problem = try #require(ConfigurationTestSupport.problems("retention: \(text)\n").first)
        #expect(problem.keyPath == "retention")
        #expect(problem.message.contains(message), "\(problem.message)")
    }

    @Test("repeat_after 0 means never; other durations need a unit even when zero is fine")
    func zero() throws {
        #expect(try ConfigurationTestSupport.load("alerts:\n  repeat_after: 0\n").alerts.repeatAfter == nil)
        #expect(try ConfigurationTestSupport.load("alerts:\n  repeat_after: 0s\n").alerts.repeatAfter == nil)
        #expect(
            try ConfigurationTestSupport.load("alerts:\n  repeat_after: 6h\n").alerts.repeatAfter == .seconds(21_600))
        #expect(
            ConfigurationTestSupport.problems("http:\n  timeout: 0\n").first?.message.contains("at least 1s") == true)
    }
}
