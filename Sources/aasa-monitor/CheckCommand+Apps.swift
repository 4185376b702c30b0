import AppClaims
import Foundation
import MonitorCheck
import MonitorDaemon

extension CheckCommand {
    /// The domains and expectations every `--app` file claims. A file that cannot be read is a usage error (exit 2)
    /// naming it; the app's own problems (an unknown service, a binary without an app ID) go to standard error,
    /// as the configuration's `apps:` warns of them (a claim of a checked domain is judged as an expectation).
    func readApps() throws -> ClaimedDomains {
        var claimed = ClaimedDomains()
        var usedAppID = false
        for path in appPaths {
            do {
                // By content, as the reader judges it, not by the file's name.
                let isEntitlements = (try? AppReader.kind(of: path)) == .entitlements
                usedAppID = usedAppID || isEntitlements
                claimed.add(try AppReader.read(path: path, appID: isEntitlements ? appID : nil))
            } catch  where error.kind == .appIDRequired {
                throw CommandFailure.usage(
                    "--app \(TerminalText.safe(path)) is an .entitlements file, which names no app: give --app-id "
                        + "TEAMID.bundle.id")
            } catch {
                throw CommandFailure.usage("--app: " + TerminalText.safe(error.description))
            }
        }
        if appID != nil, !usedAppID {
            throw CommandFailure.usage("--app-id names the app of an .entitlements file given to --app; there is none")
        }
        for problem in claimed.problems {
            FileHandle.standardError.write(Data(("aasa-monitor: " + TerminalText.safe(problem.line) + "\n").utf8))
        }
        return claimed
    }
}
