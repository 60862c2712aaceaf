//! Gemini CLI sessions, in both of the formats the CLI has written:
//!
//! - `chats/session-*.json`: one JSON document `{sessionId, projectHash, startTime, messages}`,
//!   rewritten whole as the session grows (versions before about April 2026);
//! - `chats/session-*.jsonl` (and sub-agents' `chats/<parentSessionId>/<id>.jsonl`): a journal
//!   appended to as the session grows. Its first line is a header (`sessionId`, `projectHash`,
//!   `startTime`, `kind`); then message records (the shapes of the document's `messages`), which
//!   a later record with the same `id` replaces in place; `{"$set": {...}}` metadata updates,
//!   where a `messages` array is a checkpoint of the list (the CLI's loader replaces the list
//!   with it; agtrace, which keeps history, only adds and completes messages: see below); and
//!   `{"$rewindTo": id}`, which drops that message and all after it (everything, when the id
//!   is unknown). This is how the CLI's own loader reads it (`chatRecordingService.ts`).
//!
//! Resume, continue and fork (read from the logs Gemini CLI 0.61 writes, kept in
//! `tests/real_logs/agents/gemini/`): `gemini --resume` goes on writing the session's own
//! journal. Each resume appends a second header, a `$set` checkpoint holding only the
//! session-context message, `$set sessionId`, then a checkpoint of the whole list, whose copies
//! of earlier model messages carry no `tokens`, `toolCalls` or `model`; the run's own records
//! follow. A checkpoint therefore never removes history here: a message it leaves out stays,
//! and its copy of a message already replayed is merged with that message (the earlier, richer
//! record's fields stay). When the resume starts in another minute than the session did, the
//! CLI also writes a second file (a header and the context checkpoint, same `sessionId`) and
//! writes nothing more to it: a journal without a record of its own is such a copy, not a
//! conversation, and is skipped (`SkipReason::Replay`) so that the file holding the
//! conversation owns the id. The CLI has no fork; its totals are per message, never cumulative.
//!
//! A journal is read by replaying it; the events of the messages that stand at the end of what
//! was read are emitted then. A later append that only adds messages continues from there; one
//! that rewrites, rewinds or checkpoints what was already emitted asks for a re-read
//! ([`Restart`]).

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::path::Path;

use serde::de::{Error as _, MapAccess, SeqAccess};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;

use super::capped_text::CappedText;
use super::lenient::{L, Lenient, Object, Skip, next, object};
use super::spec::{Layout, ProviderSpec, Restart, file_name, file_stem};
use super::{
    EXIT_CODE_LINES, FileHint, ParseState, ParsedChunk, exit_code_in_text, flatten_text,
    str_field,
};
use crate::model::TokenUsage;
use crate::model::{Event, EventKind, SourceSpan};

/// Gemini CLI: `~/.gemini/tmp/<projectHash>/chats/session-*.json` and `session-*.jsonl`,
/// sub-agents in `chats/<parentSessionId>/<id>.jsonl`.
pub static SPEC: ProviderSpec = ProviderSpec {
    title: "Gemini CLI",
    home_root: ".gemini/tmp",
    env: "AGTRACE_GEMINI_DIR",
    flag: "gemini-dir",
    tree_root: "gemini/tmp",
    is_log,
    hint,
    lines: None,
    document: Some(parse_document),
    document_record: Some(parse_message),
    journal: Some(parse_journal),
    links_by_spawn_time: false,
    resume_context: None,
    store: None,
};

/// The folder a file is in, by name.
fn folder(path: &Path, up: usize) -> Option<String> {
    let mut dir = path.parent()?;
    for _ in 0..up {
        dir = dir.parent()?;
    }
    Some(dir.file_name()?.to_string_lossy().into_owned())
}

/// Any `.json` or `.jsonl` file in a `chats` folder, or in a folder inside one (a sub-agent's).
/// Not only `session-*` names: a renamed file is still a session, and one that does not parse
/// gets a skip reason instead of vanishing.
fn is_log(path: &Path) -> bool {
    let name = file_name(path);
    (name.ends_with(".json") || name.ends_with(".jsonl"))
        && (folder(path, 0).as_deref() == Some("chats")
            || folder(path, 1).as_deref() == Some("chats"))
}

