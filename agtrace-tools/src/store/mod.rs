//! [`TraceStore`]: what the trace tools call.
//!
//! Methods are blocking (SQLite and file reads, milliseconds each); from async code call them
//! through `tokio::task::spawn_blocking` or accept the short block. Reads use pooled
//! connections and never wait for an indexer: the index is in WAL mode, so a reader sees the
//! last committed state while a write is in progress.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;
use std::sync::{Arc, Mutex};

use rusqlite::Connection;

use crate::config::Config;
use crate::error::{Error, Result};
use crate::fresh::Freshness;
use crate::index::archive;
use crate::index::masking::Choice;
use crate::index::query::{self, EventRow};
use crate::index::stored_text::StoredText;
use crate::index::usage::{self, UsageFilter, UsageGrouping, UsageRow};
use crate::index::{
    IndexStats, Progress, ProjectInfo, Scope, SearchPage, SearchQuery, SessionCursor,
    SessionFilter, SessionPage, SessionSummary, ingest, schema,
};
use crate::model::{Event, EventKind, RESULT_TEXT_KEPT, TokenAccumulator, assemble, ts_from_ms};
use crate::providers::{self, FileHint, Layout, ParseState};
use crate::secrets;
use cache::{FileStamp, SessionCache};
use interrupt::{EVENT_STRIDE, Interrupt, Keep};

mod cache;
mod detail;
mod interrupt;
mod mapped_log;
mod private;
pub mod signing_key;

pub use detail::{EventDetail, SessionDetail};
pub use mapped_log::guard as map_logs;

struct Inner {
    config: Config,
    pool: Mutex<Vec<Connection>>,
    sessions: SessionCache,
    /// Whether the data dir and the index are set up ([`TraceStore::open_deferred`]).
    prepared: Mutex<bool>,
}

/// Shared handle on the index and the log roots. Cheap to clone.
#[derive(Clone)]
pub struct TraceStore {
    inner: Arc<Inner>,
    /// Set on the handle of one call that its caller may give up on; see
    /// [`TraceStore::interruptible`].
    interrupt: Option<Interrupt>,
    /// The gate a served store's calls wait on ([`TraceStore::wait_fresh`]).
    fresh: Option<Arc<Freshness>>,
}

impl std::fmt::Debug for TraceStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TraceStore")
            .field("config", &self.inner.config)
            .finish()
    }
}

const POOL_MAX: usize = 8;

impl TraceStore {
    /// Opens (creating or rebuilding if its schema is old) the index in `config.data_dir`.
    /// Does not index: call [`TraceStore::refresh`]; except that an index built with the other
    /// [`Config::show_secrets`] choice is rebuilt from the logs here, before anything reads it.
    ///
    /// On Unix the data dir is made mode 0700 and the index files 0600, whatever the umask;
    /// an existing data dir and index files readable by others are tightened.
    pub fn open(config: Config) -> Result<Self> {
        let store = Self::open_deferred(config)?;
        store.prepare()?;
        Ok(store)
    }

    /// [`TraceStore::open`] that makes the data dir but leaves the index unopened: it is
    /// opened (created, migrated) by the first refresh or query, so that a server answers
    /// before SQLite has run at all.
    pub fn open_deferred(config: Config) -> Result<Self> {
        config.validate()?;
        private::prepare_data_dir(&config.data_dir, &config.index_path())?;
        let sessions = SessionCache::new(config.session_cache_bytes);
        Ok(TraceStore {
            inner: Arc::new(Inner {
                config,
                pool: Mutex::new(Vec::new()),
                sessions,
                prepared: Mutex::new(false),
            }),
            interrupt: None,
            fresh: None,
        })
    }

    /// Opens the index now (creating, migrating or rebuilding it), unless done already: the
    /// work the first refresh or query of a [`TraceStore::open_deferred`] store would do.
    pub fn open_index(&self) -> Result<()> {
        self.prepare().map_err(|e| self.private(e))
    }

