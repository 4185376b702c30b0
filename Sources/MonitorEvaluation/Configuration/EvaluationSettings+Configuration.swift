import Foundation

extension EvaluationSettings {
    /// The thresholds a configuration's sections ask for: the daemon's core and `check` (`ResolvedSettings`) both
    /// build them here, so one file is judged alike everywhere.
    public init(http: HTTPSettings, tls: TLSSettings, cdn: CDNSettings) {
        self.init(
            expiryWarning: tls.expiryWarning.seconds, staleAfter: cdn.staleAfter.seconds,
            appleBudget: http.appleBudget.seconds, expiryCritical: tls.expiryCritical.seconds)
    }
}
