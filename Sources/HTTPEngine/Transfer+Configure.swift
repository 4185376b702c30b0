internal import CCurl
internal import CurlShims

extension Transfer {
    /// How long libcurl keeps a DNS answer (CURLOPT_DNS_CACHE_TIMEOUT).
    static let dnsCacheSeconds = 2

    /// Sets every option of the easy handle from the request; throws on the first option libcurl rejects.
    func configure(caFile: String) throws(HTTPEngineError) {
        let request = ticket.request
        let userdata = Unmanaged.passUnretained(self).toOpaque()
        try check(aasa_curl_easy_setopt_ptr(easy, CURLOPT_PRIVATE, userdata), "PRIVATE")
        try check(aasa_curl_easy_setopt_ptr(easy, CURLOPT_ERRORBUFFER, errorBuffer), "ERRORBUFFER")
        try set(CURLOPT_URL, request.url, "URL")
        // Several threads use libcurl in this process: signals must not be used for timeouts (libcurl-thread(3)).
        try set(CURLOPT_NOSIGNAL, 1, "NOSIGNAL")
        // DNS answers are kept for `dnsCacheSeconds`, not libcurl's 60 s: a domain's own requests start within a
        // second or two of each other and share one answer, but `check` over 10,000 domains kept every domain's
        // entry (about 500 bytes each, 5 MB) for the whole run.
        try set(CURLOPT_DNS_CACHE_TIMEOUT, Self.dnsCacheSeconds, "DNS_CACHE_TIMEOUT")
        try setCallbacks(userdata: userdata)
        // Never follow redirects: a 3xx is a finding, reported with its target (CURLINFO_REDIRECT_URL).
        try set(CURLOPT_FOLLOWLOCATION, 0, "FOLLOWLOCATION")
        if request.httpsOnly {
            try set(CURLOPT_PROTOCOLS_STR, "https", "PROTOCOLS_STR")
            try set(CURLOPT_REDIR_PROTOCOLS_STR, "https", "REDIR_PROTOCOLS_STR")
        }
        switch purpose {
        case .fetch:
            try setTimeouts(total: request.timeout, connect: request.connectTimeout)
            if let maxBodyBytes = request.maxBodyBytes {
                try check(
                    aasa_curl_easy_setopt_off(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(maxBodyBytes)),
                    "MAXFILESIZE_LARGE")
            }
            if let userAgent = request.userAgent {
                try set(CURLOPT_USERAGENT, userAgent, "USERAGENT")
            }
            try setHeaderList(request.headers)
            try setMethodAndBody(request)
            if request.closesConnection { try set(CURLOPT_FORBID_REUSE, 1, "FORBID_REUSE") }
        case .describe(_, let remaining):
            // Only what is left of the caller's limit. The caller's method, headers and body are never set: this
            // handshake talks to a server that failed verification and must not receive credentials or a webhook.
            try setTimeouts(total: remaining, connect: min(request.connectTimeout, remaining))
        }
        try setConnectTo(request)
        try setAddressGuard(userdata: userdata)
        // An empty PROXY disables the environment's proxy variables; see `HTTPRequest.proxy` for why.
        try set(CURLOPT_PROXY, request.proxy ?? "", "PROXY")
        // One CA file and no CA directory: Debian's default CAPATH makes libcurl re-read the trust store for every
        // connection, while a CAINFO file is parsed once and cached per multi handle.
        try set(CURLOPT_CAINFO, caFile, "CAINFO")
        try check(aasa_curl_easy_setopt_ptr(easy, CURLOPT_CAPATH, nil), "CAPATH")
        // Waiting for a multiplexed connection is per use: see `HTTPRequest.waitsForMultiplexing`.
        try set(CURLOPT_PIPEWAIT, request.waitsForMultiplexing ? 1 : 0, "PIPEWAIT")
        let version = request.httpVersion == .http1_1Only ? CURL_HTTP_VERSION_1_1 : CURL_HTTP_VERSION_2TLS
        try set(CURLOPT_HTTP_VERSION, Int(version), "HTTP_VERSION")
        switch purpose {
        case .fetch:
            if request.readsCertificate { try setFullHandshake(certinfo: !readsPeerCertificate) }
        case .describe:
            try setDescribeOnly()
        }
    }

