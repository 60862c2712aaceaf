//! Glob queries, one page at a time, without reading every matching row.
//!
//! A glob matches few distinct stored paths, each in many rows. So the distinct paths are
//! matched first (one seek of the primary key per path, see [`distinct_paths`]), and rows are
//! then read only for the sessions a page shows, newest first, found in up to three steps:
//!
//! 1. *walk*: the newest [`WALK`] sessions passing the filters are read whole through
//!    `touches_by_eid`, keeping the matching paths. When the glob matches common files the
//!    page fills here.
//! 2. *list*: else matches are rare among the newest sessions, so the sessions of each
//!    matching path are listed, one seek per (path, session) pair, while there are at most
//!    [`PAIR_BUDGET`] pairs; those older than the walked ones are read, newest first.
//! 3. with more pairs than that, the walk goes on to the oldest session.
//!
//! Each listed session's rows are grouped whole, in the order of [`Key`], so the pages are
//! those of grouping every match at once.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, HashMap};

use rusqlite::{Connection, OptionalExtension, params, params_from_iter, types::Value as SqlValue};

use super::{FileHistoryQuery, Group, Key, Probe, Range, paths, upper};
use crate::error::Result;
use crate::index::schema::{EVENT_BITS, eid_range};

/// Sessions walked before the matches' sessions are listed: a few thousand index entries.
const WALK: usize = 32;

/// Most (path, session) pairs listed before the walk goes on instead: a few milliseconds of
/// seeks, the cost of walking a few dozen more sessions.
const PAIR_BUDGET: usize = 2048;

/// (start, row id) of a session: where a walk of the sessions, newest first, stopped.
type At = (i64, i64);

/// Which sessions' rows of a stored path the query takes.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Scope {
    Any,
    /// Only sessions of these projects (hashes).
    Projects(BTreeSet<String>),
}

impl Scope {
    fn of(project: Option<&String>) -> Scope {
        match project {
            Some(h) => Scope::Projects(BTreeSet::from([h.clone()])),
            None => Scope::Any,
        }
    }

    fn widen(&mut self, project: Option<&String>) {
        match (&mut *self, project) {
            (Scope::Projects(set), Some(h)) => {
                set.insert(h.clone());
            }
            (Scope::Projects(_), None) => *self = Scope::Any,
            (Scope::Any, _) => {}
        }
    }

    fn admits(&self, hash: Option<&str>) -> bool {
        match self {
            Scope::Any => true,
            Scope::Projects(set) => hash.is_some_and(|h| set.contains(h)),
        }
    }
}

/// The (event id, action) calls of one listed row.
type Calls = BTreeSet<(i64, i64)>;

/// A session that passed the query's filters.
struct Session {
    sid: i64,
    start_ms: i64,
    provider: i64,
    project_hash: Option<String>,
    /// The project's root as stored.
    root: Option<String>,
}

/// The distinct stored paths from `head` (included) to [`upper`]`(head)`, in order: one seek
/// of the primary key each, however many rows name them.
fn distinct_paths(conn: &Connection, head: &str) -> Result<Vec<String>> {
    let hi = upper(head);
    let first: Option<String> = conn
        .prepare_cached(
            "SELECT path FROM touches WHERE path >= ?1 AND path < ?2 ORDER BY path LIMIT 1",
        )?
        .query_row(params![head, hi], |r| r.get(0))
        .optional()?;
    let mut out = Vec::new();
    let mut next = conn.prepare_cached(
        "SELECT path FROM touches WHERE path > ?1 AND path < ?2 ORDER BY path LIMIT 1",
    )?;
    let mut at = first;
    while let Some(p) = at {
        at = next.query_row(params![p, hi], |r| r.get(0)).optional()?;
        out.push(p);
    }
    Ok(out)
}

