import Foundation
import Yams

/// `domains[]`: a bare name (`- example.com`) or a mapping with `name`, `interval` and `expect`.
extension ConfigurationBuilder {
    /// The services an expected app can name (`webcredentials:ABCDE12345.com.example`).
    static let services = ["applinks", "webcredentials", "appclips", "activitycontinuation"]

    mutating func domains(_ node: Node, path: ConfigurationPath) -> [DomainConfiguration] {
        guard let items = reader.list(node, path: path) else { return [] }
        var domains: [DomainConfiguration] = []
        // The name as written is kept whole and shortened only for a duplicate's message: shortening every name
        // cost 7% of `status` at 100,000 domains.
        var firstLine: [String: (line: Int?, written: String)] = [:]
        firstLine.reserveCapacity(items.count)
        domains.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            let itemPath = path.index(index)
            guard let (domain, nameNode) = domain(item, path: itemPath) else { continue }
            let written = nameNode.scalar?.string ?? domain.name
            let namePath = ConfigurationReader.isScalar(item) ? itemPath : itemPath.key("name")
            if let first = firstLine[domain.name] {
                let at = first.line.map { "\(fileName):\($0)" } ?? fileName
                reader.report(
                    "'\(ConfigurationReader.truncated(written))' is the same domain as "
                        + "'\(ConfigurationReader.truncated(first.written))' at \(at) "
                        + "(both are \(domain.name)); list it once", at: nameNode, path: namePath)
                continue
            }
            firstLine[domain.name] = (nameNode.mark?.line, written)
            domains.append(domain)
        }
        return domains
    }

    /// One entry and the node its name came from (for duplicate reports).
    private mutating func domain(_ node: Node, path: ConfigurationPath) -> (DomainConfiguration, Node)? {
        if case .scalar = node {
            guard let name = domainName(node, path: path) else { return nil }
            return (DomainConfiguration(name: name), node)
        }
        guard let fields = reader.fields(of: node, path: path, allowed: ["name", "interval", "expect"]) else {
            return nil
        }
        guard let nameNode = fields["name"] else {
            reader.report("missing 'name', the domain to watch", at: node, path: path)
            return nil
        }
        let name = domainName(nameNode, path: path.key("name"))
        var domain = DomainConfiguration(name: name ?? "")
        if let value = fields["interval"] {
            domain.interval =
                reader.duration(value, path: path.key("interval"), minimum: MonitorConfiguration.minimumInterval)
        }
        if let value = fields["expect"] { domain.expect = expectations(value, path: path.key("expect")) }
        return name == nil ? nil : (domain, nameNode)
    }

    private mutating func domainName(_ node: Node, path: ConfigurationPath) -> String? {
        guard let text = reader.string(node, path: path) else { return nil }
        do throws(DomainNameError) {
            return try DomainName.normalize(text)
        } catch {
            reader.report(error.description, at: node, path: path)
            return nil
        }
    }

    private mutating func expectations(_ node: Node, path: ConfigurationPath) -> Expectations {
        var expectations = Expectations()
        guard let fields = reader.fields(of: node, path: path, allowed: ["apps", "urls"]) else { return expectations }
        if let value = fields["apps"], let items = reader.list(value, path: path.key("apps")) {
            for (index, item) in items.enumerated() {
                if let app = expectedApp(item, path: path.key("apps").index(index)) { expectations.apps.append(app) }
            }
        }
        if let value = fields["urls"], let items = reader.list(value, path: path.key("urls")) {
            for (index, item) in items.enumerated() {
                if let url = expectedURL(item, path: path.key("urls").index(index)) { expectations.urls.append(url) }
            }
        }
        return expectations
    }

    /// `APPID` (in `applinks`) or `SERVICE:APPID`.
    private mutating func expectedApp(_ node: Node, path: ConfigurationPath) -> ExpectedApp? {
        guard let text = reader.string(node, path: path) else { return nil }
        var service = "applinks"
        var appID = Substring(text)
        if let colon = text.firstIndex(of: ":") {
            service = String(text[..<colon])
            appID = text[text.index(after: colon)...]
            guard Self.services.contains(service) else {
                reader.report(
                    "unknown service '\(ConfigurationReader.truncated(service))'; expected one of "
                        + Self.services.joined(separator: ", "), at: node, path: path)
                return nil
            }
        }
        guard AppIDShape.isValid(appID) else {
            reader.report(AppIDShape.problem(found: ConfigurationReader.describe(node)), at: node, path: path)
            return nil
        }
        return ExpectedApp(service: service, appID: String(appID))
    }

    private mutating func expectedURL(_ node: Node, path: ConfigurationPath) -> ExpectedURL? {
        guard let fields = reader.fields(of: node, path: path, allowed: ["url", "app", "decision"]) else { return nil }
        var url: String?
        var appID: String?
        var decision = ExpectedDecision.match
        if let value = fields["url"], let text = reader.string(value, path: path.key("url")) {
            if URLShape.isAbsoluteHTTP(text) {
                url = text
            } else {
                reader.report(
                    "expected an absolute http or https URL, like https://example.com/path, found "
                        + ConfigurationReader.describe(value), at: value, path: path.key("url"))
            }
        } else if fields["url"] == nil {
            reader.report("missing 'url', the URL to decide", at: node, path: path)
        }
        if let value = fields["app"], let text = reader.string(value, path: path.key("app")) {
            if AppIDShape.isValid(Substring(text)) {
                appID = text
            } else {
                reader.report(
                    AppIDShape.problem(found: ConfigurationReader.describe(value)), at: value, path: path.key("app"))
            }
        } else if fields["app"] == nil {
            reader.report("missing 'app', the app ID the URL must (not) open", at: node, path: path)
        }
        if let value = fields["decision"] {
            decision = reader.choice(value, path: path.key("decision"), as: ExpectedDecision.self) ?? decision
        }
        guard let url, let appID else { return nil }
        return ExpectedURL(url: url, appID: appID, decision: decision)
    }
}

/// An app ID: a 10-character team ID, a dot, and a bundle ID (`ABCDE12345.com.example.app`).
enum AppIDShape {
    static func isValid(_ text: Substring) -> Bool {
        guard let dot = text.firstIndex(of: "."), text.distance(from: text.startIndex, to: dot) == 10 else {
            return false
        }
        let team = text[..<dot]
        let bundle = text[text.index(after: dot)...]
        return team.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } && !bundle.isEmpty
            && bundle.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "*") }
    }

    static func problem(found: String) -> String {
        "expected an app ID, a 10-character team ID, a dot and a bundle ID like ABCDE12345.com.example.app, "
            + "found \(found)"
    }
}

/// Absolute http(s) URLs with a host.
enum URLShape {
    static func isAbsoluteHTTP(_ text: String) -> Bool {
        host(of: text) != nil
    }

    /// The host of an absolute http(s) URL, or `nil` when `text` is not one.
    static func host(of text: String) -> String? {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else { return nil }
        return host
    }
}
