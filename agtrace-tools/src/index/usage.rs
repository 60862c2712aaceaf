//! Token usage per session, UTC day, model and prompt size class: what cost estimates over
//! many sessions read, without parsing their logs.
//!
//! Filled at ingest from the same events the session totals come from ([`UsageWalker`]), so a
//! session's rows sum to its `sessions.tok_*` columns; an appended file adds to its rows.

use std::collections::HashMap;

use rusqlite::{Connection, Transaction, params};

use crate::error::Result;
use crate::model::{Event, Provider, TokenAccumulator};
use crate::pricing::PromptClass;
use crate::pricing::attribution::{Delta, UsageWalker};

/// The `usage` table (schema 10). `day`: days since 1970-01-01 (UTC) of the request, or of the
/// session's start when the record has no time; `model`: '' when the log names none; `class`:
/// the request's [`PromptClass`].
pub const USAGE_SCHEMA: &str = r#"
CREATE TABLE IF NOT EXISTS usage (
    sid INTEGER NOT NULL,
    day INTEGER NOT NULL,
    model TEXT NOT NULL,
    class INTEGER NOT NULL,
    requests INTEGER NOT NULL,
    tok_input INTEGER NOT NULL,
    tok_cached INTEGER NOT NULL,
    tok_cache_creation INTEGER NOT NULL,
    tok_output INTEGER NOT NULL,
    tok_reasoning INTEGER NOT NULL,
    PRIMARY KEY (sid, day, model, class)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS usage_by_day ON usage(day, sid);
"#;

const DAY_MS: i64 = 86_400_000;

/// Usage of one (day, model, prompt class) of a session.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct UsageRow {
    /// Days since 1970-01-01, UTC.
    pub day: i64,
    /// The model, `None` when the log names none.
    pub model: Option<String>,
    /// Prompt size class of the requests.
    pub class: PromptClass,
    /// Requests counted.
    pub requests: u32,
    /// Their tokens.
    pub tokens: Delta,
}

type Key = (i64, String, PromptClass);

/// A session's usage summed by [`collect`]: requests and tokens per (day, model, class).
pub(crate) type Parts = HashMap<Key, (u32, Delta)>;

/// Sums what `events` add to a session's usage, continuing from `base` (the accumulator of
/// the events indexed before them, for an append).
pub(crate) fn collect(
    events: &[Event],
    base: Option<&TokenAccumulator>,
    start_ms: Option<i64>,
) -> Parts {
    let mut walker = base.map_or_else(UsageWalker::default, |b| UsageWalker::resume(b.clone()));
    let mut out = Parts::new();
    for ev in events {
        let Some(c) = walker.count(ev) else { continue };
        let ms = ev
            .timestamp
            .map(|t| t.timestamp_millis())
            .or(start_ms)
            .unwrap_or(0);
        let key = (
            ms.div_euclid(DAY_MS),
            ev.model.clone().unwrap_or_default(),
            c.class,
        );
        let slot = out.entry(key).or_default();
        slot.0 += u32::from(c.new_request);
        slot.1.add(&c.delta);
    }
    out
}

