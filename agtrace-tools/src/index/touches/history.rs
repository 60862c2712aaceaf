//! Answering "which sessions and turns touched this path", from the `touches` table.
//!
//! A query is a path (a file, or a directory and all under it), relative to a project root or
//! absolute, or a glob. It becomes a few *probes*, each a range of the `touches` primary key
//! (or a project's sessions) with a test on the path:
//!
//! - the query as given, against stored paths of the same kind (relative ones are relative to
//!   their own session's root);
//! - for a relative query, `root/query` for each known project root, against the absolute
//!   paths of that project's sessions (those whose root the log did not name, as Gemini's);
//! - for an absolute query, its part under each project root it lies under, against that
//!   project's relative paths; and each project root lying under it, whole.
//!
//! Matches are grouped by (session, turn, path) and listed newest session first. A glob's page
//! is gathered by [`by_glob`], which reads only the sessions it lists.

mod by_glob;

use std::collections::{BTreeMap, BTreeSet, HashSet};

use chrono::{DateTime, Utc};
use rusqlite::{Connection, OptionalExtension, params, params_from_iter, types::Value as SqlValue};
use serde::{Deserialize, Serialize};

use super::Action;
use super::paths::{self, Glob};
use crate::error::Result;
use crate::index::decode;
use crate::index::query::project_key;
use crate::index::schema::{EVENT_BITS, split_eid};
use crate::index::stored_text::StoredText;
use crate::model::{EventKind, Provider, ts_from_ms};

/// What to look for: a path or a glob, in normal form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathQuery {
    text: String,
    glob: Option<Glob>,
}

/// Why a path argument cannot be looked up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryError(pub String);

impl PathQuery {
    /// Parses what a person typed: `src/lib.rs`, `/home/u/p/src/`, `e:\p\a.py`, `src/**/*.rs`.
    pub fn parse(text: &str) -> std::result::Result<PathQuery, HistoryError> {
        let windows = paths::is_windows(text.trim());
        let Some(norm) = paths::normalize(text, windows) else {
            return Err(HistoryError(format!(
                "'{text}' names no file or directory: give a path such as `src/lib.rs`, a directory such as `src/`, or a glob such as `**/*.rs`."
            )));
        };
        let glob = if Glob::is_glob(&norm) {
            Some(
                Glob::new(&norm)
                    .map_err(|e| HistoryError(format!("'{text}' is not a valid glob: {}.", e.0)))?,
            )
        } else {
            None
        };
        Ok(PathQuery { text: norm, glob })
    }

    /// The path or glob in normal form.
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

/// A file history query.
#[derive(Debug, Clone)]
pub struct FileHistoryQuery {
    /// The path, directory or glob.
    pub path: PathQuery,
    /// Only sessions of this project (root path or hash).
    pub project: Option<String>,
    /// Only sessions of this agent.
    pub provider: Option<Provider>,
    /// Only sessions active at or after this time.
    pub since: Option<DateTime<Utc>>,
    /// Only sessions started at or before this time.
    pub until: Option<DateTime<Utc>>,
    /// Continue after this row.
    pub after: Option<FileHistoryCursor>,
    /// Most rows per page.
    pub limit: u32,
}

impl FileHistoryQuery {
    /// The first page of `path`'s history, `limit` rows, with no filter.
    pub fn new(path: PathQuery, limit: u32) -> Self {
        FileHistoryQuery {
            path,
            project: None,
            provider: None,
            since: None,
            until: None,
            after: None,
            limit,
        }
    }
}

/// Keyset position: the last row of the previous page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileHistoryCursor {
    /// Start of the row's session (Unix milliseconds).
    pub start_ms: i64,
    /// Row id of the session.
    pub sid: i64,
    /// Turn index.
    pub turn: u32,
    /// The path as listed.
    pub path: String,
}

/// One listed row being gathered: provider code, project root, and its (event id, action) calls.
type Group = (i64, Option<String>, BTreeSet<(i64, i64)>);

/// The order rows are listed in: newest session first, its later turns first, paths A to Z.
type Key = (
    std::cmp::Reverse<i64>,
    std::cmp::Reverse<i64>,
    std::cmp::Reverse<u32>,
    String,
);

