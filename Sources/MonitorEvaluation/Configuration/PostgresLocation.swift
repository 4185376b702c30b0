import Foundation

/// Where the cluster's PostgreSQL database is and how to reach it, read from a `postgres://` URL
/// (`postgres://USER:PASSWORD@HOST:PORT/DATABASE?sslmode=verify-full&sslrootcert=/path/ca.pem`).
///
/// The URL carries the password: nothing here ever shows it. `description` and every parse error name the part
/// that is wrong, never the text, so a message can be logged as it is.
package struct PostgresLocation: Sendable, Hashable, CustomStringConvertible {
    /// libpq's `sslmode` values that mean something to a monitor: `verify-full` (the default: the server's
    /// certificate must chain to the CA and name the host), `require` (encrypted, not verified: only on a network
    /// the operator trusts) and `disable` (loopback and tests).
    package enum TLSMode: String, Sendable, Hashable, CaseIterable {
        case disable
        case require
        case verifyFull = "verify-full"
    }

    package var host: String
    package var port: Int
    package var user: String
    package var password: String?
    package var database: String
    package var tls: TLSMode
    /// The CA certificates (PEM) the server's certificate must chain to (`sslrootcert`); `nil`: the system's.
    package var caFile: String?

    package init(
        host: String, port: Int = 5432, user: String, password: String?, database: String,
        tls: TLSMode = .verifyFull, caFile: String? = nil
    ) {
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.database = database
        self.tls = tls
        self.caFile = caFile
    }

    /// The URL without its password, for logs and `status`.
    package var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "postgres://\(user)@\(shownHost):\(port)/\(database) (sslmode=\(tls.rawValue))"
    }

    /// Reads `text`, refusing what libpq would read differently or what would leave the connection unverified
    /// without saying so.
    package static func parse(_ text: String) throws(PostgresLocationError) -> PostgresLocation {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let components = URLComponents(string: trimmed) else {
            throw PostgresLocationError("is not a URL; expected postgres://USER:PASSWORD@HOST:PORT/DATABASE")
        }
        guard let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql" else {
            throw PostgresLocationError("must start with postgres:// or postgresql://")
        }
        guard let host = components.host, !host.isEmpty else {
            throw PostgresLocationError("names no host; expected postgres://USER:PASSWORD@HOST:PORT/DATABASE")
        }
        guard let user = components.user?.removingPercentEncoding, !user.isEmpty else {
            throw PostgresLocationError("names no user; expected postgres://USER:PASSWORD@HOST:PORT/DATABASE")
        }
        let port = components.port ?? 5432
        guard (1...65_535).contains(port) else { throw PostgresLocationError("has a port outside 1–65535") }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !path.contains("/") else { throw PostgresLocationError("names more than one database in its path") }
        let database = path.removingPercentEncoding ?? path
        var location = PostgresLocation(
            host: host, port: port, user: user, password: components.password?.removingPercentEncoding,
            database: database.isEmpty ? user : database)
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let value = item.value, let mode = TLSMode(rawValue: value) else {
                    throw PostgresLocationError(
                        "has an sslmode this monitor does not use; use verify-full (the default), require or disable")
                }
                location.tls = mode
            case "sslrootcert":
                guard let value = item.value, value.hasPrefix("/") else {
                    throw PostgresLocationError("has an sslrootcert that is not an absolute path")
                }
                location.caFile = value
            default:
                throw PostgresLocationError(
                    "has a parameter this monitor does not read (\(item.name.prefix(40))); only sslmode and sslrootcert"
                )
            }
        }
        return location
    }
}

/// Why a PostgreSQL URL was refused; says what is wrong with it, never its text.
package struct PostgresLocationError: Error, Equatable, CustomStringConvertible {
    package var problem: String

    package init(_ problem: String) { self.problem = problem }

    package var description: String { "the PostgreSQL URL \(problem) (value not shown)" }
}
