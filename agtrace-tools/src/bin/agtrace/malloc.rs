//! glibc malloc settings for a process that answers from memory it has just freed.
//!
//! A served index's first call on a large session parses its whole log (a 2 MB Gemini document
//! is a few megabytes of strings). With glibc's defaults that call ran on a blocking-pool thread
//! with an arena of its own, and strings over 128 KB were mapped fresh and unmapped on drop:
//! every page of them was a page fault, most of the call (the parse took 4 ms instead of
//! 1.4 ms; `agtrace-tools/docs/benchmarks.md`, "First call on a session"). One arena, large
//! blocks taken from it and free memory kept instead of trimmed let the call reuse the pages
//! the start-up work (catalog, first refresh) already touched.
//!
//! `agtrace index` keeps glibc's arenas, one per thread up to its limit: it answers no call,
//! and with one arena every parser thread allocates under the same lock. Measured on 2 idle
//! cores (2,000 generated sessions, 261.6 MB, three alternating builds each): 5.33-5.46 s with
//! the default arenas against 5.84-6.71 s with one, and 10% less CPU. More cores would queue
//! more threads on the one lock.

/// Blocks up to this size come from the arena instead of a mapping of their own.
const MMAP_THRESHOLD: i32 = 32 << 20;
/// Free memory at the top of the heap kept for reuse before any is given back.
const TRIM_THRESHOLD: i32 = 128 << 20;

/// Applies the settings; called in `main` before any other thread runs. `bulk`: the process
/// only builds the index (`agtrace index`), so it keeps an arena per thread.
pub fn tune(bulk: bool) {
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    let _ = bulk;
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets allocator parameters; nothing is allocated concurrently yet.
    unsafe {
        if !bulk {
            libc::mallopt(libc::M_ARENA_MAX, 1);
        }
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
        libc::mallopt(libc::M_TRIM_THRESHOLD, TRIM_THRESHOLD);
    }
}
