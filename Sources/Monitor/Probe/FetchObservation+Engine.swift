import Foundation
import HTTPEngine

extension FetchObservation {
    /// The observation of a completed exchange, whatever its status.
    init(response: HTTPResponse, userAgent: String, viaConnectTo: Bool) {
        self.init(
            url: response.url,
            userAgent: userAgent,
            outcome: .response(
                FetchResponse(
                    status: response.status,
                    headers: response.headers.map { HeaderField(name: $0.name, value: $0.value) },
                    body: response.body,
                    redirectLocation: response.redirectURL,
                    httpVersion: response.httpVersion == .unknown ? nil : response.httpVersion.rawValue
                )),
            primaryIP: response.primaryIP,
            viaConnectTo: viaConnectTo,
            totalSeconds: response.timings.total.inSeconds,
            certificate: response.certificateChain?.first.map(CertificateFacts.init(summary:))
        )
    }

    /// The observation of a classified network failure; its kind is the engine's identifier (`tls.expired`).
    init(failure: HTTPFailure, userAgent: String, viaConnectTo: Bool) {
        self.init(
            url: failure.url,
            userAgent: userAgent,
            outcome: .failure(FetchFailure(kind: failure.identifier, message: failure.curlMessage)),
            primaryIP: failure.primaryIP,
            viaConnectTo: viaConnectTo,
            totalSeconds: failure.timings.total.inSeconds,
            certificate: failure.certificateChain.first.map(CertificateFacts.init(summary:))
        )
    }

    /// The observation of a request that never reached the network as planned (engine shut down, cancelled).
    init(url: String, userAgent: String, viaConnectTo: Bool, unexpected error: any Error) {
        let message: String
        switch error {
        case let engineError as HTTPEngineError: message = engineError.description
        case is CancellationError: message = "the check was cancelled"
        default: message = String(describing: error)
        }
        self.init(
            url: url,
            userAgent: userAgent,
            outcome: .failure(FetchFailure(kind: HTTPFailure.Kind.other.rawValue, message: message)),
            viaConnectTo: viaConnectTo
        )
    }
}

extension CertificateFacts {
    /// The facts of one certificate from the engine's chain.
    init(summary: CertificateSummary) {
        self.init(
            subject: summary.subject,
            issuer: summary.issuer,
            subjectAlternativeNames: summary.subjectAlternativeNames,
            notBefore: summary.notBefore,
            notAfter: summary.notAfter
        )
    }
}
