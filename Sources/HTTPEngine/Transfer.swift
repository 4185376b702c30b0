internal import CCurl
internal import CurlShims

/// One easy handle and the state its callbacks fill in.
///
/// Lives only on the engine thread: `TransferLoop` creates it, keeps it in `active` while the handle is in the
/// multi handle, and drops it afterwards, which frees the handle. Callbacks find it through an unretained pointer
/// in `WRITEDATA`/`HEADERDATA`/`PRIVATE`, valid because `active` holds the strong reference meanwhile.
final class Transfer {
    /// Why this transfer runs.
    enum Purpose {
        /// The caller's request.
        case fetch
        /// A non-verifying handshake that only reads the certificate chain of `failure`'s server, within what is
        /// left of the request's timeout (`remaining`), so the caller's limit holds for both handshakes together.
        case describe(HTTPFailure, remaining: Duration)
    }

    let ticket: TransferTicket
    let purpose: Purpose
    let easy: UnsafeMutableRawPointer
    /// When the handle was created and handed to the multi handle, where libcurl's `TIMEOUT_MS` starts counting.
    let startedAt = ContinuousClock.now
    /// libcurl's `CURLOPT_ERRORBUFFER`; must outlive the handle.
    let errorBuffer: UnsafeMutablePointer<CChar>
    var headerList: UnsafeMutablePointer<curl_slist>?
    var connectToList: UnsafeMutablePointer<curl_slist>?
    var resolveList: UnsafeMutablePointer<curl_slist>?
    /// The per-host alias libcurl connects to instead of a connect-to address, and what it stands for
    /// (`127.0.0.1 for shop.test`): error texts show the latter, never a made-up name.
    var connectAlias: (alias: String, meaning: String)?
    private let maxBodyBytes: Int?
    var body: [UInt8] = []
    /// The response's header fields, read line by line from the header callback.
    private var headerReader = HeaderLineReader()
    var headers: HTTPHeaders { headerReader.headers }
    /// Set when the write callback refused data over `maxBodyBytes`, to tell a cap from another write error.
    var exceededBodyLimit = false
    /// Whether the header callback copies the server's certificate (`Transfer+PeerCertificate.swift`).
    let readsPeerCertificate: Bool
    /// The server's certificate as DER, copied at the first header line while libcurl holds the connection.
    var peerCertificateDER: [UInt8]?
    /// The address the guard of `HTTPRequest.refusedAddresses` refused (`Transfer+AddressGuard.swift`).
    var refused: RefusedConnection?
    /// `CurlEngine.Configuration.descriptorReserve`: no socket is opened while fewer descriptors would stay free.
    let descriptorReserve: Int
    /// The free descriptors counted when a socket was refused for want of them (`Transfer+AddressGuard.swift`).
    var descriptorShortage: Int?

    init(
        ticket: TransferTicket, purpose: Purpose, caFile: String, descriptorReserve: Int = 0
    ) throws(HTTPEngineError) {
        guard let easy = curl_easy_init() else {
            throw HTTPEngineError(code: .invalidRequest, url: ticket.request.url, message: "curl_easy_init failed")
        }
        self.ticket = ticket
        self.purpose = purpose
        self.easy = easy
        self.descriptorReserve = descriptorReserve
        self.errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        self.errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        if case .describe = purpose {
            self.maxBodyBytes = 0
            self.readsPeerCertificate = false
        } else {
            self.maxBodyBytes = ticket.request.maxBodyBytes
            self.readsPeerCertificate = ticket.request.readsCertificate && Self.peerCertificatesReadable
        }
        try configure(caFile: caFile)
    }

    deinit {
        curl_easy_cleanup(easy)
        curl_slist_free_all(headerList)
        curl_slist_free_all(connectToList)
        curl_slist_free_all(resolveList)
        errorBuffer.deallocate()
    }

    /// The error-buffer text, or libcurl's generic text for `code` when the buffer is empty.
    func errorText(code: CURLcode) -> String {
        let buffer = String(cString: errorBuffer)
        var text = buffer.isEmpty ? String(cString: curl_easy_strerror(code)) : buffer
        if let connectAlias {
            text = text.split(separator: connectAlias.alias, omittingEmptySubsequences: false)
                .joined(separator: connectAlias.meaning)
        }
        return text
    }

    // MARK: Callbacks, reached from libcurl on the engine thread

    /// Appends a body chunk, or refuses it when the cap would be exceeded: libcurl 7.88 checks
    /// `MAXFILESIZE_LARGE` only against a declared Content-Length, so a chunked body is counted here.
    func receiveBody(_ data: UnsafeMutablePointer<CChar>, count: Int) -> Int {
        if let maxBodyBytes, body.count + count > maxBodyBytes {
            exceededBodyLimit = true
            return Int(CURL_WRITEFUNC_ERROR)
        }
        data.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
            body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
        }
        return count
    }

    /// Records one header line (`HeaderLineReader` says how lines become fields).
    func receiveHeaderLine(_ data: UnsafeMutablePointer<CChar>, count: Int) -> Int {
        if readsPeerCertificate, peerCertificateDER == nil { peerCertificateDER = copyPeerCertificate() }
        let line = data.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
            String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        }
        headerReader.read(line)
        return count
    }
}

extension StringProtocol {
    /// The string without leading characters matching `predicate`.
    func droppingLeading(while predicate: (Character) -> Bool) -> String {
        String(drop(while: predicate))
    }

    /// The string without trailing characters matching `predicate`.
    func droppingTrailing(while predicate: (Character) -> Bool) -> String {
        var end = endIndex
        while end > startIndex, predicate(self[index(before: end)]) { end = index(before: end) }
        return String(self[startIndex..<end])
    }
}

@available(*, unavailable)
extension Transfer: Sendable {}
