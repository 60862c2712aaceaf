//! Read queries over the index.

use chrono::{DateTime, Utc};
use rusqlite::{
    Connection, OptionalExtension, Row, params, params_from_iter, types::Value as SqlValue,
};
use serde::{Deserialize, Serialize};

use super::decode;
use super::ingest::{kind_tag, provider_tag};
use super::schema::{eid, eid_range, split_eid};
use super::stored_text::StoredText;
use crate::error::{Error, Result};
use crate::model::TokenUsage;
use crate::model::{EventKind, Provider, ts_from_ms};

/// Shortest session-id prefix accepted.
pub const MIN_PREFIX: usize = 8;

/// A project as the index knows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProjectRef {
    /// sha256 of the project root, the project's id across providers.
    pub hash: Option<String>,
    /// Absolute root path; unknown for projects only Gemini has seen (it stores the hash only).
    pub root: Option<String>,
}

/// One session's row in the index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionSummary {
    /// The provider's session id.
    pub id: String,
    /// The agent that wrote the session.
    pub provider: Provider,
    /// The project the session ran in.
    pub project: ProjectRef,
    /// The session that spawned this one (Claude sidechain / Codex review sub-agent).
    pub parent_id: Option<String>,
    /// Whether a sub-agent wrote the session.
    pub is_subagent: bool,
    /// First event time.
    pub start: Option<DateTime<Utc>>,
    /// Last event time.
    pub end: Option<DateTime<Utc>>,
    /// The main model.
    pub model: Option<String>,
    /// Number of events.
    pub event_count: u32,
    /// Number of turns.
    pub turn_count: u32,
    /// Number of prompts.
    pub prompt_count: u32,
    /// Number of tool calls.
    pub tool_calls: u32,
    /// Number of tool calls whose results report a failure.
    pub tool_errors: u32,
    /// Lines (or Gemini messages) that could not be read and were skipped.
    pub malformed_lines: u32,
    /// Tokens of the session, each model message counted once.
    pub tokens: TokenUsage,
    /// First prompt, at most 500 characters.
    pub first_prompt: Option<String>,
    /// The log file.
    pub path: String,
    /// The log file is gone (deleted by its agent) and the session answers from agtrace's
    /// archived copy ([`Config::archive`](crate::config::Config::archive)).
    #[serde(default)]
    pub archived: bool,
}

/// Filters of [`crate::store::TraceStore::list_sessions`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SessionFilter {
    /// Only sessions of this agent.
    pub provider: Option<Provider>,
    /// Project root path or project hash.
    pub project: Option<String>,
    /// Sessions active at or after this time.
    pub since: Option<DateTime<Utc>>,
    /// Sessions started at or before this time.
    pub until: Option<DateTime<Utc>>,
    /// Also list sub-agent sessions (otherwise they are reached through their parent).
    pub include_subagents: bool,
}

/// Keyset position in the newest-first session list: the last row of the previous page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionCursor {
    /// Start time of the last session listed (Unix milliseconds).
    pub start_ms: i64,
    /// Row id of the last session listed, to break ties.
    pub sid: i64,
}

/// One page of sessions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionPage {
    /// The sessions, newest first.
    pub sessions: Vec<SessionSummary>,
    /// Position after the last row; `None` when there is nothing more.
    pub next: Option<SessionCursor>,
}

/// A full-text query with filters.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SearchQuery {
    /// Free text in the [search syntax](super::search_syntax): words all required (each matched
    /// as a phrase, so `ZEBRA-4471` matches that token sequence), `OR`, `-word`/`NOT`, `pre*`,
    /// `"exact phrase"`. A query the syntax rejects finds nothing.
    pub text: String,
    /// Only events of this agent.
    pub provider: Option<Provider>,
    /// Only events of this kind.
    pub kind: Option<EventKind>,
    /// Session id (or unique prefix) to search in.
    pub session: Option<String>,
    /// Continue after this hit (the `next` of the previous page).
    pub after: Option<SearchCursor>,
    /// Most hits per page.
    pub limit: u32,
}

/// Keyset position in search results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchCursor {
    /// Index key of the last hit listed.
    pub eid: i64,
}

