//! OpenCode sessions, a store of many sessions ([`Layout::Store`]) in either of two layouts
//! under its data folder (`~/.local/share/opencode`):
//!
//! - `opencode.db` (v1.2 and later): one SQLite database, tables `session`, `message` and
//!   `part`, the latter two with the object as JSON in their `data` column. Opened read-only
//!   (OpenCode may be writing it, in WAL mode); never written.
//! - `storage/` (before): `storage/session/<projectID>/<sessionID>.json`,
//!   `storage/message/<sessionID>/<messageID>.json`, `storage/part/<messageID>/<partID>.json`
//!   (older builds: `storage/session/{info,message,part}/…`). Each session file is a source
//!   of one session. Read only when there is no database beside it: OpenCode migrates the
//!   tree into the database, and both would count every session twice.
//!
//! The objects are current state, rewritten while a message streams, not an append-only log:
//! a session is read whole again whenever its fingerprint (its row's and its messages' and
//! parts' update times and counts) changes. See `docs/providers/opencode.md`.
//!
//! Resume, continue and fork: `--continue` / `--session` add to the same session's rows (one
//! session, its own id; tokens per message, never cumulative). A fork is a new session with
//! copies of earlier messages under new ids, read as the session it is. A `bash` call that
//! exits non-zero is recorded as `completed`; its `metadata.exit` makes it a failure.

use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use rusqlite::{Connection, OpenFlags, OptionalExtension};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use super::spec::{Layout, ProviderSpec, StoreSpec, StoreUnit, file_name, file_stem};
use super::{FileHint, ParseState, str_field, u64_field};
use crate::index::SkipReason;
use crate::model::{Event, EventKind, TokenUsage};

/// OpenCode: `~/.local/share/opencode/opencode.db`, or the legacy `storage/` tree there.
pub static SPEC: ProviderSpec = ProviderSpec {
    title: "OpenCode",
    home_root: ".local/share/opencode",
    env: "AGTRACE_OPENCODE_DIR",
    flag: "opencode-dir",
    tree_root: "opencode",
    is_log,
    hint,
    lines: None,
    document: None,
    document_record: None,
    journal: None,
    links_by_spawn_time: false,
    resume_context: None,
    store: Some(&STORE),
};

static STORE: StoreSpec = StoreSpec {
    list: list_sessions,
    read: read_session,
};

/// The database's name in the data folder.
const DB_NAME: &str = "opencode.db";

/// How long a read waits for a writer's lock before the database is noted busy.
const BUSY_WAIT: std::time::Duration = std::time::Duration::from_millis(2000);

/// OpenCode keeps nothing between reads: every session is read whole.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct State {}

fn is_log(path: &Path) -> bool {
    file_name(path) == DB_NAME || tree_session_root(path).is_some_and(|data| !has_db(&data))
}

fn has_db(data_dir: &Path) -> bool {
    data_dir.join(DB_NAME).is_file()
}

/// For a legacy session file `<data>/storage/session/<projectID>/<id>.json`, the data folder.
fn tree_session_root(path: &Path) -> Option<PathBuf> {
    if !file_name(path).ends_with(".json") {
        return None;
    }
    let project = path.parent()?;
    // The older layout keeps messages and parts in `storage/session/message|part/…`.
    let project_name = project.file_name()?.to_str()?;
    if matches!(project_name, "message" | "part") {
        return None;
    }
    let session = project.parent()?;
    let storage = session.parent()?;
    (session.file_name()? == "session" && storage.file_name()? == "storage")
        .then(|| storage.parent().map(Path::to_path_buf))
        .flatten()
}

fn hint(path: &Path) -> FileHint {
    FileHint {
        session_id: file_stem(path),
        is_subagent: false,
        parent_id: None,
        layout: Layout::Store,
    }
}

fn list_sessions(path: &Path) -> Result<Vec<StoreUnit>, SkipReason> {
    if file_name(path) == DB_NAME {
        db::list(path)
    } else {
        tree::list(path)
    }
}

fn read_session(
    state: &mut ParseState,
    path: &Path,
    id: &str,
    keep_raw: bool,
) -> Result<Vec<Event>, SkipReason> {
    let session = if file_name(path) == DB_NAME {
        db::read(path, id)?
    } else {
        tree::read(path, state)?
    };
    Ok(translate(state, &session, keep_raw))
}

