//! A log file's bytes, mapped instead of read when a process asks for it.
//!
//! Reading a 2 MB log copies it into 2 MB of fresh memory: on a VM where a first touch of a page
//! costs microseconds, that copy was a third of a fresh server's first call on the session.
//! Mapping it shares the kernel's cached pages. But an agent can truncate its log while it is
//! mapped (Gemini CLI rewrites its document in place), and touching a mapped page past the new
//! end raises `SIGBUS`, which kills the process. So mapping is opt-in, through [`guard`]: it
//! installs a `SIGBUS` handler that, for a fault inside a registered mapping, maps zero pages
//! over the rest of it and marks it truncated; the parse then fails or reads zeros, and the
//! caller reads the file again ([`LogBytes::truncated`]). A fault anywhere else goes to the
//! handler that was there before.

use std::path::Path;

/// The bytes of a log: mapped, or read.
pub(super) enum LogBytes {
    Read(Vec<u8>),
    #[cfg(target_os = "linux")]
    Mapped(guarded::Mapping),
}

impl LogBytes {
    /// The file's bytes; mapped when [`guard`] was called and the file can be mapped.
    pub(super) fn open(path: &Path) -> std::io::Result<Self> {
        #[cfg(target_os = "linux")]
        if guarded::installed()
            && let Some(m) = guarded::Mapping::of(path)?
        {
            return Ok(LogBytes::Mapped(m));
        }
        std::fs::read(path).map(LogBytes::Read)
    }

    pub(super) fn bytes(&self) -> &[u8] {
        match self {
            LogBytes::Read(b) => b,
            #[cfg(target_os = "linux")]
            LogBytes::Mapped(m) => m.bytes(),
        }
    }

    /// Whether the file shrank under the mapping while it was read: what was read is then no
    /// version of the file, and it must be read again.
    pub(super) fn truncated(&self) -> bool {
        match self {
            LogBytes::Read(_) => false,
            #[cfg(target_os = "linux")]
            LogBytes::Mapped(m) => m.truncated(),
        }
    }
}

/// Lets the store map log files instead of reading them, installing the process's `SIGBUS`
/// handler for it (Linux; elsewhere logs are read). For a program that owns its signal
/// handling, like the `agtrace` binary; call it before any log is opened. Returns whether
/// mapping is now on.
pub fn guard() -> bool {
    #[cfg(target_os = "linux")]
    return guarded::install();
    #[cfg(not(target_os = "linux"))]
    false
}

#[cfg(target_os = "linux")]
mod guarded {
    use std::fs::File;
    use std::os::fd::AsRawFd;
    use std::path::Path;
    use std::sync::OnceLock;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    /// Mappings that can be open at once; a read past them falls back to `read`.
    const SLOTS: usize = 64;

    struct Slot {
        busy: AtomicBool,
        /// Start address; 0 while the slot holds no mapping.
        start: AtomicUsize,
        len: AtomicUsize,
        truncated: AtomicBool,
    }

    impl Slot {
        const fn empty() -> Self {
            Slot {
                busy: AtomicBool::new(false),
                start: AtomicUsize::new(0),
                len: AtomicUsize::new(0),
                truncated: AtomicBool::new(false),
            }
        }
    }

    static MAPPINGS: [Slot; SLOTS] = [const { Slot::empty() }; SLOTS];

    /// Whether the handler is installed (set once, by [`install`]).
    static INSTALLED: OnceLock<bool> = OnceLock::new();
    /// The page size, and the handler that was installed before ours: both written before
    /// ours is, and only read after.
    static PAGE: AtomicUsize = AtomicUsize::new(0);
    static PREVIOUS: OnceLock<Previous> = OnceLock::new();

    struct Previous(libc::sigaction);
    // SAFETY: plain data, written once before the handler can read it.
    unsafe impl Sync for Previous {}
    unsafe impl Send for Previous {}

    pub(super) fn installed() -> bool {
        INSTALLED.get() == Some(&true)
    }

