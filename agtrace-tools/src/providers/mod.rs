//! Provider parsers: raw log records in, normalized [`Event`]s out.
//!
//! Parsing is a resumable state machine ([`ParseState`]) fed one record at a time, so that an
//! appended JSONL file can be parsed from where it stopped and still give exactly the events
//! (indices, turns, steps, token sums) a parse from the start would give.
//!
//! # The provider table
//!
//! One agent is one file here, with a [`ProviderSpec`] named `SPEC` and a `State` (its share
//! of [`ParseState`]), plus one line in `provider_table!`. The [`Provider`] enum (the tools'
//! `provider` argument and output), its wire names and index codes, the log roots with their
//! flags and environment variables, discovery and per-provider counts all derive from it.

mod capped_text;
mod lenient;
pub mod spec;

use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{Error, Result};
use crate::model::Positioner;
use crate::model::TokenAccumulator;
use crate::model::{Event, EventKind, SourceSpan};
pub use spec::{Layout, ProviderSpec, Restart, StoreSpec, StoreUnit};

/// The providers: `<doc of the enum value> Variant = module, "<doc of its session count>";`.
/// The module's name is the wire name; an entry's position is its code in the index, so
/// entries are only ever appended.
macro_rules! provider_table {
    ($then:ident) => {
        $then! {
            /// Claude Code.
            ClaudeCode = claude_code, "Claude Code sessions.";
            /// OpenAI Codex CLI.
            Codex = codex, "Codex CLI sessions.";
            /// Google Gemini CLI.
            Gemini = gemini, "Gemini CLI sessions.";
            /// Qwen Code.
            QwenCode = qwen_code, "Qwen Code sessions.";
            /// GitHub Copilot CLI.
            CopilotCli = copilot_cli, "GitHub Copilot CLI sessions.";
            /// OpenCode.
            Opencode = opencode, "OpenCode sessions.";
        }
    };
}
pub(crate) use provider_table;

macro_rules! define_providers {
    ($( $(#[doc = $doc:tt])* $variant:ident = $module:ident, $counts:tt; )*) => {
        $( pub mod $module; )*

        /// The agent that wrote a session.
        // Also the tools' `provider` type: `#[tool_args]` derives its serde and JSON Schema
        // (snake_case values, each described by its doc; this item's doc is the schema's
        // description).
        #[mcp_tool::tool_args]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Provider {
            $( $(#[doc = $doc])* $variant, )*
        }

        impl Provider {
            /// How many providers there are.
            pub const COUNT: usize = [$(stringify!($variant)),*].len();

            /// Every provider, in the order of their codes in the index.
            pub const ALL: [Provider; Self::COUNT] = [$(Provider::$variant),*];

            /// The snake_case name, as serialized.
            pub fn as_str(self) -> &'static str {
                match self {
                    $( Provider::$variant => stringify!($module), )*
                }
            }

            /// What agtrace knows about this agent's logs.
            pub fn spec(self) -> &'static ProviderSpec {
                match self {
                    $( Provider::$variant => &$module::SPEC, )*
                }
            }
        }

        /// Each provider's own share of a [`ParseState`].
        #[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
        pub(crate) struct ProviderStates {
            $( #[serde(default)] pub(crate) $module: $module::State, )*
        }
    };
}
provider_table!(define_providers);

impl Provider {
    /// Position in [`Provider::ALL`] (also the provider's code in the index).
    pub fn position(self) -> usize {
        self as usize
    }

    pub(crate) fn code(self) -> i64 {
        self.position() as i64
    }

    pub(crate) fn from_code(code: i64) -> Option<Self> {
        Self::ALL.get(usize::try_from(code).ok()?).copied()
    }
}

impl std::fmt::Display for Provider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Provider {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|p| p.as_str() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Self::ALL.iter().map(|p| p.as_str()).collect();
                format!(
                    "unknown provider '{s}' (expected one of {})",
                    names.join(", ")
                )
            })
    }
}

/// What the file's location says about its session before any record is read.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FileHint {
    /// The file name's stem: the session id until a record names one.
    pub session_id: String,
    /// Whether the file is a sub-agent's (Claude Code `agent-*.jsonl`, Gemini
    /// `chats/<parent>/<id>.jsonl`).
    pub is_subagent: bool,
    /// The parent session, when the path names it (Gemini sub-agents).
    #[serde(default)]
    pub parent_id: Option<String>,
    /// How the file is written.
    #[serde(default)]
    pub layout: Layout,
}

