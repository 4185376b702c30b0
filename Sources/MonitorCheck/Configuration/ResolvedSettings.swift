import Foundation
import HTTPEngine
import MonitorCore
import MonitorEvaluation

/// The probe and evaluation settings, made in one place from a configuration and, for `check`, its flags.
///
/// The daemon (`MonitorConfiguration.probeSettings`), `config check` and `check --config` all build them here, so one
/// file is judged and applied alike everywhere: the file's values were judged when it was read
/// (`ConfigurationBuilder`), and each flag is judged here by the same `SettingLimits` entry, its error naming the flag
/// as typed. `connect_to` arrives parsed (`ConnectToMapping`); a flag's text is parsed by the same function, and both
/// become the engine's `ConnectToRule` field by field.
///
/// ```swift
/// let file = try ConfigurationFile.load(path: "config.yml", environment: [:])
/// let settings = try ResolvedSettings.resolve(file, overrides: SettingOverrides(timeout: "3s"))
/// ```
package struct ResolvedSettings: Sendable, Hashable {
    package var probe: ProbeSettings
    package var evaluation: EvaluationSettings

    /// What `configuration` asks for, or the defaults without one: what the daemon runs with.
    package init(_ configuration: MonitorConfiguration?) {
        self.init(
            http: configuration?.http ?? HTTPSettings(), tls: configuration?.tls ?? TLSSettings(),
            cdn: configuration?.cdn ?? CDNSettings())
    }

    /// The one assembly of settings from the configuration's sections, whichever route filled them.
    init(http: HTTPSettings, tls: TLSSettings, cdn: CDNSettings) {
        probe = ProbeSettings(
            version: MonitorVersion.current, cdnBaseURL: cdn.baseURL, timeout: http.timeout,
            connectTo: http.connectTo.map(ConnectToRule.init),
            trust: http.caFile.map { .systemAnd(extraCAFile: $0) }
                ?? .system,
            concurrency: http.concurrency, appleBudget: http.appleBudget)
        evaluation = EvaluationSettings(http: http, tls: tls, cdn: cdn)
    }

    /// `check`'s settings: the configuration's (or the defaults), then each flag given in its place. A flag's
    /// `--connect-to` rules come before the file's, so the first match is the command line's.
    ///
    /// - Throws: `SettingOverrideError` naming the first flag refused, as typed, with the reason the file's key gets.
    package static func resolve(
        _ configuration: MonitorConfiguration?, overrides: SettingOverrides
    ) throws(SettingOverrideError) -> ResolvedSettings {
        var http = configuration?.http ?? HTTPSettings()
        var tls = configuration?.tls ?? TLSSettings()
        var cdn = configuration?.cdn ?? CDNSettings()
        if let text = overrides.timeout { http.timeout = try read(text, SettingLimits.timeout) }
        if let value = overrides.concurrency {
            switch SettingLimits.concurrency.check(value) {
            case .success(let value): http.concurrency = value
            case .failure(let error):
                throw SettingOverrideError(
                    flag: SettingLimits.concurrency.flag ?? "--concurrency", text: String(value), reason: error.reason)
            }
        }
        if let text = overrides.cdnBase {
            switch SettingValue.cdnBaseURL(text) {
            case .success(let url): cdn.baseURL = url
            case .failure(let error): throw SettingOverrideError(flag: "--cdn-base", text: text, reason: error.reason)
            }
        }
        if let file = overrides.caFile {
            if let problem = TrustAnchorFile.problem(at: file) {
                throw SettingOverrideError(flag: "--ca-file", text: nil, reason: problem)
            }
            http.caFile = file
        }
        var mappings: [ConnectToMapping] = []
        for text in overrides.connectTo {
            switch ConnectToMapping.parse(text) {
            case .success(let mapping): mappings.append(mapping)
            case .failure(let error): throw SettingOverrideError(flag: "--connect-to", text: text, reason: error.reason)
            }
        }
        http.connectTo = mappings + http.connectTo
        if let text = overrides.staleAfter { cdn.staleAfter = try read(text, SettingLimits.staleAfter) }
        if let text = overrides.expiryWarning { tls.expiryWarning = try read(text, SettingLimits.expiryWarning) }
        return ResolvedSettings(http: http, tls: tls, cdn: cdn)
    }

    private static func read(_ text: String, _ limit: DurationLimit) throws(SettingOverrideError) -> Duration {
        switch limit.read(text) {
        case .success(let duration): return duration
        case .failure(let error):
            throw SettingOverrideError(flag: limit.flag ?? limit.key, text: text, reason: error.reason)
        }
    }
}

extension ConnectToRule {
    /// The engine's rule for a mapping the configuration or a flag parsed: field by field, no text parsed again.
    init(_ mapping: ConnectToMapping) {
        self.init(
            host: mapping.host, port: mapping.port, targetHost: mapping.targetHost, targetPort: mapping.targetPort)
    }
}

/// `check`'s flags that override the configuration, as typed; `nil` (or empty) when not given.
package struct SettingOverrides: Sendable, Hashable {
    package var timeout: String?
    package var concurrency: Int?
    package var cdnBase: String?
    package var caFile: String?
    package var connectTo: [String]
    package var staleAfter: String?
    package var expiryWarning: String?

    package init(
        timeout: String? = nil, concurrency: Int? = nil, cdnBase: String? = nil, caFile: String? = nil,
        connectTo: [String] = [], staleAfter: String? = nil, expiryWarning: String? = nil
    ) {
        self.timeout = timeout
        self.concurrency = concurrency
        self.cdnBase = cdnBase
        self.caFile = caFile
        self.connectTo = connectTo
        self.staleAfter = staleAfter
        self.expiryWarning = expiryWarning
    }
}

/// A flag's value refused: `--timeout 0s: must be at least 1s`, the reason the file's key would get.
package struct SettingOverrideError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The flag as typed (`--timeout`).
    package var flag: String
    /// The value as typed, when the message shows it.
    package var text: String?
    package var reason: String

    package var description: String { "\(flag)\(text.map { " \($0)" } ?? ""): \(reason)" }
}
