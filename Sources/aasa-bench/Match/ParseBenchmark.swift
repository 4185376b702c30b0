import AASA
import Foundation

/// Parse + canonicalize + hash throughput (MB/s) over the 60 real files of the test corpus, and over one
/// synthetic file at Apple's size limit.
enum ParseBenchmark {
    static func run() {
        let files = corpusFiles()
        guard !files.isEmpty else {
            print("parse  corpus not found (expected Tests/AASATests/Resources/corpus in the package)")
            return
        }
        report(name: "corpus (\(files.count) files)", files: files)
        report(name: "one 128 KB file", files: [largeDocument()])
    }

    /// Measures `files` with enough repetitions that each of the 7 runs lasts at least a second.
    private static func report(name: String, files: [[UInt8]]) {
        let bytes = files.reduce(0) { $0 + $1.count }
        var hashes = 0
        let pass = {
            for file in files where AASAParser.parse(file).canonicalHash != nil {
                hashes += 1
            }
        }
        let once = max(Measurement.medianSeconds(runs: 3, pass), 1e-6)
        let repetitions = max(1, Int((1.5 / once).rounded(.up)))
        let seconds = Measurement.medianSeconds {
            for _ in 0..<repetitions { pass() }
        }
        let megabytes = Double(bytes * repetitions) / 1_000_000
        print(
            "parse  \(name), \(bytes) bytes: "
                + "\(String(format: "%.1f", megabytes / seconds)) MB/s parse+canonicalize+SHA-256, "
                + "\(Measurement.format(Double(files.count * repetitions) / seconds)) files/s "
                + "(median of 7 runs of \(String(format: "%.2f", seconds)) s)")
    }

    /// A modern file just under Apple's 131072-byte limit: many entries and components, the largest body the
    /// probe will accept.
    private static func largeDocument() -> [UInt8] {
        var entries: [String] = []
        var index = 0
        var size = 0
        while size < 120_000 {
            let entry =
                #"{"appIDs": ["9JA89QQLNQ.com.example.app\#(index)"], "components": ["#
                + #"{"/": "/shop\#(index)/*", "?": {"ref": "?*"}, "comment": "shop \#(index) caf\u00e9 café"}, "#
                + ##"{"#": "no_universal_links", "exclude": true}]}"##
            entries.append(entry)
            size += entry.utf8.count + 2
            index += 1
        }
        let text = "{\"applinks\": {\"details\": [\n" + entries.joined(separator: ",\n") + "\n]}}"
        return Array(text.utf8)
    }

    /// The corpus the tests vendor, `<root>/Tests/AASATests/Resources/corpus`, found from this source file.
    private static func corpusFiles() -> [[UInt8]] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent()
        let corpus = root.appendingPathComponent("Tests/AASATests/Resources/corpus")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().compactMap { name in
            (try? Data(contentsOf: corpus.appendingPathComponent(name))).map { Array($0) }
        }
    }
}
