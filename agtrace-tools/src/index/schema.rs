//! The index schema and its versioning.
//!
//! Event rows use `eid = sid << 24 | event_index` as their rowid: one event lookup is a
//! primary-key probe, a session's events are one rowid range (which FTS5 can restrict to), and
//! ordering hits by rowid orders them by session then event without another index.

use rusqlite::{Connection, OptionalExtension};

use super::search_syntax::cjk_words;
use super::stored_text::StoredText;
use crate::error::Result;

/// Bump on any change to the tables or to what the parsers produce: an index with another
/// version is dropped and rebuilt rather than misread. A new table no earlier version reads
/// goes in [`ADDED_TABLES`] instead: nothing can misread it, and agtrace versions on either
/// side of it keep sharing the index instead of rebuilding it in turn.
pub const SCHEMA_VERSION: i64 = 14;

/// Tables added since [`SCHEMA_VERSION`] was last bumped, created where missing.
///
/// `skipped_files`: what the last indexing run did not index and why (`discover::SkipReason`
/// names), each path named relative to its log root; replaced whole by every run.
/// `archive`: the archived copies of logs ([`super::archive::TABLE`]).
/// `meta`: what the index holds of secrets ([`super::masking::TABLE`]).
/// `files_stamps`: every column of `files` but the parse state, so that a walk of the roots
/// reads what it compares each log with from an index of 200 bytes a row instead of the table's
/// 2 KB rows, which are mostly parse state (82 pages against 751 for 6,000 sessions; the first
/// refresh of a server reads them all).
const ADDED_TABLES: &str = r#"
CREATE TABLE IF NOT EXISTS skipped_files (
    path TEXT NOT NULL,
    reason TEXT NOT NULL,
    PRIMARY KEY (path, reason)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS files_stamps
    ON files(path, size, mtime_ns, parsed_offset, head_hash, sid, tail_hash, ino, ctime_ns);
"#;

/// How many tables (and indexes) [`ADDED_TABLES`], [`super::archive::TABLE`] and
/// [`super::masking::TABLE`] create.
const ADDED_TABLE_COUNT: i64 = 4;

/// The oldest version [`ensure`] migrates in place: version 8 only added the `files`
/// fingerprint columns (a row whose `tail_hash` is NULL is simply re-parsed from the start), and
/// version 9 only added the CJK trigram table, filled from the stored event texts, and version
/// 10 only added tables filled by re-parsing (`touches`, `usage`) and changed what the parsers
/// produce, and version 11 only declared `events_fts` with another tokenizer that makes the
/// same tokens ([`super::fts_tokens`]) and `events_cjk` without row sizes, both refilled from
/// the stored texts, and version 12 only stores long event texts compressed
/// ([`super::stored_text`]), which reads the plain texts earlier versions wrote as they are,
/// and version 13 only leaves out the long texts their log line gives back
/// ([`super::line_text`]), which reads the texts earlier versions stored as they are, and
/// version 14 only records those texts by an XXH3 digest instead of SHA-256
/// ([`super::stored_text`]), reading the records of version 13 as they are.
const MIGRATABLE_VERSION: i64 = 7;

// ---- Version 10: file history (`touches`, filled by `index::touches::record`). ----

/// Version 10 added the `touches` table, filled from the parsed tool calls: migrating from 9
/// creates it and makes the next refresh re-parse each file once (see [`ensure`]).
const V10_TOUCHES: &str = super::touches::SCHEMA;

// ---- end of version 10 ----

const MIGRATE_7_TO_8: &str = r#"
ALTER TABLE files ADD COLUMN tail_hash TEXT;
ALTER TABLE files ADD COLUMN ino INTEGER NOT NULL DEFAULT 0;
ALTER TABLE files ADD COLUMN ctime_ns INTEGER NOT NULL DEFAULT 0;
"#;

/// Search inside unspaced Chinese, Japanese and Korean text: `unicode61` keeps a whole run of
/// such characters as one token, so `events_cjk` indexes the CJK-bearing words of each event
/// ([`cjk_words`]) by trigrams. Only those words: indexing every text by trigrams would triple
/// the index. The indexer writes it beside `events_fts` ([`insert_cjk_words`], [`unindex_cjk`]); not by
/// a trigger on `events`, which would give every event insert a statement journal and so make
/// FTS5 flush its pending terms at each one (measured: a 3–4x slower build). `search` reads it
/// only for queries with CJK characters. Normal (not contentless) so that 1–2 character words,
/// which trigrams cannot match, can be found by a scan of its stored words.
///
/// `columnsize=0`: no row sizes are kept (nothing ranks its matches), one b-tree insert less per
/// event with CJK text.
const CJK: &str = "CREATE VIRTUAL TABLE IF NOT EXISTS events_cjk USING fts5(text, tokenize = 'trigram', columnsize = 0);";

/// Adds the CJK-bearing words of event `eid`'s text to `events_cjk`; a text without any adds
/// nothing. Call inside the write transaction that inserts the event.
fn index_cjk(conn: &Connection, eid: i64, text: &str) -> Result<()> {
    match cjk_words(text) {
        Some(words) => insert_cjk_words(conn, eid, &words),
        None => Ok(()),
    }
}

/// Adds `words` (what [`cjk_words`] made of event `eid`'s text, computed ahead by a parser
/// thread) to `events_cjk`.
pub fn insert_cjk_words(conn: &Connection, eid: i64, words: &str) -> Result<()> {
    conn.prepare_cached("INSERT INTO events_cjk(rowid, text) VALUES (?1, ?2)")?
        .execute(rusqlite::params![eid, words])?;
    Ok(())
}

/// Removes the `events_cjk` rows of the events `lo..=hi` (a session's rows, being replaced).
pub fn unindex_cjk(conn: &Connection, lo: i64, hi: i64) -> Result<()> {
    conn.prepare_cached("DELETE FROM events_cjk WHERE rowid BETWEEN ?1 AND ?2")?
        .execute(rusqlite::params![lo, hi])?;
    Ok(())
}

/// Fills `events_cjk` from the events already indexed (migration from version 8 or 10, whose
/// rows all hold their texts).
fn backfill_cjk(conn: &Connection) -> Result<()> {
    conn.execute("DELETE FROM events_cjk", [])?;
    let mut st = conn.prepare("SELECT eid, text FROM events")?;
    let mut rows = st.query([])?;
    while let Some(row) = rows.next()? {
        if let Some(text) = row.get::<_, StoredText>(1)?.kept() {
            index_cjk(conn, row.get(0)?, &text)?;
        }
    }
    Ok(())
}

pub const EVENT_BITS: u32 = 24;
pub const MAX_EVENTS_PER_SESSION: u32 = (1 << EVENT_BITS) - 1;

pub fn eid(sid: i64, index: u32) -> i64 {
    (sid << EVENT_BITS) | i64::from(index)
}

pub fn eid_range(sid: i64) -> (i64, i64) {
    (sid << EVENT_BITS, ((sid + 1) << EVENT_BITS) - 1)
}

pub fn split_eid(eid: i64) -> (i64, u32) {
    (
        eid >> EVENT_BITS,
        (eid & i64::from(MAX_EVENTS_PER_SESSION)) as u32,
    )
}

const CREATE: &str = r#"
CREATE TABLE projects (
    hash TEXT PRIMARY KEY,
    root TEXT
);
CREATE TABLE sessions (
    sid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    provider INTEGER NOT NULL,
    project_hash TEXT,
    parent_id TEXT,
    is_subagent INTEGER NOT NULL,
    start_ms INTEGER NOT NULL,
    end_ms INTEGER,
    model TEXT,
    event_count INTEGER NOT NULL,
    turn_count INTEGER NOT NULL,
    prompt_count INTEGER NOT NULL,
    tool_calls INTEGER NOT NULL,
    tool_errors INTEGER NOT NULL,
    malformed INTEGER NOT NULL,
    tok_input INTEGER NOT NULL,
    tok_cached INTEGER NOT NULL,
    tok_cache_creation INTEGER NOT NULL,
    tok_output INTEGER NOT NULL,
    tok_reasoning INTEGER NOT NULL,
    tok_total INTEGER NOT NULL,
    first_prompt TEXT,
    spawn_ms TEXT NOT NULL,
    path TEXT NOT NULL
);
CREATE INDEX sessions_by_start ON sessions(start_ms DESC, sid DESC);
CREATE INDEX sessions_by_project ON sessions(project_hash, start_ms DESC);
CREATE INDEX sessions_by_parent ON sessions(parent_id) WHERE parent_id IS NOT NULL;
-- Covers the per-project counts of get_project_info: no table row is read.
CREATE INDEX sessions_by_project_activity ON sessions(project_hash, provider, start_ms, end_ms);
-- tail_hash: hash of the indexed prefix (all of it up to 128 KB, else its last 64 KB); NULL in
-- rows migrated from version 7, which makes the next run re-parse that file. ino, ctime_ns:
-- inode and ctime (Unix; 0 elsewhere, or when the file changed too recently to trust).
CREATE TABLE files (
    path TEXT PRIMARY KEY,
    provider INTEGER NOT NULL,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    parsed_offset INTEGER NOT NULL,
    head_hash TEXT NOT NULL,
    sid INTEGER NOT NULL,
    state TEXT NOT NULL,
    tail_hash TEXT,
    ino INTEGER NOT NULL DEFAULT 0,
    ctime_ns INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE events (
    eid INTEGER PRIMARY KEY,
    kind INTEGER NOT NULL,
    turn INTEGER NOT NULL,
    step INTEGER,
    ts_ms INTEGER,
    tool_name TEXT,
    call_id TEXT,
    is_error INTEGER NOT NULL,
    src_off INTEGER,
    src_len INTEGER,
    text TEXT NOT NULL
);
"#;

/// The word index. Contentless: the texts are stored once, in `events`. Its tokenizer
/// takes documents as `unicode61 remove_diacritics 2` tokens made ahead by the parser threads
/// and hands queries to that same tokenizer ([`super::fts_tokens`]).
const WORDS: &str = r#"
CREATE VIRTUAL TABLE events_fts USING fts5(
    text, tags,
    content = '', contentless_delete = 1,
    tokenize = 'agtrace_tokens'
);
-- Fewer, larger merges: bulk indexing spends most of its time merging FTS segments.
INSERT INTO events_fts(events_fts, rank) VALUES('automerge', 16);
"#;

/// Fills `events_fts` from the events already indexed (migration from version 10, whose rows
/// all hold their texts).
fn refill_words(conn: &Connection) -> Result<()> {
    let mut tokens = super::fts_tokens::Unicode61::new()?;
    let mut st = conn.prepare(
        "SELECT e.eid, e.text, e.kind, s.provider FROM events e JOIN sessions s ON s.sid = e.eid >> 24
         WHERE e.text != ''",
    )?;
    let mut ins = conn.prepare("INSERT INTO events_fts (rowid, text, tags) VALUES (?1, ?2, ?3)")?;
    let mut rows = st.query([])?;
    while let Some(row) = rows.next()? {
        let (Some(kind), Some(provider)) = (
            crate::model::EventKind::from_code(row.get(2)?),
            crate::model::Provider::from_code(row.get(3)?),
        ) else {
            continue;
        };
        let Some(text) = row.get::<_, StoredText>(1)?.kept() else {
            continue;
        };
        let words = tokens.tokens(&text);
        let eid: i64 = row.get(0)?;
        ins.execute(rusqlite::params![
            eid,
            words,
            super::ingest::tags(provider, kind)
        ])?;
    }
    Ok(())
}

/// Pending full-text terms FTS5 may hold in memory before writing a segment, for a large run
/// (the FTS5 default, 1 MB, otherwise). The indexer's transactions (`ingest::BATCH_BYTES` of
/// text) stay below it, so a bulk build writes one segment per transaction instead of one per
/// megabyte. Small runs keep 1 MB: measured, a 256 MB setting made a 200-file incremental update
/// 8x slower (2.7 s instead of 0.3 s).
pub const FTS_BULK_HASH_BYTES: i64 = 256 << 20;
pub const FTS_HASH_BYTES: i64 = 1 << 20;

/// Sets the FTS5 settings for a bulk or a small run. They are stored in the index, so this
/// writes only when they differ. Call inside a write transaction.
pub fn tune_fts(conn: &Connection, bulk: bool) -> Result<()> {
    let want = if bulk {
        FTS_BULK_HASH_BYTES
    } else {
        FTS_HASH_BYTES
    };
    // Both full-text tables: the CJK one gets a segment per megabyte of its terms otherwise.
    for table in ["events_fts", "events_cjk"] {
        let current: Option<i64> = conn
            .query_row(
                &format!("SELECT v FROM {table}_config WHERE k = 'hashsize'"),
                [],
                |r| r.get(0),
            )
            .optional()?;
        if current.unwrap_or(FTS_HASH_BYTES) != want {
            conn.execute(
                &format!("INSERT INTO {table}({table}, rank) VALUES('hashsize', ?1)"),
                [want],
            )?;
        }
    }
    Ok(())
}

/// The page size of a new index file.
const PAGE_BYTES: i64 = 16 << 10;

/// Opens a connection with the settings every user of the index needs.
pub fn open(path: &std::path::Path) -> Result<Connection> {
    let conn = Connection::open(path)?;
    super::fts_tokens::register(&conn)?;
    // Takes effect only on a new, empty file (an existing index keeps its page size). Event
    // texts are long, so larger pages mean fewer overflow pages and WAL frames: on the 1.2 GB
    // bench corpus a full build took 19.8 s with 16 KB pages against 21.6 s with 4 KB (commits
    // 4.9 s against 6.9 s), while the cheapest searches went from 0.15 to 0.5 ms (32 KB pages:
    // 17.4 s, but a phrase search 2.9 to 6.5 ms). See agtrace-tools/docs/benchmarks.md,
    // "Index build".
    conn.pragma_update(None, "page_size", PAGE_BYTES)?;
    conn.busy_timeout(std::time::Duration::from_secs(60))?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "foreign_keys", "OFF")?;
    Ok(conn)
}

/// How long opening waits for other processes that are creating or rebuilding the index.
const OPEN_PATIENCE: std::time::Duration = std::time::Duration::from_secs(60);

/// [`open`] then [`ensure`]: a connection to an index of the current schema.
///
/// Several processes may open a new index at once. Two connections that both switch a new file
/// to WAL would deadlock, so SQLite answers one of them `SQLITE_BUSY` without calling the busy
/// handler; the whole step is then retried, with a growing pause, for up to [`OPEN_PATIENCE`].
pub fn open_ready(path: &std::path::Path) -> Result<Connection> {
    let deadline = std::time::Instant::now() + OPEN_PATIENCE;
    let mut pause = std::time::Duration::from_millis(2);
    loop {
        let attempt = open(path).and_then(|mut conn| ensure(&mut conn).map(|()| conn));
        match attempt {
            Err(crate::error::Error::Db(e))
                if is_busy(&e) && std::time::Instant::now() < deadline =>
            {
                std::thread::sleep(pause);
                pause = (pause * 2).min(std::time::Duration::from_millis(100));
            }
            other => return other,
        }
    }
}

fn is_busy(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
    )
}