impl FileHistoryCursor {
    fn key(&self) -> Key {
        use std::cmp::Reverse;
        (
            Reverse(self.start_ms),
            Reverse(self.sid),
            Reverse(self.turn),
            self.path.clone(),
        )
    }
}

/// One (session, turn, path) that tool calls touched.
#[derive(Debug, Clone, PartialEq)]
pub struct FileTouch {
    /// Where the row sits in the listing.
    pub position: FileHistoryCursor,
    /// The session id.
    pub session_id: String,
    /// The agent.
    pub provider: Provider,
    /// Session start.
    pub session_start: Option<DateTime<Utc>>,
    /// The session's project root, when known.
    pub project_root: Option<String>,
    /// The path touched: absolute when the session's root is known, else as the log wrote it.
    pub path: String,
    /// Turn index.
    pub turn: u32,
    /// The turn's prompt, when the turn has one.
    pub prompt: Option<String>,
    /// What was done, each once, in [`Action::ALL`] order.
    pub actions: Vec<Action>,
    /// Names of the tools that did it, each once, in call order.
    pub tools: Vec<String>,
    /// Event indexes of the tool calls, in order.
    pub events: Vec<u32>,
    /// Time of the first of those calls.
    pub first_time: Option<DateTime<Utc>>,
}

/// One page of file history.
#[derive(Debug, Clone, PartialEq)]
pub struct FileHistoryPage {
    /// The rows.
    pub touches: Vec<FileTouch>,
    /// Position after the last row; `None` on the last page.
    pub next: Option<FileHistoryCursor>,
}

/// Which stored rows a probe reads.
#[derive(Debug, Clone)]
enum Range {
    /// The path and everything under it.
    Under(String),
    /// Paths starting with this text (empty: all).
    Prefix(String),
    /// Every row of the sessions of a project (by hash).
    Sessions(String),
}

/// Which of those rows match, tested on the path joined onto `root` when relative.
#[derive(Debug, Clone)]
enum Test {
    Under(String),
    Glob(Glob),
}

#[derive(Debug, Clone)]
struct Probe {
    range: Range,
    /// Only sessions of this project (hash).
    project: Option<String>,
    /// Join relative stored paths onto this before testing; such probes read only those.
    root: Option<String>,
    test: Test,
}

impl Test {
    fn matches(&self, p: &str) -> bool {
        match self {
            Test::Under(q) => p == q || under(p, q),
            Test::Glob(g) => g.matches(p),
        }
    }
}

fn under(a: &str, dir: &str) -> bool {
    a.strip_prefix(dir).is_some_and(|r| r.starts_with('/'))
        || (dir == "/" && a.starts_with('/') && a != "/")
}

/// The probes of a query, given the project roots (hash, normal form) it may be resolved by.
fn probes(q: &PathQuery, roots: &[(String, String)], project: Option<&str>) -> Vec<Probe> {
    let text = q.text.as_str();
    let test_of = |t: &str| -> Option<Test> {
        match &q.glob {
            Some(_) => Glob::new(t).ok().map(Test::Glob),
            None => Some(Test::Under(t.to_owned())),
        }
    };
    let range_of = |t: &str| -> Range {
        match &q.glob {
            Some(_) => Range::Prefix(Glob::new(t).map(|g| g.literal_head()).unwrap_or_default()),
            None => Range::Under(t.to_owned()),
        }
    };
    let mut out = vec![Probe {
        range: range_of(text),
        project: project.map(str::to_owned),
        root: None,
        test: test_of(text).expect("parsed"),
    }];
    // The literal part of the query: for a glob, the head up to its last `/`.
    let literal = match &q.glob {
        Some(g) => g.literal_head().trim_end_matches('/').to_owned(),
        None => text.to_owned(),
    };
    for (hash, root) in roots {
        if !paths::is_absolute(text) {
            let joined = format!("{}/{text}", root.trim_end_matches('/'));
            if let Some(test) = test_of(&joined) {
                out.push(Probe {
                    range: range_of(&joined),
                    project: Some(hash.clone()),
                    root: None,
                    test,
                });
            }
        } else if literal == *root
            || under(root, &literal)
            || (literal.is_empty() && q.glob.is_some())
        {
            // The root lies under what is asked: all its relative paths are candidates.
            out.push(Probe {
                range: Range::Sessions(hash.clone()),
                project: Some(hash.clone()),
                root: Some(root.clone()),
                test: test_of(text).expect("parsed"),
            });
        } else if under(&literal, root) {
            let rel = &text[root.trim_end_matches('/').len() + 1..];
            out.push(Probe {
                range: range_of(rel),
                project: Some(hash.clone()),
                root: Some(root.clone()),
                test: test_of(text).expect("parsed"),
            });
        }
    }
    out
}

