internal import CurlShims

/// The process's heap, for a command that frees a large structure before a long phase that allocates anew.
public enum ProcessHeap {
    /// Returns the heap's free memory to the system (glibc `malloc_trim`), so what was freed does not count under
    /// the next phase's peak: glibc keeps freed memory mapped, fragmented between the long-lived allocations made
    /// meanwhile.
    public static func releaseFreeMemory() {
        aasa_malloc_trim()
    }
}