fn hint(path: &Path) -> FileHint {
    let sub = folder(path, 0).as_deref() != Some("chats");
    FileHint {
        session_id: file_stem(path),
        is_subagent: sub,
        parent_id: if sub { folder(path, 0) } else { None },
        layout: if file_name(path).ends_with(".jsonl") {
            Layout::Journal
        } else {
            Layout::Document
        },
    }
}

/// What a Gemini journal parse carries from one read to the next.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// Ids of the messages whose events were emitted: a record that changes one of them
    /// means the journal must be read again.
    #[serde(default)]
    emitted: HashSet<String>,
    /// A message record or a rewind was read: the file goes on a conversation of its own.
    #[serde(default)]
    own_records: bool,
}

/// The messages of a journal as replayed so far, in order, not yet emitted, each with the
/// line it was last written by (none for a checkpoint's copy).
#[derive(Default)]
struct Pending {
    order: Vec<Option<(Value, Option<SourceSpan>)>>,
    at: HashMap<String, usize>,
}

impl Pending {
    fn upsert(&mut self, id: &str, m: Value, line: Option<SourceSpan>) {
        match self.at.get(id) {
            // Last write wins, in the place of the first.
            Some(&i) => self.order[i] = Some((m, line)),
            None => {
                self.at.insert(id.to_string(), self.order.len());
                self.order.push(Some((m, line)));
            }
        }
    }

    /// Drops message `id` and everything after it; `false` when `id` is not here.
    fn rewind(&mut self, id: &str) -> bool {
        let Some(&i) = self.at.get(id) else {
            return false;
        };
        for (m, _) in self.order.drain(i..).flatten() {
            if let Some(id) = str_field(&m, "id") {
                self.at.remove(id);
            }
        }
        true
    }

    /// The message standing under `id`, if any.
    fn get(&self, id: &str) -> Option<&Value> {
        self.at
            .get(id)
            .and_then(|&i| self.order[i].as_ref())
            .map(|(m, _)| m)
    }

    fn clear(&mut self) {
        self.order.clear();
        self.at.clear();
    }
}

/// A checkpoint's copy of a message already replayed, merged with the record it copies.
///
/// The CLI writes a checkpoint when a session is resumed, and its copies of earlier model
/// messages carry no `tokens`, `toolCalls` or `model` (the resumed history only keeps what the
/// model is shown again). Replacing the records with them would lose every tool call and token
/// of the session before the resume, so each field the copy leaves out, or leaves empty, is
/// kept from the earlier record; a field the copy does fill wins, as a rewrite would.
fn merged(copy: &Value, earlier: &Value) -> Value {
    let (Some(c), Some(e)) = (copy.as_object(), earlier.as_object()) else {
        return copy.clone();
    };
    let mut out = c.clone();
    for (k, v) in e {
        if out.get(k).is_none_or(is_empty) {
            out.insert(k.clone(), v.clone());
        }
    }
    Value::Object(out)
}

fn is_empty(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        _ => false,
    }
}

/// Parses journal bytes starting at absolute offset `base` (see the module notes).
pub fn parse_journal(
    st: &mut ParseState,
    bytes: &[u8],
    base: u64,
    keep_raw: bool,
) -> Result<ParsedChunk, Restart> {
    replay_journal(st, bytes, base, |st, m, out| emit_value(st, m, keep_raw, out))
}

/// Replays journal bytes starting at absolute offset `base`, then hands each message that
/// stands at the end to `emit`.
fn replay_journal(
    st: &mut ParseState,
    bytes: &[u8],
    base: u64,
    mut emit: impl FnMut(&mut ParseState, &Value, &mut Vec<Event>),
) -> Result<ParsedChunk, Restart> {
    let mut pending = Pending::default();
    let mut pos = 0usize;
    while pos < bytes.len() {
        let (line_end, next, terminated) = match bytes[pos..].iter().position(|&c| c == b'\n') {
            Some(i) => (pos + i, pos + i + 1, true),
            None => (bytes.len(), bytes.len(), false),
        };
        let line = bytes[pos..line_end].trim_ascii();
        if !line.is_empty() {
            match serde_json::from_slice::<Value>(line) {
                Ok(v) if v.is_object() => {
                    let line = SourceSpan {
                        offset: base + pos as u64,
                        len: (line_end - pos) as u32,
                    };
                    journal_record(st, v, line, &mut pending)?
                }
                Err(_) if !terminated => break,
                _ => st.malformed += 1,
            }
        }
        pos = next;
    }
    let mut events = Vec::new();
    if !st.states.gemini.own_records {
        // A resume that starts in another minute than the session did writes a second file
        // (a header and a checkpoint, same `sessionId`) and goes on writing the session's own
        // file. Such a stub only copies what that file holds: it is no session of its own and
        // must not take the id from the file that holds the conversation. (A new session's
        // journal is like it for the moment before its first prompt is written; it is read
        // again once it grows.)
        st.meta.replay_only = true;
        return Ok(ParsedChunk {
            events,
            end_offset: base + pos as u64,
        });
    }
    st.meta.replay_only = false;
    for (m, line) in pending.order.into_iter().flatten() {
        if let Some(id) = str_field(&m, "id") {
            st.states.gemini.emitted.insert(id.to_string());
        }
        let first = events.len();
        emit(st, &m, &mut events);
        // The line that wrote the message, so that its texts can be read back from it
        // (`index::line_text`, which checks that they are).
        for e in &mut events[first..] {
            e.source = line;
        }
    }
    Ok(ParsedChunk {
        events,
        end_offset: base + pos as u64,
    })
}