/// A candidate row: stored path, event id, action, turn, and its session's facts.
struct Hit {
    path: String,
    eid: i64,
    action: i64,
    turn: u32,
    start_ms: i64,
    provider: i64,
    root: Option<String>,
}

fn upper(prefix: &str) -> String {
    format!("{prefix}\u{10FFFF}")
}

fn run_probe(conn: &Connection, p: &Probe, q: &FileHistoryQuery, out: &mut Vec<Hit>) -> Result<()> {
    let mut args: Vec<SqlValue> = Vec::new();
    let cols = "t.path, t.eid, t.action, t.turn, s.start_ms, s.provider, pr.root";
    // CROSS JOIN fixes the loop order: the touches range drives, each row looks its session
    // up by primary key (the other way round would scan the range once per session).
    let mut sql = match &p.range {
        Range::Under(path) => {
            args.push(SqlValue::Text(path.clone()));
            args.push(SqlValue::Text(format!("{}/", path.trim_end_matches('/'))));
            args.push(SqlValue::Text(format!("{}0", path.trim_end_matches('/'))));
            format!(
                "SELECT {cols} FROM touches t CROSS JOIN sessions s ON s.sid = (t.eid >> {EVENT_BITS})
                 LEFT JOIN projects pr ON pr.hash = s.project_hash
                 WHERE (t.path = ? OR (t.path >= ? AND t.path < ?))"
            )
        }
        Range::Prefix(head) => {
            args.push(SqlValue::Text(head.clone()));
            args.push(SqlValue::Text(upper(head)));
            format!(
                "SELECT {cols} FROM touches t CROSS JOIN sessions s ON s.sid = (t.eid >> {EVENT_BITS})
                 LEFT JOIN projects pr ON pr.hash = s.project_hash
                 WHERE t.path >= ? AND t.path < ?"
            )
        }
        Range::Sessions(hash) => {
            args.push(SqlValue::Text(hash.clone()));
            format!(
                "SELECT {cols} FROM sessions s CROSS JOIN touches t
                   ON t.eid BETWEEN (s.sid << {EVENT_BITS}) AND ((s.sid + 1) << {EVENT_BITS}) - 1
                 LEFT JOIN projects pr ON pr.hash = s.project_hash
                 WHERE s.project_hash = ?"
            )
        }
    };
    if let Some(h) = &p.project {
        sql.push_str(" AND s.project_hash = ?");
        args.push(SqlValue::Text(h.clone()));
    }
    session_filters(q, &mut sql, &mut args);
    let mut st = conn.prepare_cached(&sql)?;
    let mut rows = st.query(params_from_iter(args))?;
    while let Some(r) = rows.next()? {
        let path: String = r.get(0)?;
        let full = match &p.root {
            Some(_) if paths::is_absolute(&path) => continue,
            Some(root) => format!("{}/{path}", root.trim_end_matches('/')),
            None => path.clone(),
        };
        if !p.test.matches(&full) {
            continue;
        }
        out.push(Hit {
            path,
            eid: r.get(1)?,
            action: r.get(2)?,
            turn: r.get(3)?,
            start_ms: r.get(4)?,
            provider: r.get(5)?,
            root: r.get(6)?,
        });
    }
    Ok(())
}

/// The project roots a query may be resolved by, in normal form with their hashes: the
/// filtered project's, or every known one.
fn roots(conn: &Connection, project: Option<&str>) -> Result<Vec<(String, String)>> {
    let mut st = conn.prepare_cached(
        "SELECT hash, root FROM projects WHERE root IS NOT NULL AND (?1 IS NULL OR hash = ?1)",
    )?;
    let rows = st.query_map([project], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (hash, root) = row?;
        if let Some(root) = paths::root_form(&root)
            && root != "/"
        {
            out.push((hash, root));
        }
    }
    Ok(out)
}

