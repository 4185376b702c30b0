internal import CurlShims

#if canImport(Glibc)
    import Glibc
#endif

extension Transfer {
    /// Whether the server's certificate can be copied through OpenSSL (`aasa_curl_reads_peer_certificate`): true
    /// with Debian's libcurl4-openssl. Otherwise a fetch that reads the certificate falls back to CERTINFO.
    static let peerCertificatesReadable = aasa_curl_reads_peer_certificate() != 0

    /// The DER bytes of the certificate on this transfer's connection, or `nil` before the handshake. Called from
    /// the header callback: CURLINFO_TLS_SSL_PTR is only meaningful while libcurl runs the transfer.
    func copyPeerCertificate() -> [UInt8]? {
        var length = 0
        guard let der = aasa_curl_peer_certificate_der(easy, &length) else { return nil }
        defer { free(der) }
        return Array(UnsafeBufferPointer(start: der, count: length))
    }
}
