import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL
import SwiftASN1
import Synchronization
import X509

/// An HTTPS server on `127.0.0.1` with a freshly minted PKI, for tests and benchmarks.
///
/// It plays an origin, Apple's CDN or a webhook receiver: routes answer with any status, headers and body
/// (chunked, delayed or never), it records every request, and it counts connections and TLS handshakes. Clients
/// reach it by name through a curl-style `connect-to` mapping (`connectTo("origin.test")`) and trust it through
/// `caFile`, a PEM file unique to this server, so tests running in parallel share nothing.
public final class FixtureServer: Sendable {
    /// Which protocols ALPN offers.
    public enum Protocols: Sendable {
        /// `h2` and `http/1.1`; clients that offer h2 get it.
        case http2AndHTTP1
        /// `http/1.1` only.
        case http1Only
    }

    /// The TCP port on 127.0.0.1.
    public let port: Int
    /// A PEM file with the CA that clients should trust (for `.untrusted`, a CA that did not issue the leaf).
    public let caFile: String
    /// The leaf certificate the server presents.
    public let certificate: MintedCertificate
    private let recorder: FixtureRecorder
    private let channel: any Channel
    private let connections: OpenConnections

    private init(
        port: Int, caFile: String, certificate: MintedCertificate, recorder: FixtureRecorder, channel: any Channel,
        connections: OpenConnections
    ) {
        self.port = port
        self.caFile = caFile
        self.certificate = certificate
        self.recorder = recorder
        self.channel = channel
        self.connections = connections
    }

    /// The curl `connect-to` entry sending `host:443` here, for example `origin.test:443:127.0.0.1:54321`.
    public func connectTo(_ host: String, port requestPort: Int = 443) -> String {
        "\(host):\(requestPort):127.0.0.1:\(port)"
    }

    /// The wildcard `connect-to` entry sending every host and port here: `::127.0.0.1:54321`.
    public var wildcardConnectTo: String {
        "::127.0.0.1:\(port)"
    }

    /// Everything seen so far.
    public var activity: FixtureActivity { recorder.activity }

    /// Requests received so far.
    public var requests: [RecordedRequest] { recorder.activity.requests }

    /// Waits until at least `count` requests have arrived; throws `FixtureTimeoutError` after `timeout`.
    @discardableResult
    public func waitForRequests(count: Int = 1, timeout: Duration = .seconds(60)) async throws -> [RecordedRequest] {
        try await recorder.wait(for: "\(count) request(s)", timeout: timeout) { $0.requests.count >= count }.requests
    }

    /// Waits until `condition` holds for the server's activity; throws `FixtureTimeoutError` after `timeout`.
    @discardableResult
    public func waitUntil(
        _ description: String, timeout: Duration = .seconds(60),
        _ condition: @escaping @Sendable (FixtureActivity) -> Bool
    ) async throws -> FixtureActivity {
        try await recorder.wait(for: description, timeout: timeout, until: condition)
    }

