import MonitorEvaluation
import Testing

/// The URL of the cluster's database: read as libpq would, refused with the part that is wrong, never shown.
@Suite("PostgreSQL URL")
struct PostgresLocationTests {
    @Test("a full URL: user, percent-encoded password, host, port, database, TLS verified against a CA file")
    func full() throws {
        let location = try PostgresLocation.parse(
            "postgres://monitor:p%40ss%2Fword@db.internal:6432/aasa?sslmode=verify-full&sslrootcert=/etc/ssl/pg.pem")
        #expect(
            location
                == PostgresLocation(
                    host: "db.internal", port: 6432, user: "monitor", password: "p@ss/word", database: "aasa",
                    tls: .verifyFull, caFile: "/etc/ssl/pg.pem"))
        #expect(location.description == "postgres://monitor@db.internal:6432/aasa (sslmode=verify-full)")
    }

    @Test("defaults: port 5432, the user's database, TLS verified against the system's CAs")
    func defaults() throws {
        let location = try PostgresLocation.parse("postgresql://monitor@db.test")
        #expect(location.port == 5432)
        #expect(location.database == "monitor")
        #expect(location.tls == .verifyFull)
        #expect(location.caFile == nil)
        #expect(location.password == nil)
    }

    @Test(
        "refused, naming the part and never the text",
        arguments: [
            ("mysql://u:hunter2@h/d", "must start with postgres://"),
            ("postgres://u:hunter2@/d", "names no host"),
            ("postgres://:hunter2@h/d", "names no user"),
            ("postgres://u:hunter2@h/d/e", "more than one database"),
            ("postgres://u:hunter2@h/d?sslmode=prefer", "sslmode this monitor does not use"),
            ("postgres://u:hunter2@h/d?sslrootcert=ca.pem", "not an absolute path"),
            ("postgres://u:hunter2@h/d?password=hunter2", "a parameter this monitor does not read (password)"),
        ])
    func refused(url: String, problem: String) {
        #expect {
            try PostgresLocation.parse(url)
        } throws: { error in
            let said = "\(error)"
            return said.contains(problem) && !said.contains("hunter2")
        }
    }
}