fn journal_record(
    st: &mut ParseState,
    v: Value,
    line: SourceSpan,
    pending: &mut Pending,
) -> Result<(), Restart> {
    let emitted = &st.states.gemini.emitted;
    if let Some(id) = str_field(&v, "$rewindTo") {
        st.records += 1;
        st.states.gemini.own_records = true;
        if emitted.contains(id) {
            return Err(Restart);
        }
        if !pending.rewind(id) {
            // An unknown id clears everything, as the CLI's loader does.
            if !emitted.is_empty() {
                return Err(Restart);
            }
            pending.clear();
        }
    } else if let Some(id) = str_field(&v, "id") {
        st.records += 1;
        st.states.gemini.own_records = true;
        if emitted.contains(id) {
            return Err(Restart);
        }
        let id = id.to_string();
        pending.upsert(&id, v, Some(line));
    } else if let Some(set) = v.get("$set").filter(|s| s.is_object()) {
        st.records += 1;
        if let Some(messages) = set.get("messages").and_then(Value::as_array) {
            if !st.states.gemini.emitted.is_empty() {
                return Err(Restart);
            }
            // History, not the model's context: a message the checkpoint leaves out stays (a
            // resume's first checkpoint holds only the session context), and a copy of a
            // message already replayed is merged with it (see `merged`).
            for m in messages {
                match str_field(m, "id") {
                    Some(id) => {
                        let m = pending.get(id).map_or_else(|| m.clone(), |e| merged(m, e));
                        pending.upsert(id, m, None);
                    }
                    None => st.malformed += 1,
                }
            }
        }
        header(st, set);
    } else if str_field(&v, "sessionId").is_some() && str_field(&v, "projectHash").is_some() {
        st.records += 1;
        header(st, &v);
    } else {
        // Neither a message nor an update this version knows: counted, not guessed at.
        st.malformed += 1;
    }
    Ok(())
}

/// Session facts from the header or a `$set`.
fn header(st: &mut ParseState, v: &Value) {
    if let Some(id) = str_field(v, "sessionId") {
        st.meta.session_id = id.to_string();
    }
    if let Some(h) = str_field(v, "projectHash") {
        st.meta.project_hash = Some(h.to_string());
    }
    if str_field(v, "kind") == Some("subagent") {
        st.meta.is_subagent = true;
    }
    if st.meta.start_ms.is_none() {
        st.meta.start_ms = str_field(v, "startTime")
            .and_then(crate::model::parse_ts)
            .map(|t| t.timestamp_millis());
    }
}

/// Commits the events of a journal message, read from its replayed `Value`.
fn emit_value(st: &mut ParseState, m: &Value, keep_raw: bool, out: &mut Vec<Event>) {
    // Replayed messages are objects (a record or a checkpoint entry with an id), so `of` reads
    // each one.
    if let Some(message) = Message::of(m) {
        emit(st, message, keep_raw.then_some(m), out);
    }
}

/// Commits the events of one message; each event's `raw` is `raw` when given.
fn emit<'a, O: OutputText<'a>>(
    st: &mut ParseState,
    m: Message<'a, O>,
    raw: Option<&Value>,
    out: &mut Vec<Event>,
) {
    st.record_ms = m
        .timestamp
        .as_deref()
        .and_then(crate::model::parse_ts)
        .map(|t| t.timestamp_millis());
    let mut drafts = Vec::new();
    message(m, st.result_text_cap, &mut drafts);
    for mut ev in drafts {
        if let Some(raw) = raw {
            ev.raw = raw.clone();
        }
        st.commit(ev, out);
    }
}