/// The stored paths some probe matches, each with the sessions it is taken from.
fn matching_paths(conn: &Connection, probes: &[Probe]) -> Result<HashMap<String, Scope>> {
    let mut listed: HashMap<String, Vec<String>> = HashMap::new();
    let mut out: HashMap<String, Scope> = HashMap::new();
    for p in probes {
        let head = match &p.range {
            Range::Prefix(h) | Range::Under(h) => h.clone(),
            // A root under the query: any of its relative paths.
            Range::Sessions(_) => String::new(),
        };
        if !listed.contains_key(&head) {
            let found = distinct_paths(conn, &head)?;
            listed.insert(head.clone(), found);
        }
        for path in &listed[&head] {
            let hit = match &p.root {
                Some(_) if paths::is_absolute(path) => false,
                Some(root) => p
                    .test
                    .matches(&format!("{}/{path}", root.trim_end_matches('/'))),
                None => p.test.matches(path),
            };
            if hit {
                out.entry(path.clone())
                    .and_modify(|s| s.widen(p.project.as_ref()))
                    .or_insert_with(|| Scope::of(p.project.as_ref()));
            }
        }
    }
    Ok(out)
}

/// The sessions holding rows of `path`, one seek each, while `budget` lasts; `None` once spent.
fn sessions_of(conn: &Connection, path: &str, budget: &mut usize) -> Result<Option<Vec<i64>>> {
    let mut st = conn.prepare_cached(
        "SELECT eid FROM touches WHERE path = ?1 AND eid >= ?2 ORDER BY eid LIMIT 1",
    )?;
    let mut out = Vec::new();
    let mut from = i64::MIN;
    loop {
        if *budget == 0 {
            return Ok(None);
        }
        *budget -= 1;
        let Some(eid) = st
            .query_row(params![path, from], |r| r.get::<_, i64>(0))
            .optional()?
        else {
            return Ok(Some(out));
        };
        let sid = eid >> EVENT_BITS;
        out.push(sid);
        from = (sid + 1) << EVENT_BITS;
    }
}

/// The session filters of `q` as SQL on `sessions s`, with their arguments.
fn filters(q: &FileHistoryQuery, projects: Option<&BTreeSet<String>>) -> (String, Vec<SqlValue>) {
    let mut sql = String::new();
    let mut args = Vec::new();
    if let Some(set) = projects {
        let marks = vec!["?"; set.len()].join(", ");
        sql.push_str(&format!(" AND s.project_hash IN ({marks})"));
        args.extend(set.iter().map(|h| SqlValue::Text(h.clone())));
    }
    super::session_filters(q, &mut sql, &mut args);
    (sql, args)
}

const SESSION_COLS: &str = "s.sid, s.start_ms, s.provider, s.project_hash, pr.root";

fn session(r: &rusqlite::Row<'_>) -> rusqlite::Result<Session> {
    Ok(Session {
        sid: r.get(0)?,
        start_ms: r.get(1)?,
        provider: r.get(2)?,
        project_hash: r.get(3)?,
        root: r.get(4)?,
    })
}

/// The listed groups of a page, gathered session by session, newest first.
struct Gathered {
    after: Option<Key>,
    /// One more than a page: whether there is a next one.
    want: usize,
    groups: Vec<(Key, Group)>,
}

impl Gathered {
    fn full(&self) -> bool {
        self.groups.len() >= self.want
    }

    /// Adds the groups of session `s` from its matching rows (stored path, event id, action,
    /// turn), later turns first, then paths A to Z.
    fn add(&mut self, s: &Session, rows: Vec<(String, i64, i64, u32)>) {
        if rows.is_empty() {
            return;
        }
        let root = s.root.as_deref().and_then(paths::root_form);
        // Later turns first, then paths A to Z: the listing's order within a session.
        let mut own: BTreeMap<(Reverse<u32>, String), Calls> = BTreeMap::new();
        for (path, eid, action, turn) in rows {
            let shown = match &root {
                Some(r) if !paths::is_absolute(&path) => {
                    format!("{}/{path}", r.trim_end_matches('/'))
                }
                _ => path,
            };
            own.entry((Reverse(turn), shown))
                .or_default()
                .insert((eid, action));
        }
        for ((turn, shown), calls) in own {
            if self.full() {
                return;
            }
            let key: Key = (Reverse(s.start_ms), Reverse(s.sid), turn, shown);
            if self.after.as_ref().is_some_and(|a| key <= *a) {
                continue;
            }
            self.groups.push((key, (s.provider, s.root.clone(), calls)));
        }
    }
}