/// One full-text hit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchHit {
    /// The session of the hit.
    pub session_id: String,
    /// The agent that wrote the session.
    pub provider: Provider,
    /// The project of the session.
    pub project_hash: Option<String>,
    /// Index of the event in its session.
    pub event_index: u32,
    /// Turn of the event.
    pub turn_index: u32,
    /// Step of the event, if it is in one.
    pub step_index: Option<u32>,
    /// What the event is.
    pub kind: EventKind,
    /// When the event was written.
    pub timestamp: Option<DateTime<Utc>>,
    /// Tool name, for tool calls and results.
    pub tool_name: Option<String>,
    /// Whether a tool result reports a failure.
    pub is_error: bool,
    /// About `PREVIEW_CHARS` characters of the event text around the first match.
    pub preview: String,
    /// Character offset of `preview` in the event text.
    pub preview_start: usize,
    /// Character offset of the first match in the event text (when it could be located).
    pub match_start: Option<usize>,
    /// Length of the whole event text in characters.
    pub text_chars: usize,
}

/// One page of search hits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchPage {
    /// The hits, newest first.
    pub hits: Vec<SearchHit>,
    /// Where the next page starts; `None` on the last page.
    pub next: Option<SearchCursor>,
}

/// Per-provider session counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProviderCounts([u64; Provider::COUNT]);

impl ProviderCounts {
    /// Sessions of provider `p`.
    pub fn get(&self, p: Provider) -> u64 {
        self.0[p.code() as usize]
    }

    fn add(&mut self, p: Provider, n: u64) {
        self.0[p.code() as usize] += n;
    }
}

/// A project and its sessions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProjectInfo {
    /// sha256 of the project root.
    pub hash: String,
    /// The project root, when a log names it.
    pub root: Option<String>,
    /// Sessions per provider.
    pub sessions: ProviderCounts,
    /// All sessions.
    pub total_sessions: u64,
    /// Last event time of any of its sessions.
    pub last_activity: Option<DateTime<Utc>>,
}

/// An event row without its raw record.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct EventRow {
    pub sid: i64,
    pub index: u32,
    pub kind: EventKind,
    pub turn: u32,
    pub step: Option<u32>,
    pub ts_ms: Option<i64>,
    pub tool_name: Option<String>,
    pub call_id: Option<String>,
    pub is_error: bool,
    pub src_off: Option<i64>,
    pub src_len: Option<i64>,
    pub text: StoredText,
}

/// Characters of a search preview.
pub const PREVIEW_CHARS: usize = 300;

const SESSION_COLS: &str = "s.sid, s.id, s.provider, s.project_hash, p.root, s.parent_id, s.is_subagent, s.start_ms, s.end_ms,
    s.model, s.event_count, s.turn_count, s.prompt_count, s.tool_calls, s.tool_errors, s.malformed,
    s.tok_input, s.tok_cached, s.tok_cache_creation, s.tok_output, s.tok_reasoning, s.tok_total, s.first_prompt, s.path,
    EXISTS(SELECT 1 FROM archive a WHERE a.path = s.path AND a.gone_ms IS NOT NULL)";

fn session_from_row(r: &Row) -> rusqlite::Result<(i64, SessionSummary)> {
    let u = |i: usize| -> rusqlite::Result<u64> { Ok(r.get::<_, i64>(i)?.max(0) as u64) };
    Ok((
        r.get(0)?,
        SessionSummary {
            id: r.get(1)?,
            provider: decode::provider_at(r, 2, decode::SESSION_PROVIDER)?,
            project: ProjectRef {
                hash: r.get(3)?,
                root: r.get(4)?,
            },
            parent_id: r.get(5)?,
            is_subagent: r.get(6)?,
            start: r
                .get::<_, Option<i64>>(7)?
                .filter(|&ms| ms != 0)
                .and_then(ts_from_ms),
            end: r.get::<_, Option<i64>>(8)?.and_then(ts_from_ms),
            model: r.get(9)?,
            event_count: r.get(10)?,
            turn_count: r.get(11)?,
            prompt_count: r.get(12)?,
            tool_calls: r.get(13)?,
            tool_errors: r.get(14)?,
            malformed_lines: r.get(15)?,
            tokens: TokenUsage {
                input: u(16)?,
                cached_input: u(17)?,
                cache_creation_input: u(18)?,
                output: u(19)?,
                reasoning_output: u(20)?,
                total: u(21)?,
            },
            first_prompt: r.get(22)?,
            path: r.get(23)?,
            archived: r.get(24)?,
        },
    ))
}