    /// Creates (or migrates, or rebuilds) the index once.
    fn prepare(&self) -> Result<()> {
        let mut prepared = self
            .inner
            .prepared
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        if !*prepared {
            let config = &self.inner.config;
            let conn = schema::open_ready(&config.index_path())?;
            // Built with the other choice of secrets: rebuilt before anything reads it, so no
            // search matches text this configuration would mask (or misses text it shows).
            if Choice::of(config).rebuild_needed(&conn)? {
                index_logs(config, &Scope::All, None)?;
            }
            if let Ok(mut pool) = self.inner.pool.lock() {
                pool.push(conn);
            }
            *prepared = true;
        }
        Ok(())
    }

    /// This store, with each call waiting first until the index holds every change to the
    /// logs that `gate` has seen ([`crate::fresh`]).
    pub fn with_freshness(mut self, gate: Arc<Freshness>) -> Self {
        self.fresh = Some(gate);
        self
    }

    /// Waits until the index holds every change to the logs seen before this call (no-op
    /// without [`TraceStore::with_freshness`]); an [`interruptible`](Self::interruptible)
    /// store stops waiting with [`Error::Cancelled`] once its caller gives up.
    pub fn wait_fresh(&self) -> Result<()> {
        match &self.fresh {
            Some(gate) => gate.wait(&|| self.check()),
            None => Ok(()),
        }
    }

    /// [`TraceStore::wait_fresh`] for a call about one session: it does not wait while the
    /// session's logs (its own and its sub-agents') are as the index holds them, since a refresh
    /// would not change its answer. A server's first calls then do not wait for the startup
    /// walk of every log root, only a call whose session changed since it was indexed does.
    pub fn wait_fresh_for(&self, session: &str) -> Result<()> {
        match &self.fresh {
            Some(gate) => gate.wait_unless(&|| self.check(), &|| self.logs_as_indexed(session)),
            None => Ok(()),
        }
    }

    /// Whether the logs of `session` (an id or prefix the index knows) are as indexed; `false`
    /// when that cannot be told (an unknown session, a store, a read error).
    fn logs_as_indexed(&self, session: &str) -> bool {
        let config = &self.inner.config;
        self.with_conn(|c| {
            let keys = query::log_keys(c, &query::resolve(c, session)?)?;
            ingest::files_as_indexed(c, config, &keys)
        })
        .unwrap_or(false)
    }

    /// This store, for calls that stop early with [`Error::Cancelled`] once `is_cancelled`
    /// returns true: index queries are interrupted, log files are parsed in slices with a
    /// check between them. For a tool whose client may cancel it, so that a cancelled call
    /// frees its thread and its CPU within milliseconds. `is_cancelled` is polled often: make
    /// it cheap (an atomic load).
    pub fn interruptible(&self, is_cancelled: impl Fn() -> bool + Send + Sync + 'static) -> Self {
        TraceStore {
            inner: self.inner.clone(),
            interrupt: Some(Interrupt::new(is_cancelled)),
            fresh: self.fresh.clone(),
        }
    }

    /// `Err(Error::Cancelled)` once the caller of an [`interruptible`](Self::interruptible)
    /// store gave up.
    fn check(&self) -> Result<()> {
        self.interrupt.as_ref().map_or(Ok(()), Interrupt::check)
    }

    /// Opens with [`Config::from_env`].
    pub fn open_default() -> Result<Self> {
        Self::open(Config::from_env())
    }

    /// Where the logs and the index are.
    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    fn with_conn<T>(&self, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
        self.prepare().map_err(|e| self.private(e))?;
        let pooled = self.inner.pool.lock().ok().and_then(|mut p| p.pop());
        let conn = match pooled {
            Some(c) => c,
            None => {
                let c = schema::open(&self.inner.config.index_path())?;
                c.busy_timeout(std::time::Duration::from_secs(10))?;
                c
            }
        };
        let out = match &self.interrupt {
            Some(interrupt) => interrupt.guard_sql(&conn, f),
            None => f(&conn),
        };
        let out = out.map_err(|e| self.private(e));
        if let Ok(mut p) = self.inner.pool.lock()
            && p.len() < POOL_MAX
        {
            p.push(conn);
        }
        out
    }