/// Parses a whole document. `None` when it is not (yet) a complete JSON document: Gemini
/// rewrites the file in place, so a reader can catch it half-written.
///
/// Messages are read straight from the bytes into typed messages; with `keep_raw`, as `Value`s
/// (the events' `raw`) and then read from those. A parse that keeps only the beginning of
/// tool outputs decodes them from the bytes only that far (`Raw`); one that keeps them whole
/// lets serde_json decode them, which is faster for all of a string.
pub fn parse_document(st: &mut ParseState, bytes: &[u8], keep_raw: bool) -> Option<Vec<Event>> {
    let mut out = Vec::new();
    if keep_raw {
        document(st, bytes, &mut out, |st, raw: Value, out| {
            document_message(st, Message::of(&raw), Some(&raw), out)
        })?;
    } else if st.result_text_cap.is_some() {
        document(st, bytes, &mut out, |st, m: Option<Message<Raw>>, out| {
            document_message(st, m, None, out)
        })?;
    } else {
        document(st, bytes, &mut out, |st, m: Option<Message<Flat>>, out| {
            document_message(st, m, None, out)
        })?;
    }
    Some(out)
}

/// Reads the document, then hands each entry of its `messages` (read as `M`) to `each`.
fn document<'a, M: Lenient<'a>>(
    st: &mut ParseState,
    bytes: &'a [u8],
    out: &mut Vec<Event>,
    mut each: impl FnMut(&mut ParseState, M, &mut Vec<Event>),
) -> Option<()> {
    // Invalid UTF-8 anywhere fails the document, as `from_slice` would (no JSON token may hold
    // it); checked at once, `from_str` need not check each string again.
    let text = simdutf8::basic::from_utf8(bytes).ok()?;
    let L(doc) = serde_json::from_str::<L<Option<Doc<'a, M>>>>(text).ok()?;
    let doc = doc?;
    if let Some(id) = doc.session_id {
        st.meta.session_id = id.into_owned();
    }
    if let Some(h) = doc.project_hash {
        st.meta.project_hash = Some(h.into_owned());
    }
    let spans = message_spans(text).filter(|s| s.len() == doc.messages.len());
    for (i, m) in doc.messages.into_iter().enumerate() {
        let first = out.len();
        each(st, m, out);
        with_source(&mut out[first..], spans.as_ref().map(|s| s[i]));
    }
    if st.meta.start_ms.is_none() {
        st.meta.start_ms = doc
            .start_time
            .as_deref()
            .and_then(crate::model::parse_ts)
            .map(|t| t.timestamp_millis());
    }
    Some(())
}

/// Where each entry of a document's `messages` is in its text, in order: the source of its
/// events, from which the index reads their texts back (`index::line_text`). `None` when the
/// entries cannot be told apart so (no such array, a repeated key).
pub(super) fn message_spans(text: &str) -> Option<Vec<SourceSpan>> {
    #[derive(Deserialize)]
    struct Spans<'a> {
        #[serde(borrow)]
        messages: Vec<&'a RawValue>,
    }
    let doc: Spans = serde_json::from_str(text).ok()?;
    let base = text.as_ptr() as usize;
    doc.messages
        .iter()
        .map(|m| {
            Some(SourceSpan {
                offset: (m.get().as_ptr() as usize).checked_sub(base)? as u64,
                len: u32::try_from(m.get().len()).ok()?,
            })
        })
        .collect()
}

/// Gives `events` (those of one message) the message's span.
pub(super) fn with_source(events: &mut [Event], span: Option<SourceSpan>) {
    for e in events {
        e.source = span;
    }
}

/// One entry of a document's `messages` (the bytes of its events' `source`) read on its own,
/// as [`parse_document`] reads it without `raw`.
pub fn parse_message(st: &mut ParseState, bytes: &[u8]) -> Vec<Event> {
    let mut out = Vec::new();
    let Ok(text) = simdutf8::basic::from_utf8(bytes) else {
        return out;
    };
    if let Ok(L(m)) = serde_json::from_str::<L<Option<Message<Flat>>>>(text) {
        document_message(st, m, None, &mut out);
    }
    out
}

