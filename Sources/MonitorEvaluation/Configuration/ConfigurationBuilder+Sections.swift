import Foundation
import Yams

/// The settings sections: `listen`, `http`, `tls`, `cdn`, `alerts`. A section with problems keeps its defaults
/// for the broken keys, so the remaining keys are still checked.
extension ConfigurationBuilder {
    mutating func listenAddress(_ node: Node, path: ConfigurationPath) -> ListenAddress? {
        guard !ConfigurationReader.isNull(node), let text = reader.string(node, path: path) else { return nil }
        do throws(ListenAddressError) {
            return try ListenAddress(parsing: text)
        } catch {
            reader.report("\(error.reason), found \(ConfigurationReader.describe(node))", at: node, path: path)
            return nil
        }
    }

    mutating func http(_ node: Node, path: ConfigurationPath) -> HTTPSettings {
        var settings = HTTPSettings()
        let allowed = ["timeout", "ca_file", "connect_to", "concurrency", "apple_budget"]
        guard let fields = reader.fields(of: node, path: path, allowed: allowed) else { return settings }
        if let value = fields["timeout"] {
            settings.timeout =
                reader.duration(value, path: path.key("timeout"), SettingLimits.timeout) ?? settings.timeout
        }
        if let value = fields["ca_file"] { settings.caFile = caFile(value, path: path.key("ca_file")) }
        if let value = fields["apple_budget"] {
            settings.appleBudget =
                reader.duration(value, path: path.key("apple_budget"), SettingLimits.appleBudget)
                ?? settings.appleBudget
        }
        if let value = fields["concurrency"] {
            settings.concurrency =
                reader.integer(value, path: path.key("concurrency"), SettingLimits.concurrency) ?? settings.concurrency
        }
        if let value = fields["connect_to"], let items = reader.list(value, path: path.key("connect_to")) {
            for (index, item) in items.enumerated() {
                let itemPath = path.key("connect_to").index(index)
                guard let text = reader.string(item, path: itemPath) else { continue }
                switch ConnectToMapping.parse(text) {
                case .success(let mapping): settings.connectTo.append(mapping)
                case .failure(let error):
                    reader.report(
                        "\(error.reason), found \(ConfigurationReader.describe(item))", at: item, path: itemPath)
                }
            }
        }
        return settings
    }

    /// A CA file's resolved path, once `ConfigurationSurroundings.caFileProblem` accepts it.
    mutating func caFile(_ node: Node, path: ConfigurationPath) -> String? {
        guard let written = reader.string(node, path: path) else { return nil }
        let file = resolvedPath(written)
        if let problem = surroundings.caFileProblem(file) {
            reader.report(problem, at: node, path: path)
            return nil
        }
        return file
    }

    mutating func tls(_ node: Node, path: ConfigurationPath) -> TLSSettings {
        var settings = TLSSettings()
        guard let fields = reader.fields(of: node, path: path, allowed: ["expiry_warning", "expiry_critical"]) else {
            return settings
        }
        if let value = fields["expiry_critical"] {
            settings.expiryCritical =
                reader.duration(value, path: path.key("expiry_critical"), SettingLimits.expiryCritical)
                ?? settings.expiryCritical
        }
        if let value = fields["expiry_warning"] {
            settings.expiryWarning =
                reader.duration(value, path: path.key("expiry_warning"), SettingLimits.expiryWarning)
                ?? settings.expiryWarning
        }
        return settings
    }

    mutating func cdn(_ node: Node, path: ConfigurationPath) -> CDNSettings {
        var settings = CDNSettings()
        guard
            let fields = reader.fields(
                of: node, path: path, allowed: ["base_url", "stale_after", "lone_failure_after"])
        else {
            return settings
        }
        if let value = fields["base_url"], let text = reader.string(value, path: path.key("base_url")) {
            switch SettingValue.cdnBaseURL(text) {
            case .success(let url):
                settings.baseURL = url
            case .failure(let error):
                reader.report(
                    "\(error.reason), found \(ConfigurationReader.describe(value))", at: value,
                    path: path.key("base_url"))
            }
        }
        if let value = fields["stale_after"] {
            settings.staleAfter =
                reader.duration(value, path: path.key("stale_after"), SettingLimits.staleAfter) ?? settings.staleAfter
        }
        if let value = fields["lone_failure_after"] {
            settings.loneFailureAfter =
                reader.duration(value, path: path.key("lone_failure_after"), SettingLimits.loneFailureAfter)
                ?? settings.loneFailureAfter
        }
        return settings
    }

    mutating func alerts(_ node: Node, path: ConfigurationPath) -> AlertSettings {
        var settings = AlertSettings()
        let allowed = ["failure_threshold", "success_threshold", "repeat_after", "send_resolved", "give_up_after"]
        guard let fields = reader.fields(of: node, path: path, allowed: allowed) else { return settings }
        if let value = fields["failure_threshold"] {
            settings.failureThreshold =
                reader.integer(value, path: path.key("failure_threshold"), range: 1...1000) ?? settings.failureThreshold
        }
        if let value = fields["success_threshold"] {
            settings.successThreshold =
                reader.integer(value, path: path.key("success_threshold"), range: 1...1000) ?? settings.successThreshold
        }
        if let value = fields["repeat_after"],
            let duration = reader.duration(value, path: path.key("repeat_after"), minimum: .zero)
        {
            settings.repeatAfter = duration == .zero ? nil : duration
        }
        if let value = fields["send_resolved"] {
            settings.sendResolved = reader.boolean(value, path: path.key("send_resolved")) ?? settings.sendResolved
        }
        if let value = fields["give_up_after"] {
            settings.giveUpAfter =
                reader.duration(value, path: path.key("give_up_after"), minimum: .seconds(60)) ?? settings.giveUpAfter
        }
        return settings
    }
}
