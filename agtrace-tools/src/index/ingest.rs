//! Incremental indexing: discover log files, parse what changed (in parallel), write it.
//!
//! Planning happens against a snapshot of the `files` table; every write re-checks the file's
//! row inside its write transaction, so two indexers (say the MCP server and a CLI) running at
//! once never apply an append twice or on top of a different base: a conflicting file is simply
//! re-parsed from the start and replaced.
//!
//! # When a file counts as unchanged, appended or rewritten
//!
//! Each file's row keeps its size, mtime, inode and ctime, a hash of its first 4 KB and a hash
//! of the indexed prefix (all of it up to 128 KB, else its last 64 KB before the parsed offset).
//!
//! - **Unchanged** (skipped without reading): same size, mtime, inode and ctime. Any write
//!   updates the ctime, and unlike the mtime it cannot be set back, so a rewrite that keeps size
//!   and mtime is caught. A ctime within two seconds of the moment the file was indexed is
//!   stored as unknown (a coarse ctime clock might not tick before the next write), as it is
//!   where there is none (non-Unix); for such a row the two hashes decide instead.
//! - **Appended**: same inode, at least as long as the parsed offset, both hashes of the
//!   indexed prefix still match, and the new bytes do not go on with a last line indexed
//!   before its newline was written; parsing resumes at the offset.
//! - **Rewritten**: anything else; the file is parsed from the start and its rows replaced.
//!
//! The remaining blind spot is the middle of a file over 128 KB: bytes between its first 4 KB
//! and the last 64 KB of the indexed prefix changed in place while the file also grows are
//! taken for an append; and for a row without a trusted ctime, the same change keeping size and
//! mtime is taken for no change. Hashing the whole prefix would close it at the cost of
//! re-reading every growing log in full on every refresh.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Instant;

use rusqlite::{Connection, OptionalExtension, Transaction, params};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::archive::{self, ArchiveStats};
use super::discover::{self, Discovery, Found, SkipReason, SkipSummary, SkippedFile};
use super::fts_tokens::Unicode61;
use super::in_order;
use super::line_text;
use super::masking::{self, Choice};
use super::schema::{MAX_EVENTS_PER_SESSION, eid, eid_range};
use super::search_syntax::cjk_words;
use super::stored_text::{self, InLog};
use super::touches::{self, Touch};
use super::usage;
use crate::config::Config;
use crate::error::{Error, Result};
use crate::model::{Event, EventKind, Provider};
use crate::providers::{self, DocumentProblem, FileHint, Layout, ParseState, Restart};

/// Bytes a file's head is hashed over, to tell an append from a rewrite.
const HEAD_LEN: u64 = 4096;
/// The last bytes of the indexed prefix hashed for the same purpose; a prefix of at most twice
/// this is hashed whole.
const TAIL_LEN: u64 = 64 << 10;
/// Event text written per transaction before committing. Each commit flushes FTS5's pending
/// terms as one new segment, so larger transactions mean fewer segments to merge; 128 MB holds
/// the write lock about 2 s and keeps the indexer under about 150 MB of memory.
const BATCH_BYTES: usize = 128 << 20;
/// A run that reads at least this much is a bulk build (see `schema::tune_fts`).
const BULK_BYTES: u64 = 64 << 20;

/// Progress of an indexing run, for a progress bar.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// Log bytes parsed so far.
    pub bytes_done: u64,
    /// Log bytes to parse in this run.
    pub bytes_total: u64,
    /// Files parsed so far.
    pub files_done: u64,
    /// Files to parse in this run.
    pub files_total: u64,
}

/// What an indexing run did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct IndexStats {
    /// Log files found under the roots (among the named paths, for a [`Scope::Paths`] run).
    pub files_seen: u64,
    /// Parsed from the start (new, rewritten, or Gemini documents that changed).
    pub files_parsed: u64,
    /// Parsed from where the previous run stopped.
    pub files_appended: u64,
    /// Unchanged since the last run (same size, mtime, inode and ctime, or same content sample).
    pub files_skipped: u64,
    /// Files gone since the last run: their sessions were dropped.
    pub files_removed: u64,
    /// Gemini documents caught mid-rewrite: left as they were, retried next run (also among
    /// `skipped`, as [`SkipReason::BeingWritten`]).
    pub files_incomplete: u64,
    /// Log bytes read.
    pub bytes_read: u64,
    /// Events written to the index.
    pub events_added: u64,
    /// Lines that were not valid records (skipped and counted, not errors).
    pub malformed_lines: u64,
    /// Human-readable notes: missing roots, sessions over the event limit.
    pub notes: Vec<String>,
    /// Every file, folder or link that may hold a log and was not indexed, with why. A file
    /// indexed by an earlier run keeps its indexed content meanwhile.
    #[serde(default)]
    pub skipped: Vec<SkippedFile>,
    /// What the archive of log copies holds ([`Config::archive`]); all zero when it is off
    /// and empty.
    #[serde(default)]
    pub archive: ArchiveStats,
    /// Whether the run walked every root: a [`Scope::All`] run, or a [`Scope::Paths`] one
    /// whose paths only a walk could map to logs.
    #[serde(default)]
    pub walked_roots: bool,
    /// Links the walk followed to a log file or a folder: the logs reached through them are
    /// indexed under paths no file watcher names, so runs over named paths miss their changes.
    #[serde(default)]
    pub links_followed: u64,
    /// Wall time of the whole run.
    pub elapsed_ms: u64,
    /// Wall time spent in discovery+planning, and in writing (parsing overlaps writing).
    pub plan_ms: u64,
    /// Wall time spent writing (see `plan_ms`).
    pub write_ms: u64,
    /// CPU time the parser threads spent reading and parsing.
    pub parse_ms: u64,
    /// Writer time inserting event rows, and inserting into the full-text index.
    pub events_insert_ms: u64,
    /// Writer time inserting into the full-text index (see `events_insert_ms`).
    pub fts_insert_ms: u64,
    /// Writer time in commits (FTS5 segment flushes and merges, WAL writes).
    #[serde(default)]
    pub commit_ms: u64,
    /// Writer time waiting for parsed files, and in the final WAL checkpoint.
    #[serde(default)]
    pub wait_ms: u64,
    /// Writer time in the final WAL checkpoint (see `wait_ms`).
    #[serde(default)]
    pub checkpoint_ms: u64,
}

/// A `files` row without its parse state (read apart, by [`load_state`], where an append
/// needs it): two rows are equal when they stand for the same indexed prefix, which the state
/// is parsed from.
#[derive(Debug, Clone, PartialEq)]
struct FileRow {
    size: u64,
    mtime_ns: i64,
    offset: u64,
    head_hash: String,
    sid: i64,
    tail_hash: Option<String>,
    ino: i64,
    ctime_ns: i64,
}

#[derive(Debug, Clone)]
enum Plan {
    Full,
    Append { offset: u64, state: Box<ParseState> },
}

/// Where a job's bytes come from.
#[derive(Debug, Clone)]
enum Source {
    /// The log itself.
    Log,
    /// The archived copy of a log its agent deleted, holding the `raw_len` bytes that were
    /// indexed: a rebuild reads it, since the text of such a session lives nowhere else.
    Archive { copy: PathBuf, raw_len: u64 },
}