    /// A new connection with a full handshake: no reuse, no TLS session resumption, so the certificate read is the
    /// one verified now. With `certinfo`, libcurl also prints the chain into CURLINFO_CERTINFO, which it gathers only
    /// during a full handshake (curl/curl#163, hurl#3031); that printing of every field of every certificate cost
    /// about 8% of a check's CPU, so a fetch reads the leaf's DER through OpenSSL instead when it can
    /// (`Transfer+PeerCertificate.swift`).
    private func setFullHandshake(certinfo: Bool) throws(HTTPEngineError) {
        if certinfo { try set(CURLOPT_CERTINFO, 1, "CERTINFO") }
        try set(CURLOPT_FRESH_CONNECT, 1, "FRESH_CONNECT")
        try set(CURLOPT_SSL_SESSIONID_CACHE, 0, "SSL_SESSIONID_CACHE")
    }

    /// The second handshake that describes a rejected certificate: verification off so the handshake completes
    /// and libcurl records the chain; CONNECT_ONLY, so no HTTP request at all reaches the unverified server (a
    /// HEAD request would have carried the caller's custom method, headers and body); a fresh connection that is
    /// closed afterwards (FORBID_REUSE) and no TLS session cache, so nothing unverified is ever reused; and
    /// nothing from it but the chain is used.
    private func setDescribeOnly() throws(HTTPEngineError) {
        try setFullHandshake(certinfo: true)
        try set(CURLOPT_SSL_VERIFYPEER, 0, "SSL_VERIFYPEER")
        try set(CURLOPT_SSL_VERIFYHOST, 0, "SSL_VERIFYHOST")
        try set(CURLOPT_FORBID_REUSE, 1, "FORBID_REUSE")
        try set(CURLOPT_CONNECT_ONLY, 1, "CONNECT_ONLY")
    }

    private func setTimeouts(total: Duration, connect: Duration) throws(HTTPEngineError) {
        try set(CURLOPT_TIMEOUT_MS, Self.milliseconds(total), "TIMEOUT_MS")
        try set(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(connect), "CONNECTTIMEOUT_MS")
    }

    private func setCallbacks(userdata: UnsafeMutableRawPointer) throws(HTTPEngineError) {
        // Non-capturing closures become C function pointers; the Transfer comes back through `userdata`.
        try check(
            aasa_curl_easy_setopt_data_callback(easy, CURLOPT_WRITEFUNCTION) { data, size, count, userdata in
                guard let userdata else { return 0 }
                let transfer = Unmanaged<Transfer>.fromOpaque(userdata).takeUnretainedValue()
                return transfer.receiveBody(data, count: size * count)
            }, "WRITEFUNCTION")
        try check(aasa_curl_easy_setopt_ptr(easy, CURLOPT_WRITEDATA, userdata), "WRITEDATA")
        try check(
            aasa_curl_easy_setopt_data_callback(easy, CURLOPT_HEADERFUNCTION) { data, size, count, userdata in
                guard let userdata else { return 0 }
                let transfer = Unmanaged<Transfer>.fromOpaque(userdata).takeUnretainedValue()
                return transfer.receiveHeaderLine(data, count: size * count)
            }, "HEADERFUNCTION")
        try check(aasa_curl_easy_setopt_ptr(easy, CURLOPT_HEADERDATA, userdata), "HEADERDATA")
    }

