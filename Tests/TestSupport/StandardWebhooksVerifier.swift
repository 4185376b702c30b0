import Foundation

/// Checks Standard Webhooks signatures with an implementation that shares no code with ours: Python's `hmac`.
public enum StandardWebhooksVerifier {
    /// The `v1,<base64>` signature Python computes for `id.timestamp.body` under `secret` (`whsec_<base64>`).
    /// The body goes through a file, so no shell quoting is involved.
    public static func signature(secret: String, id: String, timestamp: String, body: [UInt8]) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("webhook-body-\(UUID()).json")
        try Data(body).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = """
            import base64, hashlib, hmac, sys
            key = base64.b64decode(sys.argv[1].split("_", 1)[1])
            body = open(sys.argv[4], "rb").read()
            mac = hmac.new(key, sys.argv[2].encode() + b"." + sys.argv[3].encode() + b"." + body, hashlib.sha256)
            print("v1," + base64.b64encode(mac.digest()).decode(), end="")
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, secret, id, timestamp, file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw FixtureTimeoutError(
                waitingFor: "python3 to sign (exit \(process.terminationStatus))", activity: .init())
        }
        return String(decoding: data, as: UTF8.self)
    }
}