#[derive(Clone)]
struct Job {
    found: Found,
    base: Option<FileRow>,
    plan: Plan,
    source: Source,
    /// Mask secrets in what is parsed ([`masking`]).
    mask: bool,
    /// Part of a rebuild: written whatever another indexer wrote meanwhile, and its rows
    /// dropped if it cannot be parsed, so that no row of the other choice is left.
    rewrite: bool,
}

struct Parsed {
    job: Job,
    /// Why the file could not be indexed, when it could not.
    result: std::result::Result<ParsedFile, SkipReason>,
    parse_ns: u64,
}

struct ParsedFile {
    state: ParseState,
    events: Vec<Event>,
    end_offset: u64,
    head_hash: String,
    tail_hash: String,
    appended: bool,
    derived: Derived,
}

/// Rows derived from a file's events beside the events themselves, computed on the parser
/// thread: the one writer thread bounds the build, so it only writes.
struct Derived {
    /// The word index's tokens of each event's text ([`super::fts_tokens`]), in the order of the
    /// events; `None` if this thread could not make a tokenizer (FTS5 missing).
    words: Option<Vec<Vec<u8>>>,
    /// [`cjk_words`] of each event, in the order of the events.
    cjk: Vec<Option<String>>,
    /// Whether each event's text is left in its log line, only its length stored
    /// ([`line_text`]).
    in_log: Vec<bool>,
    /// Each event's text compressed for `events.text` ([`stored_text::pack`]), or `None` where
    /// it is stored plain or not at all.
    packed: Vec<Option<Vec<u8>>>,
    touches: Vec<Touch>,
    usage: usage::Parts,
}

thread_local! {
    /// Each parser thread's tokenizer, made at its first file.
    static TOKENIZER: RefCell<Option<Unicode61>> = const { RefCell::new(None) };
}

fn word_tokens(events: &[Event]) -> Option<Vec<Vec<u8>>> {
    TOKENIZER.with_borrow_mut(|slot| {
        let tokenizer = match slot {
            Some(t) => t,
            None => slot.insert(Unicode61::new().ok()?),
        };
        Some(events.iter().map(|e| tokenizer.tokens(&e.text)).collect())
    })
}

impl Derived {
    /// The rows derived from a file's events; with [`Job::mask`] the events and the state are
    /// masked first (in place: they are written too), so that nothing derived holds a secret.
    /// `lines`: the bytes of the log the events were parsed from and their offset in it, whose
    /// lines (or document entries) may keep the texts ([`line_text`]).
    fn of(
        job: &Job,
        state: &mut ParseState,
        events: &mut [Event],
        appended: bool,
        lines: Option<(&[u8], u64)>,
    ) -> Self {
        let base_tokens = match (&job.plan, appended) {
            (Plan::Append { state, .. }, true) => Some(&state.tokens),
            _ => None,
        };
        let mut touches = touches::extract(events, state.meta.cwd.as_deref());
        if job.mask {
            masking::mask_parsed(events, state, &mut touches);
        }
        // Judged under the key the reader finds the log by (`sessions.path`).
        let f = &job.found;
        let in_log = match lines {
            Some((bytes, base)) if state.layout != Layout::Store => {
                let key = Path::new(&f.key);
                line_text::line_local(f.provider, key, bytes, base, events, job.mask)
            }
            _ => vec![false; events.len()],
        };
        Derived {
            words: word_tokens(events),
            cjk: events.iter().map(|e| cjk_words(&e.text)).collect(),
            packed: events
                .iter()
                .zip(&in_log)
                .map(|(e, &in_log)| {
                    if in_log {
                        None
                    } else {
                        stored_text::pack(&e.text)
                    }
                })
                .collect(),
            in_log,
            touches,
            usage: usage::collect(events, base_tokens, state.meta.start_ms),
        }
    }
}

fn digest(bytes: &[u8]) -> String {
    let d = Sha256::digest(bytes);
    d.iter().take(12).map(|b| format!("{b:02x}")).collect()
}

fn hash_range(file: &mut File, start: u64, len: u64) -> std::io::Result<String> {
    let mut buf = Vec::with_capacity(len as usize);
    file.seek(SeekFrom::Start(start))?;
    file.take(len).read_to_end(&mut buf)?;
    if (buf.len() as u64) < len {
        return Err(std::io::ErrorKind::UnexpectedEof.into());
    }
    Ok(digest(&buf))
}

/// Where the tail hash of the first `offset` bytes starts.
fn tail_start(offset: u64) -> u64 {
    if offset <= 2 * TAIL_LEN {
        0
    } else {
        offset - TAIL_LEN
    }
}

/// The head and tail hashes of the first `offset` bytes (see the module notes).
fn fingerprint(file: &mut File, offset: u64) -> std::io::Result<(String, String)> {
    let head = hash_range(file, 0, offset.min(HEAD_LEN))?;
    let start = tail_start(offset);
    let tail = hash_range(file, start, offset - start)?;
    Ok((head, tail))
}

/// [`fingerprint`] of bytes in memory (an archived copy's), `offset` at most their length.
fn fingerprint_of(bytes: &[u8], offset: u64) -> (String, String) {
    let at = |n: u64| usize::try_from(n).unwrap_or(usize::MAX).min(bytes.len());
    let head = digest(&bytes[..at(offset.min(HEAD_LEN))]);
    let tail = digest(&bytes[at(tail_start(offset))..at(offset)]);
    (head, tail)
}

/// Whether the file still holds, in its first `row.offset` bytes, what was indexed.
fn prefix_matches(found: &Found, row: &FileRow) -> bool {
    File::open(&found.path).is_ok_and(|mut f| prefix_in(&mut f, row))
}

fn prefix_in(file: &mut File, row: &FileRow) -> bool {
    let Some(tail) = &row.tail_hash else {
        return false;
    };
    fingerprint(file, row.offset).is_ok_and(|(h, t)| h == row.head_hash && &t == tail)
}

/// Whether the file is what was indexed plus whole new lines: the prefix still matches, and
/// the bytes after it do not go on with its last line. That line may have been indexed
/// without its newline (a whole JSON object whose writer had not yet ended the line); unless
/// the next byte is that newline, a fresh parse reads the old and the new bytes as one line,
/// so resuming at the offset would index a line that is not there.
fn appended_to(found: &Found, row: &FileRow) -> bool {
    let Ok(mut file) = File::open(&found.path) else {
        return false;
    };
    if !prefix_in(&mut file, row) {
        return false;
    }
    let Some(before) = row.offset.checked_sub(1) else {
        return true;
    };
    let mut two = Vec::with_capacity(2);
    let read = file
        .seek(SeekFrom::Start(before))
        .and_then(|_| (&mut file).take(2).read_to_end(&mut two));
    match (read, two.as_slice()) {
        (Ok(_), [last, next]) => *last == b'\n' || *next == b'\n',
        // Nothing after the prefix: nothing goes on with it.
        (Ok(_), _) => true,
        (Err(_), _) => false,
    }
}

/// The `files` rows, all of them or those of `keys`.
/// The columns of a [`FileRow`], with the path: those of the `files_stamps` index.
const ROW_COLUMNS: &str =
    "path, size, mtime_ns, parsed_offset, head_hash, sid, tail_hash, ino, ctime_ns";

