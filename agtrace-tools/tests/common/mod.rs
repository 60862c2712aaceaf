//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use agtrace_tools::config::Config;
use agtrace_tools::store::TraceStore;

pub fn samples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples")
}

pub fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Every file under `dir`, at any depth, sorted.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p)
            } else {
                out.push(p)
            }
        }
    }
    out.sort();
    out
}

/// A copy of the bundled samples in a temp dir (`logs`), and a data dir beside it (`data`,
/// made by whatever opens it first).
pub struct SampleTree {
    pub dir: tempfile::TempDir,
    pub logs: PathBuf,
    pub data: PathBuf,
}

impl SampleTree {
    pub fn copy() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let logs = dir.path().join("logs");
        std::fs::create_dir_all(&logs).unwrap();
        copy_tree(&samples(), &logs);
        let data = dir.path().join("data");
        SampleTree { dir, logs, data }
    }

    /// Every file under the log roots with its bytes and modification time: equal before and
    /// after shows the roots were never written.
    pub fn snapshot(&self) -> BTreeMap<PathBuf, (Vec<u8>, SystemTime)> {
        let mut files = BTreeMap::new();
        let mut stack = vec![self.logs.clone()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else {
                    let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
                    files.insert(path.clone(), (std::fs::read(&path).unwrap(), modified));
                }
            }
        }
        files
    }
}

/// A copy of the bundled samples in a temp dir, and a store whose index lives beside it.
pub fn sample_store(tmp: &Path) -> (PathBuf, TraceStore) {
    let logs = tmp.join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    copy_tree(&samples(), &logs);
    // The samples cover some agents only: the others' roots exist, empty, so none is missing.
    for p in agtrace_tools::model::Provider::ALL {
        std::fs::create_dir_all(logs.join(p.spec().tree_root)).unwrap();
    }
    let store = TraceStore::open(Config::for_tree(&logs, &tmp.join("data"))).unwrap();
    (logs, store)
}

/// Everything the index holds, independent of row numbering, for comparing two indexes.
pub fn dump(data_dir: &Path) -> Vec<String> {
    let conn = rusqlite::Connection::open(data_dir.join("index.sqlite")).unwrap();
    agtrace_tools::index::fts_tokens::register(&conn).unwrap();
    let mut out = Vec::new();
    let mut st = conn
        .prepare(
            "SELECT id, provider, project_hash, parent_id, is_subagent, start_ms, end_ms, model, event_count, turn_count,
                prompt_count, tool_calls, tool_errors, malformed, tok_input, tok_cached, tok_cache_creation, tok_output,
                tok_reasoning, tok_total, first_prompt, path FROM sessions ORDER BY id",
        )
        .unwrap();
    let n = st.column_count();
    let rows = st
        .query_map([], |r| {
            Ok((0..n)
                .map(|i| format!("{:?}", r.get_ref(i).unwrap()))
                .collect::<Vec<_>>()
                .join("|"))
        })
        .unwrap();
    out.extend(rows.map(Result::unwrap));
    let mut st = conn
        .prepare(
            "SELECT s.id, e.eid & 16777215, e.kind, e.turn, e.step, e.ts_ms, e.tool_name, e.call_id, e.is_error,
                e.src_off, e.src_len, e.text, (SELECT count(*) FROM events_fts f WHERE f.rowid = e.eid)
             FROM events e JOIN sessions s ON s.sid = e.eid >> 24 ORDER BY s.id, e.eid",
        )
        .unwrap();
    let n = st.column_count();
    let rows = st
        .query_map([], |r| {
            Ok((0..n)
                .map(|i| format!("{:?}", r.get_ref(i).unwrap()))
                .collect::<Vec<_>>()
                .join("|"))
        })
        .unwrap();
    out.extend(rows.map(Result::unwrap));
    // File history rows (schema 10), by session id and event index like the events.
    let mut st = conn
        .prepare(
            "SELECT s.id, t.eid & 16777215, t.path, t.action, t.turn
             FROM touches t JOIN sessions s ON s.sid = t.eid >> 24 ORDER BY s.id, t.eid, t.path, t.action",
        )
        .unwrap();
    out.extend(
        st.query_map([], |r| {
            Ok(format!(
                "touch {:?} {:?} {:?} {:?} {:?}",
                r.get_ref(0)?,
                r.get_ref(1)?,
                r.get_ref(2)?,
                r.get_ref(3)?,
                r.get_ref(4)?
            ))
        })
        .unwrap()
        .map(Result::unwrap),
    );
    let orphans: i64 = conn
        .query_row(
            "SELECT count(*) FROM events_fts f WHERE f.rowid NOT IN (SELECT eid FROM events)",
            [],
            |r| r.get(0),
        )
        .unwrap();
    out.push(format!("orphan fts rows: {orphans}"));
    let mut st = conn
        .prepare("SELECT hash, root FROM projects ORDER BY hash")
        .unwrap();
    out.extend(
        st.query_map([], |r| {
            Ok(format!("project {:?} {:?}", r.get_ref(0)?, r.get_ref(1)?))
        })
        .unwrap()
        .map(Result::unwrap),
    );
    // Token usage per day, model and prompt class (costs): sums independent of row numbering.
    let mut st = conn
        .prepare(
            "SELECT s.id, u.day, u.model, u.class, u.requests, u.tok_input, u.tok_cached,
                u.tok_cache_creation, u.tok_output, u.tok_reasoning
             FROM usage u JOIN sessions s ON s.sid = u.sid ORDER BY s.id, u.day, u.model, u.class",
        )
        .unwrap();
    let n = st.column_count();
    out.extend(
        st.query_map([], |r| {
            Ok((0..n)
                .map(|i| format!("{:?}", r.get_ref(i).unwrap()))
                .collect::<Vec<_>>()
                .join("|"))
        })
        .unwrap()
        .map(Result::unwrap),
    );
    let orphans: i64 = conn
        .query_row(
            "SELECT count(*) FROM usage WHERE sid NOT IN (SELECT sid FROM sessions)",
            [],
            |r| r.get(0),
        )
        .unwrap();
    out.push(format!("orphan usage rows: {orphans}"));
    out
}

/// A phrase query of the first words of `prompt` (at most 8, letters and digits only).
pub fn phrase(prompt: &str) -> String {
    let words: Vec<&str> = prompt
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(8)
        .collect();
    format!("\"{}\"", words.join(" "))
}

/// A temp tree holding one log, written by the test, with the index's data dir beside it.
pub struct OneLogTree {
    _tmp: tempfile::TempDir,
    pub logs: PathBuf,
    pub data: PathBuf,
    /// The log `write` made.
    pub log: PathBuf,
}

impl OneLogTree {
    /// `write` puts the log under the logs folder it is given and returns its path.
    pub fn new(write: impl FnOnce(&Path) -> PathBuf) -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let logs = tmp.path().join("logs");
        let log = write(&logs);
        let data = tmp.path().join("data");
        OneLogTree {
            _tmp: tmp,
            logs,
            data,
            log,
        }
    }

    /// A store of the tree, refreshed, with these settings.
    pub fn store(&self, show_secrets: bool, archive: bool) -> TraceStore {
        let mut cfg = Config::for_tree(&self.logs, &self.data);
        cfg.show_secrets = show_secrets;
        cfg.archive = archive;
        let store = TraceStore::open(cfg).unwrap();
        store.refresh().unwrap();
        store
    }
}
