import Foundation

/// Expectations given on a command line (`--expect-app`, `--expect-url`, `--expect-no-url`), assigned to domains.
public enum ExpectationArguments {
    /// The services an `--expect-app SERVICE:APPID` may name.
    public static let services: Set<String> = ["applinks", "webcredentials", "appclips", "activitycontinuation"]

    /// Builds each domain's expectations: a bare app (`[SERVICE:]APPID`) applies to every domain checked,
    /// `DOMAIN=[SERVICE:]APPID` to that domain only, and a URL to the domain of its host.
    ///
    /// `urls` and `noURLs` are `URL=APPID`, split at the last `=` (URLs may hold `=` in their query).
    public static func assign(
        apps: [String],
        urls: [String],
        noURLs: [String],
        domains: [String]
    ) throws(ExpectationArgumentError) -> [String: Expectations] {
        var expectedApps: [ExpectedApp] = []
        var domainApps: [(domain: String, app: ExpectedApp)] = []
        for argument in apps {
            if let equals = argument.firstIndex(of: "=") {
                let host = String(argument[..<equals])
                let domain = (try? DomainName.normalize(host)) ?? host
                guard domains.contains(domain) else {
                    throw ExpectationArgumentError(
                        "--expect-app \(argument): \(host) is not one of the domains checked (DOMAIN=APPID names one)")
                }
                domainApps.append((domain, try app(String(argument[argument.index(after: equals)...]), as: argument)))
            } else {
                expectedApps.append(try app(argument, as: argument))
            }
        }
        var result = Dictionary(uniqueKeysWithValues: domains.map { ($0, Expectations(apps: expectedApps)) })
        for (domain, app) in domainApps where result[domain]?.apps.contains(app) == false {
            result[domain]?.apps.append(app)
        }
        for (argument, decision) in urls.map({ ($0, ExpectedDecision.match) }) + noURLs.map({ ($0, .notMatch) }) {
            let option = decision == .match ? "--expect-url" : "--expect-no-url"
            guard let equals = argument.lastIndex(of: "="), equals != argument.startIndex else {
                throw ExpectationArgumentError("\(option) \(argument): expected URL=APPID")
            }
            let url = String(argument[..<equals])
            let appID = String(argument[argument.index(after: equals)...])
            guard AppIDShape.isValid(appID[...]) else {
                throw ExpectationArgumentError(
                    "\(option) \(argument): '\(appID)' is not an app ID (10-character Team ID, '.', bundle ID)")
            }
            guard let host = URLShape.host(of: url) else {
                throw ExpectationArgumentError("\(option) \(argument): '\(url)' is not an absolute https URL")
            }
            let domain = (try? DomainName.normalize(host)) ?? host
            guard result[domain] != nil else {
                throw ExpectationArgumentError(
                    "\(option) \(argument): the URL's host \(host) is not one of the domains checked")
            }
            result[domain]?.urls.append(ExpectedURL(url: url, appID: appID, decision: decision))
        }
        return result
    }

    /// `APPID` (in `applinks`) or `SERVICE:APPID`; `given` is the whole argument, for messages.
    static func app(_ argument: String, as given: String) throws(ExpectationArgumentError) -> ExpectedApp {
        var service = "applinks"
        var appID = argument
        if let colon = argument.firstIndex(of: ":") {
            service = String(argument[..<colon])
            appID = String(argument[argument.index(after: colon)...])
            guard services.contains(service) else {
                throw ExpectationArgumentError(
                    "--expect-app \(given): unknown service '\(service)'; expected one of "
                        + services.sorted().joined(separator: ", "))
            }
        }
        guard AppIDShape.isValid(appID[...]) else {
            throw ExpectationArgumentError(
                "--expect-app \(given): '\(appID)' is not an app ID (10-character Team ID, '.', bundle ID)")
        }
        return ExpectedApp(service: service, appID: appID)
    }
}

/// A command-line expectation that cannot be understood; the message names the option and the value.
public struct ExpectationArgumentError: Error, Sendable, CustomStringConvertible {
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
