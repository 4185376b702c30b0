import MonitorCore
import MonitorDaemon
import MonitorEvaluation
import Testing

@Suite("listen addresses")
struct ListenAddressTests {
    @Test(
        "parses host:port and bracketed IPv6",
        arguments: [
            ("127.0.0.1:9184", "127.0.0.1", 9184),
            ("localhost:0", "localhost", 0),
            ("[::1]:9184", "::1", 9184),
            ("0.0.0.0:65535", "0.0.0.0", 65535),
        ])
    func parses(text: String, host: String, port: Int) throws {
        let address = try ListenAddress(parsing: text)
        #expect(address == ListenAddress(host: host, port: port))
        #expect(address.description == text)
    }

    @Test(
        "refuses what is not host:port", arguments: ["9184", ":9184", "host:", "host:65536", "::1:9184", "[::1]9184"])
    func refuses(text: String) {
        #expect(throws: ListenAddressError.self) { try ListenAddress(parsing: text) }
    }

    @Test("knows loopback from the rest")
    func loopback() {
        #expect(ListenAddress(host: "127.0.0.1", port: 1).isLoopback)
        #expect(ListenAddress(host: "::1", port: 1).isLoopback)
        #expect(!ListenAddress(host: "0.0.0.0", port: 1).isLoopback)
    }
}
