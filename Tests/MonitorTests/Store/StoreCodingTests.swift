import AASA
import Crypto
import Foundation
import GRDB
import MonitorCore
import MonitorDaemon
import MonitorEvaluation
import MonitorStore
import TestSupport
import Testing

/// JSON columns are deflated with a preset dictionary behind a format byte; plain JSON rows of older versions still
/// read, and a damaged value fails with the column and domain named.
@Suite("Store coding")
struct StoreCodingTests {
    typealias R = StoreReports

    /// A ready domain's report as the daemon stored it (`aasa-bench daemon` fleet, 1,271 bytes of JSON).
    static let readyReport = #"""
        {"cdn":{"apple_from":[],
        "canonical_hash":"sha256:e4f508f5427894f755ff994fd3ad6844088190adece0595585565c4b910ab0aa",
        "expected_refresh":1795441267.6142027,"headers":{"cache-control":"max-age=3600"},"max_age":3600,
        "status":200,"total_seconds":0.003932,"url":"https:\/\/cdn.bench.test\/a\/v1\/d54.bench.test"},
        "checked_at":1795437667.6142027,"domain":"d54.bench.test","duration":0.025447726249694824,"findings":[],
        "origin":{"plain_status":200,"root":{"body_bytes":100,
        "canonical_hash":"sha256:e4f508f5427894f755ff994fd3ad6844088190adece0595585565c4b910ab0aa",
        "content_type":"application\/json","http_version":"2","primary_ip":"127.0.0.1","signed":false,
        "status":200,"total_seconds":0.0009,"url":"https:\/\/d54.bench.test\/apple-app-site-association"},
        "well_known":{"body_bytes":100,
        "canonical_hash":"sha256:e4f508f5427894f755ff994fd3ad6844088190adece0595585565c4b910ab0aa",
        "certificate":{"issuer":"CN=AASA Monitor Test Root CA","not_after":1803213667,"not_before":1795351267,
        "subject":"CN=*.bench.test","subject_alternative_names":["*.bench.test"]},
        "content_type":"application\/json","http_version":"2","primary_ip":"127.0.0.1","signed":false,
        "status":200,"total_seconds":0.004161,
        "url":"https:\/\/d54.bench.test\/.well-known\/apple-app-site-association"}},"verdict":"ready"}
        """#

    static let firing = AlertState.firing(
        alert: FiringAlert(
            since: R.at(0), severity: .error, lastNotifiedAt: R.at(1), message: "answers 404 instead of 200",
            detail: ["status": .int(404)], recentFirings: [R.at(0)], flapping: false))

    @Test("times are kept to the millisecond, as exact decimals that the seconds-since-1970 reader still reads")
    func timesToTheMillisecond() throws {
        struct Stamped: Codable, Equatable { var at: Date }
        // A measured time, and one already rounded: `Date` counts from 2001, so converting either to seconds since
        // 1970 gives a Double with float noise in its last digits.
        for seconds in [1_795_437_667.614_202_7, 1_795_437_667.614, 1_700_000_000.000_4, 0.5] {
            let stored = try StoreCoding.encode(Stamped(at: Date(timeIntervalSince1970: seconds)))
            let read = try StoreCoding.decode(Stamped.self, from: stored)
            let milliseconds = (seconds * 1000).rounded()
            #expect((read.at.timeIntervalSince1970 * 1000).rounded() == milliseconds)
            #expect(abs(read.at.timeIntervalSince1970 - milliseconds / 1000) < 1e-6)
        }
        let stored = try StoreCoding.encode(Stamped(at: Date(timeIntervalSince1970: 1_795_437_667.614_202_7)))
        #expect(String(decoding: try StoreCoding.json(of: stored), as: UTF8.self) == #"{"at":1795437667.614}"#)
    }

    @Test("the dictionary is the one stored rows were written with, byte for byte")
    func dictionaryIsPinned() {
        let digest = SHA256.hash(data: StoreDictionary.bytes).map { String(format: "%02x", $0) }.joined()
        #expect(StoreDictionary.bytes.count == 3_379)
        #expect(digest == "48efe8d3219e4fb9c18255fc0ae114cd803b79e39a836f5db7a1a2fb9a8831b9")
    }

    @Test("a report, a state and an alert state come back equal, compressed behind the format byte")
    func roundTrip() async throws {
        try await withTemporaryStore(.inMemory) { store, _ in
            let finding = ReportFinding(
                code: .originRedirect, severity: .error, source: .wellKnown, message: "redirects",
                detail: ["location": "https://www.example.com/"])
            let report = R.report(at: 0, origin: "sha256:a", cdn: "sha256:b", findings: [finding])
            let state = try await store.record(report: report).state
            let encodedReport = try StoreCoding.encode(report)
            let encodedState = try StoreCoding.encode(state)
            let encodedAlert = try StoreCoding.encode(Self.firing)
            for encoded in [encodedReport, encodedState, encodedAlert] {
                #expect(encoded.first == StoreCoding.deflatedFormat)
            }
            var expected = report
            expected.documents = [:]  // not a column of the report: documents are stored once per meaning
            #expect(try StoreCoding.decode(DomainReport.self, from: encodedReport) == expected)
            #expect(try StoreCoding.decode(DomainState.self, from: encodedState) == state)
            #expect(try StoreCoding.decode(AlertState.self, from: encodedAlert) == Self.firing)
        }
    }

    @Test("a ready domain's report takes under 40 % of its JSON")
    func readyReportShrinks() throws {
        let report = try StoreCoding.decode(DomainReport.self, from: Data(Self.readyReport.utf8))
        let plain = try R.plainJSON(report)
        let stored = try StoreCoding.encode(report)
        #expect(stored.count * 100 < plain.count * 40, "\(stored.count) of \(plain.count) bytes")
        // Times come back to the millisecond; what was read once is then kept exactly.
        let read = try StoreCoding.decode(DomainReport.self, from: stored)
        #expect(abs(read.checkedAt.timeIntervalSince(report.checkedAt)) < 0.001)
        #expect(try StoreCoding.decode(DomainReport.self, from: StoreCoding.encode(read)) == read)
    }

    @Test("plain JSON rows written before compression still read, alert states also in MonitorJSON")
    func plainRowsStillRead() async throws {
        try await withTemporaryStore(.onDisk) { store, _ in
            let report = R.report(at: 0, origin: "sha256:a", cdn: "sha256:a")
            let state = try await store.record(report: report).state
            let other = try DatabaseQueue(path: store.path)
            try await other.write { db in
                try db.execute(
                    sql: "UPDATE domain_state SET state_json = ?", arguments: [try R.plainJSON(state)])
                try db.execute(
                    sql: """
                        INSERT INTO alert_state (domain, code, source, subject, state_json)
                        VALUES ('example.com', 'origin.status', 'origin.well-known', '', ?)
                        """,
                    arguments: [try MonitorJSON.encoder().encode(Self.firing)])
            }
            try other.close()
            #expect(try await store.reader.domainStates() == [state])
            let alert = try #require(try await store.reader.alertStates(domain: "example.com").first)
            #expect(alert.stateJSON.first == UInt8(ascii: "{"))
            #expect(
                try StoreCoding.decode(AlertState.self, from: alert.stateJSON, legacy: MonitorJSON.decoder())
                    == Self.firing)
            // The next check reads the old rows and writes them back compressed.
            try await store.record(report: R.report(at: 1, origin: "sha256:b", cdn: "sha256:a"))
            #expect(try await store.reader.domainStates().first?.originHash == "sha256:b")
        }
    }

    @Test("a damaged compressed value fails naming the column and domain; an unknown format byte says so")
    func damagedValue() async throws {
        try await withTemporaryStore(.onDisk) { store, _ in
            try await store.record(report: R.report(at: 0, origin: "sha256:a", cdn: "sha256:a"))
            let other = try DatabaseQueue(path: store.path)
            try await other.write { db in try db.execute(sql: "UPDATE domain_state SET state_json = x'01ffffffff'") }
            let damaged = await #expect(throws: StoreError.self) { try await store.reader.domainStates() }
            #expect(damaged?.description.contains("state of example.com") == true)
            #expect(damaged?.description.contains("not a valid compressed value") == true)

            try await other.write { db in try db.execute(sql: "UPDATE domain_state SET state_json = x'07'") }
            try other.close()
            let unknown = await #expect(throws: StoreError.self) { try await store.reader.domainStates() }
            #expect(unknown?.description.contains("format byte 7") == true)
        }
        let encoded = try StoreCoding.encode(R.report(at: 0, origin: "sha256:a", cdn: "sha256:a"))
        let truncated = encoded.prefix(encoded.count / 2)
        #expect(throws: StoreCodingError.self) { try StoreCoding.decode(DomainReport.self, from: truncated) }
        #expect(throws: StoreCodingError.empty) { try StoreCoding.decode(DomainReport.self, from: Data()) }
    }
}
