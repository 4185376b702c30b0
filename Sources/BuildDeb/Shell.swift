import Foundation

/// A failure of `build-deb`: what went wrong, where, and what to do, printed by SwiftPM as the command's error.
struct BuildDebError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }
}

/// Runs the external programs packaging needs (swift, strip, dpkg-shlibdeps, dpkg-deb, gzip), failing loudly.
///
/// Their own progress goes to standard error, so that the last line on standard output stays the `.deb` path.
enum Shell {
    /// Runs `program` (looked up in `PATH` unless it is a path) and returns its standard output.
    ///
    /// A non-zero exit throws an error naming the command line, the exit status and the output it printed.
    @discardableResult
    static func run(
        _ program: String, _ arguments: [String], in directory: URL? = nil, capture: Bool = true,
        environment: [String: String]? = nil
    ) throws -> String {
        let process = Process()
        if program.contains("/") {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [program] + arguments
        }
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        let output = Pipe()
        process.standardOutput = capture ? output : FileHandle.standardError
        process.standardError = FileHandle.standardError
        let line = ([program] + arguments).joined(separator: " ")
        do {
            try process.run()
        } catch {
            throw BuildDebError("cannot start `\(line)`: \(error); is \(program) installed and on PATH?")
        }
        let data = capture ? output.fileHandleForReading.readDataToEndOfFile() : Data()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw BuildDebError(
                "`\(line)` failed with status \(process.terminationStatus)"
                    + (text.isEmpty ? "" : ":\n\(text)") + "\n(its error output is above)")
        }
        return text
    }

    /// Writes a progress line to standard error.
    static func say(_ message: String) {
        FileHandle.standardError.write(Data("build-deb: \(message)\n".utf8))
    }
}
