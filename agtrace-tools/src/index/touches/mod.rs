//! File history: which tool calls read, edited, wrote, ran or searched which paths.
//!
//! Extracted when events are parsed ([`extract`]) and written with them ([`record`]) into the
//! `touches` table, one row per (path, tool call, action), so that [`history`] answers from the
//! index alone. A path is stored relative to its session's root (the `cwd` its log names) when
//! inside it, else absolute, in the normal form of [`paths`]; a query's relative path matches
//! the stored relative ones, and its absolute one is turned relative to each known project root
//! it lies under (see [`history`]).

mod extract;
mod history;
pub mod paths;
mod rules;
mod shell;

pub use history::{
    FileHistoryCursor, FileHistoryPage, FileHistoryQuery, FileTouch, HistoryError, PathQuery,
    history,
};

use rusqlite::{Transaction, params};

use super::schema::eid;
use crate::error::Result;
use crate::model::{Event, EventKind};

/// What a tool call did to a path.
#[mcp_tool::tool_args]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Read it (Read, read_file, cat, sed -n, head).
    Read,
    /// Changed part of it (Edit, replace, an updated file of a patch, sed -i, `>>`).
    Edit,
    /// Wrote it whole or created it (Write, write_file, an added file of a patch, touch, mkdir, `>`).
    Write,
    /// Deleted it (a deleted file of a patch, rm).
    Delete,
    /// Moved or renamed it, from or to (mv, a patch's `Move to`).
    Move,
    /// Ran it (python x.py, ./script.sh, pytest tests/x.py).
    Run,
    /// Searched in it (Grep, rg, grep, find).
    Search,
    /// Listed it (ls, list_directory).
    List,
}

impl Action {
    /// Every action, in the order of their codes in the index.
    pub const ALL: [Action; 8] = [
        Action::Read,
        Action::Edit,
        Action::Write,
        Action::Delete,
        Action::Move,
        Action::Run,
        Action::Search,
        Action::List,
    ];

    fn code(self) -> i64 {
        Self::ALL.iter().position(|a| *a == self).unwrap_or(0) as i64
    }

    fn from_code(code: i64) -> Option<Self> {
        Self::ALL.get(usize::try_from(code).ok()?).copied()
    }
}