/// The groups of one page of a glob query (the probes of a glob), and one more if there is a
/// next page.
pub(super) fn groups(
    conn: &Connection,
    q: &FileHistoryQuery,
    probes: &[Probe],
) -> Result<Vec<(Key, Group)>> {
    groups_within(conn, q, probes, WALK, PAIR_BUDGET)
}

/// [`groups`], walking `walk` sessions first and listing at most `budget` (path, session)
/// pairs before walking on.
fn groups_within(
    conn: &Connection,
    q: &FileHistoryQuery,
    probes: &[Probe],
    walk: usize,
    budget: usize,
) -> Result<Vec<(Key, Group)>> {
    let mut out = Gathered {
        after: q.after.as_ref().map(super::FileHistoryCursor::key),
        want: q.limit.max(1) as usize + 1,
        groups: Vec::new(),
    };
    let matched = matching_paths(conn, probes)?;
    if matched.is_empty() {
        return Ok(out.groups);
    }
    // Sessions of no listed project can be skipped in SQL.
    let projects: Option<BTreeSet<String>> =
        matched
            .values()
            .try_fold(BTreeSet::new(), |mut acc, s| match s {
                Scope::Any => None,
                Scope::Projects(set) => {
                    acc.extend(set.iter().cloned());
                    Some(acc)
                }
            });
    let (cond, args) = filters(q, projects.as_ref());
    let Walked::Paused(at) = walk_sessions(conn, &cond, &args, &matched, None, walk, &mut out)?
    else {
        return Ok(out.groups);
    };
    match listed(conn, &matched, budget)? {
        Some(by_session) => read_listed(conn, &cond, &args, &matched, by_session, at, &mut out)?,
        None => {
            walk_sessions(conn, &cond, &args, &matched, at, usize::MAX, &mut out)?;
        }
    }
    Ok(out.groups)
}

/// The sessions of each matching path (session → its matching paths), or `None` when there
/// are more than `budget` pairs.
fn listed<'m>(
    conn: &Connection,
    matched: &'m HashMap<String, Scope>,
    budget: usize,
) -> Result<Option<BTreeMap<i64, Vec<&'m str>>>> {
    let mut budget = budget;
    let mut by_session: BTreeMap<i64, Vec<&str>> = BTreeMap::new();
    for path in matched.keys() {
        let Some(sids) = sessions_of(conn, path, &mut budget)? else {
            return Ok(None);
        };
        for sid in sids {
            by_session.entry(sid).or_default().push(path);
        }
    }
    Ok(Some(by_session))
}

/// Reads the sessions of `by_session` (session → its matching paths) older than `at`, newest
/// first.
fn read_listed(
    conn: &Connection,
    cond: &str,
    args: &[SqlValue],
    matched: &HashMap<String, Scope>,
    by_session: BTreeMap<i64, Vec<&str>>,
    at: Option<At>,
    out: &mut Gathered,
) -> Result<()> {
    let mut st = conn.prepare_cached(&format!(
        "SELECT {SESSION_COLS} FROM sessions s LEFT JOIN projects pr ON pr.hash = s.project_hash
         WHERE s.sid = ?{cond}"
    ))?;
    let mut sessions = Vec::new();
    for &sid in by_session.keys() {
        let mut all = vec![SqlValue::Integer(sid)];
        all.extend_from_slice(args);
        if let Some(s) = st.query_row(params_from_iter(all), session).optional()?
            && at.is_none_or(|at| (s.start_ms, s.sid) < at)
        {
            sessions.push(s);
        }
    }
    sessions.sort_by_key(|s| (Reverse(s.start_ms), Reverse(s.sid)));
    let mut rows_of = conn.prepare_cached(
        "SELECT eid, action, turn FROM touches WHERE path = ?1 AND eid BETWEEN ?2 AND ?3",
    )?;
    for s in &sessions {
        if out.full() {
            break;
        }
        let (lo, hi) = eid_range(s.sid);
        let mut rows = Vec::new();
        for &path in &by_session[&s.sid] {
            if !matched[path].admits(s.project_hash.as_deref()) {
                continue;
            }
            let mut r = rows_of.query(params![path, lo, hi])?;
            while let Some(r) = r.next()? {
                rows.push((path.to_owned(), r.get(0)?, r.get(1)?, r.get(2)?));
            }
        }
        out.add(s, rows);
    }
    Ok(())
}

