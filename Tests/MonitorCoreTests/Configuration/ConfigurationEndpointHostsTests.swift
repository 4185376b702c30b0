import MonitorCore
import MonitorEvaluation
import Testing

@Suite("endpoint.hosts")
struct ConfigurationEndpointHostsTests {
    @Test("names are read normalized (lower case, no trailing dot, A-labels); none by default")
    func names() throws {
        let configuration = try ConfigurationTestSupport.load(
            "endpoint:\n  hosts: [Status.Example.com., monitor.internal, bücher.example]\n")
        #expect(configuration.endpoint.hosts == ["status.example.com", "monitor.internal", "xn--bcher-kva.example"])
        #expect(try ConfigurationTestSupport.load("listen: 127.0.0.1:0\n").endpoint.hosts == [])
    }

    @Test(
        "a URL, a port, a wildcard or a non-string is an error at its item, saying to give the name alone",
        arguments: [
            ("https://status.example.com", "is not allowed in a domain name; give the bare host"),
            ("status.example.com:443", "':' is not allowed in a domain name"),
            ("'*.example.com'", "'*.example.com' is a wildcard; list each name"),
            ("80", "expected a string, found a number"),
        ])
    func problems(item: String, message: String) {
        let problems = ConfigurationTestSupport.problems("endpoint:\n  hosts:\n    - ok.example\n    - \(item)\n")
        #expect(problems.count == 1)
        #expect(problems.first?.keyPath == "endpoint.hosts[1]")
        #expect(problems.first?.line == 4)
        #expect(problems.first?.message.contains(message) == true, "\(problems.first?.message ?? "no problem")")
    }
}