/// A fingerprint from the values that change with a session; never 0.
fn fingerprint(parts: &[i64]) -> i64 {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p.to_le_bytes());
    }
    let d = h.finalize();
    let v = i64::from_le_bytes(d[..8].try_into().expect("8 bytes"));
    if v == 0 { 1 } else { v }
}

/// One session as read from either layout: the session object, then its messages in order,
/// each with its parts in order (all as OpenCode's JSON objects, ids included).
struct Session {
    info: Value,
    messages: Vec<(Value, Vec<Value>)>,
}

mod db {
    use super::*;

    /// Why a failed SQLite call leaves the database unread.
    pub(super) fn reason(e: &rusqlite::Error) -> SkipReason {
        use rusqlite::ErrorCode::*;
        match e.sqlite_error_code() {
            Some(DatabaseBusy | DatabaseLocked) => SkipReason::DatabaseBusy,
            Some(NotADatabase | DatabaseCorrupt) => SkipReason::CorruptDatabase,
            Some(CannotOpen | PermissionDenied | ReadOnly | SystemIoFailure) => {
                SkipReason::UnreadableFile
            }
            // SQLITE_ERROR: a table or column that is not there.
            _ => SkipReason::UnknownSchema,
        }
    }

    /// The tables and columns read; another schema is noted, not guessed at.
    const NEEDED: [(&str, &[&str]); 3] = [
        (
            "session",
            &["id", "parent_id", "directory", "title", "time_created", "time_updated"],
        ),
        ("message", &["id", "session_id", "time_created", "time_updated", "data"]),
        ("part", &["id", "message_id", "session_id", "time_updated", "data"]),
    ];

    /// Opens the database read-only and checks its schema.
    pub(super) fn open(path: &Path) -> Result<Connection, SkipReason> {
        if !path.exists() {
            return Err(SkipReason::Vanished);
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags).map_err(|e| reason(&e))?;
        conn.busy_timeout(BUSY_WAIT).map_err(|e| reason(&e))?;
        for (table, columns) in NEEDED {
            let mut st = conn
                .prepare("SELECT name FROM pragma_table_info(?1)")
                .map_err(|e| reason(&e))?;
            let have: Vec<String> = st
                .query_map([table], |r| r.get(0))
                .and_then(|rows| rows.collect())
                .map_err(|e| reason(&e))?;
            if !columns.iter().all(|c| have.iter().any(|h| h == c)) {
                return Err(SkipReason::UnknownSchema);
            }
        }
        Ok(conn)
    }

