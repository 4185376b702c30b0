internal import CCurl
internal import CurlShims

extension HTTPFailure {
    /// OpenSSL verification results (`X509_V_ERR_*`) that mean "no path to a trusted root".
    private static let untrustedVerifyResults: Set<Int> = [
        2,  // UNABLE_TO_GET_ISSUER_CERT
        18,  // DEPTH_ZERO_SELF_SIGNED_CERT
        19,  // SELF_SIGNED_CERT_IN_CHAIN
        20,  // UNABLE_TO_GET_ISSUER_CERT_LOCALLY
        21,  // UNABLE_TO_VERIFY_LEAF_SIGNATURE
        24,  // INVALID_CA
        27,  // CERT_UNTRUSTED
        28,  // CERT_REJECTED
    ]
    /// `X509_V_ERR_CERT_NOT_YET_VALID`.
    private static let notYetValidResult = 9
    /// `X509_V_ERR_CERT_HAS_EXPIRED`.
    private static let expiredResult = 10

    /// Classifies a failed transfer from libcurl's code and OpenSSL's verify result, never from message text.
    ///
    /// With libcurl 7.88.1 and OpenSSL 3 a rejected certificate always gives `CURLE_PEER_FAILED_VERIFICATION`
    /// (60); the verify result tells expired (10), not yet valid (9) and untrusted (18–21) apart. A wrong host name
    /// is found by libcurl's own check after OpenSSL accepted the chain, leaving the verify result at 0 or 1
    /// (62 when OpenSSL's host check ran).
    public static func classify(
        curlCode: Int, verifyResult: Int, exceededBodyLimit: Bool
    ) -> (Kind, ValidityProblem?) {
        switch curlCode {
        case Int(CURLE_COULDNT_RESOLVE_HOST.rawValue), Int(CURLE_COULDNT_RESOLVE_PROXY.rawValue):
            return (.dns, nil)
        case Int(CURLE_COULDNT_CONNECT.rawValue):
            return (.connect, nil)
        case Int(CURLE_OPERATION_TIMEDOUT.rawValue):
            return (.timeout, nil)
        case Int(CURLE_FILESIZE_EXCEEDED.rawValue):
            return (.tooLarge, nil)
        case Int(CURLE_WRITE_ERROR.rawValue) where exceededBodyLimit:
            return (.tooLarge, nil)
        case Int(CURLE_PEER_FAILED_VERIFICATION.rawValue):
            return classifyVerification(verifyResult)
        case Int(CURLE_SSL_CONNECT_ERROR.rawValue), Int(CURLE_SSL_CIPHER.rawValue),
            Int(CURLE_SSL_CERTPROBLEM.rawValue), Int(CURLE_SSL_ISSUER_ERROR.rawValue):
            // A handshake can still end here after a verification failure with some servers' alerts.
            if verifyResult != 0 && verifyResult != 1 { return classifyVerification(verifyResult) }
            return (.tlsProtocol, nil)
        default:
            return (.other, nil)
        }
    }

    private static func classifyVerification(_ verifyResult: Int) -> (Kind, ValidityProblem?) {
        switch verifyResult {
        case expiredResult: (.tlsExpired, .expired)
        case notYetValidResult: (.tlsExpired, .notYetValid)
        case 0, 1, 62: (.tlsHostname, nil)
        case let result where untrustedVerifyResults.contains(result): (.tlsUntrusted, nil)
        default: (.tlsUntrusted, nil)
        }
    }
}
