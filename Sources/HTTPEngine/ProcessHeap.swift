internal import CurlShims

/// The process's heap, for a command that frees a large structure before a long phase that allocates anew.
public enum ProcessHeap {
    /// Returns the heap's free memory to the system, so what was freed does not count under the next phase's peak:
    /// both allocators keep freed memory mapped for a while (jemalloc for about 10 s; glibc until the top of the heap
    /// is free, fragmented between the long-lived allocations made meanwhile).
    public static func releaseFreeMemory() {
        aasa_release_free_memory()
    }

    /// Whether jemalloc is the process's allocator: `aasa-monitor` links it (see Package.swift); tests and
    /// benchmarks run on glibc's malloc.
    public static var usesJemalloc: Bool {
        aasa_jemalloc_linked() != 0
    }
}