fn load_rows(conn: &Connection, keys: Option<&[&str]>) -> Result<HashMap<String, FileRow>> {
    const COLUMNS: &str = ROW_COLUMNS;
    let mut st = match keys {
        None => conn.prepare(&format!("SELECT {COLUMNS} FROM files"))?,
        Some(_) => conn.prepare(&format!(
            "SELECT {COLUMNS} FROM files WHERE path IN (SELECT value FROM json_each(?1))"
        ))?,
    };
    let keys = keys.map(|k| serde_json::Value::from(k.to_vec()).to_string());
    let rows = st.query_map(rusqlite::params_from_iter(keys), |r| {
        Ok((
            r.get::<_, String>(0)?,
            FileRow {
                size: r.get::<_, i64>(1)? as u64,
                mtime_ns: r.get(2)?,
                offset: r.get::<_, i64>(3)? as u64,
                head_hash: r.get(4)?,
                sid: r.get(5)?,
                tail_hash: r.get(6)?,
                ino: r.get(7)?,
                ctime_ns: r.get(8)?,
            },
        ))
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

fn load_row(tx: &Transaction, key: &str) -> Result<Option<FileRow>> {
    Ok(tx
        .query_row(
            "SELECT size, mtime_ns, parsed_offset, head_hash, sid, tail_hash, ino, ctime_ns FROM files WHERE path = ?1",
            [key],
            |r| {
                Ok(FileRow {
                    size: r.get::<_, i64>(0)? as u64,
                    mtime_ns: r.get(1)?,
                    offset: r.get::<_, i64>(2)? as u64,
                    head_hash: r.get(3)?,
                    sid: r.get(4)?,
                    tail_hash: r.get(5)?,
                    ino: r.get(6)?,
                    ctime_ns: r.get(7)?,
                })
            },
        )
        .optional()?)
}

/// The parse state stored with a file's row, read only for a file that may have grown: it is
/// most of a row's bytes (1.7 KB of 2 KB in a generated corpus), and a walk of every log that
/// found nothing changed read it for every row.
fn load_state(conn: &Connection, key: &str) -> Option<ParseState> {
    let text: String = conn
        .query_row("SELECT state FROM files WHERE path = ?1", [key], |r| {
            r.get(0)
        })
        .ok()?;
    serde_json::from_str(&text).ok()
}

/// Decides how to bring one file up to date, or `None` when it is unchanged; `state` reads the
/// row's parse state, for an append.
fn plan_for(
    found: &Found,
    row: Option<&FileRow>,
    state: impl FnOnce() -> Option<ParseState>,
) -> Option<Plan> {
    let Some(row) = row else {
        return Some(Plan::Full);
    };
    if row.tail_hash.is_none() || row.ino != found.ino || found.size < row.offset {
        return Some(Plan::Full);
    }
    if row.size == found.size && row.mtime_ns == found.mtime_ns {
        // A stored ctime was old enough when indexed that any later write has a later one.
        if row.ctime_ns != 0 {
            return (row.ctime_ns != found.ctime_ns).then_some(Plan::Full);
        }
        return (!prefix_matches(found, row)).then_some(Plan::Full);
    }
    if matches!(
        FileHint::from_path(found.provider, &found.path).layout,
        Layout::Document | Layout::Store
    ) {
        return Some(Plan::Full);
    }
    // An append keeps the indexed prefix; a rewrite that happens to be longer does not.
    match state() {
        Some(state) if appended_to(found, row) => Some(Plan::Append {
            offset: row.offset,
            state: Box::new(state),
        }),
        _ => Some(Plan::Full),
    }
}

/// Whether a refresh would leave the logs with these index keys (`files.path`) as the index
/// holds them: each is a log file under its root with a row, and [`plan_for`] finds nothing
/// to do. `false` for none, and wherever only a walk could tell (a store, a path gone, a
/// link), so that a caller trusting it never answers from a row a refresh would change.
pub(crate) fn files_as_indexed(conn: &Connection, cfg: &Config, keys: &[String]) -> Result<bool> {
    // As a watcher names them, which is what `discover::named` takes.
    let watched: Option<BTreeSet<PathBuf>> = keys
        .iter()
        .map(|key| {
            Provider::ALL.into_iter().find_map(|p| {
                let root = cfg.root(p);
                let below = Path::new(key).strip_prefix(root).ok()?;
                Some(discover::as_watched(root).join(below))
            })
        })
        .collect();
    let Some(watched) = watched.filter(|w| !w.is_empty() && w.len() == keys.len()) else {
        return Ok(false);
    };
    let Some(named) = discover::named(cfg, &watched) else {
        return Ok(false);
    };
    let found = &named.discovery.found;
    if !named.gone.is_empty() || found.len() != keys.len() {
        return Ok(false);
    }
    let rows = load_rows(
        conn,
        Some(&keys.iter().map(String::as_str).collect::<Vec<_>>()),
    )?;
    Ok(found.iter().all(|f| {
        rows.get(&f.key)
            .is_some_and(|row| plan_for(f, Some(row), || load_state(conn, &f.key)).is_none())
    }))
}

/// A document cut short this long after its last change is not being written any more.
const WRITE_GRACE_NS: i64 = 120_000_000_000;

/// Reads and parses the part of a file the job needs, or says why it cannot be indexed.
fn parse_job(job: &Job) -> std::result::Result<ParsedFile, SkipReason> {
    let f = &job.found;
    if let Some(id) = &f.unit {
        let (mut state, mut events) =
            providers::parse_store_session(f.provider, &f.path, id, false)?;
        // Unchanged while the fingerprint is: nothing else of the source is compared.
        let fingerprint = format!("{:016x}", f.ctime_ns);
        return Ok(ParsedFile {
            derived: Derived::of(job, &mut state, &mut events, false, None),
            state,
            events,
            end_offset: 0,
            head_hash: fingerprint.clone(),
            tail_hash: fingerprint,
            appended: false,
        });
    }
    if let Source::Archive { copy, raw_len } = &job.source {
        return parse_archived(job, copy, *raw_len);
    }
    let read_error = |e: std::io::Error| SkipReason::of_read_error(&e);
    let mut file = File::open(&f.path).map_err(read_error)?;
    let (mut state, offset, appended) = match &job.plan {
        Plan::Full => (
            ParseState::new(f.provider, &FileHint::from_path(f.provider, &f.path)),
            0,
            false,
        ),
        Plan::Append { offset, state } => ((**state).clone(), *offset, true),
    };
    // Read only up to the size we stat'ed: bytes written since are picked up next run.
    let mut bytes = Vec::with_capacity(f.size.saturating_sub(offset) as usize);
    file.seek(SeekFrom::Start(offset)).map_err(read_error)?;
    (&mut file)
        .take(f.size.saturating_sub(offset))
        .read_to_end(&mut bytes)
        .map_err(read_error)?;
    let (mut events, end_offset) = match state.layout {
        Layout::Document => match providers::parse_bytes(&mut state, &bytes, false) {
            Some(ev) => (ev, bytes.len() as u64),
            None => return Err(document_skip(&bytes, f.mtime_ns)),
        },
        _ => match providers::parse_append(&mut state, &bytes, offset, false) {
            Ok(_) if offset == 0 && providers::not_a_log(&state, &bytes).is_some() => {
                return Err(match providers::not_a_log(&state, &bytes) {
                    Some(DocumentProblem::NotJson) => SkipReason::NotValidJson,
                    _ => SkipReason::NotALog,
                });
            }
            Ok(_) if state.meta.replay_only => return Err(SkipReason::Replay),
            Ok(chunk) => (chunk.events, chunk.end_offset),
            // The append changed what was read: read the file again, from the start.
            Err(Restart) => {
                let fresh = Job {
                    plan: Plan::Full,
                    ..job.clone()
                };
                return parse_job(&fresh);
            }
        },
    };
    let (head, tail) = fingerprint(&mut file, end_offset).map_err(|e| {
        // Shorter than when it was measured: rewritten while being read.
        if e.kind() == std::io::ErrorKind::UnexpectedEof {
            SkipReason::BeingWritten
        } else {
            read_error(e)
        }
    })?;
    Ok(ParsedFile {
        derived: Derived::of(
            job,
            &mut state,
            &mut events,
            appended,
            Some((&bytes, offset)),
        ),
        state,
        events,
        end_offset,
        head_hash: head,
        tail_hash: tail,
        appended,
    })
}

/// Parses the whole archived copy `copy` of a log that is gone (see [`Source::Archive`]).
fn parse_archived(
    job: &Job,
    copy: &Path,
    raw_len: u64,
) -> std::result::Result<ParsedFile, SkipReason> {
    let f = &job.found;
    let bytes = archive::read_whole(copy, raw_len).map_err(|_| SkipReason::UnreadableFile)?;
    let mut state = ParseState::new(f.provider, &FileHint::from_path(f.provider, &f.path));
    let (mut events, end_offset) = match state.layout {
        Layout::Document => providers::parse_bytes(&mut state, &bytes, false)
            .map(|ev| (ev, bytes.len() as u64))
            .ok_or(SkipReason::NotALog)?,
        _ => providers::parse_append(&mut state, &bytes, 0, false)
            .map(|chunk| (chunk.events, chunk.end_offset))
            .map_err(|Restart| SkipReason::NotALog)?,
    };
    let (head_hash, tail_hash) = fingerprint_of(&bytes, end_offset);
    Ok(ParsedFile {
        // A copy is read back whole, so its texts stay in the index.
        derived: Derived::of(job, &mut state, &mut events, false, None),
        state,
        events,
        end_offset,
        head_hash,
        tail_hash,
        appended: false,
    })
}

/// Why a document did not parse: a document cut short is being written only if it
/// changed moments ago.
fn document_skip(bytes: &[u8], mtime_ns: i64) -> SkipReason {
    match providers::document_problem(bytes) {
        Some(DocumentProblem::Incomplete)
            if discover::now_ns().saturating_sub(mtime_ns) < WRITE_GRACE_NS =>
        {
            SkipReason::BeingWritten
        }
        Some(DocumentProblem::Incomplete) => SkipReason::Truncated,
        Some(DocumentProblem::TooDeeplyNested) => SkipReason::TooDeeplyNested,
        Some(DocumentProblem::NotJson) => SkipReason::NotValidJson,
        // Valid JSON that parse_document still refused: not a session document.
        Some(DocumentProblem::NotADocument) | None => SkipReason::NotALog,
    }
}

pub(crate) fn tags(provider: Provider, kind: EventKind) -> String {
    format!(
        "p{} k{}",
        provider.as_str().replace('_', ""),
        kind.as_str().replace('_', "")
    )
}

pub(crate) fn kind_tag(kind: EventKind) -> String {
    format!("k{}", kind.as_str().replace('_', ""))
}

pub(crate) fn provider_tag(p: Provider) -> String {
    format!("p{}", p.as_str().replace('_', ""))
}

fn delete_session_rows(tx: &Transaction, sid: i64) -> Result<()> {
    let (lo, hi) = eid_range(sid);
    tx.execute(
        "DELETE FROM events_fts WHERE rowid BETWEEN ?1 AND ?2",
        params![lo, hi],
    )?;
    super::schema::unindex_cjk(tx, lo, hi)?;
    touches::unrecord(tx, lo, hi)?;
    tx.execute(
        "DELETE FROM events WHERE eid BETWEEN ?1 AND ?2",
        params![lo, hi],
    )?;
    tx.execute("DELETE FROM sessions WHERE sid = ?1", [sid])?;
    usage::delete(tx, sid)?;
    Ok(())
}

/// Writes one parsed file. Returns the number of events added, or `None` if another indexer
/// already brought this file to the same state.
fn apply(
    tx: &Transaction,
    job: &Job,
    parsed: ParsedFile,
    stats: &mut IndexStats,
    timing: &mut (u64, u64),
) -> Result<Option<u64>> {
    let f = &job.found;
    let current = load_row(tx, &f.key)?;
    let parsed = if current != job.base {
        // Someone else indexed this file since we planned: our append base is stale. A
        // rebuild writes it all the same: the other indexer may have written the other choice.
        if !job.rewrite
            && current.is_some()
            && plan_for(f, current.as_ref(), || load_state(tx, &f.key)).is_none()
        {
            return Ok(None);
        }
        let fresh = Job {
            base: current.clone(),
            plan: Plan::Full,
            ..job.clone()
        };
        match parse_job(&fresh) {
            Ok(p) => p,
            Err(reason) => {
                note_skip(stats, &f.path, reason);
                if job.rewrite {
                    remove_file(tx, &f.key)?;
                }
                return Ok(None);
            }
        }
    } else {
        parsed
    };
    let sid = match (&current, parsed.appended) {
        (Some(row), true) => row.sid,
        (Some(row), false) => {
            delete_session_rows(tx, row.sid)?;
            row.sid
        }
        (None, _) => tx.query_row("SELECT coalesce(max(sid), 0) + 1 FROM sessions", [], |r| {
            r.get(0)
        })?,
    };
    let notes = &mut stats.notes;
    let st = &parsed.state;
    let meta = &st.meta;
    let mut added = 0u64;
    {
        let mut ins_ev = tx.prepare_cached(
            "INSERT INTO events (eid, kind, turn, step, ts_ms, tool_name, call_id, is_error, src_off, src_len, text)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        )?;
        let mut ins_fts =
            tx.prepare_cached("INSERT INTO events_fts (rowid, text, tags) VALUES (?1, ?2, ?3)")?;
        let kind_tags = EventKind::ALL.map(|k| tags(st.provider, k));
        let words = parsed.derived.words.as_deref().ok_or_else(|| {
            Error::IndexUnavailable("SQLite's FTS5 tokenizer unicode61 could not be made".into())
        })?;
        let derived = &parsed.derived;
        for ((((ev, cjk), words), packed), &in_log) in (parsed.events.iter().zip(&derived.cjk))
            .zip(words)
            .zip(&derived.packed)
            .zip(&derived.in_log)
        {
            if ev.index > MAX_EVENTS_PER_SESSION {
                notes.push(format!(
                    "{}: more than {} events; the rest are not indexed",
                    f.key, MAX_EVENTS_PER_SESSION
                ));
                break;
            }
            let id = eid(sid, ev.index);
            let in_log = in_log
                .then(|| InLog::of(&ev.text).map(|r| r.encode()))
                .flatten();
            let t0 = Instant::now();
            ins_ev.execute(params![
                id,
                ev.kind.code(),
                ev.turn,
                ev.step,
                ev.timestamp.map(|t| t.timestamp_millis()),
                ev.tool_name,
                ev.call_id,
                ev.is_error,
                ev.source.map(|s| s.offset as i64),
                ev.source.map(|s| s.len),
                match (packed, &in_log) {
                    (Some(frame), _) => frame as &dyn rusqlite::ToSql,
                    (None, Some(marker)) => marker,
                    (None, None) => &ev.text,
                },
            ])?;
            let t1 = Instant::now();
            timing.0 += (t1 - t0).as_nanos() as u64;
            if !ev.text.is_empty() {
                let tags = &kind_tags[ev.kind.code() as usize];
                ins_fts.execute(params![id, words, tags])?;
                if let Some(words) = cjk {
                    super::schema::insert_cjk_words(tx, id, words)?;
                }
                timing.1 += t1.elapsed().as_nanos() as u64;
            }
            added += 1;
        }
    }
    touches::record(tx, sid, &parsed.derived.touches)?;
    // Statements below avoid `INSERT OR REPLACE` and upserts: those need a statement journal,
    // and every statement savepoint makes FTS5 flush its pending terms to a new segment. One
    // flush per file meant thousands of small segments and merges; now pending terms are
    // flushed once per transaction (or when they exceed the FTS5 `hashsize`).
    tx.execute("DELETE FROM sessions WHERE sid = ?1", [sid])?;
    // Two files may claim one session id (copies, resumed logs): keep both, distinguishable.
    let taken = |id: &str| -> Result<bool> {
        Ok(tx
            .query_row("SELECT 1 FROM sessions WHERE id = ?1", [id], |_| Ok(()))
            .optional()?
            .is_some())
    };
    let mut session_id = meta.session_id.clone();
    if taken(&session_id)? {
        session_id = format!(
            "{}~{}",
            session_id,
            &crate::model::project_hash(&f.key)[..8]
        );
        if taken(&session_id)? {
            session_id = format!("{session_id}~{sid}");
        }
    }
    let project_hash = meta.project_hash();
    let tokens = st.tokens.total();
    usage::write(tx, sid, parsed.derived.usage, parsed.appended)?;
    tx.prepare_cached(
        "INSERT INTO sessions (sid, id, provider, project_hash, parent_id, is_subagent, start_ms, end_ms,
            model, event_count, turn_count, prompt_count, tool_calls, tool_errors, malformed,
            tok_input, tok_cached, tok_cache_creation, tok_output, tok_reasoning, tok_total, first_prompt, spawn_ms, path)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24)",
    )?
    .execute(params![
        sid,
        session_id,
        st.provider.code(),
        project_hash,
        meta.parent_id,
        meta.is_subagent,
        meta.start_ms.unwrap_or(0),
        meta.end_ms,
        meta.model,
        st.next_index,
        st.turn_count(),
        meta.prompts,
        meta.tool_calls,
        meta.tool_errors,
        st.malformed,
        tokens.input as i64,
        tokens.cached_input as i64,
        tokens.cache_creation_input as i64,
        tokens.output as i64,
        tokens.reasoning_output as i64,
        tokens.total as i64,
        meta.first_prompt,
        serde_json::to_string(&meta.spawn_ms).unwrap_or_else(|_| "[]".into()),
        f.key,
    ])?;
    if let Some(hash) = &project_hash {
        tx.prepare_cached("INSERT OR IGNORE INTO projects (hash, root) VALUES (?1, ?2)")?
            .execute(params![hash, meta.cwd])?;
        if meta.cwd.is_some() {
            tx.prepare_cached("UPDATE projects SET root = ?2 WHERE hash = ?1 AND root IS NULL")?
                .execute(params![hash, meta.cwd])?;
        }
    }
    let state_json = serde_json::to_string(st).map_err(|e| Error::Corrupt(e.to_string()))?;
    tx.prepare_cached("DELETE FROM files WHERE path = ?1")?
        .execute([&f.key])?;
    tx.prepare_cached(
        "INSERT INTO files (path, provider, size, mtime_ns, parsed_offset, head_hash, sid, state, tail_hash, ino, ctime_ns)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )?
    .execute(params![
        f.key,
        f.provider.code(),
        f.size as i64,
        f.mtime_ns,
        parsed.end_offset as i64,
        parsed.head_hash,
        sid,
        state_json,
        parsed.tail_hash,
        f.ino,
        f.stored_ctime_ns
    ])?;
    Ok(Some(added))
}

fn remove_file(tx: &Transaction, key: &str) -> Result<bool> {
    let sid: Option<i64> = tx
        .query_row("SELECT sid FROM files WHERE path = ?1", [key], |r| r.get(0))
        .optional()?;
    let Some(sid) = sid else { return Ok(false) };
    delete_session_rows(tx, sid)?;
    tx.execute("DELETE FROM files WHERE path = ?1", [key])?;
    Ok(true)
}

/// Links sub-agents of provider `p` that name no parent (Codex review sub-agents) to the
/// session that spawned one just before they started (same project, within one second;
/// nearest first, one sub-agent per spawn). Sub-agents whose log names their parent (their
/// stored parse state has one) keep it.
fn link_by_spawn_time(tx: &Transaction, p: Provider) -> Result<()> {
    let code = p.code();
    const UNNAMED: &str =
        "sid IN (SELECT sid FROM files WHERE json_extract(state, '$.meta.parent_id') IS NULL)";
    tx.execute(
        &format!("UPDATE sessions SET parent_id = NULL WHERE provider = ?1 AND is_subagent = 1 AND {UNNAMED}"),
        [code],
    )?;
    let subs: Vec<(i64, Option<String>, i64)> = {
        let mut st = tx.prepare(&format!(
            "SELECT sid, project_hash, start_ms FROM sessions WHERE provider = ?1 AND is_subagent = 1 AND start_ms != 0 AND {UNNAMED}",
        ))?;
        st.query_map([code], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<rusqlite::Result<_>>()?
    };
    if subs.is_empty() {
        return Ok(());
    }
    let mut spawns: Vec<(String, Option<String>, i64)> = Vec::new();
    {
        let mut st = tx.prepare("SELECT id, project_hash, spawn_ms FROM sessions WHERE provider = ?1 AND spawn_ms != '[]'")?;
        let rows = st.query_map([code], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, Option<String>>(1)?,
                r.get::<_, String>(2)?,
            ))
        })?;
        for row in rows {
            let (id, hash, list) = row?;
            for ms in serde_json::from_str::<Vec<i64>>(&list).unwrap_or_default() {
                spawns.push((id.clone(), hash.clone(), ms));
            }
        }
    }
    let mut pairs: Vec<(i64, usize, usize)> = Vec::new();
    for (si, (_, hash, start)) in subs.iter().enumerate() {
        for (pi, (_, phash, ms)) in spawns.iter().enumerate() {
            let d = start - ms;
            if hash == phash && (-100..=1000).contains(&d) {
                pairs.push((d.abs(), si, pi));
            }
        }
    }
    pairs.sort();
    let (mut used_sub, mut used_spawn) = (HashSet::new(), HashSet::new());
    for (_, si, pi) in pairs {
        if used_sub.contains(&si) || used_spawn.contains(&pi) {
            continue;
        }
        used_sub.insert(si);
        used_spawn.insert(pi);
        tx.execute(
            "UPDATE sessions SET parent_id = ?1 WHERE sid = ?2",
            params![spawns[pi].0, subs[si].0],
        )?;
    }
    Ok(())
}

/// Which logs a run brings up to date.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// Every log under the roots: each one is stat'ed, its row loaded, and the logs no longer
    /// found are dropped.
    All,
    /// The logs at these paths only (those a file watcher saw created, written, renamed or
    /// removed), each taken as the walk of [`Scope::All`] would find it; a path only that walk
    /// can map to logs (a folder, a link, a store's file, a path under no log root) makes the
    /// run one of [`Scope::All`].
    Paths(BTreeSet<PathBuf>),
}