/// Where [`walk_sessions`] stopped.
enum Walked {
    /// The page is full, or no session is left.
    Done,
    /// After this many sessions, at this one (`None`: the walk has not begun).
    Paused(Option<At>),
}

/// Walks up to `most` sessions passing the filters older than `at`, newest first, reading each
/// one's rows.
fn walk_sessions(
    conn: &Connection,
    cond: &str,
    args: &[SqlValue],
    matched: &HashMap<String, Scope>,
    at: Option<At>,
    most: usize,
    out: &mut Gathered,
) -> Result<Walked> {
    if most == 0 {
        return Ok(Walked::Paused(at));
    }
    let mut args = args.to_vec();
    let older = match at {
        Some((start_ms, sid)) => {
            args.push(SqlValue::Integer(start_ms));
            args.push(SqlValue::Integer(sid));
            " AND (s.start_ms, s.sid) < (?, ?)"
        }
        None => "",
    };
    let mut st = conn.prepare_cached(&format!(
        "SELECT {SESSION_COLS} FROM sessions s LEFT JOIN projects pr ON pr.hash = s.project_hash
         WHERE 1{cond}{older} ORDER BY s.start_ms DESC, s.sid DESC"
    ))?;
    // Path, event id and action are in `touches_by_eid`; the turn is looked up for matches only.
    let mut rows_of =
        conn.prepare_cached("SELECT path, eid, action FROM touches WHERE eid BETWEEN ?1 AND ?2")?;
    let mut turn_of = conn
        .prepare_cached("SELECT turn FROM touches WHERE path = ?1 AND eid = ?2 AND action = ?3")?;
    let mut sessions = st.query(params_from_iter(args))?;
    let mut walked = 0;
    while let Some(r) = sessions.next()? {
        let s = session(r)?;
        let (lo, hi) = eid_range(s.sid);
        let mut hits = Vec::new();
        let mut r = rows_of.query(params![lo, hi])?;
        while let Some(r) = r.next()? {
            let path: String = r.get(0)?;
            if matched
                .get(&path)
                .is_some_and(|scope| scope.admits(s.project_hash.as_deref()))
            {
                hits.push((path, r.get::<_, i64>(1)?, r.get::<_, i64>(2)?));
            }
        }
        let mut rows = Vec::with_capacity(hits.len());
        for (path, eid, action) in hits {
            let turn: u32 = turn_of.query_row(params![path, eid, action], |r| r.get(0))?;
            rows.push((path, eid, action, turn));
        }
        out.add(&s, rows);
        walked += 1;
        if out.full() {
            return Ok(Walked::Done);
        }
        if walked == most {
            return Ok(Walked::Paused(Some((s.start_ms, s.sid))));
        }
    }
    Ok(Walked::Done)
}

#[cfg(test)]
mod tests {
    use super::super::{FileHistoryCursor, PathQuery, grouped, probes, roots};
    use super::*;
    use crate::config::Config;
    use crate::corpus::{CorpusSpec, generate};
    use crate::index::query::project_key;
    use crate::model::Provider;
    use crate::store::TraceStore;

