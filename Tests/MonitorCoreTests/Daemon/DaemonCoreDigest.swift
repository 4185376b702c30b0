import AASA
import Foundation
import MonitorCore
import MonitorEvaluation

/// What a test compares of the core's actions: names, sequence numbers and times, so production types need not be
/// `Equatable`. Times are seconds after `CoreHarness.t0`, to the millisecond.
enum Digest: Equatable, CustomStringConvertible {
    enum Item: Equatable, CustomStringConvertible {
        /// A conditions item: the active set it stores and the events of its deliveries, in order.
        case conditions(UInt64, active: [String], events: [String])
        case check(UInt64, String)

        var description: String {
            switch self {
            case .conditions(let seq, let active, let events): "\(seq): conditions \(active) \(events)"
            case .check(let seq, let domain): "\(seq): check \(domain)"
            }
        }
    }

    case ready, reloaded
    case log(String)
    case append([Item])
    case start([String])
    /// A claim's limit.
    case claim(Int)
    case release([String])
    case readSilences
    case wake
    case sleep(Double)
    case finish

    var description: String {
        switch self {
        case .ready: "ready"
        case .reloaded: "reloaded"
        case .log(let text): "log(\(text))"
        case .append(let items): "append(\(items))"
        case .start(let domains): "start(\(domains))"
        case .claim(let limit): "claim(\(limit))"
        case .release(let domains): "release(\(domains))"
        case .readSilences: "readSilences"
        case .wake: "wake"
        case .sleep(let at): "sleep(\(at))"
        case .finish: "finish"
        }
    }

    init(_ action: DaemonCore.Action) {
        switch action {
        case .notify(.ready): self = .ready
        case .notify(.reloaded): self = .reloaded
        case .log(let note): self = .log(Self.text(note))
        case .append(let batch): self = .append(batch.items.map(Self.item))
        case .start(let jobs): self = .start(jobs.map(\.domain))
        case .claim(let limit, _, _): self = .claim(limit)
        case .release(let leases): self = .release(leases.map(\.domain))
        case .readSilences: self = .readSilences
        case .wakeDelivery: self = .wake
        case .sleep(let until): self = .sleep(CoreHarness.seconds(until))
        case .finish: self = .finish
        }
    }

    static func item(_ item: DaemonCore.JournalBatch.Item) -> Item {
        if let check = item.append.check { return .check(item.seq, check.report.domain) }
        return .conditions(
            item.seq, active: (item.append.conditions ?? []).map(\.code.id),
            events: events(item.append).map(name))
    }

    /// The events of an append's condition deliveries, once each, in order.
    static func events(_ append: JournalAppend) -> [MonitorEvent] {
        var seen: Set<String> = []
        return append.conditionDeliveries.map(\.event).filter { seen.insert($0.id).inserted }
    }

    /// `monitor.firing monitor.resources`.
    static func name(_ event: MonitorEvent) -> String {
        switch event.payload {
        case .monitorFiring(let condition): "\(event.type.rawValue) \(condition.code.id)"
        case .monitorResolved(let code, _): "\(event.type.rawValue) \(code.id)"
        default: event.type.rawValue
        }
    }

    static func text(_ note: DaemonCore.Note) -> String {
        switch note {
        case .committed(let report, _): "committed \(report.domain)"
        case .conditions(let events): "conditions \(events.map(name))"
        case .discarded(let domain, _, let current): "discarded \(domain)" + (current ? "" : " (over)")
        case .notRecorded(let domain, _): "not recorded \(domain)"
        case .abandoned(let domain): "abandoned \(domain)"
        case .fenced(let domain): "fenced \(domain)"
        case .claimFailed: "claim failed"
        case .conditionsNotJournaled(let codes, _): "conditions not journaled \(codes.map(\.id))"
        case .stopping(let count): "stopping \(count)"
        }
    }
}
