import BenchmarkSupport
import Foundation

/// The fleet as issue 24 measures it: Debian's `nginx-light` plays every origin `dN.fleet.test` and Apple's CDN
/// `cdn.fleet.test` on one TLS port (HTTP/2, an ECDSA P-256 leaf for `*.fleet.test` under a root minted now).
///
/// nginx's CPU is not the daemon's, and one server block with a wildcard name serves any number of domains: the
/// configuration is the same size at 100,000 domains as at one. Both origin paths and the CDN path
/// (`/a/v1/<domain>`, by a regex location) answer the same document with the headers `DaemonFleet` sends. The process is
/// our own child (`daemon off`), in a temporary directory of its own, never the system service; `stop()` ends it.
///
/// `@unchecked Sendable`: the only state is the `Process`, used after `run()` only through its pid and
/// termination fields, which Foundation reads under its own lock.
final class NginxFleet: @unchecked Sendable {
    static let suffix = "fleet.test"
    static let cdnHost = "cdn.fleet.test"

    static func domain(_ index: Int) -> String { "d\(index).\(suffix)" }

    /// The TCP port on 127.0.0.1.
    let port: Int
    /// The root CA's PEM file, for the daemon's `http.ca_file` and the bare client.
    let caFile: String
    let directory: String
    private let process: Process

    private init(port: Int, caFile: String, directory: String, process: Process) {
        self.port = port
        self.caFile = caFile
        self.directory = directory
        self.process = process
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// `::127.0.0.1:PORT`: every host and port to nginx.
    var connectTo: String { "::127.0.0.1:\(port)" }

    /// Mints the PKI, writes the configuration and starts nginx; returns once it accepts connections.
    static func start(nginx: String = "/usr/sbin/nginx") async throws -> NginxFleet {
        guard FileManager.default.isExecutableFile(atPath: nginx) else {
            throw BenchmarkError(
                "no nginx at \(nginx): apt-get install -y nginx-light (or pass --server fixture for the in-process "
                    + "fleet)")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("daemon-bench-nginx-\(UUID())")
            .path
        try FileManager.default.createDirectory(atPath: directory + "/www", withIntermediateDirectories: true)
        try mintCertificates(in: directory)
        try DaemonFleet.document.write(toFile: directory + "/www/aasa.json", atomically: true, encoding: .utf8)
        let port = try freeLoopbackPort()
        try configuration(directory: directory, port: port)
            .write(toFile: directory + "/nginx.conf", atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: nginx)
        // -e: the error log before the configuration is read (the compiled-in path is the system's).
        process.arguments = ["-p", directory, "-c", directory + "/nginx.conf", "-e", directory + "/error.log"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let fleet = NginxFleet(port: port, caFile: directory + "/ca.pem", directory: directory, process: process)
        let deadline = ContinuousClock.now + .seconds(10)
        while !acceptsConnections(port: port) {
            guard process.isRunning, ContinuousClock.now < deadline else {
                let log = (try? String(contentsOfFile: directory + "/error.log", encoding: .utf8)) ?? ""
                throw BenchmarkError("nginx did not start on 127.0.0.1:\(port): \(log.suffix(2_000))")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return fleet
    }

    /// Stops nginx (SIGQUIT, a graceful stop; SIGKILL after 10 s) and removes its directory.
    func stop() async {
        kill(process.processIdentifier, SIGQUIT)
        let deadline = ContinuousClock.now + .seconds(10)
        while process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A root (ten years) and a leaf for `*.fleet.test` and the CDN's name (90 days, as `FixtureCertificate.valid`:
    /// a leaf expiring within `tls.expiry_warning` would make every domain a finding), both ECDSA P-256, by the
    /// `openssl` command (the benchmark has no X509 dependency of its own); nginx sends the leaf alone.
    private static func mintCertificates(in directory: String) throws {
        let leafExtensions = """
            basicConstraints=critical,CA:FALSE
            keyUsage=critical,digitalSignature
            extendedKeyUsage=serverAuth
            subjectAltName=DNS:*.\(suffix),DNS:\(cdnHost)

            """
        try leafExtensions.write(toFile: directory + "/leaf.ext", atomically: true, encoding: .utf8)
        let serial = "0x" + (0..<8).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        for arguments in [
            ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "ca.key"],
            [
                "req", "-x509", "-new", "-key", "ca.key", "-subj", "/CN=DaemonFleet Benchmark Root CA", "-days", "3650",
                "-out", "ca.pem", "-addext", "basicConstraints=critical,CA:TRUE", "-addext",
                "keyUsage=critical,keyCertSign,cRLSign",
            ],
            ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "leaf.key"],
            ["req", "-new", "-key", "leaf.key", "-subj", "/CN=*.\(suffix)", "-out", "leaf.csr"],
            [
                "x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-set_serial", serial,
                "-days", "90", "-extfile", "leaf.ext", "-out", "leaf.pem",
            ],
        ] {
            try runTool("/usr/bin/openssl", arguments, in: directory)
        }
    }

    /// One server block for every name; `etag` and `if_modified_since` off so every answer is a 200 with the
    /// document, as `DaemonFleet` answers; no access log (nginx's work is not what is measured); `keepalive_requests`
    /// high so the CDN's shared HTTP/2 connection is not closed every 1,000 requests (nginx 1.22's default).
    private static func configuration(directory: String, port: Int) -> String {
        """
        daemon off;
        worker_processes 1;
        worker_rlimit_nofile 16384;
        pid \(directory)/nginx.pid;
        error_log \(directory)/error.log warn;
        events { worker_connections 8192; }
        http {
            access_log off;
            server_tokens off;
            types { }
            default_type application/json;
            etag off;
            if_modified_since off;
            keepalive_requests 1000000;
            client_body_temp_path \(directory)/body;
            proxy_temp_path \(directory)/proxy;
            fastcgi_temp_path \(directory)/fastcgi;
            uwsgi_temp_path \(directory)/uwsgi;
            scgi_temp_path \(directory)/scgi;
            server {
                listen 127.0.0.1:\(port) ssl http2;
                server_name *.\(suffix);
                ssl_certificate \(directory)/leaf.pem;
                ssl_certificate_key \(directory)/leaf.key;
                root \(directory)/www;
                location = /.well-known/apple-app-site-association { try_files /aasa.json =404; }
                location = /apple-app-site-association { try_files /aasa.json =404; }
                location ~ ^/a/v1/[^/]+$ {
                    add_header Cache-Control "max-age=3600";
                    try_files /aasa.json =404;
                }
                location / { return 404; }
            }
        }

        """
    }
}
