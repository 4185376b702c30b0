#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How many file descriptors this process can still open: what the engine's `descriptorReserve` and the daemon's
/// endpoint judge their sockets by.
public enum ProcessDescriptors {
    /// Descriptors this process can still open under its soft limit (`Int.max` without one), or `nil` when it cannot
    /// tell, which is itself a sign of none left: counting them may open `/proc/self/fd`.
    public static func free() -> Int? {
        var limit = rlimit()
        guard getrlimit(resourceLimitFiles, &limit) == 0 else { return nil }
        guard limit.rlim_cur != rlim_t.max else { return Int.max }
        guard let open = open() else { return nil }
        return max(0, Int(clamping: limit.rlim_cur) - open)
    }

    /// How many descriptors are open (`nil` when it cannot be told).
    ///
    /// Linux 6.2 and later give the count as the size of `/proc/self/fd`: one `stat`, whatever the count. Older
    /// kernels (Debian 12's 6.1) report 0 there, and the directory is listed instead.
    public static func open() -> Int? {
        #if os(Linux)
            var status = stat()
            if stat("/proc/self/fd", &status) == 0, status.st_size > 0 { return Int(status.st_size) }
            guard let directory = opendir("/proc/self/fd") else { return nil }
            defer { closedir(directory) }
            var count = 0
            while readdir(directory) != nil { count += 1 }
            return max(0, count - 3)  // ".", ".." and the directory's own descriptor
        #else
            return nil
        #endif
    }

    #if canImport(Glibc)
        private static let resourceLimitFiles = Int32(RLIMIT_NOFILE.rawValue)
    #else
        private static let resourceLimitFiles = RLIMIT_NOFILE
    #endif
}