impl FileHint {
    /// Derives the hint from a log file path, as provider `provider` lays its files out.
    pub fn from_path(provider: Provider, path: &Path) -> FileHint {
        (provider.spec().hint)(path)
    }
}

/// Session-level facts gathered while parsing.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SessionMeta {
    /// The provider's session id.
    pub session_id: String,
    /// The session that spawned this one, for sub-agent sessions.
    pub parent_id: Option<String>,
    /// Whether the session is a sub-agent's.
    pub is_subagent: bool,
    /// Project root (Claude/Codex `cwd` of the first record that has one).
    pub cwd: Option<String>,
    /// Project hash given by the provider itself (Gemini).
    pub project_hash: Option<String>,
    /// The main model of the session.
    pub model: Option<String>,
    /// First event time, in Unix milliseconds.
    pub start_ms: Option<i64>,
    /// Last event time, in Unix milliseconds.
    pub end_ms: Option<i64>,
    /// The first prompt, shortened.
    pub first_prompt: Option<String>,
    /// Number of prompts.
    pub prompts: u32,
    /// Number of tool calls.
    pub tool_calls: u32,
    /// Number of tool calls whose results report a failure.
    pub tool_errors: u32,
    /// Codex: times at which this session entered review mode (spawned a review sub-agent).
    pub spawn_ms: Vec<i64>,
    /// The file only replays a session another file holds (a Gemini resume's stub): it is no
    /// session of its own, and is skipped ([`crate::index::SkipReason::Replay`]).
    #[serde(default)]
    pub replay_only: bool,
}

impl SessionMeta {
    /// The project's id: the hash of its root, or the hash the log itself keeps (Gemini).
    pub fn project_hash(&self) -> Option<String> {
        match (&self.cwd, &self.project_hash) {
            (Some(cwd), _) => Some(crate::model::project_hash(cwd)),
            (None, Some(h)) => Some(h.clone()),
            _ => None,
        }
    }
}

/// Everything needed to continue parsing a file where the previous parse stopped.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ParseState {
    /// Whose format the file is in.
    pub provider: Provider,
    /// What is known of the session so far.
    pub meta: SessionMeta,
    /// Index the next event gets.
    pub next_index: u32,
    /// Lines (or Gemini messages) that could not be read as records.
    pub malformed: u32,
    /// Lines (or Gemini messages) read as records of the provider's format.
    #[serde(default)]
    pub records: u32,
    /// Token usage so far, each model message counted once.
    pub tokens: TokenAccumulator,
    pub(crate) position: Positioner,
    /// How the file is written (from its [`FileHint`]).
    #[serde(default)]
    pub layout: Layout,
    /// Each provider's own parse state.
    pub(crate) states: ProviderStates,
    /// Timestamp of the record being translated; events without their own take it.
    #[serde(skip)]
    pub(crate) record_ms: Option<i64>,
    /// Bytes of each tool output kept (all when `None`; see [`Event::whole_text_chars`]).
    #[serde(skip)]
    pub result_text_cap: Option<usize>,
}

impl ParseState {
    /// The state before the first byte of a file.
    pub fn new(provider: Provider, hint: &FileHint) -> Self {
        ParseState {
            provider,
            meta: SessionMeta {
                session_id: hint.session_id.clone(),
                is_subagent: hint.is_subagent,
                parent_id: hint.parent_id.clone(),
                ..SessionMeta::default()
            },
            next_index: 0,
            malformed: 0,
            records: 0,
            tokens: TokenAccumulator::default(),
            position: Positioner::default(),
            layout: hint.layout,
            states: ProviderStates::default(),
            record_ms: None,
            result_text_cap: None,
        }
    }

