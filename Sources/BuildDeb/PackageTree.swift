import Foundation

/// The file tree that becomes the `.deb`: paths as installed, each file with its mode.
struct PackageTree {
    /// The tree's root, `.build-deb/deb/debian/aasa-monitor`; emptied when the tree is made.
    let root: URL

    /// Makes an empty tree with its `DEBIAN/` directory (dpkg-shlibdeps looks for it to know the tree's root).
    init(root: URL) throws {
        self.root = root
        try? FileManager.default.removeItem(at: root)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("DEBIAN"), withIntermediateDirectories: true)
    }

    /// The URL of `path` (absolute, as installed) inside the tree.
    func url(_ path: String) -> URL { root.appendingPathComponent(String(path.drop(while: { $0 == "/" }))) }

    /// Writes `text` to `path` with `mode` (directories 0755, as dpkg expects).
    func write(_ text: String, to path: String, mode: Int = 0o644) throws {
        try write(Data(text.utf8), to: path, mode: mode)
    }

    func write(_ data: Data, to path: String, mode: Int = 0o644) throws {
        let file = url(path)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o755])
        try data.write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file.path)
    }

    /// Copies `source` to `path` with `mode`.
    func copy(_ source: URL, to path: String, mode: Int = 0o644) throws {
        try write(try Data(contentsOf: source), to: path, mode: mode)
    }

    /// `gzip -9n`: maximum compression, no name or time stamp in the header (same input, same bytes).
    func copyGzipped(_ source: URL, to path: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-9nc", source.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, !data.isEmpty else {
            throw BuildDebError("`gzip -9nc \(source.path)` failed with status \(process.terminationStatus)")
        }
        try write(data, to: path)
    }

    /// Every regular file outside `DEBIAN/`, as a path relative to the root, sorted.
    func payloadFiles() throws -> [String] {
        let base = root.standardizedFileURL.path + "/"
        let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        var files: [String] = []
        while let item = walker?.nextObject() as? URL {
            guard (try item.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { continue }
            let relative = String(item.standardizedFileURL.path.dropFirst(base.count))
            if !relative.hasPrefix("DEBIAN/") { files.append(relative) }
        }
        return files.sorted()
    }

    /// `DEBIAN/md5sums`, which `dpkg --verify` and debsums check the installed files against.
    func writeChecksums() throws {
        let files = try payloadFiles()
        let sums = try Shell.run("md5sum", ["--"] + files, in: root)
        try write(sums, to: "DEBIAN/md5sums")
    }

    /// Kilobytes the payload takes, for `Installed-Size:`.
    func installedSize() throws -> Int {
        let files = try payloadFiles()
        let bytes = try files.reduce(0) { total, file in
            total + ((try FileManager.default.attributesOfItem(atPath: url(file).path)[.size] as? Int) ?? 0)
        }
        return (bytes + 1023) / 1024 + files.count
    }
}
