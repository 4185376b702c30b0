import Foundation
import MonitorCore
import MonitorDaemon
import MonitorEvaluation
import MonitorStore

/// The store's per-check coding cost: `domain_state` is encoded on every check and decoded by every `status` and
/// page read, so its deflate and inflate must stay a small part of both. Prints the median of `runs` rounds of
/// `count` encodes and decodes, beside plain JSON with the same encoder settings (what the store wrote before).
func printStoreCodingFigures(state: DomainState, report: DomainReport, runs: Int, count: Int = 2_000) throws {
    let plain = JSONEncoder()
    plain.dateEncodingStrategy = .secondsSince1970
    plain.outputFormatting = [.sortedKeys]
    let plainDecoder = JSONDecoder()
    plainDecoder.dateDecodingStrategy = .secondsSince1970

    /// Median CPU microseconds per call of `body`.
    func perCall(_ body: () throws -> Void) rethrows -> Double {
        var samples: [Double] = []
        for _ in 0..<runs {
            let start = cpuSeconds()
            for _ in 0..<count { try body() }
            samples.append((cpuSeconds() - start) * 1_000_000 / Double(count))
        }
        return samples.sorted()[samples.count / 2]
    }

    print("store coding: median CPU µs per value of \(runs) runs of \(count)")
    print("value  | JSON bytes | stored bytes | JSON encode µs | store encode µs | JSON decode µs | store decode µs")
    func row<Value: Codable>(_ name: String, _ value: Value) throws {
        let json = try plain.encode(value)
        let stored = try StoreCoding.encode(value)
        let jsonEncode = try perCall { _ = try plain.encode(value) }
        let storeEncode = try perCall { _ = try StoreCoding.encode(value) }
        let jsonDecode = try perCall { _ = try plainDecoder.decode(Value.self, from: json) }
        let storeDecode = try perCall { _ = try StoreCoding.decode(Value.self, from: stored) }
        let figures = String(
            format: " | %10d | %12d | %14.1f | %15.1f | %14.1f | %15.1f", json.count, stored.count, jsonEncode,
            storeEncode, jsonDecode, storeDecode)
        print(name.padding(toLength: 6, withPad: " ", startingAt: 0) + figures)
    }
    try row("state", state)
    try row("report", report)
}