/// Writes the usage of session `sid`: adds `parts` to its rows when `appended`, else they
/// replace them. Avoids upserts (see the note in `ingest::apply`): reads, deletes, inserts.
pub(crate) fn write(tx: &Transaction, sid: i64, mut parts: Parts, appended: bool) -> Result<()> {
    if appended {
        if parts.is_empty() {
            return Ok(());
        }
        for row in session_rows(tx, sid)? {
            let slot = parts
                .entry((row.day, row.model.unwrap_or_default(), row.class))
                .or_default();
            slot.0 += row.requests;
            slot.1.add(&row.tokens);
        }
    }
    delete(tx, sid)?;
    let mut ins = tx.prepare_cached(
        "INSERT INTO usage (sid, day, model, class, requests, tok_input, tok_cached, tok_cache_creation, tok_output, tok_reasoning)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )?;
    for ((day, model, class), (requests, d)) in parts {
        ins.execute(params![
            sid,
            day,
            model,
            class,
            requests,
            d.input,
            d.cached_input,
            d.cache_creation_input,
            d.output,
            d.reasoning_output
        ])?;
    }
    Ok(())
}

/// Removes the usage rows of session `sid`.
pub(crate) fn delete(tx: &Connection, sid: i64) -> Result<()> {
    tx.prepare_cached("DELETE FROM usage WHERE sid = ?1")?
        .execute([sid])?;
    Ok(())
}

fn row(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<UsageRow> {
    let model: String = r.get(at + 1)?;
    Ok(UsageRow {
        day: r.get(at)?,
        model: (!model.is_empty()).then_some(model),
        class: r.get(at + 2)?,
        requests: r.get(at + 3)?,
        tokens: Delta {
            input: r.get(at + 4)?,
            cached_input: r.get(at + 5)?,
            cache_creation_input: r.get(at + 6)?,
            output: r.get(at + 7)?,
            reasoning_output: r.get(at + 8)?,
        },
    })
}

const ROW_COLS: &str = "u.day, u.model, u.class, u.requests, u.tok_input, u.tok_cached, u.tok_cache_creation, u.tok_output, u.tok_reasoning";

fn session_rows(conn: &Connection, sid: i64) -> Result<Vec<UsageRow>> {
    let mut st =
        conn.prepare_cached(&format!("SELECT {ROW_COLS} FROM usage u WHERE u.sid = ?1"))?;
    Ok(st
        .query_map([sid], |r| row(r, 0))?
        .collect::<rusqlite::Result<_>>()?)
}

/// The usage rows of every session below session `id` (its sub-agents, theirs, and so on),
/// per sub-agent session id, in order of start.
pub(crate) fn descendants(conn: &Connection, id: &str) -> Result<Vec<(String, Vec<UsageRow>)>> {
    let mut st = conn.prepare_cached(&format!(
        "WITH RECURSIVE tree(id, depth) AS (
             SELECT id, 1 FROM sessions WHERE parent_id = ?1 AND is_subagent = 1
             UNION SELECT s.id, t.depth + 1 FROM sessions s JOIN tree t ON s.parent_id = t.id
                 WHERE s.is_subagent = 1 AND t.depth < 16
         )
         SELECT s.id, {ROW_COLS} FROM tree t JOIN sessions s ON s.id = t.id
         LEFT JOIN usage u ON u.sid = s.sid
         ORDER BY s.start_ms, s.id"
    ))?;
    let mut out: Vec<(String, Vec<UsageRow>)> = Vec::new();
    let mut rows = st.query([id])?;
    while let Some(r) = rows.next()? {
        let sub: String = r.get(0)?;
        if out.last().is_none_or(|(last, _)| *last != sub) {
            out.push((sub, Vec::new()));
        }
        // A sub-agent without usage rows still appears, with none.
        if r.get::<_, Option<i64>>(1)?.is_some()
            && let Some((_, v)) = out.last_mut()
        {
            v.push(row(r, 1)?);
        }
    }
    Ok(out)
}

/// Which sessions and days [`TraceStore::usage`](crate::store::TraceStore::usage) sums.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UsageFilter {
    /// Project root or hash.
    pub project: Option<String>,
    /// Only sessions of this agent.
    pub provider: Option<Provider>,
    /// First day (days since 1970-01-01, UTC), inclusive.
    pub since_day: Option<i64>,
    /// Last day, inclusive.
    pub until_day: Option<i64>,
}

/// What [`TraceStore::usage`](crate::store::TraceStore::usage) sums by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UsageGrouping {
    /// Per model.
    Model,
    /// Per UTC day.
    Day,
    /// Per top-level session: a sub-agent's usage counts with the session that spawned it.
    Session,
}

/// Usage summed per group key (a model, a day number, or a session id, as text), model and
/// prompt class.
pub(crate) fn grouped(
    conn: &Connection,
    f: &UsageFilter,
    by: UsageGrouping,
) -> Result<Vec<(String, UsageRow)>> {
    let key = match by {
        UsageGrouping::Model => "u.model",
        UsageGrouping::Day => "CAST(u.day AS TEXT)",
        // A fork is a session of its own; a sub-agent rolls up under its parent.
        UsageGrouping::Session => {
            "CASE WHEN s.is_subagent = 1 THEN coalesce(s.parent_id, s.id) ELSE s.id END"
        }
    };
    let mut sql = format!(
        "SELECT {key}, min(u.day), u.model, u.class, sum(u.requests), sum(u.tok_input), sum(u.tok_cached),
                sum(u.tok_cache_creation), sum(u.tok_output), sum(u.tok_reasoning)
         FROM usage u JOIN sessions s ON s.sid = u.sid WHERE 1=1"
    );
    let mut args: Vec<rusqlite::types::Value> = Vec::new();
    if let Some(p) = &f.project {
        sql.push_str(" AND s.project_hash = ?");
        args.push(super::project_key(p).into());
    }
    if let Some(p) = f.provider {
        sql.push_str(" AND s.provider = ?");
        args.push(p.code().into());
    }
    if let Some(d) = f.since_day {
        sql.push_str(" AND u.day >= ?");
        args.push(d.into());
    }
    if let Some(d) = f.until_day {
        sql.push_str(" AND u.day <= ?");
        args.push(d.into());
    }
    sql.push_str(" GROUP BY 1, u.model, u.class");
    let mut st = conn.prepare(&sql)?;
    let rows = st.query_map(rusqlite::params_from_iter(args), |r| {
        Ok((r.get::<_, String>(0)?, row(r, 1)?))
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Days since 1970-01-01 (UTC) of Unix time `ms`.
pub fn day_of_ms(ms: i64) -> i64 {
    ms.div_euclid(DAY_MS)
}