/// What a run starts from: the logs found, their rows, the keys of logs gone.
struct Survey {
    discovery: Discovery,
    rows: HashMap<String, FileRow>,
    removed: Vec<String>,
}

/// Finds the logs of `scope` and the rows they have; see [`Scope`].
fn survey(
    conn: &Connection,
    cfg: &Config,
    scope: &Scope,
    stats: &mut IndexStats,
) -> Result<Survey> {
    if let Scope::Paths(paths) = scope
        && let Some(survey) = survey_paths(conn, cfg, paths, stats)?
    {
        return Ok(survey);
    }
    stats.walked_roots = true;
    // The walk (a stat per file) and the read of every row need each other's results only
    // from here on: the walk runs on a thread of its own meanwhile.
    let (discovery, rows) = std::thread::scope(|s| {
        let walk = std::thread::Builder::new()
            .name("agtrace-walk".into())
            .spawn_scoped(s, || discover::discover(cfg));
        let rows = load_rows(conn, None);
        let discovery = match walk {
            Ok(walk) => walk
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            // No thread to be had: the walk runs here.
            Err(_) => discover::discover(cfg),
        };
        (discovery, rows)
    });
    let rows = rows?;
    stats.links_followed = discovery.links_followed;
    let seen: HashSet<&str> = discovery.found.iter().map(|f| f.key.as_str()).collect();
    // Files in a folder that cannot be listed now are not gone: they keep their sessions.
    let unlisted: Vec<&Path> = discovery
        .skipped
        .iter()
        .filter(|(_, r)| *r == SkipReason::UnreadableFolder)
        .map(|(p, _)| p.as_path())
        .collect();
    // Nor are the sessions of a store source that cannot be read now (busy, say).
    let unread: Vec<String> = discovery
        .skipped
        .iter()
        .map(|(p, _)| format!("{}#", p.to_string_lossy()))
        .collect();
    let removed: Vec<String> = rows
        .keys()
        .filter(|k| !seen.contains(k.as_str()))
        .filter(|k| !unlisted.iter().any(|d| Path::new(k).starts_with(d)))
        .filter(|k| !unread.iter().any(|s| k.starts_with(s.as_str())))
        .cloned()
        .collect();
    Ok(Survey {
        discovery,
        rows,
        removed,
    })
}

