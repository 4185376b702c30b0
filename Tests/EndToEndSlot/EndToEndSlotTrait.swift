import TestSupport
import Testing

/// A suite trait: each test of the suite (each case of a parameterized one) runs holding one of `EndToEndSlots`.
///
/// In a target of its own because `TestSupport` is linked into the benchmarks, which must not link Swift Testing.
public struct EndToEndSlotTrait: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> EndToEndSlotTrait? {
        test.isSuite || testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await EndToEndSlots.withSlot { try await function() }
    }
}

extension Trait where Self == EndToEndSlotTrait {
    /// Each test takes a slot while it runs: for suites that spawn `aasa-monitor` or start fixture servers.
    public static var endToEndSlot: Self { EndToEndSlotTrait() }
}