/// One page of the history of `q.path`, newest session first. `mask` masks secrets in prompts
/// and paths.
pub fn history(
    conn: &Connection,
    q: &FileHistoryQuery,
    mask: bool,
    data_dir: &std::path::Path,
) -> Result<FileHistoryPage> {
    let project = q.project.as_deref().map(project_key);
    let roots = roots(conn, project.as_deref())?;
    let probes = probes(&q.path, &roots, project.as_deref());
    let groups = if q.path.glob.is_some() {
        by_glob::groups(conn, q, &probes)?
    } else {
        grouped(conn, q, &probes)?.into_iter().collect()
    };
    page(conn, groups, q.limit, mask, data_dir)
}

/// Every match of the probes, grouped, from the row after `q.after` on.
fn grouped(
    conn: &Connection,
    q: &FileHistoryQuery,
    probes: &[Probe],
) -> Result<BTreeMap<Key, Group>> {
    let mut hits = Vec::new();
    for p in probes {
        run_probe(conn, p, q, &mut hits)?;
    }
    let after = q.after.as_ref().map(FileHistoryCursor::key);
    let mut seen = HashSet::new();
    let mut groups: BTreeMap<Key, Group> = BTreeMap::new();
    for h in hits {
        if !seen.insert((h.eid, h.action, h.path.clone())) {
            continue;
        }
        let root = h.root.as_deref().and_then(paths::root_form);
        let shown = match &root {
            Some(r) if !paths::is_absolute(&h.path) => {
                format!("{}/{}", r.trim_end_matches('/'), h.path)
            }
            _ => h.path.clone(),
        };
        let (sid, _) = split_eid(h.eid);
        use std::cmp::Reverse;
        let key: Key = (Reverse(h.start_ms), Reverse(sid), Reverse(h.turn), shown);
        if after.as_ref().is_some_and(|a| key <= *a) {
            continue;
        }
        groups
            .entry(key)
            .or_insert_with(|| (h.provider, h.root.clone(), BTreeSet::new()))
            .2
            .insert((h.eid, h.action));
    }
    Ok(groups)
}

/// The page of the first `limit` of `groups` (in listing order), with a next position when
/// there are more.
fn page(
    conn: &Connection,
    groups: Vec<(Key, Group)>,
    limit: u32,
    mask: bool,
    data_dir: &std::path::Path,
) -> Result<FileHistoryPage> {
    let limit = limit.max(1) as usize;
    let more = groups.len() > limit;
    let mut touches = Vec::new();
    let texts = crate::index::line_text::Texts::new(conn, data_dir, mask);
    for (key, (provider, root, calls)) in groups.into_iter().take(limit) {
        touches.push(row(conn, key, provider, root, calls, mask, &texts)?);
    }
    let next = if more {
        touches.last().map(|t| t.position.clone())
    } else {
        None
    };
    Ok(FileHistoryPage { touches, next })
}

