import AASA
import Foundation

/// Parse + canonicalize + hash throughput (MB/s) over the 60 real files of `../shared/corpus`.
enum ParseBenchmark {
    static func run() {
        let files = corpusFiles()
        guard !files.isEmpty else {
            print("parse  corpus not found next to the package (expected ../shared/corpus)")
            return
        }
        let bytes = files.reduce(0) { $0 + $1.count }
        var hashes = 0
        let repetitions = 200
        let seconds = Measurement.medianSeconds {
            for _ in 0..<repetitions {
                for file in files where AASAParser.parse(file).canonicalHash != nil {
                    hashes += 1
                }
            }
        }
        let megabytes = Double(bytes * repetitions) / 1_000_000
        print(
            "parse  corpus (\(files.count) files, \(bytes) bytes): "
                + "\(String(format: "%.1f", megabytes / seconds)) MB/s parse+canonicalize+SHA-256, "
                + "\(Measurement.format(Double(files.count * repetitions) / seconds)) files/s (median of 7 runs)")
    }

    /// The corpus sits beside the package root: `<root>/../shared/corpus`, found from this source file.
    private static func corpusFiles() -> [[UInt8]] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let corpus = root.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().compactMap { name in
            (try? Data(contentsOf: corpus.appendingPathComponent(name))).map { Array($0) }
        }
    }
}
