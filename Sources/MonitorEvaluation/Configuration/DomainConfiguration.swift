/// One watched domain (`domains[]`): its normalized name, an optional interval and what must hold for it.
public struct DomainConfiguration: Sendable, Hashable {
    /// The A-label, lower-cased, without a trailing dot or `*.` (see `DomainName.normalize`).
    public var name: String
    /// This domain's own check interval (`interval`); `nil` uses the global one.
    public var interval: Duration?
    /// Apps that must be listed and URLs that must (not) open them (`expect`).
    public var expect: Expectations

    public init(name: String, interval: Duration? = nil, expect: Expectations = Expectations()) {
        self.name = name
        self.interval = interval
        self.expect = expect
    }
}