fn row(
    conn: &Connection,
    key: Key,
    provider: i64,
    root: Option<String>,
    calls: BTreeSet<(i64, i64)>,
    mask: bool,
    texts: &crate::index::line_text::Texts<'_>,
) -> Result<FileTouch> {
    let (std::cmp::Reverse(start_ms), std::cmp::Reverse(sid), std::cmp::Reverse(turn), path) = key;
    let session_id: String = conn
        .prepare_cached("SELECT id FROM sessions WHERE sid = ?1")?
        .query_row([sid], |r| r.get(0))?;
    let first = calls.first().map_or(0, |c| c.0);
    let (lo, _) = crate::index::schema::eid_range(sid);
    // The nearest prompt before the first call; it is the turn's when it is in the same turn.
    let prompt: Option<(StoredText, u32, i64)> = conn
        .prepare_cached("SELECT text, turn, eid FROM events WHERE eid BETWEEN ?1 AND ?2 AND kind = ?3 ORDER BY eid DESC LIMIT 1")?
        .query_row(params![lo, first, EventKind::User.code()], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .optional()?;
    let mut prompt = match prompt.filter(|(_, t, _)| *t == turn) {
        Some((text, _, eid)) => texts.text(eid, text)?,
        None => None,
    };
    if mask && let Some(p) = &mut prompt {
        crate::secrets::mask_string(p);
    }
    let mut tools: Vec<String> = Vec::new();
    let mut events: Vec<u32> = Vec::new();
    let mut first_time = None;
    let mut st = conn.prepare_cached("SELECT tool_name, ts_ms FROM events WHERE eid = ?1")?;
    let mut last = None;
    for &(eid, _) in &calls {
        if last == Some(eid) {
            continue;
        }
        last = Some(eid);
        events.push(split_eid(eid).1);
        if let Some((name, ts)) = st
            .query_row([eid], |r| {
                Ok((r.get::<_, Option<String>>(0)?, r.get::<_, Option<i64>>(1)?))
            })
            .optional()?
        {
            if let Some(n) = name
                && !tools.contains(&n)
            {
                tools.push(n);
            }
            if first_time.is_none() {
                first_time = ts.and_then(ts_from_ms);
            }
        }
    }
    let actions: BTreeSet<Action> = calls
        .iter()
        .filter_map(|&(_, a)| Action::from_code(a))
        .collect();
    // A secret pasted into a command line can end up in a path operand.
    let mut shown = path.clone();
    if mask {
        crate::secrets::mask_string(&mut shown);
    }
    Ok(FileTouch {
        position: FileHistoryCursor {
            start_ms,
            sid,
            turn,
            path,
        },
        session_id,
        provider: decode::provider(decode::SESSION_PROVIDER, provider)?,
        session_start: (start_ms != 0).then(|| ts_from_ms(start_ms)).flatten(),
        project_root: root,
        path: shown,
        turn,
        prompt,
        actions: actions.into_iter().collect(),
        tools,
        events,
        first_time,
    })
}

/// Adds the filters of `q` on the session (`sessions s`): its agent, its time range, and the
/// page cursor's position.
fn session_filters(q: &FileHistoryQuery, sql: &mut String, args: &mut Vec<SqlValue>) {
    if let Some(pv) = q.provider {
        sql.push_str(" AND s.provider = ?");
        args.push(SqlValue::Integer(pv.code()));
    }
    if let Some(since) = q.since {
        sql.push_str(" AND coalesce(s.end_ms, s.start_ms) >= ?");
        args.push(SqlValue::Integer(since.timestamp_millis()));
    }
    if let Some(until) = q.until {
        sql.push_str(" AND s.start_ms <= ?");
        args.push(SqlValue::Integer(until.timestamp_millis()));
    }
    if let Some(c) = &q.after {
        sql.push_str(" AND (s.start_ms, s.sid) <= (?, ?)");
        args.push(SqlValue::Integer(c.start_ms));
        args.push(SqlValue::Integer(c.sid));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_what_people_type() {
        assert_eq!(
            PathQuery::parse("./src//lib.rs").unwrap().as_str(),
            "src/lib.rs"
        );
        assert_eq!(PathQuery::parse("src/").unwrap().as_str(), "src");
        assert!(PathQuery::parse("src/**/*.rs").unwrap().glob.is_some());
        assert!(PathQuery::parse(".").is_err());
        assert!(PathQuery::parse("  ").is_err());
        assert!(
            PathQuery::parse("src/[ab")
                .unwrap_err()
                .0
                .contains("unclosed")
        );
    }

    #[test]
    fn under_is_by_component() {
        let t = Test::Under("src/lib".into());
        assert!(t.matches("src/lib"));
        assert!(t.matches("src/lib/a.rs"));
        assert!(!t.matches("src/lib.rs"));
    }

    #[test]
    fn absolute_queries_resolve_through_roots() {
        let roots = vec![
            ("h1".to_owned(), "/home/u/proj".to_owned()),
            ("h2".to_owned(), "/srv/other".to_owned()),
        ];
        let q = PathQuery::parse("/home/u/proj/src/lib.rs").unwrap();
        let ps = probes(&q, &roots, None);
        assert_eq!(ps.len(), 2);
        assert!(matches!(&ps[1].range, Range::Under(p) if p == "src/lib.rs"));
        assert_eq!(ps[1].project.as_deref(), Some("h1"));
        let q = PathQuery::parse("/home/u").unwrap();
        assert!(matches!(&probes(&q, &roots, None)[1].range, Range::Sessions(h) if h == "h1"));
        let q = PathQuery::parse("src/**/*.rs").unwrap();
        let ps = probes(&q, &roots, None);
        assert_eq!(ps.len(), 3);
        assert!(matches!(&ps[2].range, Range::Prefix(h) if h == "/srv/other/src/"));
    }
}
