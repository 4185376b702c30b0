import MonitorCore
import MonitorEvaluation
import Testing

@Suite("endpoint.basic_auth_file")
struct ConfigurationEndpointTests {
    static let bcrypt = "$2y$05$0123456789abcdefghijkevoiCzwC7NWXkkY7c91.yFbkKTS/jlF2"
    static let sha256 = "$5$0123456789abcdef$D1jD61i8NxW2Vdbrioh2aL4ydm2gB0/rRjCiljBJJUA"

    @Test("bcrypt and SHA-256-crypt entries are read, comments and blank lines skipped, never printed")
    func users() throws {
        let configuration = try ConfigurationTestSupport.load(
            "endpoint:\n  basic_auth_file: /etc/htpasswd\n",
            files: ["/etc/htpasswd": "# release managers\nrelease:\(Self.bcrypt)\r\n\nops:\(Self.sha256)\n"])
        let users = try #require(configuration.endpoint.basicAuth)
        #expect(users.hashes == ["release": Self.bcrypt, "ops": Self.sha256])
        #expect(!String(describing: users).contains("$2y$"))
    }

    @Test("without the section every route stays open")
    func open() throws {
        #expect(try ConfigurationTestSupport.load("listen: 127.0.0.1:0\n").endpoint.basicAuth == nil)
    }

    @Test(
        "a missing, empty or weak file is a configuration error at the key's line, naming what to do",
        arguments: [
            (nil, "cannot read /etc/htpasswd: No such file or directory; create it with `htpasswd -B -c"),
            ("", "/etc/htpasswd: the file has no users"),
            ("ops:{SHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g=\n", "/etc/htpasswd:1: the entry of ops is not bcrypt"),
            ("ops:$apr1$abc$def\n", "/etc/htpasswd:1: the entry of ops is not bcrypt"),
            ("# x\nops\n", "/etc/htpasswd:2: expected USER:HASH"),
            ("ops:\(bcrypt)\nops:\(sha256)\n", "/etc/htpasswd:2: ops appears twice"),
        ] as [(String?, String)])
    func problems(contents: String?, message: String) {
        let problems = ConfigurationTestSupport.problems(
            "listen: 127.0.0.1:0\nendpoint:\n  basic_auth_file: /etc/htpasswd\n",
            files: contents.map { ["/etc/htpasswd": $0] } ?? [:])
        #expect(problems.count == 1)
        let problem = problems.first
        #expect(problem?.line == 3)
        #expect(problem?.keyPath == "endpoint.basic_auth_file")
        #expect(problem?.message.hasPrefix(message) == true, "\(problem?.message ?? "no problem")")
    }
}