/// One entry of a document's `messages`: `None` when it is not an object.
fn document_message<'a, O: OutputText<'a>>(
    st: &mut ParseState,
    m: Option<Message<'a, O>>,
    raw: Option<&Value>,
    out: &mut Vec<Event>,
) {
    match m {
        Some(m) => {
            st.records += 1;
            emit(st, m, raw, out);
        }
        None => st.malformed += 1,
    }
}

/// A `user` message the CLI wrote itself rather than a person: the `<session_context>` block,
/// or tool results handed back to the model (`functionResponse` parts, which the message's
/// `toolCalls` already hold; older versions render them as `[Function Response: ...]`).
/// `function_responses`: the content is a non-empty array of `functionResponse` parts.
fn is_not_a_prompt(function_responses: bool, text: &str) -> bool {
    let t = text.trim_start();
    t.starts_with("<session_context>")
        || t.starts_with("[Function Response:")
        || (t.is_empty() && function_responses)
}

fn message<'a, O: OutputText<'a>>(mut m: Message<'a, O>, cap: Option<usize>, out: &mut Vec<Event>) {
    let content = std::mem::take(&mut m.content);
    let function_responses = matches!(&content, Flat::Parts(p)
        if !p.is_empty() && p.iter().all(Part::is_function_response));
    let content = content.text();
    match m.kind.as_deref().unwrap_or("") {
        "user" if is_not_a_prompt(function_responses, &content) => {
            let text = if content.is_empty() {
                "function responses".to_string()
            } else {
                content
            };
            out.push(Event::new(EventKind::Notification, text));
        }
        "user" => out.push(Event::new(EventKind::User, content)),
        "gemini" => gemini(m, content, cap, out),
        other => {
            let mut ev = Event::new(
                EventKind::Notification,
                if content.is_empty() {
                    other.to_string()
                } else {
                    content
                },
            );
            ev.is_error = other == "error";
            out.push(ev);
        }
    }
}

fn gemini<'a, O: OutputText<'a>>(
    m: Message<'a, O>,
    content: String,
    cap: Option<usize>,
    out: &mut Vec<Event>,
) {
    let model = m.model.map(Cow::into_owned);
    let message_id = m.id.map(Cow::into_owned);
    let mut push = |mut ev: Event| {
        ev.model = model.clone();
        ev.message_id = message_id.clone();
        out.push(ev);
    };
    for t in m.thoughts {
        let t = t.unwrap_or_default();
        let text = match (t.subject, t.description) {
            (Some(s), Some(d)) => format!("{s}: {d}"),
            (Some(s), None) => s.into_owned(),
            (None, Some(d)) => d.into_owned(),
            (None, None) => String::new(),
        };
        let mut ev = Event::new(EventKind::Reasoning, text);
        ev.timestamp = t.timestamp.as_deref().and_then(crate::model::parse_ts);
        push(ev);
    }
    if !content.is_empty() {
        push(Event::new(EventKind::Message, content));
    }
    for call in m.tool_calls {
        let call = call.unwrap_or_default();
        let name = call.name.map(Cow::into_owned);
        let id = call.id.map(Cow::into_owned);
        let mut ev = Event::new(
            EventKind::ToolCall,
            call.args.as_ref().map(Value::to_string).unwrap_or_default(),
        );
        ev.tool_name = name.clone();
        ev.call_id = id.clone();
        push(ev);
        if call.result.is_some() || call.status.is_some() {
            let mut text = CappedText::new(cap);
            tool_result_text(&call.result, &call.display, &mut text);
            let (text, whole_chars) = text.finish();
            let failed = call.status.flatten().as_deref() == Some("error")
                || exit_code(&text, whole_chars, &call.result, &call.display).is_some_and(|c| c != 0);
            let mut res = Event::new(EventKind::ToolResult, text);
            res.whole_text_chars = whole_chars;
            res.is_error = failed;
            res.tool_name = name;
            res.call_id = id;
            res.timestamp = call.timestamp.as_deref().and_then(crate::model::parse_ts);
            push(res);
        }
    }
    if let Some(t) = m.tokens {
        // Gemini's input already contains the cached part; thoughts are generated tokens and
        // tool-use prompt tokens are input.
        let usage = TokenUsage::new(
            t.input + t.tool,
            t.cached,
            0,
            t.output + t.thoughts,
            t.thoughts,
        );
        let mut ev = Event::new(EventKind::TokenUsage, "");
        ev.tokens = Some(usage);
        // Not keyed by message id: one tokens object per message, no streaming repeats.
        ev.model = model;
        out.push(ev);
    }
}