    /// Starts a server; prefer `withFixtureServer`, which always stops it.
    public static func start(
        certificate kind: FixtureCertificate,
        protocols: Protocols = .http2AndHTTP1,
        routes: [FixtureRoute]
    ) async throws -> FixtureServer {
        try EndToEndSlots.requireSlot(toStart: "a fixture server")
        let (trusted, leaf) = try kind.mint()
        let caFile = try writeTemporaryPEM(try trusted.pem, tag: "ca")
        let chain = try ([leaf.certificate] + leaf.intermediates).map {
            NIOSSLCertificateSource.certificate(
                try NIOSSLCertificate(bytes: Array(try $0.serializeAsPEM().pemString.utf8), format: .pem))
        }
        let key = try NIOSSLPrivateKey(bytes: Array(try leaf.key.serializeAsPEM().pemString.utf8), format: .pem)
        var tls = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
        tls.applicationProtocols = protocols == .http2AndHTTP1 ? ["h2", "http/1.1"] : ["http/1.1"]
        let sslContext = try NIOSSLContext(configuration: tls)
        let recorder = FixtureRecorder()
        let connections = OpenConnections()
        // By path, built once: a fleet fixture has thousands of routes, and a scan per request made the fixture
        // the bottleneck of the benchmarks that measure the client.
        let table = Dictionary(routes.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })

        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                recorder.update { $0.connectionsAccepted += 1 }
                let id = ObjectIdentifier(channel)
                connections.insert(channel, id: id)
                channel.closeFuture.whenComplete { _ in
                    connections.remove(id)
                    recorder.update { $0.connectionsClosed += 1 }
                }
                return channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    try sync.addHandler(NIOSSLServerHandler(context: sslContext))
                    try sync.addHandler(HandshakeObserver(recorder: recorder))
                }.flatMap {
                    channel.configureCommonHTTPServerPipeline { streamChannel in
                        streamChannel.eventLoop.makeCompletedFuture {
                            let isHTTP2 = streamChannel !== channel
                            try streamChannel.pipeline.syncOperations.addHandler(
                                FixtureRouteHandler(
                                    routes: table, recorder: recorder, httpVersion: isHTTP2 ? "2" : "1.1"))
                        }
                    }
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        guard let port = channel.localAddress?.port else {
            try? await channel.close()
            throw TestPKIError(message: "fixture server has no local port")
        }
        return FixtureServer(
            port: port, caFile: caFile, certificate: leaf.summary, recorder: recorder, channel: channel,
            connections: connections)
    }

    /// Stops listening, closes open connections and removes the CA file.
    public func shutdown() async {
        try? await channel.close()
        let open = connections.all
        for connection in open { try? await connection.close() }
        try? FileManager.default.removeItem(atPath: caFile)
    }
}

/// Runs `body` with a started fixture server and always shuts it down, on success and on error.
///
/// ```swift
/// try await withFixtureServer(certificate: .valid(for: "origin.test"), routes: [FixtureRoute("/", .text("hi"))]) {
///     server in
///     // https://origin.test/ with connect-to server.connectTo("origin.test") and CA file server.caFile
/// }
/// ```
public func withFixtureServer<Result>(
    certificate: FixtureCertificate,
    protocols: FixtureServer.Protocols = .http2AndHTTP1,
    routes: [FixtureRoute],
    _ body: (FixtureServer) async throws -> Result
) async throws -> Result {
    let server = try await FixtureServer.start(certificate: certificate, protocols: protocols, routes: routes)
    do {
        let result = try await body(server)
        await server.shutdown()
        return result
    } catch {
        await server.shutdown()
        throw error
    }
}

/// Writes `pem` to a new file with a unique name, so parallel tests (and libcurl's per-path CA cache) never see
/// another test's certificates.
public func writeTemporaryPEM(_ pem: String, tag: String) throws -> String {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("aasa-fixture-\(tag)-\(UUID().uuidString).pem").path
    try pem.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// Writes one PEM file trusting every server's test CA (libcurl takes one CA file). PEM files need not end with
/// a newline; one between them keeps each block intact.
public func writeCABundle(_ servers: [FixtureServer], tag: String) throws -> String {
    let pems = try servers.map { try String(contentsOfFile: $0.caFile, encoding: .utf8) }
    return try writeTemporaryPEM(pems.joined(separator: "\n"), tag: tag)
}

/// A port on 127.0.0.1 that refuses connections: bound once to get a free number, then closed.
///
/// Another process could take the port in between; on a test machine that is rare enough.
public func refusedPort() async throws -> Int {
    // A socket bound and never listening, kept open for the life of the test process: connecting is refused, and
    // no other test's server can take the port meanwhile (a closed port was reused by a parallel server once, and
    // the "refused" connection met its TLS instead).
    try LoopbackSocket.bind(listening: false).port
}

/// The server's open connections, so shutdown can close them (a never-answering route would keep one open).
final class OpenConnections: Sendable {
    private let channels = Mutex<[ObjectIdentifier: any Channel]>([:])

    func insert(_ channel: any Channel, id: ObjectIdentifier) {
        channels.withLock { $0[id] = channel }
    }

    func remove(_ id: ObjectIdentifier) {
        channels.withLock { _ = $0.removeValue(forKey: id) }
    }

    var all: [any Channel] { channels.withLock { Array($0.values) } }
}