    /// A generated corpus over three projects, indexed; the connection reads its index.
    fn indexed() -> (tempfile::TempDir, Connection) {
        let tmp = tempfile::tempdir().unwrap();
        let logs = tmp.path().join("logs");
        let mut spec = CorpusSpec::new(36, 16);
        spec.projects = 3;
        generate(&spec, &logs).unwrap();
        let config = Config::for_tree(&logs, &tmp.path().join("data"));
        let index = config.index_path();
        TraceStore::open(config).unwrap().refresh().unwrap();
        (tmp, Connection::open(index).unwrap())
    }

    fn query(path: &str, limit: u32) -> FileHistoryQuery {
        FileHistoryQuery::new(PathQuery::parse(path).unwrap(), limit)
    }

    fn cursor(key: &Key) -> FileHistoryCursor {
        let (Reverse(start_ms), Reverse(sid), Reverse(turn), path) = key.clone();
        FileHistoryCursor {
            start_ms,
            sid,
            turn,
            path,
        }
    }

    /// Every page of `q` read with `budget`, each checked against grouping every match at
    /// once (the way paths and directories are listed); the number of rows listed.
    fn pages_agree(
        conn: &Connection,
        q: &FileHistoryQuery,
        (walk, budget): (usize, usize),
    ) -> usize {
        let project = q.project.as_deref().map(project_key);
        let roots = roots(conn, project.as_deref()).unwrap();
        let probes = probes(&q.path, &roots, project.as_deref());
        let want = q.limit as usize + 1;
        let mut q = q.clone();
        let mut listed = 0;
        loop {
            let got = groups_within(conn, &q, &probes, walk, budget).unwrap();
            let all: Vec<(Key, Group)> = grouped(conn, &q, &probes)
                .unwrap()
                .into_iter()
                .take(want)
                .collect();
            assert_eq!(
                got,
                all,
                "{} after {:?} (walk {walk}, budget {budget})",
                q.path.as_str(),
                q.after
            );
            if got.len() < want {
                return listed + got.len();
            }
            listed += want - 1;
            q.after = Some(cursor(&got[want - 2].0));
        }
    }

    #[test]
    fn glob_pages_are_those_of_grouping_every_match() {
        let (_tmp, conn) = indexed();
        let root: String = conn
            .query_row(
                "SELECT root FROM projects WHERE root IS NOT NULL LIMIT 1",
                [],
                |r| r.get(0),
            )
            .unwrap();
        let globs = [
            "src/**/3.rs".to_owned(),
            "**/7.rs".to_owned(),
            "src/c*/[4-6].rs".to_owned(),
            "**/src/*".to_owned(),
            format!("{root}/src/**/5.rs"),
            "/home/**/6.rs".to_owned(),
            "/**/4.rs".to_owned(),
            "**/no-such-file.rs".to_owned(),
            "nowhere/**".to_owned(),
        ];
        let (mut some, mut filtered) = (0, 0);
        for glob in &globs {
            // Walk only; list only; walk a little then list; walk, fail to list, walk on.
            for budget in [(usize::MAX, 0), (0, PAIR_BUDGET), (3, PAIR_BUDGET), (3, 40)] {
                for limit in [2, 9] {
                    some += pages_agree(&conn, &query(glob, limit), budget);
                }
                let mut q = query(glob, 3);
                q.project = Some(root.clone());
                q.provider = Some(Provider::Codex);
                q.since = Some(chrono::DateTime::from_timestamp_millis(1).unwrap());
                filtered += pages_agree(&conn, &q, budget);
            }
        }
        assert!(some > 800, "the globs list too little to compare: {some}");
        assert!(
            filtered > 20,
            "the filters leave too little to compare: {filtered}"
        );
        for glob in ["**/no-such-file.rs", "nowhere/**"] {
            assert_eq!(pages_agree(&conn, &query(glob, 5), (WALK, PAIR_BUDGET)), 0);
        }
    }
}