/// The exit code a tool output reports in its first lines (`exit_code_in_text`), from `head`
/// (all of the output when `whole_chars` is `None`), or else from the whole output, decoded
/// again for it: only a cut one without all of those lines.
fn exit_code<'a, O: OutputText<'a>>(
    head: &str,
    whole_chars: Option<usize>,
    result: &Option<Vec<Option<FnResult<O>>>>,
    display: &Option<O>,
) -> Option<i64> {
    if whole_chars.is_none() || head.matches('\n').count() >= EXIT_CODE_LINES {
        return exit_code_in_text(head);
    }
    let mut whole = CappedText::new(None);
    tool_result_text(result, display, &mut whole);
    exit_code_in_text(&whole.finish().0)
}

/// `functionResponse.response.output` is the model-facing result; `resultDisplay` is a UI
/// rendering and only a fallback. Several results are joined by lines.
fn tool_result_text<'a, O: OutputText<'a>>(
    result: &Option<Vec<Option<FnResult<O>>>>,
    display: &Option<O>,
    out: &mut CappedText,
) {
    let mut parts = result
        .iter()
        .flatten()
        .flatten()
        .filter_map(|r| r.response.as_ref())
        .peekable();
    if parts.peek().is_none() {
        if let Some(d) = display {
            d.write(out);
        }
        return;
    }
    for (i, part) in parts.enumerate() {
        if i > 0 {
            out.push_str("\n");
        }
        part.write(out);
    }
}

/// How a message reads the fields that hold tool outputs: [`Flat`], decoded by serde_json (from
/// a `Value`, or from a document read with whole outputs), or [`Raw`], when a document is read
/// keeping only the beginning of each output.
trait OutputText<'de>: Default {
    fn read<A: MapAccess<'de>>(map: &mut A) -> Result<Self, A::Error>;

    /// Appends the text, as [`Flat::text`] makes it.
    fn write(&self, out: &mut CappedText);
}

impl<'de> OutputText<'de> for Flat<'de> {
    fn read<A: MapAccess<'de>>(map: &mut A) -> Result<Self, A::Error> {
        next(map)
    }

    fn write(&self, out: &mut CappedText) {
        self.write_to(out);
    }
}

/// A tool output as it stands in the document: a string still escaped (decoded only as far as
/// it is kept, with no copy of the whole made on the way), or any other value, read as
/// [`Flat`].
enum Raw<'a> {
    Literal(&'a str),
    Value(Flat<'a>),
}

impl Default for Raw<'_> {
    fn default() -> Self {
        Raw::Value(Flat::default())
    }
}

impl<'de> OutputText<'de> for Raw<'de> {
    fn read<A: MapAccess<'de>>(map: &mut A) -> Result<Self, A::Error> {
        let raw: &'de RawValue = map.next_value()?;
        let json = raw.get();
        if json.starts_with('"') {
            return Ok(Raw::Literal(json));
        }
        // Read again from its own bytes, with the parser's nesting limit (skipping a value has
        // none), so a document too deep for `Value` still fails as it did.
        serde_json::from_str::<L<Flat<'de>>>(json)
            .map(|l| Raw::Value(l.0))
            .map_err(A::Error::custom)
    }

    fn write(&self, out: &mut CappedText) {
        match self {
            Raw::Literal(json) => out.push_json_literal(json),
            Raw::Value(flat) => flat.write_to(out),
        }
    }
}

/// What the parser reads of a message (an entry of a document's `messages`, a journal
/// record). Any field may hold any JSON type; one of another type than expected reads as
/// absent, as it did when messages were read as `Value`s.
#[derive(Default)]
struct Message<'a, O> {
    kind: Option<Cow<'a, str>>,
    id: Option<Cow<'a, str>>,
    model: Option<Cow<'a, str>>,
    timestamp: Option<Cow<'a, str>>,
    content: Flat<'a>,
    thoughts: Vec<Option<Thought<'a>>>,
    tool_calls: Vec<Option<ToolCall<'a, O>>>,
    tokens: Option<Tokens>,
}

impl<'a> Message<'a, Flat<'a>> {
    /// The message in a `Value`, its strings borrowed; `None` when it is not an object.
    fn of(v: &'a Value) -> Option<Self> {
        // Lenient reading never fails on a `Value`: any type is accepted everywhere.
        L::<Option<Self>>::deserialize(v).ok()?.0
    }
}

