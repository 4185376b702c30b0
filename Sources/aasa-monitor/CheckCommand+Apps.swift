import AppClaims
import Foundation
import Monitor

extension CheckCommand {
    /// The domains and expectations every `--app` file claims. A file that cannot be read is a usage error (exit 2)
    /// naming it; the app's own problems (an unknown service, a binary without an app ID) go to standard error,
    /// and an error among them fails the check as an expectation would (4).
    func readApps() throws -> ClaimedDomains {
        var claimed = ClaimedDomains()
        if appID != nil, !appPaths.contains(where: { $0.hasSuffix(".entitlements") }) {
            throw CommandFailure.usage("--app-id names the app of an .entitlements file given to --app; there is none")
        }
        for path in appPaths {
            do {
                let isEntitlements = (try? AppReader.kind(of: path)) == .entitlements
                claimed.add(try AppReader.read(path: path, appID: isEntitlements ? appID : nil))
            } catch  where error.kind == .appIDRequired {
                throw CommandFailure.usage(
                    "--app \(TerminalText.safe(path)) is an .entitlements file, which names no app: give --app-id "
                        + "TEAMID.bundle.id")
            } catch {
                throw CommandFailure.usage("--app: " + TerminalText.safe(error.description))
            }
        }
        for problem in claimed.problems {
            FileHandle.standardError.write(Data(("aasa-monitor: " + TerminalText.safe(problem.line) + "\n").utf8))
        }
        return claimed
    }
}
