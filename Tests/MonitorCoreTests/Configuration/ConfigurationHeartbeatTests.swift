import Foundation
import MonitorCore
import MonitorEvaluation
import Testing

@Suite("Configuration: heartbeat")
struct ConfigurationHeartbeatTests {
    @Test("url_env, every, method and fail_pings are read; every defaults to a minute")
    func reads() throws {
        let configuration = try ConfigurationTestSupport.load(
            "heartbeat: {url_env: PING, every: 30s, method: post, fail_pings: false}\n",
            environment: ["PING": "https://hc-ping.com/5f2a"])
        let heartbeat = try #require(configuration.heartbeat)
        #expect(heartbeat.url == "https://hc-ping.com/5f2a")
        #expect(heartbeat.every == .seconds(30))
        #expect(heartbeat.method == .post)
        #expect(!heartbeat.failPings)
        let plain = try ConfigurationTestSupport.load(
            "heartbeat: {url_file: ping.url}\n", files: ["ping.url": "https://hc-ping.com/5f2a\n"])
        #expect(plain.heartbeat?.every == .seconds(60))
        #expect(plain.heartbeat?.method == .get)
        #expect(plain.heartbeat?.failPings == true)
    }

    @Test(
        "mistakes are named by line and key, never showing the URL",
        arguments: [
            ("heartbeat: {every: 1m}\n", "heartbeat", "missing the url"),
            ("heartbeat: {url: 'ftp://hc-ping.com/secret-uuid'}\n", "heartbeat.url", "value not shown"),
            ("heartbeat: {url: 'https://169.254.169.254/secret-uuid'}\n", "heartbeat.url", "value not shown"),
            ("heartbeat: {url_env: NOPE}\n", "heartbeat.url_env", "not set"),
            ("heartbeat: {url_env: PING, method: put}\n", "heartbeat.method", "expected one of get, post"),
            ("heartbeat: {url_env: PING, evry: 1m}\n", "heartbeat.evry", "did you mean 'every'"),
        ])
    func problems(yaml: String, key: String, message: String) throws {
        let problems = ConfigurationTestSupport.problems(
            yaml, environment: ["PING": "https://hc-ping.com/5f2a"])
        let problem = try #require(problems.first)
        #expect(problem.line == 1)
        #expect(problem.keyPath == key)
        #expect(problem.message.contains(message), "\(problem.message)")
        #expect(!problem.message.contains("secret-uuid"))
    }
}