/// Creates the schema, migrates an index of the previous version in place, or drops an index of
/// any other version and creates it anew.
pub fn ensure(conn: &mut Connection) -> Result<()> {
    let current: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if current == SCHEMA_VERSION {
        let present: i64 = conn.query_row(
            "SELECT count(*) FROM sqlite_master WHERE name IN ('skipped_files', 'files_stamps', 'archive', 'meta')",
            [],
            |r| r.get(0),
        )?;
        if present < ADDED_TABLE_COUNT {
            conn.execute_batch(ADDED_TABLES)?;
            conn.execute_batch(super::archive::TABLE)?;
            conn.execute_batch(super::masking::TABLE)?;
        }
        return Ok(());
    }
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    // Another process may have rebuilt it while we waited for the lock.
    let mut current: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if current == MIGRATABLE_VERSION {
        tx.execute_batch(MIGRATE_7_TO_8)?;
        current = 8;
    }
    if current == 8 {
        // Version 9 added `events_cjk`, created and filled below (as version 11 declares it).
        current = 9;
    }
    if current == 9 {
        // Version 10 adds `touches` and `usage`, filled at parse time, and corrects what the parsers make of
        // today's logs (issue 14: Claude inline sidechain texts are no prompts, 2.1.x sub-agents
        // take their folder's session as parent, a Codex rollout is named by its first
        // `session_meta`, a fork skips the history it copied, Codex cache writes are read):
        // nothing proves a row current any more, so the next refresh re-parses each file once,
        // as after the 7 to 8 migration, while the kept sessions answer.
        tx.execute_batch(V10_TOUCHES)?;
        tx.execute_batch(super::usage::USAGE_SCHEMA)?;
        tx.execute_batch("UPDATE files SET tail_hash = NULL, ino = 0, ctime_ns = 0")?;
        current = 10;
    }
    if current == 10 {
        tx.execute_batch("DROP TABLE events_fts; DROP TABLE IF EXISTS events_cjk")?;
        tx.execute_batch(WORDS)?;
        refill_words(&tx)?;
        tx.execute_batch(CJK)?;
        backfill_cjk(&tx)?;
        current = 11;
    }
    if (11..=13).contains(&current) {
        // Version 12 writes long event texts compressed, version 13 leaves out those their
        // log line gives back, and version 14 records those by another digest; the texts and
        // records already there read as they are, and an earlier agtrace, which would misread
        // the new rows, rebuilds.
        tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
    } else if current != SCHEMA_VERSION {
        let mut names: Vec<(String, String)> = {
            let mut st = tx.prepare("SELECT type, name FROM sqlite_master WHERE type IN ('table','view') AND name NOT LIKE 'sqlite_%'")?;
            st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<rusqlite::Result<_>>()?
        };
        // Virtual tables own shadow tables: drop them first, then whatever is left.
        names.sort_by_key(|(_, n)| {
            !tx.query_row(
                "SELECT sql LIKE 'CREATE VIRTUAL%' FROM sqlite_master WHERE name = ?1",
                [n],
                |r| r.get::<_, bool>(0),
            )
            .unwrap_or(false)
        });
        for (ty, name) in names {
            let exists: bool = tx.query_row(
                "SELECT count(*) > 0 FROM sqlite_master WHERE name = ?1",
                [&name],
                |r| r.get(0),
            )?;
            if exists {
                let what = if ty == "view" { "VIEW" } else { "TABLE" };
                tx.execute_batch(&format!(
                    "DROP {what} IF EXISTS \"{}\"",
                    name.replace('"', "\"\"")
                ))?;
            }
        }
        tx.execute_batch(CREATE)?;
        tx.execute_batch(WORDS)?;
        tx.execute_batch(CJK)?;
        tx.execute_batch(V10_TOUCHES)?;
        tx.execute_batch(super::usage::USAGE_SCHEMA)?;
        tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
    }
    tx.execute_batch(ADDED_TABLES)?;
    tx.execute_batch(super::archive::TABLE)?;
    tx.execute_batch(super::masking::TABLE)?;
    tx.commit()?;
    Ok(())
}
