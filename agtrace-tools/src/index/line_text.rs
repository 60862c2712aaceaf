//! Event texts read back from the log line they were parsed from, instead of kept in the index.
//!
//! Event texts (tool outputs above all) were most of the index, and the logs already hold them.
//! So the long text of an event of a JSONL log (or of a journal, such as Gemini CLI's, where an
//! event's line is the record that last wrote its message, or of a document, where it is the
//! message's entry) is not stored when its line alone gives it back: a parse of that one line, with nothing read before it, makes the same events
//! with the same texts. That is checked when the line is indexed, on the parser thread
//! ([`line_local`]); a text that depends on earlier lines (a record a provider merges with an
//! earlier one, a name carried from a call to its result) stays in the index. A call that
//! shows such a text (a search preview, an event, a file-history prompt) parses its line again
//! ([`Texts`]): from the log, or from the archived copy of a log its agent deleted.
//!
//! The word index is still made from the whole text, so search finds and ranks exactly as
//! before. The text's length and digest are recorded and checked on reading: a line that no
//! longer gives that text (the log was rewritten after the index read it) reads as gone, never
//! as another text.

use std::cell::RefCell;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use rusqlite::{Connection, OptionalExtension, params};

use super::schema::split_eid;
use super::stored_text::{InLog, StoredText};
use crate::error::Result;
use crate::model::{Event, EventKind};
use crate::providers::{self, FileHint, Layout, ParseState, Provider};

/// Texts shorter than this stay in the index: below it the 9 bytes recorded instead save little
/// for the file read and parse a reader pays. Measured on 2,000 generated sessions (261.6 MB of
/// logs): 109.4 MB of index with 256, 95.9 MB with 64, 95.2 MB with 16, builds equally fast.
pub(super) const MIN_BYTES: usize = 64;

/// Which of `events`, parsed from `bytes` (which start at offset `base` of the JSONL log of
/// `provider` at `path`) and masked when `mask`, need not be stored: their text is long and
/// their line alone gives it back.
pub(super) fn line_local(
    provider: Provider,
    path: &Path,
    bytes: &[u8],
    base: u64,
    events: &[Event],
    mask: bool,
) -> Vec<bool> {
    let mut local = vec![false; events.len()];
    let mut start = 0;
    while start < events.len() {
        let span = events[start].source;
        let end = start
            + events[start..]
                .iter()
                .take_while(|e| e.source.map(|s| s.offset) == span.map(|s| s.offset))
                .count();
        let line = &events[start..end];
        if let Some(span) = span
            && line.iter().any(|e| e.text.len() >= MIN_BYTES)
            && let Some(from) = span.offset.checked_sub(base)
            && let Some(text) = bytes.get(from as usize..from as usize + span.len as usize)
        {
            let again = parse_line(provider, path, text, span.offset, mask);
            let same = again.len() == line.len()
                && again
                    .iter()
                    .zip(line)
                    .all(|(a, e)| a.kind == e.kind && a.text == e.text);
            if same {
                for (slot, e) in local[start..end].iter_mut().zip(line) {
                    *slot = e.text.len() >= MIN_BYTES;
                }
            }
        }
        start = end;
    }
    local
}

/// The events of one line of the JSONL log or journal of `provider` at `path` (at offset
/// `offset`), or of one entry of its document, parsed with nothing read before it, masked when
/// `mask`.
fn parse_line(provider: Provider, path: &Path, line: &[u8], offset: u64, mask: bool) -> Vec<Event> {
    let mut scratch = ParseState::new(provider, &FileHint::from_path(provider, path));
    let mut events = providers::parse_record(&mut scratch, line, offset);
    if mask {
        events.iter_mut().for_each(crate::secrets::mask_event);
    }
    events
}

/// Reads event texts for one call: those the index holds as they are, those left in their log
/// line by parsing the line again. The archived copy of a deleted log is decompressed once for
/// all the texts a call reads from it (a search page may show many hits of one session).
pub(crate) struct Texts<'a> {
    conn: &'a Connection,
    data_dir: &'a Path,
    mask: bool,
    /// The last archived copy read: its log's path, and its bytes (`None` without a whole copy).
    copy: RefCell<Option<(String, Option<Vec<u8>>)>>,
}

impl<'a> Texts<'a> {
    /// A reader over the index at `conn`, whose archived copies are in `data_dir`; `mask`:
    /// whether the index masks secrets (a text read back is masked alike).
    pub(crate) fn new(conn: &'a Connection, data_dir: &'a Path, mask: bool) -> Self {
        Texts {
            conn,
            data_dir,
            mask,
            copy: RefCell::new(None),
        }
    }

    /// The text of event `eid`, which the index holds as `stored`. `None` when it was left in
    /// its line and the line no longer gives it.
    pub(crate) fn text(&self, eid: i64, stored: StoredText) -> Result<Option<String>> {
        match stored {
            StoredText::Here(text) => Ok(Some(text)),
            StoredText::InLog(record) => self.read_back(eid, record),
        }
    }

