import MonitorCore
import MonitorEvaluation

/// Loading helpers for configuration tests: text in, configuration or problems out, files and variables faked.
enum ConfigurationTestSupport {
    struct MissingFile: Error, CustomStringConvertible {
        var description: String { "No such file or directory" }
    }

    static func load(
        _ yaml: String, environment: [String: String] = [:], files: [String: String] = [:]
    ) throws(ConfigurationErrors) -> MonitorConfiguration {
        try ConfigurationLoader.load(text: yaml, fileName: "config.yml", environment: environment) { path in
            guard let contents = files[path] else { throw MissingFile() }
            return contents
        }
    }

    /// The problems loading `yaml` reports; empty when it loads.
    static func problems(
        _ yaml: String, environment: [String: String] = [:], files: [String: String] = [:]
    ) -> [ConfigurationProblem] {
        do throws(ConfigurationErrors) {
            _ = try load(yaml, environment: environment, files: files)
            return []
        } catch {
            return error.problems
        }
    }
}