    /// Gives the next event its index, turn, step and timestamp, and folds it into the
    /// session's metadata.
    fn commit(&mut self, mut ev: Event, out: &mut Vec<Event>) {
        if let Some(cap) = self.result_text_cap
            && ev.kind == EventKind::ToolResult
            && ev.text.len() > cap
        {
            let mut kept = capped_text::CappedText::new(Some(cap));
            kept.push_str(&ev.text);
            let (text, whole) = kept.finish();
            ev.text = text;
            ev.whole_text_chars = whole;
        }
        ev.index = self.next_index;
        self.next_index += 1;
        if ev.timestamp.is_none() {
            ev.timestamp = self.record_ms.and_then(crate::model::ts_from_ms);
        }
        if let Some(ms) = ev.timestamp.map(|t| t.timestamp_millis()) {
            self.meta.start_ms = Some(self.meta.start_ms.map_or(ms, |s| s.min(ms)));
            self.meta.end_ms = Some(self.meta.end_ms.map_or(ms, |e| e.max(ms)));
        }
        let (turn, step) = self.position.place(&ev);
        ev.turn = turn;
        ev.step = step;
        match ev.kind {
            EventKind::User => {
                self.meta.prompts += 1;
                if self.meta.first_prompt.is_none() {
                    self.meta.first_prompt = Some(truncate_chars(&ev.text, 500));
                }
            }
            EventKind::ToolCall => self.meta.tool_calls += 1,
            EventKind::ToolResult if ev.is_error => self.meta.tool_errors += 1,
            EventKind::TokenUsage => {
                if let Some(t) = &ev.tokens {
                    self.tokens.push(t, ev.message_id.as_deref());
                }
            }
            _ => {}
        }
        if let Some(m) = &ev.model
            && self.meta.model.as_deref() != Some(m)
        {
            self.meta.model = Some(m.clone());
        }
        out.push(ev);
    }

    /// Number of turns so far (a session with any event has at least one).
    pub fn turn_count(&self) -> u32 {
        if self.next_index == 0 {
            0
        } else {
            self.position.turn + 1
        }
    }
}

/// Result of parsing a file (or the appended part of one).
#[derive(Debug, Clone, Default)]
pub struct ParsedChunk {
    /// The events parsed from the chunk, in order.
    pub events: Vec<Event>,
    /// Absolute byte offset up to which the file has been consumed.
    pub end_offset: u64,
}

/// Parses JSONL `bytes`, which start at absolute file offset `base`. Stops before a last line
/// that has no newline and is not a complete record: the agent is still writing it.
pub fn parse_jsonl(state: &mut ParseState, bytes: &[u8], base: u64, keep_raw: bool) -> ParsedChunk {
    let mut events = Vec::new();
    let mut pos = 0usize;
    while pos < bytes.len() {
        let (line_end, next, terminated) = match memchr_newline(&bytes[pos..]) {
            Some(i) => (pos + i, pos + i + 1, true),
            None => (bytes.len(), bytes.len(), false),
        };
        let line = trim_ascii(&bytes[pos..line_end]);
        if !line.is_empty() {
            match serde_json::from_slice::<Value>(line) {
                Ok(v) if v.is_object() => {
                    state.records += 1;
                    let span = SourceSpan {
                        offset: base + pos as u64,
                        len: (line_end - pos) as u32,
                    };
                    record(state, &v, span, keep_raw, &mut events);
                }
                // An unterminated last line that does not parse is still being written.
                Err(_) if !terminated => break,
                _ => state.malformed += 1,
            }
        }
        pos = next;
    }
    ParsedChunk {
        events,
        end_offset: base + pos as u64,
    }
}

fn record(
    state: &mut ParseState,
    v: &Value,
    span: SourceSpan,
    keep_raw: bool,
    out: &mut Vec<Event>,
) {
    state.record_ms = v
        .get("timestamp")
        .and_then(Value::as_str)
        .and_then(crate::model::parse_ts)
        .map(|t| t.timestamp_millis());
    let mut drafts = Vec::new();
    if let Some(translate) = state.provider.spec().lines {
        translate(state, v, &mut drafts);
    }
    for mut ev in drafts {
        ev.source = Some(span);
        if keep_raw {
            ev.raw = v.clone();
        }
        state.commit(ev, out);
    }
}