    /// Incremental update of the index from the log roots.
    pub fn refresh(&self) -> Result<IndexStats> {
        self.run_index(None)
    }

    /// Same as [`TraceStore::refresh`] (first build and updates are the same operation).
    pub fn index(&self) -> Result<IndexStats> {
        self.run_index(None)
    }

    /// [`TraceStore::refresh`] with a progress callback (bytes done / total).
    pub fn refresh_with_progress(&self, progress: &mut dyn FnMut(Progress)) -> Result<IndexStats> {
        self.run_index(Some(progress))
    }

    /// [`TraceStore::refresh`] of the logs of `scope` only (see [`Scope`]).
    pub fn refresh_scoped(&self, scope: &Scope) -> Result<IndexStats> {
        self.run_index_of(scope, None)
    }

    fn run_index(&self, progress: Option<&mut dyn FnMut(Progress)>) -> Result<IndexStats> {
        self.run_index_of(&Scope::All, progress)
    }

    fn run_index_of(
        &self,
        scope: &Scope,
        progress: Option<&mut dyn FnMut(Progress)>,
    ) -> Result<IndexStats> {
        let config = &self.inner.config;
        self.prepare().map_err(|e| self.private(e))?;
        let mut stats = index_logs(config, scope, progress).map_err(|e| self.private(e))?;
        for note in &mut stats.notes {
            *note = config.relative_text(note);
        }
        Ok(stats)
    }

    /// Errors leave the store with their paths relative to the log roots: they reach clients.
    fn private(&self, e: Error) -> Error {
        e.relative_to(&self.inner.config)
    }

    /// Sessions, newest first, `limit` per page; pass the previous page's `next` as `after`.
    pub fn list_sessions(
        &self,
        filter: &SessionFilter,
        after: Option<&SessionCursor>,
        limit: u32,
    ) -> Result<SessionPage> {
        let mut page = self.with_conn(|c| query::list_sessions(c, filter, after, limit))?;
        page.sessions.iter_mut().for_each(|s| self.mask_summary(s));
        Ok(page)
    }

    /// Whole id, or a unique prefix of at least [`MIN_PREFIX`](crate::index::MIN_PREFIX) characters.
    pub fn resolve_session(&self, id_or_prefix: &str) -> Result<String> {
        self.with_conn(|c| query::resolve(c, id_or_prefix))
    }

    /// The index row of one session (id or unique prefix).
    pub fn session_summary(&self, id_or_prefix: &str) -> Result<SessionSummary> {
        self.with_conn(|c| {
            let id = query::resolve(c, id_or_prefix)?;
            query::session_by_id(c, &id)?
                .map(|(_, s)| s)
                .ok_or(Error::SessionNotFound(id))
        })
        .map(|mut s| {
            self.mask_summary(&mut s);
            s
        })
    }

    /// Whether answers mask secrets ([`Config::show_secrets`] unset).
    fn masks(&self) -> bool {
        !self.inner.config.show_secrets
    }

    fn mask_summary(&self, s: &mut SessionSummary) {
        if self.masks()
            && let Some(p) = &mut s.first_prompt
        {
            secrets::mask_string(p);
        }
    }

    /// One session in full, parsed from its log file (id or unique prefix). Parses are kept
    /// (in a cache bounded by [`Config::session_cache_bytes`]), so calls on the same unchanged session parse it once.
    pub fn load_session(&self, id_or_prefix: &str) -> Result<Arc<SessionDetail>> {
        self.load_session_inner(id_or_prefix)
            .map_err(|e| self.private(e))
    }