fn is_hash(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// A project given as a hash or as a root path, as its hash.
pub fn project_key(project: &str) -> String {
    if is_hash(project) {
        return project.to_ascii_lowercase();
    }
    let trimmed = if project.len() > 1 {
        project.trim_end_matches('/')
    } else {
        project
    };
    crate::model::project_hash(trimmed)
}

pub(crate) fn list_sessions(
    conn: &Connection,
    f: &SessionFilter,
    after: Option<&SessionCursor>,
    limit: u32,
) -> Result<SessionPage> {
    let mut sql = format!(
        "SELECT {SESSION_COLS} FROM sessions s LEFT JOIN projects p ON p.hash = s.project_hash WHERE 1=1"
    );
    let mut args: Vec<SqlValue> = Vec::new();
    if let Some(p) = f.provider {
        sql.push_str(" AND s.provider = ?");
        args.push(SqlValue::Integer(p.code()));
    }
    if let Some(project) = &f.project {
        sql.push_str(" AND s.project_hash = ?");
        args.push(SqlValue::Text(project_key(project)));
    }
    if let Some(since) = f.since {
        sql.push_str(" AND coalesce(s.end_ms, s.start_ms) >= ?");
        args.push(SqlValue::Integer(since.timestamp_millis()));
    }
    if let Some(until) = f.until {
        sql.push_str(" AND s.start_ms <= ?");
        args.push(SqlValue::Integer(until.timestamp_millis()));
    }
    if !f.include_subagents {
        sql.push_str(" AND s.is_subagent = 0");
    }
    if let Some(c) = after {
        sql.push_str(" AND (s.start_ms, s.sid) < (?, ?)");
        args.push(SqlValue::Integer(c.start_ms));
        args.push(SqlValue::Integer(c.sid));
    }
    sql.push_str(" ORDER BY s.start_ms DESC, s.sid DESC LIMIT ?");
    let limit = limit.max(1);
    args.push(SqlValue::Integer(i64::from(limit) + 1));
    let mut st = conn.prepare_cached(&sql)?;
    let mut rows: Vec<(i64, SessionSummary)> = st
        .query_map(params_from_iter(args), session_from_row)?
        .collect::<rusqlite::Result<_>>()?;
    let more = rows.len() > limit as usize;
    rows.truncate(limit as usize);
    let next = if more {
        rows.last().map(|(sid, s)| SessionCursor {
            start_ms: s.start.map_or(0, |t| t.timestamp_millis()),
            sid: *sid,
        })
    } else {
        None
    };
    Ok(SessionPage {
        sessions: rows.into_iter().map(|(_, s)| s).collect(),
        next,
    })
}

pub(crate) fn session_by_id(conn: &Connection, id: &str) -> Result<Option<(i64, SessionSummary)>> {
    let sql = format!(
        "SELECT {SESSION_COLS} FROM sessions s LEFT JOIN projects p ON p.hash = s.project_hash WHERE s.id = ?1"
    );
    Ok(conn
        .prepare_cached(&sql)?
        .query_row([id], session_from_row)
        .optional()?)
}

/// The sub-agents session `id` spawned (not its forks: a fork names its parent too, but is not a
/// sub-agent).
pub(crate) fn children(conn: &Connection, id: &str) -> Result<Vec<String>> {
    let mut st = conn.prepare_cached(
        "SELECT id FROM sessions WHERE parent_id = ?1 AND is_subagent = 1 ORDER BY start_ms, id",
    )?;
    Ok(st
        .query_map([id], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?)
}

/// The log files (index keys) a session's answers are made from: its own and its sub-agents'.
pub(crate) fn log_keys(conn: &Connection, id: &str) -> Result<Vec<String>> {
    let mut st = conn.prepare_cached(
        "SELECT path FROM sessions WHERE id = ?1 OR (parent_id = ?1 AND is_subagent = 1)",
    )?;
    Ok(st
        .query_map([id], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?)
}

/// Whole id, or a unique prefix of at least [`MIN_PREFIX`] characters.
pub(crate) fn resolve(conn: &Connection, id_or_prefix: &str) -> Result<String> {
    let exact: Option<String> = conn
        .prepare_cached("SELECT id FROM sessions WHERE id = ?1")?
        .query_row([id_or_prefix], |r| r.get(0))
        .optional()?;
    if let Some(id) = exact {
        return Ok(id);
    }
    if id_or_prefix.chars().count() < MIN_PREFIX {
        return Err(Error::PrefixTooShort {
            prefix: id_or_prefix.to_string(),
            min: MIN_PREFIX,
        });
    }
    // A range over the primary key instead of LIKE: `%` and `_` stay plain characters.
    let upper = format!("{id_or_prefix}\u{10FFFF}");
    let mut st = conn
        .prepare_cached("SELECT id FROM sessions WHERE id > ?1 AND id < ?2 ORDER BY id LIMIT 21")?;
    let candidates: Vec<String> = st
        .query_map(params![id_or_prefix, upper], |r| r.get::<_, String>(0))?
        .collect::<rusqlite::Result<Vec<_>>>()?
        .into_iter()
        .filter(|id| id.starts_with(id_or_prefix))
        .collect();
    match candidates.len() {
        0 => Err(Error::SessionNotFound(id_or_prefix.to_string())),
        1 => Ok(candidates.into_iter().next().unwrap_or_default()),
        _ => Err(Error::AmbiguousSession {
            prefix: id_or_prefix.to_string(),
            candidates,
        }),
    }
}

pub(crate) fn search(
    conn: &Connection,
    q: &SearchQuery,
    session_sid: Option<i64>,
    mask_secrets: bool,
    data_dir: &std::path::Path,
) -> Result<SearchPage> {
    // A query the syntax rejects finds nothing here; the search tool rejects it with the reason.
    let Ok(parsed) = super::search_syntax::parse(&q.text) else {
        return Ok(SearchPage {
            hits: Vec::new(),
            next: None,
        });
    };
    let (mut lo, mut hi) = (0i64, i64::MAX);
    if let Some(sid) = session_sid {
        (lo, hi) = eid_range(sid);
    }
    if let Some(c) = q.after {
        hi = hi.min(c.eid - 1);
    }
    let limit = q.limit.max(1);
    let mut ids: Vec<i64> = match parsed.cjk_plan() {
        Some(plan) => super::seek_sets::ids(conn, &plan, (q.provider, q.kind), (lo, hi), limit)?,
        None => {
            let mut fts = parsed.to_fts();
            if let Some(p) = q.provider {
                fts.push_str(&format!(" AND tags : {}", provider_tag(p)));
            }
            if let Some(k) = q.kind {
                fts.push_str(&format!(" AND tags : {}", kind_tag(k)));
            }
            let mut st = conn.prepare_cached(
                "SELECT f.rowid FROM events_fts f WHERE events_fts MATCH ?1 AND f.rowid BETWEEN ?2 AND ?3
                 ORDER BY f.rowid DESC LIMIT ?4",
            )?;
            st.query_map(params![fts, lo, hi, i64::from(limit) + 1], |r| r.get(0))?
                .collect::<rusqlite::Result<_>>()?
        }
    };
    let more = ids.len() > limit as usize;
    ids.truncate(limit as usize);
    let terms = parsed.match_terms();
    let mut hits = Vec::with_capacity(ids.len());
    let texts = super::line_text::Texts::new(conn, data_dir, mask_secrets);
    let mut ev_st = conn.prepare_cached(
        "SELECT e.kind, e.turn, e.step, e.ts_ms, e.tool_name, e.is_error, e.text, s.id, s.provider, s.project_hash
         FROM events e JOIN sessions s ON s.sid = ?2 WHERE e.eid = ?1",
    )?;
    let mut rows = Vec::with_capacity(ids.len());
    let mut stored = Vec::with_capacity(ids.len());
    for id in &ids {
        let (sid, index) = split_eid(*id);
        let row = ev_st
            .query_row(params![id, sid], |r| {
                Ok((
                    (
                        index,
                        r.get::<_, i64>(0)?,
                        r.get::<_, u32>(1)?,
                        r.get::<_, Option<u32>>(2)?,
                        r.get::<_, Option<i64>>(3)?,
                        r.get::<_, Option<String>>(4)?,
                        r.get::<_, bool>(5)?,
                        r.get::<_, String>(7)?,
                        r.get::<_, i64>(8)?,
                        r.get::<_, Option<String>>(9)?,
                    ),
                    r.get::<_, StoredText>(6)?,
                ))
            })
            .optional()?;
        if let Some((row, text)) = row {
            rows.push(row);
            stored.push((*id, text));
        }
    }
    // Read together: the texts left in their log lines are parsed on all cores.
    let texts = texts.texts(stored)?;
    for (row, text) in rows.into_iter().zip(texts) {
        let (index, kind, turn, step, ts, tool_name, is_error, session_id, provider, project_hash) =
            row;
        // A text its log line no longer gives (rewritten since it was indexed) is not shown.
        let Some(text) = text else {
            continue;
        };
        // Masked before the preview is cut, so that no preview shows a part of a secret.
        let text = if mask_secrets {
            crate::secrets::mask(&text).into_owned()
        } else {
            text
        };
        let (preview, preview_start, match_start, text_chars) =
            preview(&text, &terms, PREVIEW_CHARS);
        hits.push(SearchHit {
            session_id,
            provider: decode::provider(decode::SESSION_PROVIDER, provider)?,
            project_hash,
            event_index: index,
            turn_index: turn,
            step_index: step,
            kind: decode::event_kind(decode::EVENT_KIND, kind)?,
            timestamp: ts.and_then(ts_from_ms),
            tool_name,
            is_error,
            preview,
            preview_start,
            match_start,
            text_chars,
        });
    }
    let next = if more {
        ids.last().map(|&eid| SearchCursor { eid })
    } else {
        None
    };
    Ok(SearchPage { hits, next })
}

fn fold(c: char) -> char {
    c.to_lowercase().next().unwrap_or(c)
}

/// A window of about `width` characters around the first occurrence of any term
/// (case-insensitive), with the window start, the match position and the text length in chars.
/// Works on the string in place: event texts can be a megabyte, and a rare word's hit is
/// often deep in a long tool output, so candidates are found by byte search
/// (`first_match`) rather than by folding every character before them.
pub fn preview(
    text: &str,
    terms: &[Vec<char>],
    width: usize,
) -> (String, usize, Option<usize>, usize) {
    let found = first_match(text, terms);
    let (start_byte, start) = match found {
        Some((byte, ci)) => {
            let back = (width / 3).min(ci);
            let start_byte = text[..byte]
                .char_indices()
                .rev()
                .take(back)
                .last()
                .map_or(byte, |(b, _)| b);
            (start_byte, ci - back)
        }
        None => (0, 0),
    };
    let window: String = text[start_byte..].chars().take(width).collect();
    (window, start, found.map(|(_, ci)| ci), text.chars().count())
}

/// Characters outside ASCII whose lower case starts with an ASCII letter (İ, the Kelvin sign):
/// a byte search for an ASCII letter does not see them. A unit test checks the list against
/// every character.
const FOLDS_TO_ASCII: [char; 2] = ['\u{130}', '\u{212A}'];

/// The first position (byte, char) where a term starts: at the start of a word, or anywhere
/// for a term with CJK characters (unspaced text is one long word).
fn first_match(text: &str, terms: &[Vec<char>]) -> Option<(usize, usize)> {
    let at = |byte: usize, t: &[char], inside: bool| {
        (inside
            || !text[..byte]
                .chars()
                .next_back()
                .is_some_and(char::is_alphanumeric))
            && {
                let mut it = text[byte..].chars();
                t.iter().all(|c| it.next().is_some_and(|h| fold(h) == *c))
            }
    };
    let mut best: Option<usize> = None;
    for t in terms.iter().filter(|t| !t.is_empty()) {
        let inside = t.iter().any(|&c| super::search_syntax::is_cjk(c));
        let c0 = t[0];
        // The bytes a match can start with, when a byte search finds every candidate: an
        // ASCII character in either case, or a character without case (CJK).
        let needles: Vec<Vec<u8>> = if c0.is_ascii() {
            // By their bytes: `str::contains` with a char set decodes every character.
            let exotic = || {
                FOLDS_TO_ASCII.iter().any(|c| {
                    memchr::memmem::find(text.as_bytes(), c.encode_utf8(&mut [0; 4]).as_bytes())
                        .is_some()
                })
            };
            if c0.is_ascii_alphabetic() && exotic() {
                return first_match_by_chars(text, terms);
            }
            let mut n = vec![vec![c0 as u8]];
            if c0.to_ascii_uppercase() != c0 {
                n.push(vec![c0.to_ascii_uppercase() as u8]);
            }
            n
        } else if inside && c0.to_uppercase().eq([c0]) {
            vec![c0.to_string().into_bytes()]
        } else {
            return first_match_by_chars(text, terms);
        };
        let limit = best.unwrap_or(text.len());
        for needle in &needles {
            let mut from = 0;
            while from < limit
                && let Some(p) = memchr::memmem::find(&text.as_bytes()[from..limit], needle)
            {
                let byte = from + p;
                if at(byte, t, inside) {
                    best = Some(best.map_or(byte, |b| b.min(byte)));
                    break;
                }
                from = byte + needle.len();
            }
        }
    }
    best.map(|b| (b, text[..b].chars().count()))
}

/// [`first_match`] character by character: for terms a byte search cannot start.
fn first_match_by_chars(text: &str, terms: &[Vec<char>]) -> Option<(usize, usize)> {
    let inside: Vec<bool> = terms
        .iter()
        .map(|t| t.iter().any(|&c| super::search_syntax::is_cjk(c)))
        .collect();
    let mut prev_alnum = false;
    for (ci, (bi, ch)) in text.char_indices().enumerate() {
        let rest = &text[bi..];
        if terms.iter().zip(&inside).any(|(t, &inside)| {
            !t.is_empty() && (!prev_alnum || inside) && {
                let mut it = rest.chars();
                t.iter().all(|c| it.next().is_some_and(|h| fold(h) == *c))
            }
        }) {
            return Some((bi, ci));
        }
        prev_alnum = ch.is_alphanumeric();
    }
    None
}

pub(crate) fn event_row(conn: &Connection, sid: i64, index: u32) -> Result<Option<EventRow>> {
    let mut st = conn.prepare_cached(
        "SELECT kind, turn, step, ts_ms, tool_name, call_id, is_error, src_off, src_len, text FROM events WHERE eid = ?1",
    )?;
    Ok(st
        .query_row([eid(sid, index)], |r| {
            Ok(EventRow {
                sid,
                index,
                kind: decode::event_kind_at(r, 0, decode::EVENT_KIND)?,
                turn: r.get(1)?,
                step: r.get(2)?,
                ts_ms: r.get(3)?,
                tool_name: r.get(4)?,
                call_id: r.get(5)?,
                is_error: r.get(6)?,
                src_off: r.get(7)?,
                src_len: r.get(8)?,
                text: r.get::<_, StoredText>(9)?,
            })
        })
        .optional()?)
}

/// Index of the first event of the session that comes from the line at `src_off`.
pub(crate) fn first_event_of_line(
    conn: &Connection,
    sid: i64,
    src_off: i64,
) -> Result<Option<u32>> {
    let (lo, hi) = eid_range(sid);
    let mut st = conn.prepare_cached(
        "SELECT min(eid) FROM events WHERE eid BETWEEN ?1 AND ?2 AND src_off = ?3",
    )?;
    let min: Option<i64> = st.query_row(params![lo, hi, src_off], |r| r.get(0))?;
    Ok(min.map(|e| split_eid(e).1))
}

pub(crate) fn projects(conn: &Connection) -> Result<Vec<ProjectInfo>> {
    // One row per project and provider, the project's rows together.
    let mut st = conn.prepare_cached(
        "SELECT s.project_hash, p.root, s.provider, count(*), max(coalesce(s.end_ms, s.start_ms))
         FROM sessions s LEFT JOIN projects p ON p.hash = s.project_hash
         WHERE s.project_hash IS NOT NULL
         GROUP BY s.project_hash, s.provider ORDER BY s.project_hash",
    )?;
    let rows = st.query_map([], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, Option<String>>(1)?,
            decode::provider_at(r, 2, decode::SESSION_PROVIDER)?,
            r.get::<_, i64>(3)? as u64,
            r.get::<_, Option<i64>>(4)?,
        ))
    })?;
    let mut out: Vec<(Option<i64>, ProjectInfo)> = Vec::new();
    for row in rows {
        let (hash, root, provider, n, last) = row?;
        if out.last().is_none_or(|(_, p)| p.hash != hash) {
            out.push((
                None,
                ProjectInfo {
                    hash,
                    root,
                    sessions: ProviderCounts::default(),
                    total_sessions: 0,
                    last_activity: None,
                },
            ));
        }
        if let Some((max, p)) = out.last_mut() {
            p.sessions.add(provider, n);
            p.total_sessions += n;
            *max = (*max).max(last);
        }
    }
    // Newest activity first, as before; ties by hash.
    out.sort_by(|(a, p), (b, q)| b.cmp(a).then_with(|| p.hash.cmp(&q.hash)));
    Ok(out
        .into_iter()
        .map(|(last, mut p)| {
            p.last_activity = last.and_then(ts_from_ms);
            p
        })
        .collect())
}