/// The source file and session id a store session's key (`<source path>#<session id>`)
/// names; any other path is its own source.
pub fn store_unit(provider: Provider, key: &Path) -> (&Path, Option<&str>) {
    if provider.spec().store.is_none() {
        return (key, None);
    }
    match key.to_str().and_then(|k| k.rsplit_once('#')) {
        Some((source, id)) => (Path::new(source), Some(id)),
        None => (key, None),
    }
}

/// Reads session `id` of the store source at `path` (see [`Layout::Store`]).
pub fn parse_store_session(
    provider: Provider,
    path: &Path,
    id: &str,
    keep_raw: bool,
) -> std::result::Result<(ParseState, Vec<Event>), crate::index::SkipReason> {
    store_session(provider, path, id, keep_raw, None)
}

fn store_session(
    provider: Provider,
    path: &Path,
    id: &str,
    keep_raw: bool,
    result_text_cap: Option<usize>,
) -> std::result::Result<(ParseState, Vec<Event>), crate::index::SkipReason> {
    let Some(store) = provider.spec().store else {
        return Err(crate::index::SkipReason::NotALog);
    };
    let hint = FileHint {
        session_id: id.to_string(),
        ..FileHint::from_path(provider, path)
    };
    let mut state = ParseState::new(provider, &hint);
    state.result_text_cap = result_text_cap;
    let events = (store.read)(&mut state, path, id, keep_raw)?;
    Ok((state, events))
}

/// Parses a whole log file from the start (or one session of a store, named by its key).
pub fn parse_file(
    provider: Provider,
    path: &Path,
    keep_raw: bool,
) -> Result<(ParseState, Vec<Event>)> {
    parse_file_capped(provider, path, keep_raw, None)
}

/// [`parse_file`], keeping at most `result_text_cap` bytes of each tool output (see
/// [`Event::whole_text_chars`]).
pub fn parse_file_capped(
    provider: Provider,
    path: &Path,
    keep_raw: bool,
    result_text_cap: Option<usize>,
) -> Result<(ParseState, Vec<Event>)> {
    if let (source, Some(id)) = store_unit(provider, path) {
        return store_session(provider, source, id, keep_raw, result_text_cap).map_err(|reason| {
            match reason {
                crate::index::SkipReason::Vanished => Error::LogFileGone(id.to_string()),
                _ => Error::io(
                    source,
                    std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        format!("session {id}: {reason}"),
                    ),
                ),
            }
        });
    }
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    let mut state = ParseState::new(provider, &FileHint::from_path(provider, path));
    state.result_text_cap = result_text_cap;
    let events = parse_bytes(&mut state, &bytes, keep_raw)
        .ok_or_else(|| Error::Incomplete(path.to_path_buf()))?;
    Ok((state, events))
}

/// Parses the whole of a file's bytes into a fresh `state`, in the file's layout. `None` for a
/// document that is not (yet) complete.
pub fn parse_bytes(state: &mut ParseState, bytes: &[u8], keep_raw: bool) -> Option<Vec<Event>> {
    let spec = state.provider.spec();
    match state.layout {
        Layout::Lines => Some(parse_jsonl(state, bytes, 0, keep_raw).events),
        Layout::Document => spec
            .document
            .and_then(|parse| parse(state, bytes, keep_raw)),
        // From the start nothing read before can be changed: a journal never restarts.
        Layout::Journal => spec
            .journal
            .and_then(|parse| parse(state, bytes, 0, keep_raw).ok())
            .map(|c| c.events),
        // A store is read session by session (`parse_store_session`), never as bytes.
        Layout::Store => None,
    }
}

/// Parses appended bytes (starting at absolute offset `base`) of a file already read up to
/// `base` into `state`; [`Restart`] when the append changes what was read (a journal's rewind
/// or rewrite), and the file must be parsed again from the start.
pub fn parse_append(
    state: &mut ParseState,
    bytes: &[u8],
    base: u64,
    keep_raw: bool,
) -> std::result::Result<ParsedChunk, Restart> {
    match (state.layout, state.provider.spec().journal) {
        (Layout::Journal, Some(parse)) => parse(state, bytes, base, keep_raw),
        (Layout::Journal, None) | (Layout::Document | Layout::Store, _) => Err(Restart),
        (Layout::Lines, _) => Ok(parse_jsonl(state, bytes, base, keep_raw)),
    }
}