/// [`survey`] of named paths: only their rows are loaded and only they can be gone; `None`
/// when a walk is needed.
fn survey_paths(
    conn: &Connection,
    cfg: &Config,
    paths: &BTreeSet<PathBuf>,
    stats: &mut IndexStats,
) -> Result<Option<Survey>> {
    let Some(named) = discover::named(cfg, paths) else {
        return Ok(None);
    };
    // A path gone that held indexed logs below it was a folder (removed, or renamed: where to
    // is for the walk to find).
    let mut below = conn.prepare_cached(
        "SELECT 1 FROM files WHERE path > ?1 || '/' AND path < ?1 || '0' LIMIT 1",
    )?;
    for key in &named.gone {
        if below.exists([key])? {
            return Ok(None);
        }
    }
    let keys: Vec<&str> = named
        .discovery
        .found
        .iter()
        .map(|f| f.key.as_str())
        .chain(named.gone.iter().map(String::as_str))
        .collect();
    let rows = load_rows(conn, Some(&keys))?;
    let removed = named
        .gone
        .into_iter()
        .filter(|k| rows.contains_key(k))
        .collect();
    // The skips noted of other paths stand: the list kept in the index is of every file.
    let named_labels: HashSet<String> = paths.iter().map(|p| cfg.path_label(p)).collect();
    stats.skipped.extend(
        load_skips(conn)?
            .into_iter()
            .filter(|s| !named_labels.contains(&s.path)),
    );
    Ok(Some(Survey {
        discovery: named.discovery,
        rows,
        removed,
    }))
}

