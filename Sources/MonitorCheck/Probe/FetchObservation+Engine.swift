import Foundation
import HTTPEngine
import MonitorCore
import MonitorEvaluation

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
            certificate: response.certificate.map(CertificateFacts.init(summary:))
        )
    }

    /// The observation of a classified network failure.
    init(failure: HTTPFailure, userAgent: String, viaConnectTo: Bool) {
        self.init(
            url: failure.url,
            userAgent: userAgent,
            outcome: .failure(FetchFailure(kind: FetchFailure.Kind(failure.kind), message: failure.curlMessage)),
            primaryIP: failure.primaryIP,
            viaConnectTo: viaConnectTo,
            totalSeconds: failure.timings.total.inSeconds,
            certificate: failure.certificate.map(CertificateFacts.init(summary:))
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
            outcome: .failure(FetchFailure(kind: .other, message: message)),
            viaConnectTo: viaConnectTo
        )
    }
}

extension FetchFailure.Kind {
    /// The evaluation's kind of an engine failure; a switch, so a new engine kind must be placed here.
    init(_ kind: HTTPFailure.Kind) {
        switch kind {
        case .dns: self = .dns
        case .connect: self = .connect
        case .timeout: self = .timeout
        case .tlsUntrusted: self = .tlsUntrusted
        case .tlsExpired: self = .tlsExpired
        case .tlsHostname: self = .tlsHostname
        case .tlsProtocol: self = .tlsProtocol
        case .tooLarge: self = .tooLarge
        case .other: self = .other
        }
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