/// The events of one record (a line of a JSONL log or journal, an entry of a document: the
/// bytes of an event's `source`, at offset `base`), read on its own into a fresh `state`.
pub fn parse_record(state: &mut ParseState, bytes: &[u8], base: u64) -> Vec<Event> {
    match state.layout {
        Layout::Lines | Layout::Journal => parse_append(state, bytes, base, false)
            .map(|c| c.events)
            .unwrap_or_default(),
        Layout::Document => match state.provider.spec().document_record {
            Some(read) => read(state, bytes),
            None => Vec::new(),
        },
        Layout::Store => Vec::new(),
    }
}

/// Why a file read whole into `state` is not a log at all: it has content, but not one line
/// (or message) of it was a record. `None` when it is a log, or empty, or holds only a line
/// still being written. Scans the bytes again, which only such files pay for.
pub fn not_a_log(state: &ParseState, bytes: &[u8]) -> Option<DocumentProblem> {
    if state.records > 0 || state.malformed == 0 {
        return None;
    }
    let any_json = bytes
        .split(|&b| b == b'\n')
        .any(|l| serde_json::from_slice::<Value>(l.trim_ascii()).is_ok());
    Some(if any_json {
        DocumentProblem::NotADocument
    } else {
        DocumentProblem::NotJson
    })
}

/// Why bytes that should hold one JSON session document do not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocumentProblem {
    /// The JSON ends before the document does: cut short, or still being written.
    Incomplete,
    /// Nested deeper than the JSON parser follows (128 levels): complete, but unreadable.
    TooDeeplyNested,
    /// Not JSON at all.
    NotJson,
    /// JSON, but not an object.
    NotADocument,
}

/// What is wrong with a document [`gemini::parse_document`] refused, `None` if nothing is.
/// Parses the bytes again, which only the failure path pays for.
pub fn document_problem(bytes: &[u8]) -> Option<DocumentProblem> {
    match serde_json::from_slice::<Value>(bytes) {
        Ok(v) if v.is_object() => None,
        Ok(_) => Some(DocumentProblem::NotADocument),
        Err(e) if e.is_eof() => Some(DocumentProblem::Incomplete),
        // serde_json has no error kind for its depth limit, only this message.
        Err(e) if e.to_string().starts_with("recursion limit exceeded") => {
            Some(DocumentProblem::TooDeeplyNested)
        }
        Err(_) => Some(DocumentProblem::NotJson),
    }
}

fn memchr_newline(b: &[u8]) -> Option<usize> {
    b.iter().position(|&c| c == b'\n')
}

fn trim_ascii(b: &[u8]) -> &[u8] {
    b.trim_ascii()
}

pub(crate) fn truncate_chars(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => s[..i].to_string(),
        None => s.to_string(),
    }
}

pub(crate) fn str_field<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

pub(crate) fn u64_field(v: &Value, key: &str) -> u64 {
    v.get(key).and_then(Value::as_u64).unwrap_or(0)
}

/// Text of a content value that is a string, or an array of blocks/parts with `text`.
pub(crate) fn flatten_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(items) => {
            let mut out = String::new();
            for it in items {
                let piece = match it {
                    Value::String(s) => s.clone(),
                    Value::Object(_) => match it.get("text").and_then(Value::as_str) {
                        Some(t) => t.to_string(),
                        None => match str_field(it, "type") {
                            Some("image") | Some("input_image") => "[image]".to_string(),
                            _ => String::new(),
                        },
                    },
                    _ => String::new(),
                };
                if !piece.is_empty() {
                    if !out.is_empty() {
                        out.push('\n');
                    }
                    out.push_str(&piece);
                }
            }
            out
        }
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// Lines of a tool output [`exit_code_in_text`] looks at.
pub(crate) const EXIT_CODE_LINES: usize = 12;

/// Exit code in shell output text ("Exit code: 1" / "Exit Code: 1").
pub(crate) fn exit_code_in_text(text: &str) -> Option<i64> {
    for line in text.lines().take(EXIT_CODE_LINES) {
        let l = line.trim();
        let rest = l
            .strip_prefix("Exit code:")
            .or_else(|| l.strip_prefix("Exit Code:"));
        if let Some(rest) = rest {
            return rest.trim().parse().ok();
        }
    }
    None
}
