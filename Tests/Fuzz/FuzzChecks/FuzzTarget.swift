/// The code each fuzz target exercises, with the properties it must keep: one function per target, shared by the
/// libFuzzer executables (`Tests/Fuzz/Targets`, built by `.ci/fuzz`) and the regression suite that replays every
/// seed and every input a fuzzer once failed on.
///
/// A check returns normally when every property holds and throws a ``PropertyViolation`` naming the one that
/// broke; a crash in the code under test is a crash here too, which libFuzzer reports with the input.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// AASA parse, lint, canonical form and diff.
    case aasa
    /// The URL matcher against a reference matcher, within its step budget.
    case matcher
    /// The YAML configuration loader.
    case configuration
    /// The engine's header-line reader and the evaluation of CDN and origin response headers.
    case headers
    /// The app reader: Mach-O, code signature, property lists, archive entry names.
    case app

    /// Runs the code under test on `bytes` and checks its properties.
    public func check(_ bytes: [UInt8]) throws(PropertyViolation) {
        switch self {
        case .aasa: try AASAProperties.check(bytes)
        case .matcher: try MatcherProperties.check(bytes)
        case .configuration: try ConfigurationProperties.check(bytes)
        case .headers: try HeaderProperties.check(bytes)
        case .app: try AppReaderProperties.check(bytes)
        }
    }

    /// What a libFuzzer entry point calls: `check`, trapping with the broken property so libFuzzer keeps the
    /// input as a crash.
    public func run(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        do {
            try check(bytes)
        } catch {
            fatalError("\(rawValue): \(error)")
        }
    }
}

/// A property of the code under test that an input broke, in words.
public struct PropertyViolation: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }

    /// Throws `message` unless `condition` holds.
    static func require(_ condition: Bool, _ message: @autoclosure () -> String) throws(PropertyViolation) {
        if !condition { throw PropertyViolation(message()) }
    }
}
