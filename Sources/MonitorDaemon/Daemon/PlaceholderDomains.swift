/// The example configuration's domains, which nobody means to watch: said once when `run` starts on them.
///
/// A first run of the README's from-source command checks `example.com` and `example.org` from
/// `config/aasa-monitor.yml`; offline it logs only errors, and online it watches names nobody can fix (issue 23
/// item 16). The names reserved for documentation (RFC 2606, RFC 6761) are placeholders wherever they appear.
package enum PlaceholderDomains {
    /// The reserved second-level names; a domain equal to one or below it is a placeholder.
    static let reserved = ["example.com", "example.net", "example.org"]

    /// The configured names that are placeholders, in the configuration's order.
    package static func among(_ names: [String]) -> [String] {
        names.filter { name in
            name.hasSuffix(".example")
                || reserved.contains { name == $0 || name.hasSuffix("." + $0) }
        }
    }

    /// `example.com and example.org are placeholders: …`, or `nil` when none of `names` is one.
    package static func notice(for names: [String], configurationPath: String) -> String? {
        let placeholders = among(names)
        guard let last = placeholders.last else { return nil }
        let listed =
            placeholders.count == 1 ? last : placeholders.dropLast().joined(separator: ", ") + " and " + last
        let (verb, them) = placeholders.count == 1 ? ("is a placeholder", "it") : ("are placeholders", "them")
        return "\(listed) \(verb) of the example configuration: replace \(them) with your own domains in "
            + "\(configurationPath) (checks of them say nothing about your apps)"
    }
}