/// The `touches` table (schema version 10). WITHOUT ROWID with the path first: a path, or a
/// range of paths (a directory, a glob's literal head), is one range of the primary key, which
/// also holds the turn, so finding touches reads no other table. `touches_by_eid` serves the
/// deletion of a session's rows.
pub const SCHEMA: &str = r#"
CREATE TABLE IF NOT EXISTS touches (
    path TEXT NOT NULL,
    eid INTEGER NOT NULL,
    action INTEGER NOT NULL,
    turn INTEGER NOT NULL,
    PRIMARY KEY (path, eid, action)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS touches_by_eid ON touches(eid);
"#;

/// The rows of one tool call: stored path and action, deduplicated.
pub fn call_rows(tool: Option<&str>, args: &str, root: Option<&str>) -> Vec<(String, Action)> {
    let windows = root.is_some_and(paths::is_windows);
    let mut out: Vec<(String, Action)> = extract::call_touches(tool, args)
        .into_iter()
        .filter_map(|(p, a)| {
            let win = windows || paths::is_windows(&p);
            let p = paths::normalize(&p, win)?;
            let full = if paths::is_absolute(&p) {
                p
            } else {
                match root {
                    Some(r) => paths::join(Some(r), &p)?,
                    None => p,
                }
            };
            Some((paths::relative_to(root, &full), a))
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// One `touches` row of a session, before its session number is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Touch {
    /// The path as stored (see [`call_rows`]).
    pub path: String,
    /// The tool call's event index in its session.
    pub index: u32,
    /// What the call did to the path.
    pub action: Action,
    /// The tool call's turn.
    pub turn: u32,
}

/// The touches of the tool calls among `events` of a session whose root is `cwd` as its log
/// wrote it, in the table's key order (so the writer's inserts stay near each other). Pure, so
/// that parser threads compute them and the single writer only writes.
pub fn extract(events: &[Event], cwd: Option<&str>) -> Vec<Touch> {
    let root = cwd.and_then(paths::root_form);
    let mut touches: Vec<Touch> = events
        .iter()
        .filter(|e| {
            e.kind == EventKind::ToolCall && e.index <= super::schema::MAX_EVENTS_PER_SESSION
        })
        .flat_map(|ev| {
            call_rows(ev.tool_name.as_deref(), &ev.text, root.as_deref())
                .into_iter()
                .map(|(path, action)| Touch {
                    path,
                    index: ev.index,
                    action,
                    turn: ev.turn,
                })
        })
        .collect();
    touches.sort_by(|a, b| (&a.path, a.index, a.action).cmp(&(&b.path, b.index, b.action)));
    touches
}

/// Writes `touches` ([`extract`]) as rows of session `sid`. Call in the transaction that
/// writes the events.
pub fn record(tx: &Transaction, sid: i64, touches: &[Touch]) -> Result<()> {
    let mut ins =
        tx.prepare_cached("INSERT INTO touches (path, eid, action, turn) VALUES (?1, ?2, ?3, ?4)")?;
    for t in touches {
        ins.execute(params![t.path, eid(sid, t.index), t.action.code(), t.turn])?;
    }
    Ok(())
}

/// Removes the touches of the events `lo..=hi` (a session's rows, being replaced).
pub fn unrecord(tx: &Transaction, lo: i64, hi: i64) -> Result<()> {
    tx.prepare_cached("DELETE FROM touches WHERE eid BETWEEN ?1 AND ?2")?
        .execute(params![lo, hi])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_relative_to_the_root_when_inside() {
        let root = Some("/Users/test_user/agent-sample");
        assert_eq!(
            call_rows(
                Some("Write"),
                r#"{"file_path":"/Users/test_user/agent-sample/myapp/hoge.py"}"#,
                root
            ),
            vec![("myapp/hoge.py".to_owned(), Action::Write)]
        );
        assert_eq!(
            call_rows(
                Some("shell_command"),
                r#"{"command":"python ../x/hoge.py","workdir":"/Users/test_user/agent-sample/myapp"}"#,
                root
            ),
            vec![("x/hoge.py".to_owned(), Action::Run)]
        );
        assert_eq!(
            call_rows(Some("Read"), r#"{"file_path":"/etc/hosts"}"#, root),
            vec![("/etc/hosts".to_owned(), Action::Read)]
        );
        assert_eq!(
            call_rows(Some("Read"), r#"{"file_path":"./a//b.rs"}"#, None),
            vec![("a/b.rs".to_owned(), Action::Read)]
        );
    }

    #[test]
    fn windows_roots_and_paths() {
        // tests/real_logs/claude/projects/e--Workspace-src-github-claude-code-log: cwd `e:\...`.
        let root = paths::root_form("e:\\Workspace\\src\\github\\claude-code-log");
        assert_eq!(
            root.as_deref(),
            Some("e:/Workspace/src/github/claude-code-log")
        );
        assert_eq!(
            call_rows(
                Some("Edit"),
                r#"{"file_path":"e:\\Workspace\\src\\github\\claude-code-log\\claude_code_log\\renderer.py"}"#,
                root.as_deref()
            ),
            vec![("claude_code_log/renderer.py".to_owned(), Action::Edit)]
        );
        assert_eq!(
            call_rows(
                Some("Read"),
                r#"{"file_path":"E:/Workspace/src/github/claude-code-log/README.md"}"#,
                root.as_deref()
            ),
            vec![("README.md".to_owned(), Action::Read)]
        );
    }

    #[test]
    fn codes_round_trip() {
        for a in Action::ALL {
            assert_eq!(Action::from_code(a.code()), Some(a));
        }
    }
}
