//! Store calls the caller can give up on: SQLite queries interrupted through a progress
//! handler, log files parsed in slices with a check between them.
//!
//! A tool runs store calls on a blocking thread, which nothing can stop from outside; without
//! these checks a cancelled call would parse a large log to the end (seconds of CPU) and keep
//! the server from exiting until it did.

use std::path::Path;
use std::sync::Arc;

use rusqlite::Connection;

use crate::error::{Error, Result};
use crate::model::{Event, Provider};
use crate::providers::{self, FileHint, Layout, ParseState};

use super::mapped_log::LogBytes;

/// SQLite virtual-machine steps between two looks at the flag (well under a millisecond).
const SQL_STEPS: i32 = 10_000;
/// Bytes of a JSONL log parsed between two looks at the flag (a few milliseconds of parsing).
const PARSE_SLICE: usize = 256 << 10;
/// Events handled between two looks at the flag in loops over a whole session.
pub(super) const EVENT_STRIDE: usize = 4096;

/// Whether the caller still wants the answer; polled by long store calls.
#[derive(Clone)]
pub(super) struct Interrupt(Arc<dyn Fn() -> bool + Send + Sync>);

impl Interrupt {
    pub(super) fn new(is_cancelled: impl Fn() -> bool + Send + Sync + 'static) -> Self {
        Interrupt(Arc::new(is_cancelled))
    }

    pub(super) fn is_set(&self) -> bool {
        (self.0)()
    }

    /// `Err(Error::Cancelled)` once the caller gave up.
    pub(super) fn check(&self) -> Result<()> {
        if self.is_set() {
            Err(Error::Cancelled)
        } else {
            Ok(())
        }
    }

    /// Runs `f` on `conn` with its statements interrupted once the caller gives up; an error
    /// that the interruption caused comes back as [`Error::Cancelled`].
    pub(super) fn guard_sql<T>(
        &self,
        conn: &Connection,
        f: impl FnOnce(&Connection) -> Result<T>,
    ) -> Result<T> {
        let flag = self.clone();
        conn.progress_handler(SQL_STEPS, Some(move || flag.is_set()))?;
        let out = f(conn);
        // The connection goes back to the pool: it must not carry this call's handler.
        conn.progress_handler(0, None::<fn() -> bool>)?;
        match out {
            Err(_) if self.is_set() => Err(Error::Cancelled),
            other => other,
        }
    }
}

/// What a parse keeps of each event: its raw record, and how much of a tool output.
#[derive(Debug, Clone, Copy)]
pub(super) struct Keep {
    pub(super) raw: bool,
    pub(super) result_text_cap: Option<usize>,
}

/// Parses a whole log file like [`providers::parse_file_capped`], checking `interrupt` between
/// slices of a JSONL log (a Gemini document is one JSON value, parsed in one go). The file is
/// mapped rather than read when the process allows it ([`super::map_logs`]).
pub(super) fn parse_file(
    provider: Provider,
    path: &Path,
    keep: Keep,
    interrupt: Option<&Interrupt>,
) -> Result<Vec<Event>> {
    if providers::store_unit(provider, path).1.is_some() {
        // A session of a store is read by its provider.
        return Ok(providers::parse_file_capped(provider, path, keep.raw, keep.result_text_cap)?.1);
    }
    let log = LogBytes::open(path).map_err(|e| Error::io(path, e))?;
    let parsed = parse_bytes(provider, path, log.bytes(), keep, interrupt);
    if !log.truncated() {
        return parsed;
    }
    // The agent cut the file short while it was mapped: read what it is now.
    drop(log);
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    parse_bytes(provider, path, &bytes, keep, interrupt)
}