#[cfg(test)]
mod preview_tests {
    use super::*;
    use proptest::prelude::*;

    fn folded(t: &str) -> Vec<char> {
        t.chars().map(fold).collect()
    }

    #[test]
    fn only_the_listed_characters_fold_to_ascii_letters() {
        let found: Vec<char> = (0x80..=0x10FFFFu32)
            .filter_map(char::from_u32)
            .filter(|&c| fold(c).is_ascii())
            .collect();
        assert_eq!(found, FOLDS_TO_ASCII);
    }

    #[test]
    fn a_match_deep_in_a_long_text_is_found_where_it_starts() {
        let text = format!(
            "{}Quasar here {}",
            "x é 日本 ".repeat(50_000),
            "tail ".repeat(10)
        );
        let (window, start, found, chars) = preview(&text, &[folded("quasar")], 30);
        let at = text.find("Quasar").unwrap();
        assert_eq!(found, Some(text[..at].chars().count()));
        assert_eq!(start, found.unwrap() - 10);
        assert!(window.contains("Quasar here"), "{window}");
        assert_eq!(chars, text.chars().count());
        // Inside a word it is no match; a CJK term is one anywhere.
        assert_eq!(preview("subquasar", &[folded("quasar")], 30).2, None);
        assert_eq!(preview("これは日本語", &[folded("日本")], 30).2, Some(3));
    }

    proptest! {
        #[test]
        fn byte_search_finds_what_folding_every_character_finds(
            text in proptest::collection::vec(
                prop_oneof![
                    Just("a"), Just("A"), Just("k"), Just("\u{212A}"), Just("i"), Just("\u{130}"),
                    Just("é"), Just("É"), Just("日"), Just("本"), Just(" "), Just("-"), Just("x1"),
                ],
                0..40,
            ),
            terms in proptest::collection::vec(
                prop_oneof![
                    Just("a"), Just("ak"), Just("ki"), Just("é"), Just("日本"), Just("本"),
                    Just("x1"), Just("-a"), Just("i"),
                ],
                1..3,
            ),
        ) {
            let text: String = text.concat();
            let terms: Vec<Vec<char>> = terms.iter().map(|t| folded(t)).collect();
            prop_assert_eq!(first_match(&text, &terms), first_match_by_chars(&text, &terms));
        }
    }
}
