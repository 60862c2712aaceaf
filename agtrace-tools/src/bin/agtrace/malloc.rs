//! glibc malloc settings for a process that answers from memory it has just freed.
//!
//! A served index's first call on a large session parses its whole log (a 2 MB Gemini document
//! is a few megabytes of strings). With glibc's defaults that call ran on a blocking-pool thread
//! with an arena of its own, and strings over 128 KB were mapped fresh and unmapped on drop:
//! every page of them was a page fault, most of the call (the parse took 4 ms instead of
//! 1.4 ms; `agtrace-tools/docs/benchmarks.md`, "First call on a session"). One arena, large
//! blocks taken from it and free memory kept instead of trimmed let the call reuse the pages
//! the start-up work (catalog, first refresh) already touched. The full index build measured
//! the same with and without (21.8-23.4 s on the 1.2 GB bench corpus).

/// Blocks up to this size come from the arena instead of a mapping of their own.
const MMAP_THRESHOLD: i32 = 32 << 20;
/// Free memory at the top of the heap kept for reuse before any is given back.
const TRIM_THRESHOLD: i32 = 128 << 20;

/// Applies the settings; called first thing in `main`, before any other thread runs.
pub fn tune() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets allocator parameters; nothing is allocated concurrently yet.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
        libc::mallopt(libc::M_TRIM_THRESHOLD, TRIM_THRESHOLD);
    }
}
