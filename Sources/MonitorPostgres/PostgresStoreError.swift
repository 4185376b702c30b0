import PostgresNIO

/// What went wrong with the database, in words a person can act on; never the URL or the password.
///
/// postgres-nio's own errors print a fixed text (so as not to leak a query's values); this keeps the server's
/// message and SQLSTATE, or the kind of connection failure, which carry no secret.
package enum PostgresStoreError: Error, Equatable, CustomStringConvertible {
    /// The database did not answer within the deadline of that call.
    case timedOut(String, seconds: Double)
    /// The server refused the statement: its message and SQLSTATE.
    case server(String, message: String, sqlState: String)
    /// No connection: refused, unreachable, TLS or authentication.
    case connection(String, reason: String)
    /// An answer this binary cannot read (a column of another type than it wrote): the kind of the failure.
    case unreadable(String, kind: String)
    /// The database holds a schema newer than this binary knows.
    case schemaTooNew(found: Int, known: Int)

    package var description: String {
        switch self {
        case .timedOut(let what, let seconds):
            "PostgreSQL did not answer while \(what) within \(Self.seconds(seconds)); is the server up and reachable?"
        case .server(let what, let message, let sqlState):
            "PostgreSQL refused \(what): \(message) (SQLSTATE \(sqlState))"
        case .connection(let what, let reason):
            "could not reach PostgreSQL while \(what): \(reason)"
        case .unreadable(let what, let kind):
            "PostgreSQL's answer could not be read while \(what) (\(kind)); the tables were changed by something other "
                + "than aasa-monitor"
        case .schemaTooNew(let found, let known):
            "the database's schema is version \(found), newer than this aasa-monitor knows (\(known)); "
                + "upgrade aasa-monitor on this node"
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// `error` as thrown by postgres-nio (or by the deadline), described for `what` was being done.
    package static func describing(_ error: any Error, while what: String) -> PostgresStoreError {
        if let known = error as? PostgresStoreError { return known }
        if let transaction = error as? PostgresTransactionError {
            // The statement's own failure, not the wrapper's fixed text.
            let cause = transaction.closureError ?? transaction.commitError ?? transaction.beginError
            if let cause { return describing(cause, while: what) }
        }
        guard let psql = error as? PSQLError else {
            // Not the connection's fault: postgres-nio decoded a row into other types than the columns hold.
            return .unreadable(what, kind: String(describing: type(of: error)))
        }
        if let info = psql.serverInfo {
            return .server(what, message: info[.message] ?? "no message", sqlState: info[.sqlState] ?? "?")
        }
        switch psql.code {
        case .sslUnsupported: return .connection(what, reason: "the server does not offer TLS (sslmode asks for it)")
        case .failedToAddSSLHandler: return .connection(what, reason: "TLS could not be set up (check sslrootcert)")
        case .authMechanismRequiresPassword, .saslError, .unsupportedAuthMechanism:
            return .connection(what, reason: "authentication failed (\(psql.code))")
        case .queryCancelled: return .connection(what, reason: "the query was cancelled")
        default:
            let underlying = psql.underlying.map { " (\(type(of: $0)): \($0))" } ?? ""
            return .connection(what, reason: "\(psql.code)\(underlying)")
        }
    }
}
