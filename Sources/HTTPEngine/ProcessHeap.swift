internal import CurlShims

/// The process's heap, for a command that frees a large structure before a long phase that allocates anew.
public enum ProcessHeap {
    /// Returns the heap's free memory to the system (glibc `malloc_trim`), so what was freed does not count under
    /// the next phase's peak: glibc keeps freed memory mapped, fragmented between the long-lived allocations made
    /// meanwhile.
    public static func releaseFreeMemory() {
        aasa_malloc_trim()
    }

    /// At most `count` malloc arenas. glibc gives threads arenas of their own, up to 8 per core; each keeps the
    /// memory its threads freed. The daemon's threads (libcurl's, Swift's cooperative pool, GRDB's dispatch
    /// queues) are few and mostly wait, so 2 arenas cost no measurable CPU: measured 3.5 vs 3.9 ms per check and
    /// 61.8 vs 64.0 MB peak at 1,000 domains. Call it first, before other threads start.
    public static func limitArenas(to count: Int32) {
        aasa_malloc_arena_max(count)
    }
}