impl<'de, O: OutputText<'de>> Object<'de> for Message<'de, O> {
    fn field<A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
        match key {
            "type" => self.kind = next(map)?,
            "id" => self.id = next(map)?,
            "model" => self.model = next(map)?,
            "timestamp" => self.timestamp = next(map)?,
            "content" => self.content = next(map)?,
            "thoughts" => self.thoughts = next(map)?,
            "toolCalls" => self.tool_calls = next(map)?,
            "tokens" => self.tokens = next(map)?,
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// A session document: the header fields and its messages, each read as `M`.
struct Doc<'a, M> {
    session_id: Option<Cow<'a, str>>,
    project_hash: Option<Cow<'a, str>>,
    start_time: Option<Cow<'a, str>>,
    messages: Vec<M>,
}

impl<M> Default for Doc<'_, M> {
    fn default() -> Self {
        Doc {
            session_id: None,
            project_hash: None,
            start_time: None,
            messages: Vec::new(),
        }
    }
}

impl<'de, M: Lenient<'de>> Object<'de> for Doc<'de, M> {
    fn field<A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
        match key {
            "sessionId" => self.session_id = next(map)?,
            "projectHash" => self.project_hash = next(map)?,
            "startTime" => self.start_time = next(map)?,
            "messages" => self.messages = next(map)?,
            _ => return Ok(false),
        }
        Ok(true)
    }
}

#[derive(Default)]
struct Thought<'a> {
    subject: Option<Cow<'a, str>>,
    description: Option<Cow<'a, str>>,
    timestamp: Option<Cow<'a, str>>,
}

impl<'de> Object<'de> for Thought<'de> {
    fn field<A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
        match key {
            "subject" => self.subject = next(map)?,
            "description" => self.description = next(map)?,
            "timestamp" => self.timestamp = next(map)?,
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// A tool call. `result` and `status` are `Some` when the call has the field at all: either
/// means the call has a result event.
#[derive(Default)]
struct ToolCall<'a, O> {
    name: Option<Cow<'a, str>>,
    id: Option<Cow<'a, str>>,
    args: Option<Value>,
    result: Option<Vec<Option<FnResult<O>>>>,
    status: Option<Option<Cow<'a, str>>>,
    display: Option<O>,
    timestamp: Option<Cow<'a, str>>,
}

impl<'de, O: OutputText<'de>> Object<'de> for ToolCall<'de, O> {
    fn field<A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
        match key {
            "name" => self.name = next(map)?,
            "id" => self.id = next(map)?,
            "args" => self.args = Some(next(map)?),
            "result" => self.result = Some(next(map)?),
            "status" => self.status = Some(next(map)?),
            "resultDisplay" => self.display = Some(O::read(map)?),
            "timestamp" => self.timestamp = next(map)?,
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// An entry of a tool call's `result`: its `functionResponse.response`, if it has one.
#[derive(Default)]
struct FnResult<O> {
    response: Option<Resp<O>>,
}

impl<'de, O: OutputText<'de>> Object<'de> for FnResult<O> {
    fn field<A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
        if key != "functionResponse" {
            return Ok(false);
        }
        self.response = next::<Option<FnResponse<O>>, _>(map)?.and_then(|f| f.response);
        Ok(true)
    }
}

/// A `functionResponse` object: its `response`, if it has one.
#[derive(Default)]
struct FnResponse<O> {
    response: Option<Resp<O>>,
}

impl<'de, O: OutputText<'de>> Object<'de> for FnResponse<O> {
    fn field<A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
        if key != "response" {
            return Ok(false);
        }
        self.response = Some(next(map)?);
        Ok(true)
    }
}

/// A `functionResponse.response`: its `output`, else its `error`, else all of it as JSON text.
enum Resp<O> {
    Output(O),
    Error(O),
    Whole(Value),
}

impl<O> Resp<O> {
    fn write<'a>(&self, out: &mut CappedText)
    where
        O: OutputText<'a>,
    {
        match self {
            Resp::Output(o) | Resp::Error(o) => o.write(out),
            Resp::Whole(v) => out.push_str(&v.to_string()),
        }
    }
}

#[derive(Default)]
struct RespFields<O> {
    output: Option<O>,
    error: Option<O>,
    /// The other fields, kept only while neither `output` nor `error` has been seen.
    rest: serde_json::Map<String, Value>,
}