/// Times a run starts again because another process rebuilt the index under the other choice
/// of secrets between its plan and its writes, before giving up.
const CHOICE_RETRIES: usize = 3;

/// Brings the index up to date with the logs of `scope` (all of them: [`Scope::All`]). An
/// index that holds the other choice of secrets ([`masking`]) is rebuilt from every log, and
/// from the archived copies of logs that are gone.
pub fn run(
    conn: &mut Connection,
    cfg: &Config,
    scope: &Scope,
    mut progress: Option<&mut dyn FnMut(Progress)>,
) -> Result<IndexStats> {
    for _ in 0..CHOICE_RETRIES {
        if let Some(stats) = run_once(conn, cfg, scope, &mut progress)? {
            return Ok(stats);
        }
    }
    Err(Error::IndexUnavailable(
        "another agtrace process keeps rebuilding the index with the other --show-secrets choice"
            .into(),
    ))
}

/// The archived-copy jobs of a rebuild: one per log in `held` (gone, its session kept from
/// its copy), parsed from that copy.
fn archived_jobs(
    conn: &Connection,
    cfg: &Config,
    held: &[String],
    rows: &HashMap<String, FileRow>,
    mask: bool,
) -> Result<Vec<Job>> {
    let mut st = conn.prepare_cached(
        "SELECT f.provider, a.raw_len FROM files f JOIN archive a USING (path) WHERE path = ?1",
    )?;
    let mut jobs = Vec::new();
    for key in held {
        let (Some(row), Some((provider, raw_len))) = (
            rows.get(key),
            st.query_row([key], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?)))
                .optional()?,
        ) else {
            continue;
        };
        let Some(provider) = Provider::from_code(provider) else {
            continue;
        };
        let found = Found {
            provider,
            path: PathBuf::from(key),
            key: key.clone(),
            size: row.size,
            mtime_ns: row.mtime_ns,
            ino: row.ino,
            ctime_ns: row.ctime_ns,
            stored_ctime_ns: row.ctime_ns,
            unit: None,
        };
        jobs.push(Job {
            found,
            base: Some(row.clone()),
            plan: Plan::Full,
            source: Source::Archive {
                copy: archive::copy_file(&cfg.data_dir, key),
                raw_len: raw_len as u64,
            },
            mask,
            rewrite: true,
        });
    }
    Ok(jobs)
}

