import Foundation
import TestSupport

/// CPU and memory of another process, from `/proc/PID/stat` and `/proc/PID/status` (Linux only).
public struct ProcessFigures {
    /// utime + stime, in seconds.
    public var cpuSeconds: Double
    /// VmHWM: the peak resident set, in kilobytes.
    public var peakRSSKilobytes: Int
    /// `write_bytes` of /proc/PID/io: what the process sent (or dirtied for) the storage layer: its WAL, its
    /// checkpoints and its logs.
    public var diskWrittenBytes: Int

    public static func read(pid: Int32) throws -> ProcessFigures {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // The command name (field 2) may hold spaces; fields after its closing parenthesis start at field 3.
        guard let close = stat.lastIndex(of: ")") else { throw BenchmarkError("unreadable /proc/\(pid)/stat") }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw BenchmarkError("unreadable /proc/\(pid)/stat: \(stat.prefix(200))")
        }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        guard let peak = ResourceUsage.peakRSSKilobytes(pid: pid) else {
            throw BenchmarkError("no VmHWM in /proc/\(pid)/status")
        }
        let io = (try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8)) ?? ""
        let written = io.split(separator: "\n").first { $0.hasPrefix("write_bytes:") }
            .flatMap { Int($0.dropFirst("write_bytes:".count).trimmingCharacters(in: .whitespaces)) }
        return ProcessFigures(
            cpuSeconds: (user + system) / ticks, peakRSSKilobytes: peak, diskWrittenBytes: written ?? 0)
    }

    /// VmRSS: the resident set now, in kilobytes; nil once the process is gone.
    public static func residentKilobytes(pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return line.dropFirst("VmRSS:".count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first
            .flatMap { Int($0) }
    }
}

/// The bytes of the regular files directly in `directory` (the state directory holds no subdirectories).
public func directoryBytes(_ directory: String) -> [String: Int] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    var sizes: [String: Int] = [:]
    for name in names {
        let attributes = try? FileManager.default.attributesOfItem(atPath: directory + "/" + name)
        sizes[name] = (attributes?[.size] as? NSNumber)?.intValue ?? 0
    }
    return sizes
}