impl<'de, O: OutputText<'de>> Object<'de> for RespFields<O> {
    fn field<A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
        match key {
            "output" => self.output = Some(O::read(map)?),
            "error" => self.error = Some(O::read(map)?),
            _ if self.output.is_none() && self.error.is_none() => {
                self.rest.insert(key.to_owned(), next(map)?);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

impl<'de, O: OutputText<'de>> Lenient<'de> for Resp<O> {
    fn map<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error> {
        let f: RespFields<O> = object(map)?;
        Ok(match (f.output, f.error) {
            (Some(o), _) => Resp::Output(o),
            (None, Some(e)) => Resp::Error(e),
            (None, None) => Resp::Whole(Value::Object(f.rest)),
        })
    }

    fn other(v: Value) -> Self {
        Resp::Whole(v)
    }
}

#[derive(Default)]
struct Tokens {
    input: u64,
    tool: u64,
    cached: u64,
    output: u64,
    thoughts: u64,
}

impl<'de> Object<'de> for Tokens {
    fn field<A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
        match key {
            "input" => self.input = next(map)?,
            "tool" => self.tool = next(map)?,
            "cached" => self.cached = next(map)?,
            "output" => self.output = next(map)?,
            "thoughts" => self.thoughts = next(map)?,
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// A value read as text the way [`flatten_text`] reads it: a string; an array of parts,
/// whose texts are joined by lines; anything else kept as a `Value` for `flatten_text`.
enum Flat<'a> {
    Text(Cow<'a, str>),
    Parts(Vec<Part<'a>>),
    Other(Value),
}

impl Default for Flat<'_> {
    fn default() -> Self {
        Flat::Other(Value::Null)
    }
}

impl Flat<'_> {
    fn text(self) -> String {
        match self {
            Flat::Text(s) => s.into_owned(),
            other => {
                let mut out = CappedText::new(None);
                other.write_to(&mut out);
                out.finish().0
            }
        }
    }

    /// Appends the text: a string; the non-empty texts of parts, one per line; what
    /// [`flatten_text`] makes of anything else.
    fn write_to(&self, out: &mut CappedText) {
        match self {
            Flat::Text(s) => out.push_str(s),
            Flat::Parts(parts) => {
                let mut first = true;
                for p in parts {
                    let piece = p.text();
                    if !piece.is_empty() {
                        if !first {
                            out.push_str("\n");
                        }
                        first = false;
                        out.push_str(piece);
                    }
                }
            }
            Flat::Other(v) => out.push_str(&flatten_text(v)),
        }
    }
}

impl<'de> Lenient<'de> for Flat<'de> {
    fn string(s: Cow<'de, str>) -> Self {
        Flat::Text(s)
    }

    fn seq<A: SeqAccess<'de>>(seq: A) -> Result<Self, A::Error> {
        Vec::seq(seq).map(Flat::Parts)
    }

    fn other(v: Value) -> Self {
        Flat::Other(v)
    }
}

/// An entry of a parts array.
enum Part<'a> {
    Text(Cow<'a, str>),
    Object(PartFields<'a>),
    Other,
}

#[derive(Default)]
struct PartFields<'a> {
    text: Option<Cow<'a, str>>,
    kind: Option<Cow<'a, str>>,
    function_response: bool,
}

impl Part<'_> {
    fn text(&self) -> &str {
        match self {
            Part::Text(s) => s,
            Part::Object(f) => match (&f.text, f.kind.as_deref()) {
                (Some(t), _) => t,
                (None, Some("image" | "input_image")) => "[image]",
                (None, _) => "",
            },
            Part::Other => "",
        }
    }

    fn is_function_response(&self) -> bool {
        matches!(self, Part::Object(f) if f.function_response)
    }
}

impl<'de> Object<'de> for PartFields<'de> {
    fn field<A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
        match key {
            "text" => self.text = next(map)?,
            "type" => self.kind = next(map)?,
            "functionResponse" => {
                map.next_value::<Skip>()?;
                self.function_response = true;
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

impl<'de> Lenient<'de> for Part<'de> {
    fn string(s: Cow<'de, str>) -> Self {
        Part::Text(s)
    }

    fn map<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error> {
        object(map).map(Part::Object)
    }

    fn other(_: Value) -> Self {
        Part::Other
    }
}

#[cfg(test)]
mod value_oracle;

#[cfg(test)]
mod typed_equivalence;