    fn load_session_inner(&self, id_or_prefix: &str) -> Result<Arc<SessionDetail>> {
        let (mut summary, children) = self.with_conn(|c| {
            let id = query::resolve(c, id_or_prefix)?;
            let (_, s) =
                query::session_by_id(c, &id)?.ok_or_else(|| Error::SessionNotFound(id.clone()))?;
            Ok((s, query::children(c, &id)?))
        })?;
        self.mask_summary(&mut summary);
        let path = Path::new(&summary.path);
        let data_dir = &self.inner.config.data_dir;
        // A store session is stamped by its source file (the index's summary, compared too,
        // tells its sessions apart).
        let (source, _) = providers::store_unit(summary.provider, path);
        // Stamped before reading: a change during the parse makes the entry stale, not wrong.
        // A log its agent deleted is read from its archived copy, if there is one.
        let (stamp, archived) = match FileStamp::of(source) {
            Ok(stamp) => (stamp, false),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                match FileStamp::of(&archive::copy_file(data_dir, &summary.path)) {
                    Ok(stamp) => (stamp, true),
                    Err(_) => return Err(Error::LogFileGone(summary.id.clone())),
                }
            }
            Err(e) => return Err(Error::io(path, e)),
        };
        let sessions = &self.inner.sessions;
        if let Some(hit) = sessions.get(stamp, |d| d.summary == summary && d.children == children) {
            return Ok(hit);
        }
        // Without raw records: no tool answer shows them, and a copy of its record for every
        // event (five of one Gemini message), masked too, was most of the cost of a load.
        // `get_event` reads the one it returns.
        let keep = Keep {
            raw: false,
            result_text_cap: Some(RESULT_TEXT_KEPT),
        };
        let mut events = self.parse_log(&summary, archived, keep)?;
        // Before assembly, so that turns and steps are built from masked text too.
        if self.masks() {
            for chunk in events.chunks_mut(EVENT_STRIDE) {
                self.check()?;
                chunk.iter_mut().for_each(secrets::mask_event);
            }
        }
        self.check()?;
        let turns = assemble(&events);
        self.check()?;
        let mut acc = TokenAccumulator::default();
        for e in &events {
            if let Some(t) = &e.tokens {
                acc.push(t, e.message_id.as_deref());
            }
        }
        let detail = Arc::new(SessionDetail {
            summary,
            events,
            turns,
            tokens: acc.total(),
            children,
        });
        sessions.put(stamp, detail.clone());
        Ok(detail)
    }

    /// Every event of a session's log, or of its archived copy, with raw records when
    /// `keep_raw`.
    fn parse_log(
        &self,
        summary: &SessionSummary,
        archived: bool,
        keep: Keep,
    ) -> Result<Vec<Event>> {
        let path = Path::new(&summary.path);
        let interrupt = self.interrupt.as_ref();
        if !archived {
            return interrupt::parse_file(summary.provider, path, keep, interrupt);
        }
        let data_dir = &self.inner.config.data_dir;
        let bytes = self
            .with_conn(|c| archive::read_copy(c, data_dir, &summary.path))?
            .ok_or_else(|| Error::LogFileGone(summary.id.clone()))?;
        interrupt::parse_bytes(summary.provider, path, &bytes, keep, interrupt)
    }

    /// Sessions kept parsed, and the log bytes they were parsed from.
    pub fn cached_sessions(&self) -> (usize, u64) {
        self.inner.sessions.usage()
    }

    /// Rebuilds the index if another process rebuilt it with the other choice of secrets since
    /// this store opened it.
    fn match_choice(&self) -> Result<()> {
        let choice = Choice::of(&self.inner.config);
        if self.with_conn(|c| choice.rebuild_needed(c))? {
            self.run_index_of(&Scope::All, None)?;
        }
        Ok(())
    }

    /// Full-text search over event text. Never matches text of the other choice of secrets
    /// than this store's: the index is rebuilt first if it holds that.
    pub fn search(&self, q: &SearchQuery) -> Result<SearchPage> {
        self.match_choice()?;
        self.with_conn(|c| {
            let sid = match &q.session {
                Some(s) => {
                    let id = query::resolve(c, s)?;
                    Some(
                        query::session_by_id(c, &id)?
                            .ok_or(Error::SessionNotFound(id))?
                            .0,
                    )
                }
                None => None,
            };
            query::search(c, q, sid, self.masks(), &self.inner.config.data_dir)
        })
    }

    /// One event, untruncated, with the raw record it was made from.
    ///
    /// The raw record of an event that is not a line of a JSONL log (a Gemini message, an
    /// OpenCode part) takes a parse of the whole log; [`TraceStore::get_event_without_raw`]
    /// is as fast for every log.
    pub fn get_event(&self, session: &str, index: u32) -> Result<EventDetail> {
        self.event(session, index, true)
    }

    /// [`TraceStore::get_event`] with `raw` left `Null`: what the tools show of an event.
    pub fn get_event_without_raw(&self, session: &str, index: u32) -> Result<EventDetail> {
        self.event(session, index, false)
    }

    fn event(&self, session: &str, index: u32, with_raw: bool) -> Result<EventDetail> {
        let (summary, row, first_of_line, eid) = self.with_conn(|c| {
            let id = query::resolve(c, session)?;
            let (sid, s) =
                query::session_by_id(c, &id)?.ok_or_else(|| Error::SessionNotFound(id.clone()))?;
            let row = query::event_row(c, sid, index)?
                .ok_or(Error::EventNotFound { session: id, index })?;
            let first = match row.src_off {
                Some(off) => query::first_event_of_line(c, sid, off)?,
                None => None,
            };
            Ok((s, row, first, crate::index::schema::eid(sid, index)))
        })?;
        let line = match (row.src_off, row.src_len, first_of_line) {
            (Some(off), Some(len), Some(first)) => {
                raw_from_line(&summary, &row, off as u64, len as usize, index - first)
            }
            _ => None,
        };
        // A text left in its line: the line just parsed gives it when it is the one recorded
        // (compared masked, as the index records it), without reading the line a second time.
        let parsed_text = line.as_ref().map(|e| match self.masks() {
            true => secrets::mask(&e.text).into_owned(),
            false => e.text.clone(),
        });
        let text = match row.text.clone() {
            StoredText::Here(t) => Some(t),
            StoredText::InLog(r) if parsed_text.as_deref().is_some_and(|t| r.is(t)) => parsed_text,
            stored => self.with_conn(|c| {
                let data_dir = &self.inner.config.data_dir;
                crate::index::line_text::Texts::new(c, data_dir, self.masks()).text(eid, stored)
            })?,
        };
        let event = match (line, &text) {
            (Some(mut e), Some(t)) => {
                e.text.clone_from(t);
                Some(e)
            }
            _ => None,
        };
        let event = match event {
            Some(e) => e,
            // Gemini documents (and lines that changed on disk): parse the file again.
            None => {
                let detail = self.load_session(&summary.id)?;
                let mut e = match detail.events.get(index as usize) {
                    Some(e) if e.kind == row.kind => {
                        let mut e = e.clone();
                        e.whole_text_chars = None;
                        if with_raw {
                            e.raw = self.raw_record(&detail.summary, index, row.kind)?;
                        }
                        e
                    }
                    // Its log no longer has the event, nor the line its text was left in.
                    _ => match &text {
                        Some(t) => event_from_row(&row, t, serde_json::Value::Null),
                        None => return Err(Error::LogFileGone(summary.id)),
                    },
                };
                // The indexed text, where the index keeps it; else the one just parsed.
                if let Some(t) = text {
                    e.text = t;
                }
                e
            }
        };
        let mut event = event;
        if !with_raw {
            event.raw = serde_json::Value::Null;
        }
        if self.masks() {
            secrets::mask_event(&mut event);
        }
        Ok(EventDetail {
            session_id: summary.id,
            provider: summary.provider,
            event,
        })
    }

    /// The raw record of event `index` (of kind `kind`) of a session, from a parse of its
    /// whole log; `Null` when the log no longer has that event.
    fn raw_record(
        &self,
        summary: &SessionSummary,
        index: u32,
        kind: EventKind,
    ) -> Result<serde_json::Value> {
        let (source, _) = providers::store_unit(summary.provider, Path::new(&summary.path));
        let archived = !source.exists();
        let keep = Keep {
            raw: true,
            result_text_cap: None,
        };
        let events = self.parse_log(summary, archived, keep)?;
        Ok(events
            .into_iter()
            .nth(index as usize)
            .filter(|e| e.kind == kind)
            .map_or(serde_json::Value::Null, |e| e.raw))
    }

    /// The sessions and turns whose tool calls touched a path, newest first.
    pub fn file_history(
        &self,
        q: &crate::index::touches::FileHistoryQuery,
    ) -> Result<crate::index::touches::FileHistoryPage> {
        let data_dir = &self.inner.config.data_dir;
        self.with_conn(|c| crate::index::touches::history(c, q, self.masks(), data_dir))
    }

    /// Token usage of every sub-agent session below session `id_or_prefix` (sub-agents of
    /// sub-agents included), per session, from the index.
    pub fn subagent_usage(&self, id_or_prefix: &str) -> Result<Vec<(String, Vec<UsageRow>)>> {
        self.with_conn(|c| usage::descendants(c, &query::resolve(c, id_or_prefix)?))
    }

    /// Token usage over the sessions and days of `filter`, summed per `by` key, model and
    /// prompt class, from the index.
    pub fn usage(
        &self,
        filter: &UsageFilter,
        by: UsageGrouping,
    ) -> Result<Vec<(String, UsageRow)>> {
        self.with_conn(|c| usage::grouped(c, filter, by))
    }

    /// Projects with session counts per provider, newest activity first.
    pub fn projects(&self) -> Result<Vec<ProjectInfo>> {
        self.with_conn(query::projects)
    }
}