    pub(super) fn install() -> bool {
        *INSTALLED.get_or_init(|| {
            // SAFETY: sysconf and sigaction with valid arguments; the statics the handler
            // reads are set before it is installed.
            unsafe {
                let Ok(page) = usize::try_from(libc::sysconf(libc::_SC_PAGESIZE)) else {
                    return false;
                };
                let mut previous: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(libc::SIGBUS, std::ptr::null(), &mut previous) != 0 {
                    return false;
                }
                PAGE.store(page, Ordering::Relaxed);
                PREVIOUS.get_or_init(|| Previous(previous));
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_sigbus as *const () as usize;
                action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut()) == 0
            }
        })
    }

    /// Async-signal-safe: atomics and `mmap`/`sigaction` system calls only.
    extern "C" fn on_sigbus(_: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
        // SAFETY: the kernel passes a valid siginfo for an SA_SIGINFO handler.
        let addr = unsafe { (*info).si_addr() } as usize;
        let page = PAGE.load(Ordering::Relaxed);
        for slot in &MAPPINGS {
            let start = slot.start.load(Ordering::Acquire);
            let len = slot.len.load(Ordering::Acquire);
            if start == 0 || addr < start || addr >= start + len {
                continue;
            }
            let from = addr & !(page - 1);
            let end = (start + len).div_ceil(page) * page;
            // SAFETY: [from, end) lies in this slot's mapping, which its owner reads and only
            // unmaps after clearing the slot.
            let zeros = unsafe {
                libc::mmap(
                    from as *mut libc::c_void,
                    end - from,
                    libc::PROT_READ,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                    -1,
                    0,
                )
            };
            if zeros != libc::MAP_FAILED {
                slot.truncated.store(true, Ordering::Release);
                return;
            }
        }
        // Not a fault of ours: back to the handler before ours, which the access that faulted
        // meets when it runs again.
        if let Some(previous) = PREVIOUS.get() {
            // SAFETY: restores a disposition read from the kernel.
            unsafe { libc::sigaction(libc::SIGBUS, &previous.0, std::ptr::null_mut()) };
        }
    }

    /// A read-only private mapping of a whole file, registered with the handler.
    pub(crate) struct Mapping {
        ptr: *mut libc::c_void,
        len: usize,
        slot: &'static Slot,
        file: File,
    }

    // SAFETY: the mapping is read-only and owned by this value.
    unsafe impl Send for Mapping {}
    unsafe impl Sync for Mapping {}

    impl Mapping {
        /// `None` when the file cannot be mapped (empty, not a regular file, no slot free).
        pub(super) fn of(path: &Path) -> std::io::Result<Option<Mapping>> {
            let file = File::open(path)?;
            let meta = file.metadata()?;
            let Ok(len) = usize::try_from(meta.len()) else {
                return Ok(None);
            };
            if len == 0 || !meta.is_file() {
                return Ok(None);
            }
            let Some(slot) = MAPPINGS.iter().find(|s| {
                s.busy
                    .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
                    .is_ok()
            }) else {
                return Ok(None);
            };
            // SAFETY: a fresh read-only private mapping of an open file.
            let ptr = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    len,
                    libc::PROT_READ,
                    libc::MAP_PRIVATE,
                    file.as_raw_fd(),
                    0,
                )
            };
            if ptr == libc::MAP_FAILED {
                slot.busy.store(false, Ordering::Release);
                return Ok(None);
            }
            slot.truncated.store(false, Ordering::Relaxed);
            slot.len.store(len, Ordering::Relaxed);
            slot.start.store(ptr as usize, Ordering::Release);
            Ok(Some(Mapping {
                ptr,
                len,
                slot,
                file,
            }))
        }

        pub(super) fn bytes(&self) -> &[u8] {
            // SAFETY: `len` mapped bytes stay readable until drop (zeros past a truncation).
            unsafe { std::slice::from_raw_parts(self.ptr.cast::<u8>(), self.len) }
        }

        /// A cut that leaves the end of the file inside a page raises no signal (the rest of
        /// that page reads as zeros): the file's length now tells.
        pub(super) fn truncated(&self) -> bool {
            self.slot.truncated.load(Ordering::Acquire)
                || self
                    .file
                    .metadata()
                    .map_or(true, |m| m.len() < self.len as u64)
        }
    }

    impl Drop for Mapping {
        fn drop(&mut self) {
            self.slot.start.store(0, Ordering::Release);
            // SAFETY: unmaps what `of` mapped; no slice of it outlives `self`.
            unsafe { libc::munmap(self.ptr, self.len) };
            self.slot.busy.store(false, Ordering::Release);
        }
    }

    #[cfg(test)]
    pub(super) fn page() -> usize {
        PAGE.load(Ordering::Relaxed)
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn a_log_truncated_while_mapped_reads_as_zeros_and_says_so() {
        assert!(guard());
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("session.json");
        let page = guarded::page();
        let text: Vec<u8> = b"{\"messages\": []}"
            .iter()
            .copied()
            .cycle()
            .take(4 * page)
            .collect();
        std::fs::write(&path, &text).unwrap();
        let log = LogBytes::open(&path).unwrap();
        assert!(matches!(log, LogBytes::Mapped(_)));
        assert_eq!(log.bytes(), text.as_slice());
        assert!(!log.truncated());

        // The agent rewrites its log shorter, as Gemini CLI does, while it is mapped.
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(page as u64)
            .unwrap();
        let past_the_end = log.bytes()[2 * page + 5];
        assert_eq!(past_the_end, 0);
        assert!(log.truncated());
        // What is still in the file reads as before.
        assert_eq!(log.bytes()[..page], text[..page]);
        drop(log);

        // A cut inside the last mapped page raises no signal, but the length tells.
        let log = LogBytes::open(&path).unwrap();
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(page as u64 - 10)
            .unwrap();
        assert_eq!(log.bytes()[page - 5], 0);
        assert!(log.truncated());
        drop(log);
        std::fs::write(&path, &text[..page]).unwrap();

        // The next mapping of the file starts clean.
        let again = LogBytes::open(&path).unwrap();
        assert_eq!(again.bytes(), &text[..page]);
        assert!(!again.truncated());
    }

    #[test]
    fn an_empty_log_is_read() {
        assert!(guard());
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("empty.jsonl");
        std::fs::write(&path, b"").unwrap();
        let log = LogBytes::open(&path).unwrap();
        assert!(matches!(log, LogBytes::Read(_)));
        assert!(log.bytes().is_empty());
    }
}