    private func setHeaderList(_ headers: HTTPHeaders) throws(HTTPEngineError) {
        guard headers.count > 0 else { return }
        for field in headers {
            // "Name;" is libcurl's way to send a header with an empty value ("Name:" would remove it).
            let line = field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)"
            headerList = curl_slist_append(headerList, line)
        }
        try check(aasa_curl_easy_setopt_ptr(easy, CURLOPT_HTTPHEADER, headerList), "HTTPHEADER")
    }

    /// Hands libcurl the one rule that applies to this URL: libcurl scans the whole list for every transfer.
    ///
    /// libcurl 7.88 files connections under the connect-to target and the URL's port, so every host sent to
    /// `127.0.0.1` would share one bucket of connections: a transfer waiting for a multiplexed connection
    /// (PIPEWAIT) or capped by `maxConnectionsPerHost` would wait behind another host's stalled handshake. When
    /// the target is an IP address, the rule therefore names a per-host alias instead
    /// (`ConnectToRule.alias(host:target:)`), and `CURLOPT_RESOLVE` maps the alias to that address: connection
    /// reuse never crosses from one host name to another.
    private func setConnectTo(_ request: HTTPRequest) throws(HTTPEngineError) {
        guard !request.connectTo.isEmpty else { return }
        guard let (host, port) = Self.hostAndPort(of: request.url) else {
            throw HTTPEngineError(code: .invalidRequest, url: request.url, message: "cannot parse the URL's host")
        }
        guard var rule = ConnectToRule.firstMatch(in: request.connectTo, host: host, port: port) else { return }
        if let target = rule.targetHost, ConnectToRule.isIPAddress(target) {
            let alias = ConnectToRule.alias(host: host, target: target)
            let targetPort = rule.targetPort ?? port
            rule.targetHost = alias
            connectAlias = (alias, "\(target) (connect-to for \(host))")
            let address = target.contains(":") ? "[\(target)]" : target
            // `+`: the entry times out like a resolved one (without it, one permanent entry per host piles up);
            // every transfer sets it again, so a later request for the host finds it.
            resolveList = curl_slist_append(nil, "+\(alias):\(targetPort):\(address)")
            try check(aasa_curl_easy_setopt_ptr(easy, CURLOPT_RESOLVE, resolveList), "RESOLVE")
        }
        connectToList = curl_slist_append(nil, rule.description)
        try check(aasa_curl_easy_setopt_ptr(easy, CURLOPT_CONNECT_TO, connectToList), "CONNECT_TO")
    }

    private func setMethodAndBody(_ request: HTTPRequest) throws(HTTPEngineError) {
        let method = request.method.uppercased()
        if method == "HEAD" {
            try set(CURLOPT_NOBODY, 1, "NOBODY")
        } else if let body = request.body {
            try check(
                aasa_curl_easy_setopt_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)),
                "POSTFIELDSIZE_LARGE")
            // COPYPOSTFIELDS: libcurl keeps its own copy, so the Swift array need not outlive this call.
            // An empty array may have no storage; libcurl copies 0 bytes from any valid pointer.
            let code = (body.isEmpty ? [0] : body).withUnsafeBytes { bytes in
                aasa_curl_easy_setopt_ptr(easy, CURLOPT_COPYPOSTFIELDS, bytes.baseAddress)
            }
            try check(code, "COPYPOSTFIELDS")
        }
        if method != "GET" && method != "HEAD" && !(method == "POST" && request.body != nil) {
            try set(CURLOPT_CUSTOMREQUEST, method, "CUSTOMREQUEST")
        }
    }

    /// The URL's host (lower-cased, without IPv6 brackets) and port (the scheme's default when absent), parsed by
    /// libcurl's own URL parser so the rule matches exactly what libcurl will connect to.
    static func hostAndPort(of url: String) -> (String, Int)? {
        guard let handle = curl_url() else { return nil }
        defer { curl_url_cleanup(handle) }
        guard curl_url_set(handle, CURLUPART_URL, url, 0) == CURLUE_OK else { return nil }
        var hostPointer: UnsafeMutablePointer<CChar>?
        var portPointer: UnsafeMutablePointer<CChar>?
        guard curl_url_get(handle, CURLUPART_HOST, &hostPointer, 0) == CURLUE_OK, let hostPointer else { return nil }
        defer { curl_free(hostPointer) }
        guard curl_url_get(handle, CURLUPART_PORT, &portPointer, UInt32(CURLU_DEFAULT_PORT)) == CURLUE_OK,
            let portPointer
        else { return nil }
        defer { curl_free(portPointer) }
        var host = String(cString: hostPointer).lowercased()
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard let port = Int(String(cString: portPointer)) else { return nil }
        return (host, port)
    }

    /// Whole milliseconds for a libcurl `long` timeout, at least 1 (0 would mean "no limit"). Clamped to
    /// `Int32.max` ms (about 24 days) first, so a huge `Duration` cannot overflow `seconds * 1000` and trap.
    static func milliseconds(_ duration: Duration) -> Int {
        let limit = Int64(Int32.max)
        let parts = duration.components
        guard parts.seconds >= 0 else { return 1 }
        guard parts.seconds < limit / 1000 else { return Int(limit) }
        return max(1, Int(parts.seconds * 1000 + parts.attoseconds / 1_000_000_000_000_000))
    }

    private func set(_ option: CURLoption, _ value: Int, _ name: String) throws(HTTPEngineError) {
        try check(aasa_curl_easy_setopt_long(easy, option, value), name)
    }

    private func set(_ option: CURLoption, _ value: String, _ name: String) throws(HTTPEngineError) {
        // libcurl copies string options (since 7.17.0), so the C string need only live for the call.
        try check(value.withCString { aasa_curl_easy_setopt_ptr(easy, option, $0) }, name)
    }

    func check(_ code: CURLcode, _ option: String) throws(HTTPEngineError) {
        guard code != CURLE_OK else { return }
        throw HTTPEngineError(
            code: .invalidRequest, url: ticket.request.url,
            message: "libcurl rejected CURLOPT_\(option): \(String(cString: curl_easy_strerror(code)))")
    }
}
