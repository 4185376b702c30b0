internal import CCurl
internal import CurlShims

extension Transfer {
    /// What a finished transfer produced.
    enum Outcome {
        case response(HTTPResponse)
        case failure(HTTPFailure)
    }

    /// Reads the handle's results after `CURLMSG_DONE`.
    func outcome(code: CURLcode) -> Outcome {
        let request = ticket.request
        let status = longInfo(CURLINFO_RESPONSE_CODE)
        let timings = self.timings()
        let primaryIP = stringInfo(CURLINFO_PRIMARY_IP).flatMap { $0.isEmpty ? nil : $0 }
        if let refused, code != CURLE_OK {
            // libcurl says only "couldn't connect" or "aborted by callback": the refusal is the reason.
            var failure = HTTPFailure(
                kind: .connect, url: request.url, curlCode: Int(code.rawValue),
                curlMessage: "refused to connect to \(refused): the request's refusedAddresses exclude it",
                primaryIP: refused.address.description, timings: timings)
            failure.refused = refused
            return .failure(failure)
        }
        if let free = descriptorShortage, code != CURLE_OK {
            var failure = HTTPFailure(
                kind: .connect, url: request.url, curlCode: Int(code.rawValue),
                curlMessage: "opened no socket: only \(free) file descriptors were free, and the engine keeps "
                    + "\(descriptorReserve) free for the rest of the process",
                timings: timings)
            failure.descriptorShortage = free
            return .failure(failure)
        }
        guard code == CURLE_OK else {
            let verifyResult = longInfo(CURLINFO_SSL_VERIFYRESULT)
            let (kind, validity) = HTTPFailure.classify(
                curlCode: Int(code.rawValue), verifyResult: verifyResult, exceededBodyLimit: exceededBodyLimit)
            return .failure(
                HTTPFailure(
                    kind: kind,
                    url: request.url,
                    curlCode: Int(code.rawValue),
                    curlMessage: errorText(code: code),
                    verifyResult: verifyResult,
                    validityProblem: validity,
                    certificate: kind == .tlsHostname ? certinfoLeaf() : nil,
                    status: status == 0 ? nil : status,
                    primaryIP: primaryIP,
                    timings: timings
                ))
        }
        return .response(
            HTTPResponse(
                url: request.url,
                status: status,
                headers: headers,
                body: body,
                redirectURL: stringInfo(CURLINFO_REDIRECT_URL),
                httpVersion: httpVersion(),
                primaryIP: primaryIP,
                primaryPort: longInfo(CURLINFO_PRIMARY_PORT),
                timings: timings,
                certificate: request.readsCertificate ? leafCertificate() : nil
            ))
    }

    /// The server's certificate: the DER copied during the transfer, else what libcurl printed into CERTINFO.
    private func leafCertificate() -> CertificateSummary? {
        if let peerCertificateDER { return CertificateSummary(derEncoded: peerCertificateDER) }
        return certinfoLeaf()
    }

    /// The leaf libcurl recorded (`CURLINFO_CERTINFO`, leaf first); `nil` without CERTINFO or a completed
    /// handshake. Only the leaf is parsed: nothing reported depends on the intermediates.
    func certinfoLeaf() -> CertificateSummary? {
        var info: UnsafeMutablePointer<curl_certinfo>?
        guard aasa_curl_easy_getinfo_certinfo(easy, &info) == CURLE_OK, let info,
            let lists = info.pointee.certinfo, info.pointee.num_of_certs > 0
        else { return nil }
        var fields: [(name: String, value: String)] = []
        var node = lists[0]
        while let current = node {
            if let data = current.pointee.data {
                let entry = String(cString: data)
                if let colon = entry.firstIndex(of: ":") {
                    fields.append((String(entry[..<colon]), String(entry[entry.index(after: colon)...])))
                }
            }
            node = current.pointee.next
        }
        return CertificateSummary(certInfoFields: fields)
    }

    private func httpVersion() -> HTTPVersion {
        switch longInfo(CURLINFO_HTTP_VERSION) {
        case CURL_HTTP_VERSION_1_0: .http1_0
        case CURL_HTTP_VERSION_1_1: .http1_1
        case CURL_HTTP_VERSION_2_0: .http2
        case CURL_HTTP_VERSION_3: .http3
        default: .unknown
        }
    }

    private func timings() -> HTTPTimings {
        HTTPTimings(
            nameLookup: microseconds(CURLINFO_NAMELOOKUP_TIME_T),
            connect: microseconds(CURLINFO_CONNECT_TIME_T),
            tlsHandshakeDone: microseconds(CURLINFO_APPCONNECT_TIME_T),
            firstByte: microseconds(CURLINFO_STARTTRANSFER_TIME_T),
            total: microseconds(CURLINFO_TOTAL_TIME_T)
        )
    }

    private func microseconds(_ info: CURLINFO) -> Duration {
        var value: curl_off_t = 0
        _ = aasa_curl_easy_getinfo_off(easy, info, &value)
        return .microseconds(value)
    }

    private func longInfo(_ info: CURLINFO) -> Int {
        var value = 0
        _ = aasa_curl_easy_getinfo_long(easy, info, &value)
        return value
    }

    private func stringInfo(_ info: CURLINFO) -> String? {
        var value: UnsafePointer<CChar>?
        guard aasa_curl_easy_getinfo_string(easy, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }
}
