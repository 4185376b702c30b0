import Foundation

/// A bundle or archive folder on disk (`.app`, `.xcarchive`), read in place.
struct DirectoryStore: BundleStore {
    /// The folder store paths are relative to.
    let root: String

    private func absolute(_ path: String) -> String { path.isEmpty ? root : root + "/" + path }

    func isFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: absolute(path), isDirectory: &isDirectory)
            && !isDirectory.boolValue
    }

    /// Real folders only: a symbolic link is not followed. An app's nested bundles are folders, and a link such as
    /// `PlugIns/Loop.appex -> ..` would read the app again at every level (issue 32 §8: one binary counted four
    /// times).
    func folders(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: absolute(directory))) ?? []
        return names.filter { name in
            var status = stat()
            return lstat(absolute(directory) + "/" + name, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
        }.sorted()
    }

    func read(_ path: String, limit: Int) throws(AppClaimsError) -> [UInt8] {
        try FileByteSource(path: absolute(path)).all(limit: limit, what: "the file")
    }

    func slices(ofExecutable path: String) throws(AppClaimsError) -> [MachOSlice] {
        try MachOReader.slices(of: FileByteSource(path: absolute(path)))
    }
}