/// In a rebuild, drops the sessions of every `files` row the rebuild does not write (logs
/// another indexer added after this run looked): no row of the other choice is left, and the
/// next run indexes them.
fn drop_unplanned(tx: &Transaction, planned: &HashSet<String>) -> Result<()> {
    let keys: Vec<String> = tx
        .prepare("SELECT path FROM files")?
        .query_map([], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    for key in keys.iter().filter(|k| !planned.contains(*k)) {
        remove_file(tx, key)?;
    }
    Ok(())
}

/// One [`run`]; `None` when another process changed the index's choice of secrets since this
/// run read it (nothing of this run's is then committed after the change).
fn run_once(
    conn: &mut Connection,
    cfg: &Config,
    scope: &Scope,
    progress: &mut Option<&mut dyn FnMut(Progress)>,
) -> Result<Option<IndexStats>> {
    let started = Instant::now();
    let mut stats = IndexStats::default();
    let choice = Choice::of(cfg);
    let seen = masking::stored(conn)?;
    let rebuild = choice.differs(seen.as_deref());
    // A rebuild rewrites every log, wherever a watcher saw the change.
    let scope = if rebuild { &Scope::All } else { scope };
    let Survey {
        mut discovery,
        rows,
        removed,
    } = survey(conn, cfg, scope, &mut stats)?;
    // Named by its label, not its path: two providers given one folder would otherwise both
    // be named by whichever label the path matched first.
    for p in &discovery.missing_roots {
        stats
            .notes
            .push(format!("{p} log root <{p} root> does not exist; skipped"));
    }
    for (path, reason) in &discovery.skipped {
        note_skip(&mut stats, path, *reason);
    }
    let mut found = std::mem::take(&mut discovery.found);
    stats.files_seen = found.len() as u64;
    // Oldest first, so session numbers (and search order) follow time.
    found.sort_by(|a, b| (a.mtime_ns, &a.key).cmp(&(b.mtime_ns, &b.key)));
    // Deleted logs with an archived copy keep their sessions.
    let gone = removed.clone();
    let removed = archive::hold_gone(conn, cfg, removed, chrono::Utc::now().timestamp_millis())?;
    let mut jobs = Vec::new();
    if rebuild {
        let held: Vec<String> = gone.into_iter().filter(|k| !removed.contains(k)).collect();
        jobs.extend(archived_jobs(conn, cfg, &held, &rows, choice.masks())?);
    }
    // Unchanged files whose stored ctime was too recent to trust and now is not.
    let mut settled = Vec::new();
    let named = !stats.walked_roots;
    for f in &found {
        let row = rows.get(&f.key);
        let plan = match plan_for(f, row, || load_state(conn, &f.key)) {
            // Every row of the other choice is replaced.
            _ if rebuild => Some(Plan::Full),
            // A row without a trusted ctime takes a rewrite that keeps size and mtime for no
            // change (see the module notes); a walk would have trusted the ctime once it was
            // old enough, but a run over named paths looks at no row but theirs, and the
            // change the watcher saw is the evidence instead.
            None if named && row.is_some_and(|r| r.ctime_ns == 0) => Some(Plan::Full),
            plan => plan,
        };
        match plan {
            None => {
                stats.files_skipped += 1;
                if f.stored_ctime_ns != 0 && row.is_some_and(|r| r.ctime_ns == 0) {
                    settled.push(f);
                }
            }
            Some(plan) => jobs.push(Job {
                found: f.clone(),
                base: row.cloned(),
                plan,
                source: Source::Log,
                mask: choice.masks(),
                rewrite: rebuild,
            }),
        }
    }
    let bytes_total: u64 = jobs
        .iter()
        .map(|j| match &j.plan {
            Plan::Full => j.found.size,
            Plan::Append { offset, .. } => j.found.size.saturating_sub(*offset),
        })
        .sum();
    let files_total = jobs.len() as u64;
    stats.plan_ms = started.elapsed().as_millis() as u64;
    let spawn_linked: Vec<Provider> = Provider::ALL
        .into_iter()
        .filter(|p| p.spec().links_by_spawn_time)
        .filter(|p| !removed.is_empty() || jobs.iter().any(|j| j.found.provider == *p))
        .collect();

    let write_started = Instant::now();
    let mut prog = Progress {
        bytes_done: 0,
        bytes_total,
        files_done: 0,
        files_total,
    };
    if !settled.is_empty() {
        // Without this a row indexed while its file was being written would be checked by
        // content sample only, for as long as the file stays unchanged. The content was found
        // unchanged after this ctime was read, so the ctime stands for it; the guard skips rows
        // another indexer rewrote meanwhile.
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        {
            let mut st = tx.prepare(
                "UPDATE files SET ctime_ns = ?1
                 WHERE path = ?2 AND size = ?3 AND mtime_ns = ?4 AND ino = ?5 AND ctime_ns = 0",
            )?;
            for f in &settled {
                st.execute(params![
                    f.stored_ctime_ns,
                    f.key,
                    f.size as i64,
                    f.mtime_ns,
                    f.ino
                ])?;
            }
        }
        tx.commit()?;
    }
    if jobs.is_empty() && removed.is_empty() && !rebuild {
        finish_skips(conn, cfg, &mut stats)?;
        stats.archive = archive::sync(conn, cfg, cfg.archive)?;
        stats.elapsed_ms = started.elapsed().as_millis() as u64;
        return Ok(Some(stats));
    }
    let planned: HashSet<String> = jobs.iter().map(|j| j.found.key.clone()).collect();
    if rebuild {
        // The rows replaced are zeroed on disk, not only unlinked: a rebuild that masks must
        // not leave the raw text in free pages of the file.
        conn.pragma_update(None, "secure_delete", true)?;
    }

    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .clamp(1, 8);
    // Written in plan order whatever order the threads finish in: see `in_order`.
    let queue = in_order::Queue::new(jobs, workers * 8);
    let (tx_parsed, rx_parsed) = mpsc::sync_channel::<(usize, Parsed)>(workers * 2);
    let mut result: Result<()> = Ok(());
    // Set when another process changed the choice of secrets under this run.
    let mut changed_under = false;
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let tx_parsed = tx_parsed.clone();
            let queue = &queue;
            scope.spawn(move || {
                while let Some((place, job)) = queue.take() {
                    let t = Instant::now();
                    // A file that cannot be indexed now is noted and tried again next run.
                    let result = parse_job(&job);
                    let parsed = Parsed {
                        job,
                        result,
                        parse_ns: t.elapsed().as_nanos() as u64,
                    };
                    if tx_parsed.send((place, parsed)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx_parsed);
        result = (|| -> Result<()> {
            let mut tx =
                conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            if masking::stored(&tx)? != seen {
                changed_under = true;
                return Ok(());
            }
            // Recorded with the first text written: in a rebuild, the same transaction.
            if seen.as_deref() != Some(choice.as_str()) {
                masking::record(&tx, choice)?;
            }
            let ours = Some(choice.as_str().to_string());
            // Every transaction: another indexer may have changed the setting in between.
            let bulk = bytes_total >= BULK_BYTES;
            super::schema::tune_fts(&tx, bulk)?;
            let mut commit_ns = 0u64;
            for key in &removed {
                if remove_file(&tx, key)? {
                    stats.files_removed += 1;
                }
            }
            if rebuild {
                drop_unplanned(&tx, &planned)?;
            }
            let mut batch = 0usize;
            let mut parse_ns = 0u64;
            let mut timing = (0u64, 0u64);
            let mut t_wait = Instant::now();
            let mut ready = in_order::Reorder::new();
            for (place, arrived) in rx_parsed.iter() {
                stats.wait_ms += t_wait.elapsed().as_nanos() as u64;
                ready.put(place, arrived);
                while let Some(parsed) = ready.pop_ready() {
                    parse_ns += parsed.parse_ns;
                    let job = parsed.job;
                    let size = match &job.plan {
                        Plan::Full => job.found.size,
                        Plan::Append { offset, .. } => job.found.size.saturating_sub(*offset),
                    };
                    match parsed.result {
                        Err(reason) => {
                            // Read whole and found not to be a log (a file cut inside its first
                            // record, then appended to): what was indexed of it is gone, and a
                            // fresh build would hold no session for it either.
                            if matches!(
                                reason,
                                SkipReason::NotALog | SkipReason::NotValidJson | SkipReason::Replay
                            ) && job.base.is_some()
                                && remove_file(&tx, &job.found.key)?
                            {
                                stats.files_removed += 1;
                            } else if job.rewrite {
                                // Its rows hold the other choice; the next run indexes it again.
                                remove_file(&tx, &job.found.key)?;
                            }
                            note_skip(&mut stats, &job.found.path, reason)
                        }
                        Ok(pf) => {
                            let appended = pf.appended;
                            let malformed_before = match &job.plan {
                                Plan::Append { state, .. } => state.malformed,
                                Plan::Full => 0,
                            };
                            stats.malformed_lines +=
                                u64::from(pf.state.malformed.saturating_sub(malformed_before));
                            batch += pf.events.iter().map(|e| e.text.len() + 64).sum::<usize>();
                            if let Some(n) = apply(&tx, &job, pf, &mut stats, &mut timing)? {
                                stats.events_added += n;
                                stats.bytes_read += size;
                                if appended {
                                    stats.files_appended += 1
                                } else {
                                    stats.files_parsed += 1
                                }
                            }
                        }
                    }
                    prog.bytes_done += size;
                    prog.files_done += 1;
                    if let Some(cb) = progress.as_mut() {
                        cb(prog);
                    }
                    // A rebuild is one transaction: no reader ever sees an index half of one choice
                    // and half of the other, and a crash leaves the old index whole.
                    if batch >= BATCH_BYTES && !rebuild {
                        let t = Instant::now();
                        tx.commit()?;
                        commit_ns += t.elapsed().as_nanos() as u64;
                        tx = conn
                            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
                        if masking::stored(&tx)? != ours {
                            changed_under = true;
                            return Ok(());
                        }
                        super::schema::tune_fts(&tx, bulk)?;
                        batch = 0;
                    }
                    queue.written_one();
                }
                t_wait = Instant::now();
            }
            stats.wait_ms /= 1_000_000;
            stats.parse_ms = parse_ns / 1_000_000;
            stats.events_insert_ms = timing.0 / 1_000_000;
            stats.fts_insert_ms = timing.1 / 1_000_000;
            for p in &spawn_linked {
                link_by_spawn_time(&tx, *p)?;
            }
            tx.execute("DELETE FROM projects WHERE hash NOT IN (SELECT project_hash FROM sessions WHERE project_hash IS NOT NULL)", [])?;
            let t = Instant::now();
            tx.commit()?;
            if bulk || rebuild {
                // A bulk build leaves one large level-0 segment per transaction; small updates
                // would soon add enough level-0 segments to trigger a merge of all of them (a
                // rewrite of the whole index inside some later update: measured 3 s for a
                // 200-file update after a 1.2 GB build). One merge into a single segment now
                // (about 2 s per GB) keeps later updates merging only small segments.
                let tx =
                    conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
                tx.execute("INSERT INTO events_fts(events_fts) VALUES('optimize')", [])?;
                if rebuild {
                    // Merged into one segment, the terms of the rows replaced are gone too:
                    // until then the old segments keep them beside their deletion marks.
                    tx.execute("INSERT INTO events_cjk(events_cjk) VALUES('optimize')", [])?;
                }
                tx.commit()?;
            }
            commit_ns += t.elapsed().as_nanos() as u64;
            stats.commit_ms = commit_ns / 1_000_000;
            Ok(())
        })();
        // Unblocks parser threads still sending, or waiting for the writer, if writing failed.
        queue.close();
        drop(rx_parsed);
    });
    result?;
    if changed_under {
        return Ok(None);
    }
    finish_skips(conn, cfg, &mut stats)?;
    stats.archive = archive::sync(conn, cfg, cfg.archive)?;
    // Fold the WAL back into the database so it does not linger at batch size; a busy reader
    // just makes this a partial checkpoint.
    let t = Instant::now();
    let _ = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
    stats.checkpoint_ms = t.elapsed().as_millis() as u64;
    stats.write_ms = write_started.elapsed().as_millis() as u64;
    stats.elapsed_ms = started.elapsed().as_millis() as u64;
    Ok(Some(stats))
}

fn note_skip(stats: &mut IndexStats, path: &Path, reason: SkipReason) {
    if reason == SkipReason::BeingWritten {
        stats.files_incomplete += 1;
    }
    stats.skipped.push(SkippedFile {
        path: path.to_string_lossy().into_owned(),
        reason,
    });
}

/// Names the skipped files relative to their roots and keeps the list in the index, where
/// [`skip_summary`] finds it: written only when it changed, so an idle refresh writes nothing.
fn finish_skips(conn: &mut Connection, cfg: &Config, stats: &mut IndexStats) -> Result<()> {
    for s in &mut stats.skipped {
        s.path = cfg.path_label(Path::new(&s.path));
    }
    stats.skipped.sort();
    stats.skipped.dedup();
    let stored = load_skips(conn)?;
    if stored == stats.skipped {
        return Ok(());
    }
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    tx.execute("DELETE FROM skipped_files", [])?;
    {
        let mut ins =
            tx.prepare("INSERT OR IGNORE INTO skipped_files (path, reason) VALUES (?1, ?2)")?;
        for s in &stats.skipped {
            ins.execute(params![s.path, s.reason.as_str()])?;
        }
    }
    tx.commit()?;
    Ok(())
}

fn load_skips(conn: &Connection) -> Result<Vec<SkippedFile>> {
    let mut st = conn.prepare("SELECT path, reason FROM skipped_files")?;
    let rows = st.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?;
    let mut out = Vec::new();
    for row in rows {
        let (path, reason) = row?;
        // A reason a later version added and this one does not know is left out.
        if let Some(reason) = SkipReason::from_name(&reason) {
            out.push(SkippedFile { path, reason });
        }
    }
    out.sort();
    Ok(out)
}

/// What the last indexing run (of any process) skipped, as kept in the index at `cfg`: counts
/// per reason and at most `max_examples` examples. A read on its own connection, which never
/// waits for an indexer (WAL).
pub fn last_skips(cfg: &Config, max_examples: usize) -> Result<SkipSummary> {
    let conn = super::schema::open(&cfg.index_path())?;
    Ok(SkipSummary::of(&load_skips(&conn)?, max_examples))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plan of the walk's read of every row.
    fn plan_of_all_rows(conn: &Connection) -> String {
        let sql = format!("EXPLAIN QUERY PLAN SELECT {ROW_COLUMNS} FROM files");
        conn.prepare(&sql)
            .unwrap()
            .query_map([], |r| r.get::<_, String>(3))
            .unwrap()
            .collect::<rusqlite::Result<Vec<_>>>()
            .unwrap()
            .join("; ")
    }

    #[test]
    fn a_walk_reads_the_rows_from_the_covering_index_which_an_index_without_it_gets() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("index.sqlite");
        let conn = super::super::schema::open_ready(&path).unwrap();
        let plan = plan_of_all_rows(&conn);
        assert!(plan.contains("COVERING INDEX files_stamps"), "{plan}");
        // An index made before it was added gets it when opened.
        conn.execute_batch("DROP INDEX files_stamps").unwrap();
        drop(conn);
        let conn = super::super::schema::open_ready(&path).unwrap();
        let plan = plan_of_all_rows(&conn);
        assert!(plan.contains("COVERING INDEX files_stamps"), "{plan}");
    }
}