/// [`parse_file`] of bytes already read (an archived copy of the log at `path`).
pub(super) fn parse_bytes(
    provider: Provider,
    path: &Path,
    bytes: &[u8],
    keep: Keep,
    interrupt: Option<&Interrupt>,
) -> Result<Vec<Event>> {
    let keep_raw = keep.raw;
    let hint = FileHint::from_path(provider, path);
    let mut state = ParseState::new(provider, &hint);
    state.result_text_cap = keep.result_text_cap;
    let Some(interrupt) = interrupt.filter(|_| hint.layout == Layout::Lines) else {
        return providers::parse_bytes(&mut state, bytes, keep_raw)
            .ok_or_else(|| Error::Incomplete(path.to_path_buf()));
    };
    interrupt.check()?;
    let mut events = Vec::new();
    let mut start = 0;
    while start < bytes.len() {
        // Slices end just after a newline, so every line but the file's last is whole, and
        // the parse is the same as one over the whole file.
        let end = match bytes.get(start + PARSE_SLICE..) {
            Some(rest) => rest
                .iter()
                .position(|&b| b == b'\n')
                .map_or(bytes.len(), |i| start + PARSE_SLICE + i + 1),
            None => bytes.len(),
        };
        let chunk = providers::parse_jsonl(&mut state, &bytes[start..end], start as u64, keep_raw);
        events.extend(chunk.events);
        interrupt.check()?;
        start = end;
    }
    Ok(events)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};

    /// The bundled Claude session repeated `copies` times, in a temp dir.
    fn large_log(copies: usize) -> (tempfile::TempDir, std::path::PathBuf) {
        let sample = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/samples/claude/projects/-Users-test_user-agent-sample/7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl"
        ))
        .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir
            .path()
            .join("7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl");
        let mut f = std::fs::File::create(&path).unwrap();
        for _ in 0..copies {
            f.write_all(&sample).unwrap();
        }
        (dir, path)
    }

    #[test]
    fn a_parse_in_slices_is_the_parse_of_the_whole_file() {
        // Several slices, the last one ending without a newline.
        let (_dir, path) = large_log(40);
        let mut bytes = std::fs::read(&path).unwrap();
        assert!(bytes.len() > 3 * PARSE_SLICE);
        bytes.pop();
        std::fs::write(&path, &bytes).unwrap();
        let never = Interrupt::new(|| false);
        let keep = Keep {
            raw: true,
            result_text_cap: None,
        };
        let sliced = parse_file(Provider::ClaudeCode, &path, keep, Some(&never)).unwrap();
        let whole = providers::parse_file(Provider::ClaudeCode, &path, true)
            .unwrap()
            .1;
        assert!(whole.len() > 1000);
        assert!(
            sliced == whole,
            "the sliced parse differs from the whole one"
        );
    }

    #[test]
    fn a_parse_stops_at_the_next_slice_once_cancelled() {
        let (_dir, path) = large_log(40);
        let calls = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let seen = calls.clone();
        // Cancelled after the first slice.
        let interrupt = Interrupt::new(move || seen.fetch_add(1, Ordering::SeqCst) >= 1);
        let keep = Keep {
            raw: true,
            result_text_cap: None,
        };
        let parsed = parse_file(Provider::ClaudeCode, &path, keep, Some(&interrupt));
        assert!(matches!(parsed, Err(Error::Cancelled)), "{parsed:?}");
        assert_eq!(
            calls.load(Ordering::SeqCst),
            2,
            "one slice parsed, then it stopped"
        );
    }

    #[test]
    fn a_query_is_interrupted_once_cancelled_and_the_connection_stays_usable() {
        let conn = Connection::open_in_memory().unwrap();
        let cancelled = Arc::new(AtomicBool::new(false));
        let flag = cancelled.clone();
        let interrupt = Interrupt::new(move || flag.load(Ordering::SeqCst));
        let setter = cancelled.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            setter.store(true, Ordering::SeqCst);
        });
        let started = Instant::now();
        // Minutes of work if nothing stops it.
        let endless = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) \
                       SELECT count(*) FROM n";
        let counted = interrupt.guard_sql(&conn, |c| {
            Ok(c.query_row(endless, [], |r| r.get::<_, i64>(0))?)
        });
        assert!(matches!(counted, Err(Error::Cancelled)), "{counted:?}");
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "{:?}",
            started.elapsed()
        );
        // The handler is gone: the pooled connection runs the next caller's queries.
        let one: i64 = conn.query_row("SELECT 1", [], |r| r.get(0)).unwrap();
        assert_eq!(one, 1);
    }
}