/// One indexing run on a dedicated connection: the writer must not hold a pooled reader.
fn index_logs(
    config: &Config,
    scope: &Scope,
    progress: Option<&mut dyn FnMut(Progress)>,
) -> Result<IndexStats> {
    let mut conn = schema::open_ready(&config.index_path())?;
    conn.pragma_update(None, "cache_size", -65536)?;
    ingest::run(&mut conn, config, scope, progress)
}

fn event_from_row(row: &EventRow, text: &str, raw: serde_json::Value) -> Event {
    let mut e = Event::new(row.kind, text.to_owned());
    e.index = row.index;
    e.timestamp = row.ts_ms.and_then(ts_from_ms);
    e.tool_name = row.tool_name.clone();
    e.call_id = row.call_id.clone();
    e.is_error = row.is_error;
    e.turn = row.turn;
    e.step = row.step;
    e.raw = raw;
    e
}

/// Rebuilds an event from its stored row plus its source line, re-translated so that fields not
/// stored in the index (tokens, model, message id) come back too; its text is the line's, for
/// the caller to check against the index.
fn raw_from_line(
    summary: &SessionSummary,
    row: &EventRow,
    off: u64,
    len: usize,
    nth: u32,
) -> Option<Event> {
    let mut f = std::fs::File::open(&summary.path).ok()?;
    f.seek(SeekFrom::Start(off)).ok()?;
    let mut buf = vec![0u8; len];
    f.read_exact(&mut buf).ok()?;
    let hint = FileHint {
        session_id: summary.id.clone(),
        is_subagent: summary.is_subagent,
        ..FileHint::from_path(summary.provider, Path::new(&summary.path))
    };
    if hint.layout != Layout::Lines {
        return None;
    }
    let mut scratch = ParseState::new(summary.provider, &hint);
    if let Some(restore) = summary.provider.spec().resume_context {
        restore(&mut scratch, &mut f, off);
    }
    let chunk = providers::parse_jsonl(&mut scratch, &buf, off, true);
    let draft = chunk
        .events
        .into_iter()
        .nth(nth as usize)
        .filter(|d| d.kind == row.kind)?;
    let mut e = event_from_row(row, &draft.text, draft.raw);
    e.tokens = draft.tokens;
    e.model = draft.model;
    e.message_id = draft.message_id;
    e.source = draft.source;
    Some(e)
}