    pub(super) fn list(path: &Path) -> Result<Vec<StoreUnit>, SkipReason> {
        let conn = open(path)?;
        // One read transaction: counts and times of one moment of a database being written.
        let tx = conn.unchecked_transaction().map_err(|e| reason(&e))?;
        let mut st = tx
            .prepare(
                "SELECT s.id, s.time_updated,
                    coalesce(m.n, 0), coalesce(m.t, 0), coalesce(p.n, 0), coalesce(p.t, 0)
                 FROM session s
                 LEFT JOIN (SELECT session_id, count(*) AS n, max(time_updated) AS t
                            FROM message GROUP BY session_id) m ON m.session_id = s.id
                 LEFT JOIN (SELECT session_id, count(*) AS n, max(time_updated) AS t
                            FROM part GROUP BY session_id) p ON p.session_id = s.id",
            )
            .map_err(|e| reason(&e))?;
        let rows = st
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, Option<i64>>(1)?.unwrap_or(0),
                    r.get::<_, i64>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, i64>(4)?,
                    r.get::<_, i64>(5)?,
                ))
            })
            .and_then(|rows| rows.collect::<rusqlite::Result<Vec<_>>>())
            .map_err(|e| reason(&e))?;
        Ok(rows
            .into_iter()
            // A `#` would make the unit's key ambiguous; OpenCode's ids never have one.
            .filter(|(id, ..)| !id.contains('#'))
            .map(|(id, updated, msgs, msg_t, parts, part_t)| StoreUnit {
                fingerprint: fingerprint(&[updated, msgs, msg_t, parts, part_t]),
                records: (1 + msgs + parts) as u64,
                updated_ms: updated.max(msg_t).max(part_t),
                id,
            })
            .collect())
    }

    pub(super) fn read(path: &Path, id: &str) -> Result<Session, SkipReason> {
        let conn = open(path)?;
        let tx = conn.unchecked_transaction().map_err(|e| reason(&e))?;
        let info = tx
            .query_row(
                "SELECT id, parent_id, directory, title, time_created, time_updated
                 FROM session WHERE id = ?1",
                [id],
                |r| {
                    Ok(serde_json::json!({
                        "id": r.get::<_, String>(0)?,
                        "parentID": r.get::<_, Option<String>>(1)?,
                        "directory": r.get::<_, Option<String>>(2)?,
                        "title": r.get::<_, Option<String>>(3)?,
                        "time": {
                            "created": r.get::<_, Option<i64>>(4)?,
                            "updated": r.get::<_, Option<i64>>(5)?,
                        },
                    }))
                },
            )
            .optional()
            .map_err(|e| reason(&e))?
            .ok_or(SkipReason::Vanished)?;
        let objects = |sql: &str| -> Result<Vec<(String, String, String)>, SkipReason> {
            let mut st = tx.prepare(sql).map_err(|e| reason(&e))?;
            st.query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                .and_then(|rows| rows.collect())
                .map_err(|e| reason(&e))
        };
        // Ids are time-ordered (`msg_…`, `prt_…`): creation time, then id, is writing order.
        let messages = objects(
            "SELECT id, session_id, data FROM message WHERE session_id = ?1
             ORDER BY time_created, id",
        )?;
        let parts = objects(
            "SELECT id, message_id, data FROM part WHERE session_id = ?1 ORDER BY message_id, id",
        )?;
        let mut by_message: std::collections::HashMap<String, Vec<Value>> = Default::default();
        for (pid, mid, data) in parts {
            let part = with_ids(
                &data,
                &[("id", pid.as_str()), ("messageID", mid.as_str()), ("sessionID", id)],
            );
            by_message.entry(mid).or_default().push(part);
        }
        let messages = messages
            .into_iter()
            .map(|(mid, sid, data)| {
                let parts = by_message.remove(&mid).unwrap_or_default();
                (with_ids(&data, &[("id", mid.as_str()), ("sessionID", sid.as_str())]), parts)
            })
            .collect();
        Ok(Session { info, messages })
    }

    /// A `data` column's object with the ids its row keeps in columns (the tree's files hold
    /// them in the object). Unreadable data becomes an object holding it as text.
    fn with_ids(data: &str, ids: &[(&str, &str)]) -> Value {
        let mut obj = match serde_json::from_str::<Value>(data) {
            Ok(Value::Object(o)) => o,
            _ => {
                let mut o = Map::new();
                o.insert("unreadable".into(), Value::String(data.to_string()));
                o
            }
        };
        for (k, v) in ids {
            obj.entry(k.to_string())
                .or_insert_with(|| Value::String(v.to_string()));
        }
        Value::Object(obj)
    }
}

mod tree {
    use super::*;

    /// `<data>/storage`, from a session file's path.
    fn storage(session_file: &Path) -> Option<&Path> {
        session_file.parent()?.parent()?.parent()
    }

    fn read_json(path: &Path) -> Result<Value, SkipReason> {
        let bytes = std::fs::read(path).map_err(|e| SkipReason::of_read_error(&e))?;
        match serde_json::from_slice::<Value>(&bytes) {
            Ok(v) if v.is_object() => Ok(v),
            Ok(_) => Err(SkipReason::NotALog),
            Err(_) => Err(SkipReason::NotValidJson),
        }
    }

