import Foundation
import Yams

/// Where the daemon keeps its state (`store`): without it, SQLite in `state_dir`; with `store: postgres:`, a
/// PostgreSQL database that several daemons share as one cluster (`ClusterStore`).
package struct ClusterStore: Sendable, Hashable {
    /// The database; its URL is a credential (it holds the password) and is never shown.
    package var location: PostgresLocation
    /// This daemon's name in leases, claims and the members list (`node`); `nil`: host name and process id.
    package var node: String?

    package init(location: PostgresLocation, node: String? = nil) {
        self.location = location
        self.node = node
    }
}

extension ConfigurationBuilder {
    static let storeKeys = ["postgres"]
    static let postgresKeys = ["url", "url_file", "url_env", "node"]

    mutating func store(_ node: Node, path: ConfigurationPath) -> ClusterStore? {
        guard !ConfigurationReader.isNull(node),
            let fields = reader.fields(of: node, path: path, allowed: Self.storeKeys),
            let postgres = fields["postgres"]
        else { return nil }
        let postgresPath = path.key("postgres")
        guard let settings = reader.fields(of: postgres, path: postgresPath, allowed: Self.postgresKeys) else {
            return nil
        }
        // The URL holds the password: messages say what is wrong without showing it.
        guard
            let (text, key, valueNode) = secretValue(
                settings, base: "url", node: postgres, path: postgresPath, required: true)
        else { return nil }
        let location: PostgresLocation
        do {
            location = try PostgresLocation.parse(text)
        } catch {
            reader.report(error.description, at: valueNode, path: postgresPath.key(key))
            return nil
        }
        if key == "url", location.password != nil {
            reader.warn(
                "the PostgreSQL URL holds a password: move it out of this file with url_file or url_env",
                at: valueNode, path: postgresPath.key(key))
        }
        var store = ClusterStore(location: location)
        if let value = settings["node"] {
            store.node = reader.string(value, path: postgresPath.key("node"))
            if let name = store.node, name.count > 100 || name.contains(where: \.isNewline) {
                reader.report(
                    "expected a node name of at most 100 characters on one line", at: value,
                    path: postgresPath.key("node"))
                store.node = nil
            }
        }
        return store
    }
}
