/// Where a finding was seen: the location Apple reads, the legacy root path, or Apple's CDN copy.
///
/// The raw values are part of the public interface, never renamed: JSON output, webhooks and alert identities
/// carry them.
public enum FindingSource: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case wellKnown = "origin.well-known"
    case root = "origin.root"
    case cdn = "cdn"

    private var rank: Int {
        switch self {
        case .wellKnown: 0
        case .root: 1
        case .cdn: 2
        }
    }

    public static func < (lhs: FindingSource, rhs: FindingSource) -> Bool { lhs.rank < rhs.rank }
}