    /// The `.json` files of a folder, by name (ids are time-ordered); none if it is missing.
    fn json_files(dir: &Path) -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|rd| {
                rd.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| file_name(p).ends_with(".json"))
                    .collect()
            })
            .unwrap_or_default();
        files.sort();
        files
    }

    /// The message folder of a session and the part folder of a message, in the current
    /// layout or else the older one (`storage/session/message|part/…`).
    fn message_dir(storage: &Path, sid: &str) -> PathBuf {
        let current = storage.join("message").join(sid);
        let older = storage.join("session").join("message").join(sid);
        if !current.is_dir() && older.is_dir() {
            older
        } else {
            current
        }
    }

    fn part_dir(storage: &Path, sid: &str, mid: &str) -> PathBuf {
        let current = storage.join("part").join(mid);
        let older = storage.join("session").join("part").join(sid).join(mid);
        if !current.is_dir() && older.is_dir() {
            older
        } else {
            current
        }
    }

    /// A message file's id: its name, unless no part folder has that name and the object
    /// says otherwise.
    fn message_id(storage: &Path, sid: &str, file: &Path) -> String {
        let stem = file_stem(file);
        if part_dir(storage, sid, &stem).is_dir() {
            return stem;
        }
        read_json(file)
            .ok()
            .and_then(|m| str_field(&m, "id").map(str::to_string))
            .unwrap_or(stem)
    }

    fn stamp(path: &Path) -> (i64, i64) {
        std::fs::metadata(path)
            .map(|md| {
                let ms = md
                    .modified()
                    .ok()
                    .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                    .map_or(0, |d| d.as_nanos() as i64);
                (md.len() as i64, ms)
            })
            .unwrap_or((-1, 0))
    }

    /// The session file's one session, fingerprinted by the size and time of every file of it.
    pub(super) fn list(path: &Path) -> Result<Vec<StoreUnit>, SkipReason> {
        let info = read_json(path)?;
        let sid = str_field(&info, "id")
            .map(str::to_string)
            .unwrap_or_else(|| file_stem(path));
        if sid.contains('#') {
            return Err(SkipReason::NotALog);
        }
        let storage = storage(path).ok_or(SkipReason::NotALog)?;
        let mut stamps = vec![stamp(path)];
        let messages = json_files(&message_dir(storage, &sid));
        for m in &messages {
            stamps.push(stamp(m));
            let mid = message_id(storage, &sid, m);
            for p in json_files(&part_dir(storage, &sid, &mid)) {
                stamps.push(stamp(&p));
            }
        }
        let newest = stamps.iter().map(|s| s.1).max().unwrap_or(0);
        let flat: Vec<i64> = stamps.iter().flat_map(|(a, b)| [*a, *b]).collect();
        Ok(vec![StoreUnit {
            id: sid,
            fingerprint: fingerprint(&flat),
            records: stamps.len() as u64,
            updated_ms: newest / 1_000_000,
        }])
    }

    pub(super) fn read(path: &Path, state: &mut ParseState) -> Result<Session, SkipReason> {
        let info = read_json(path)?;
        let sid = str_field(&info, "id")
            .map(str::to_string)
            .unwrap_or_else(|| file_stem(path));
        let storage = storage(path).ok_or(SkipReason::NotALog)?;
        let mut messages = Vec::new();
        for file in json_files(&message_dir(storage, &sid)) {
            let Ok(message) = read_json(&file) else {
                state.malformed += 1;
                continue;
            };
            let mid = str_field(&message, "id")
                .map(str::to_string)
                .unwrap_or_else(|| file_stem(&file));
            let mut parts = Vec::new();
            for p in json_files(&part_dir(storage, &sid, &mid)) {
                match read_json(&p) {
                    Ok(part) => parts.push(part),
                    Err(_) => state.malformed += 1,
                }
            }
            messages.push((message, parts));
        }
        // Writing order: creation time, then id (file names need not follow it).
        messages.sort_by(|(a, _), (b, _)| {
            let key = |m: &Value| (created(m), str_field(m, "id").unwrap_or("").to_string());
            key(a).cmp(&key(b))
        });
        Ok(Session { info, messages })
    }
}

fn created(v: &Value) -> i64 {
    v.pointer("/time/created")
        .and_then(Value::as_i64)
        .unwrap_or(0)
}

fn ms(v: &Value, pointer: &str) -> Option<i64> {
    v.pointer(pointer).and_then(Value::as_i64)
}

fn ts(ms: Option<i64>) -> Option<chrono::DateTime<chrono::Utc>> {
    ms.and_then(crate::model::ts_from_ms)
}

