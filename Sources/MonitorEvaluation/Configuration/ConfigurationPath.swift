/// A key path inside the configuration document, printed as `domains[1].expect.urls[0]`.
struct ConfigurationPath: Sendable, Hashable, CustomStringConvertible {
    private(set) var description: String

    static let root = ConfigurationPath(description: "")

    /// The path of `key` inside this mapping.
    func key(_ key: String) -> ConfigurationPath {
        ConfigurationPath(description: description.isEmpty ? key : "\(description).\(key)")
    }

    /// The path of element `index` of this list.
    func index(_ index: Int) -> ConfigurationPath {
        ConfigurationPath(description: "\(description)[\(index)]")
    }
}
