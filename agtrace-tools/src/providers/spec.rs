//! What one agent's logs are: where they live, which files hold them, how they are read.
//!
//! Each provider file (`claude_code.rs`, `codex.rs`, `gemini.rs`, ...) defines one
//! [`ProviderSpec`] named `SPEC` and one parse-state type named `State`; the table in
//! [`super`] lists the files. Everything else (the `Provider` enum on the wire, the log roots
//! and their flags, discovery, the index's provider codes, counts per provider) is derived from
//! that table, so adding an agent is one file plus one line.

use std::fs::File;
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{FileHint, ParseState, ParsedChunk};
use crate::index::SkipReason;
use crate::model::Event;

/// How a log file is written, which decides how it is read and re-read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Layout {
    /// One record a line, appended; each line translates on its own (Claude Code, Codex).
    #[default]
    Lines,
    /// One JSON document, rewritten whole as the session grows (Gemini `.json`).
    Document,
    /// Appended records that may also rewrite, rewind or replace earlier ones (Gemini
    /// `.jsonl`): an append is read from where the last read stopped unless it changes what
    /// was already read, and then the file is read again from the start.
    Journal,
    /// A store of many sessions kept as objects changed in place (OpenCode's SQLite database,
    /// or its JSON tree): its sessions are listed with a fingerprint each
    /// ([`StoreSpec::list`]), and a session whose fingerprint changed is read again whole
    /// ([`StoreSpec::read`]). Each session is indexed as its own unit, under the key
    /// `<source path>#<session id>`.
    Store,
}

/// Translates one JSONL record into events (for [`Layout::Lines`]).
pub type LineFn = fn(&mut ParseState, &Value, &mut Vec<Event>);
/// Parses a whole document; `None` when it is not (yet) a complete one (for
/// [`Layout::Document`]).
pub type DocumentFn = fn(&mut ParseState, &[u8], bool) -> Option<Vec<Event>>;

/// Reads one record of a document (the bytes of an event's `source`) on its own.
pub type RecordFn = fn(&mut ParseState, &[u8]) -> Vec<Event>;
/// Parses appended journal bytes starting at an absolute offset (for [`Layout::Journal`]).
pub type JournalFn = fn(&mut ParseState, &[u8], u64, bool) -> Result<ParsedChunk, Restart>;

/// One session inside a store source ([`Layout::Store`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreUnit {
    /// The session id (never contains `#`).
    pub id: String,
    /// Changes whenever anything of the session does (its row, a message, a part); never 0.
    pub fingerprint: i64,
    /// The records (session, messages, parts) it holds: its size for progress and counts.
    pub records: u64,
    /// When it last changed, in Unix milliseconds.
    pub updated_ms: i64,
}

/// Lists the sessions of a store source (see [`StoreSpec::list`]).
pub type StoreListFn = fn(&Path) -> Result<Vec<StoreUnit>, SkipReason>;
/// Reads one session of a store source (see [`StoreSpec::read`]).
pub type StoreReadFn = fn(&mut ParseState, &Path, &str, bool) -> Result<Vec<Event>, SkipReason>;

/// How a store's sessions are listed and read.
pub struct StoreSpec {
    /// The sessions in the source file at `path`, or why it cannot be read.
    pub list: StoreListFn,
    /// Reads session `id` of the source at `path` whole into a fresh state, raw records kept
    /// in the events when asked; or why it cannot be read.
    pub read: StoreReadFn,
}

/// A journal append that changes records already read: parse the file again from the start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Restart;

/// Everything agtrace knows about one agent's logs.
pub struct ProviderSpec {
    /// The agent's name for people ("Claude Code").
    pub title: &'static str,
    /// Default log root, relative to the home folder.
    pub home_root: &'static str,
    /// Environment variable that overrides the root.
    pub env: &'static str,
    /// Command-line flag (without `--`) that overrides the root.
    pub flag: &'static str,
    /// The root inside a generated or bundled tree (`Config::for_tree`).
    pub tree_root: &'static str,
    /// Whether a file is named like one of the agent's logs. A file that matches is indexed
    /// or given a skip reason, never dropped silently.
    pub is_log: fn(&Path) -> bool,
    /// What the file's path says before any record is read (session id, layout, parent).
    pub hint: fn(&Path) -> FileHint,
    /// Line translation, for files whose hint says [`Layout::Lines`].
    pub lines: Option<LineFn>,
    /// Document parser, for files whose hint says [`Layout::Document`].
    pub document: Option<DocumentFn>,
    /// Reads one record of a document on its own: the index reads an event's text back from
    /// it (`index::line_text`), as it reads a line of a JSONL log.
    pub document_record: Option<RecordFn>,
    /// Journal parser, for files whose hint says [`Layout::Journal`].
    pub journal: Option<JournalFn>,
    /// Sub-agents that name no parent are linked to the session that spawned them by time
    /// (`SessionMeta::spawn_ms`), after each indexing run (Codex review sub-agents).
    pub links_by_spawn_time: bool,
    /// Restores the state a line at `offset` is read in when it is parsed on its own (Codex:
    /// the model of the last `turn_context` before it).
    pub resume_context: Option<fn(&mut ParseState, &mut File, u64)>,
    /// For an agent whose logs are stores of many sessions ([`Layout::Store`]).
    pub store: Option<&'static StoreSpec>,
}

/// The stem of a path's file name: the session id until a record names one.
pub(crate) fn file_stem(path: &Path) -> String {
    path.file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("unknown")
        .to_string()
}

/// The file name, read lossily so that a non-UTF-8 name is still recognised (and noted).
pub(crate) fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}