/// OpenCode's tokens (`input` and `output` without the cache and reasoning parts) in
/// agtrace's terms (input with cache reads and writes, output with reasoning); `None` when
/// the message has none yet.
fn tokens(t: &Value) -> Option<TokenUsage> {
    let input = u64_field(t, "input");
    let output = u64_field(t, "output");
    let reasoning = u64_field(t, "reasoning");
    let cache = t.get("cache").cloned().unwrap_or(Value::Null);
    let (read, write) = (u64_field(&cache, "read"), u64_field(&cache, "write"));
    let usage = TokenUsage::new(
        input + read + write,
        read,
        write,
        output + reasoning,
        reasoning,
    );
    (usage.total > 0).then_some(usage)
}

/// Text of a tool part's input, as JSON.
fn tool_input(state: &Value) -> String {
    match state.get("input") {
        Some(Value::Null) | None => String::new(),
        Some(v) => v.to_string(),
    }
}

fn translate(state: &mut ParseState, session: &Session, keep_raw: bool) -> Vec<Event> {
    let info = &session.info;
    if let Some(id) = str_field(info, "id") {
        state.meta.session_id = id.to_string();
    }
    if let Some(parent) = str_field(info, "parentID").filter(|p| !p.is_empty()) {
        state.meta.parent_id = Some(parent.to_string());
        state.meta.is_subagent = true;
    }
    state.meta.cwd = str_field(info, "directory").map(str::to_string);
    state.records += 1;
    let mut out = Vec::new();
    for (message, parts) in &session.messages {
        state.records += 1 + parts.len() as u32;
        state.record_ms = ms(message, "/time/created");
        if state.meta.cwd.is_none() {
            state.meta.cwd = message
                .pointer("/path/cwd")
                .and_then(Value::as_str)
                .map(str::to_string);
        }
        let mut drafts = Vec::new();
        match str_field(message, "role") {
            Some("user") => user(message, parts, &mut drafts),
            Some("assistant") => assistant(message, parts, &mut drafts),
            _ => drafts.push((Event::new(EventKind::Notification, "message"), message)),
        }
        for (mut ev, raw) in drafts {
            if keep_raw {
                ev.raw = raw.clone();
            }
            state.commit(ev, &mut out);
        }
    }
    out
}

/// A user message: the person's prompt is its text parts that OpenCode did not add itself
/// (`synthetic`, `ignored`); the rest are notes.
fn user<'a>(message: &'a Value, parts: &'a [Value], out: &mut Vec<(Event, &'a Value)>) {
    let mut typed: Vec<&str> = Vec::new();
    let mut first_typed: Option<&Value> = None;
    let mut notes = Vec::new();
    for p in parts {
        let own = |key: &str| p.get(key).and_then(Value::as_bool).unwrap_or(false);
        match str_field(p, "type") {
            Some("text") if !own("synthetic") && !own("ignored") => {
                typed.push(str_field(p, "text").unwrap_or(""));
                first_typed.get_or_insert(p);
            }
            _ => notes.extend(part_note(p).map(|e| (e, p))),
        }
    }
    // The raw record of a prompt is its (first) text part.
    if let Some(p) = first_typed {
        let mut ev = Event::new(EventKind::User, typed.join("\n"));
        ev.timestamp = ts(ms(message, "/time/created"));
        ev.message_id = str_field(message, "id").map(str::to_string);
        out.push((ev, p));
    }
    out.extend(notes);
}

/// A note for a part that is neither prompt, generation nor tool (files, patches, retries,
/// compaction, sub-tasks, synthetic text); `None` for bookkeeping parts.
fn part_note(p: &Value) -> Option<Event> {
    let text = match str_field(p, "type")? {
        "text" => str_field(p, "text").unwrap_or("").to_string(),
        "file" => format!(
            "file: {}",
            str_field(p, "filename")
                .or_else(|| str_field(p, "url"))
                .unwrap_or("")
        ),
        "patch" => format!(
            "patch: {}",
            p.get("files")
                .and_then(Value::as_array)
                .map(|f| f.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(", "))
                .unwrap_or_default()
        ),
        "retry" => format!(
            "retry {}: {}",
            u64_field(p, "attempt"),
            p.pointer("/error/data/message")
                .and_then(Value::as_str)
                .unwrap_or("")
        ),
        "compaction" => "compaction".to_string(),
        "subtask" => format!(
            "subtask ({}): {}",
            str_field(p, "agent").unwrap_or(""),
            str_field(p, "prompt").unwrap_or("")
        ),
        "agent" => format!("agent: {}", str_field(p, "name").unwrap_or("")),
        _ => return None,
    };
    let mut ev = Event::new(EventKind::Notification, text);
    ev.timestamp = ts(ms(p, "/time/start"));
    Some(ev)
}

