import Foundation
import FuzzChecks
import Testing

/// Every seed of the fuzz targets and every input a fuzzer once failed on (`Inputs/TARGET`), run through the same
/// checks the libFuzzer executables run (issue 26 §2): a crash found by `.ci/fuzz` becomes a test here by copying
/// its input to `Inputs/TARGET/crash-WHAT`.
@Suite("Fuzz inputs keep their target's properties")
struct FuzzInputReplayTests {
    /// One stored input: its target and file.
    struct StoredInput: CustomTestStringConvertible, Sendable {
        var target: FuzzTarget
        var url: URL
        var testDescription: String { "\(target.rawValue)/\(url.lastPathComponent)" }
    }

    static let inputs: [StoredInput] = FuzzTarget.allCases.flatMap { target in
        let directory = Bundle.module.resourceURL!.appendingPathComponent("Inputs/\(target.rawValue)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().map { StoredInput(target: target, url: directory.appendingPathComponent($0)) }
    }

    @Test("every target has seeds")
    func everyTargetHasSeeds() {
        for target in FuzzTarget.allCases {
            #expect(
                Self.inputs.contains { $0.target == target && $0.url.lastPathComponent.hasPrefix("seed-") },
                "no seed for \(target.rawValue)")
        }
    }

    @Test("the input keeps its target's properties", arguments: inputs)
    func replay(input: StoredInput) throws {
        let bytes = Array(try Data(contentsOf: input.url))
        do {
            try input.target.check(bytes)
        } catch {
            Issue.record("\(input.testDescription): \(error)")
        }
    }
}