    /// The texts of events `items` (id and what the index holds), in their order: those left
    /// in their log lines are read and parsed on up to all cores when there are bytes enough
    /// to pay for the threads (a search page whose hits are long tool outputs).
    pub(crate) fn texts(&self, items: Vec<(i64, StoredText)>) -> Result<Vec<Option<String>>> {
        let mut out: Vec<Option<String>> = Vec::with_capacity(items.len());
        let mut lines: Vec<(usize, Line)> = Vec::new();
        for (i, (eid, stored)) in items.into_iter().enumerate() {
            match stored {
                StoredText::Here(text) => out.push(Some(text)),
                StoredText::InLog(record) => {
                    out.push(None);
                    if let Some(line) = self.locate(eid, record)? {
                        lines.push((i, line));
                    }
                }
            }
        }
        let bytes: usize = lines.iter().map(|(_, l)| l.len).sum();
        let workers = std::thread::available_parallelism()
            .map_or(1, usize::from)
            .min(lines.len())
            .min(bytes / PARALLEL_BYTES + 1);
        let read = read_all(&lines, self.mask, workers);
        for ((i, line), got) in lines.iter().zip(read) {
            out[*i] = match got {
                Ok(text) => text,
                // The log is gone: its archived copy, read once for all its lines.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => self
                    .archived(&line.path, line.off, line.len)?
                    .and_then(|bytes| line.text_of(&bytes, self.mask)),
                Err(_) => None,
            };
        }
        Ok(out)
    }

    /// The text of event `eid`, recorded as `record`: its line parsed again, from the log or,
    /// for a log its agent deleted, from the archived copy.
    fn read_back(&self, eid: i64, record: InLog) -> Result<Option<String>> {
        Ok(self
            .texts(vec![(eid, StoredText::InLog(record))])?
            .pop()
            .flatten())
    }

    /// Where the text of event `eid`, recorded as `record`, is: `None` when the index no longer
    /// knows its line, or the line is no log line (a store's session).
    fn locate(&self, eid: i64, record: InLog) -> Result<Option<Line>> {
        let conn = self.conn;
        let (sid, index) = split_eid(eid);
        let row = conn
            .prepare_cached(
                "SELECT s.provider, s.path, e.kind, e.src_off, e.src_len
                 FROM events e JOIN sessions s ON s.sid = ?2 WHERE e.eid = ?1",
            )?
            .query_row(params![eid, sid], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, i64>(2)?,
                    r.get::<_, Option<i64>>(3)?,
                    r.get::<_, Option<i64>>(4)?,
                ))
            })
            .optional()?;
        let Some((provider, path, kind, Some(off), Some(len))) = row else {
            return Ok(None);
        };
        let (Some(provider), Some(kind)) =
            (Provider::from_code(provider), EventKind::from_code(kind))
        else {
            return Ok(None);
        };
        let Some(first) = super::query::first_event_of_line(conn, sid, off)? else {
            return Ok(None);
        };
        if FileHint::from_path(provider, Path::new(&path)).layout == Layout::Store {
            return Ok(None);
        }
        Ok(Some(Line {
            provider,
            path,
            kind,
            off: off as u64,
            len: len as usize,
            nth: index.saturating_sub(first) as usize,
            record,
        }))
    }

    /// The `len` bytes at `off` of the archived copy of the deleted log at `path`.
    fn archived(&self, path: &str, off: u64, len: usize) -> Result<Option<Vec<u8>>> {
        let mut copy = self.copy.borrow_mut();
        if copy.as_ref().is_none_or(|(p, _)| p != path) {
            let bytes = super::archive::read_copy(self.conn, self.data_dir, path)?;
            *copy = Some((path.to_string(), bytes));
        }
        let bytes = copy.as_ref().and_then(|(_, b)| b.as_ref());
        Ok(bytes.and_then(|all| {
            all.get(off as usize..off as usize + len)
                .map(<[u8]>::to_vec)
        }))
    }
}

/// Bytes of log lines that make another reader thread worth its start (about 20 µs against
/// parsing some 40 µs of JSON).
const PARALLEL_BYTES: usize = 32 << 10;

/// The log line an event's text is left in, and what the text must be.
struct Line {
    provider: Provider,
    path: String,
    kind: EventKind,
    off: u64,
    len: usize,
    /// The event's place among the events of its line.
    nth: usize,
    record: InLog,
}

impl Line {
    /// The text, from the log: `None` when the line no longer gives it (the log was rewritten
    /// since it was indexed); an error when the log cannot be read (`NotFound`: it is gone).
    fn read_log(&self, mask: bool) -> std::io::Result<Option<String>> {
        let mut f = File::open(&self.path)?;
        f.seek(SeekFrom::Start(self.off))?;
        let mut buf = vec![0u8; self.len];
        f.read_exact(&mut buf)?;
        Ok(self.text_of(&buf, mask))
    }

    /// The text, from the line's bytes `line`, when they still give it.
    fn text_of(&self, line: &[u8], mask: bool) -> Option<String> {
        parse_line(self.provider, Path::new(&self.path), line, self.off, mask)
            .into_iter()
            .nth(self.nth)
            .filter(|e| e.kind == self.kind && self.record.is(&e.text))
            .map(|e| e.text)
    }
}

/// [`Line::read_log`] of every line, on `workers` threads, each taking the next line not yet
/// taken (their sizes vary by orders of magnitude).
fn read_all(
    lines: &[(usize, Line)],
    mask: bool,
    workers: usize,
) -> Vec<std::io::Result<Option<String>>> {
    if workers <= 1 {
        return lines.iter().map(|(_, l)| l.read_log(mask)).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut done: Vec<(usize, std::io::Result<Option<String>>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some((_, line)) = lines.get(i) else {
                            return mine;
                        };
                        mine.push((i, line.read_log(mask)));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            // A reader that panicked passes its panic on, as it would have without threads.
            .flat_map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}