/// An assistant message: its parts in order (reasoning, text, tool calls with their results),
/// each `step-start` opening a step, then its tokens and its error if any.
fn assistant<'a>(message: &'a Value, parts: &'a [Value], out: &mut Vec<(Event, &'a Value)>) {
    let mid = str_field(message, "id").unwrap_or("").to_string();
    let model = str_field(message, "modelID").map(str::to_string);
    // A compaction summary is OpenCode's, not a reply to the person.
    let summary = message
        .get("summary")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let mut steps = 0u32;
    let step_id = |steps: u32| match steps {
        0 | 1 => mid.clone(),
        n => format!("{mid}#{n}"),
    };
    for p in parts {
        let generated = |kind: EventKind, text: String, steps: u32| {
            let mut ev = Event::new(kind, text);
            ev.model = model.clone();
            ev.message_id = Some(step_id(steps));
            ev
        };
        match str_field(p, "type") {
            Some("step-start") => steps += 1,
            Some("reasoning") => {
                let mut ev = generated(
                    EventKind::Reasoning,
                    str_field(p, "text").unwrap_or("").to_string(),
                    steps,
                );
                ev.timestamp = ts(ms(p, "/time/start"));
                out.push((ev, p));
            }
            Some("text") if !summary => {
                let mut ev = generated(
                    EventKind::Message,
                    str_field(p, "text").unwrap_or("").to_string(),
                    steps,
                );
                ev.timestamp = ts(ms(p, "/time/start"));
                out.push((ev, p));
            }
            Some("tool") => {
                let st = p.get("state").cloned().unwrap_or(Value::Null);
                let tool = str_field(p, "tool").map(str::to_string);
                let call = str_field(p, "callID").map(str::to_string);
                let mut ev = generated(EventKind::ToolCall, tool_input(&st), steps);
                ev.tool_name = tool.clone();
                ev.call_id = call.clone();
                ev.timestamp = ts(ms(&st, "/time/start"));
                out.push((ev, p));
                let (text, is_error) = match str_field(&st, "status") {
                    // A shell command that exits non-zero still completes the call: its exit
                    // code (`metadata.exit`) says it failed.
                    Some("completed") => (
                        str_field(&st, "output").unwrap_or("").to_string(),
                        st.pointer("/metadata/exit")
                            .and_then(Value::as_i64)
                            .is_some_and(|c| c != 0),
                    ),
                    Some("error") => (str_field(&st, "error").unwrap_or("").to_string(), true),
                    // Pending or running: no result yet.
                    _ => continue,
                };
                let mut res = Event::new(EventKind::ToolResult, text);
                res.tool_name = tool;
                res.call_id = call;
                res.is_error = is_error;
                res.timestamp = ts(ms(&st, "/time/end").or(ms(&st, "/time/start")));
                out.push((res, p));
            }
            _ => out.extend(part_note(p).map(|e| (e, p))),
        }
    }
    if let Some(t) = message.get("tokens").and_then(tokens) {
        let mut ev = Event::new(EventKind::TokenUsage, "");
        ev.tokens = Some(t);
        ev.model = model.clone();
        // Keyed by the message: counted once, whatever its steps.
        ev.message_id = Some(mid.clone());
        ev.timestamp = ts(ms(message, "/time/completed").or(ms(message, "/time/created")));
        out.push((ev, message));
    }
    if let Some(err) = message.get("error").filter(|e| !e.is_null()) {
        let name = str_field(err, "name").unwrap_or("error");
        let detail = err
            .pointer("/data/message")
            .and_then(Value::as_str)
            .unwrap_or("");
        out.push((
            Event::new(EventKind::Notification, format!("{name}: {detail}")),
            message,
        ));
    }
}
