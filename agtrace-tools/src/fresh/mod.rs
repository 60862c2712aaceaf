//! Keeps a served index fresh: a call answers from an index that holds every change to the
//! logs seen before the call arrived, without the server indexing before it answers anything.
//!
//! [`Freshness`] counts changes (`wanted`) and the changes the index holds (`done`): a change
//! seen bumps `wanted` at once; one refresher thread brings the index up to date in the
//! background, letting a burst of writes settle first ([`DEBOUNCE`]) unless a call is waiting;
//! a call ([`Freshness::wait`]) first makes sure every change already on its way has been
//! counted, then waits until `done` reaches the `wanted` it saw.
//!
//! What a refresh looks at: the paths the watcher named since the last one, if it named them
//! all ([`Scope::Paths`]: a stat and a row per named file, then the parse of what changed); the
//! whole of the roots ([`Scope::All`]) at the first build, for each periodic re-scan, without a
//! watcher, after a failed refresh, and whenever a change names no file the index can take
//! alone (a folder created, removed or renamed, a watcher overflow, a link, a store).
//!
//! How changes are seen ([`watch`]): a file watcher on the log roots, or, where watching is not
//! possible (forced with [`WatchMode::Poll`], no inotify watches left, a watch error), every
//! call counts as a change, so that each call re-scans (a stat per log file, parsing only what
//! changed), plus a periodic re-scan that keeps that work small.
//!
//! A call about one session asks first whether the index already answers it as a refresh
//! would ([`Freshness::wait_unless`]: its logs are as indexed) and then does not wait: the
//! first calls of a server do not wait for the startup walk of every root.
//!
//! A call waits for as long as the refresh it needs runs (the first build of a large index
//! takes seconds), checking every 20 ms whether its caller gave up: a cancelled call, or one
//! whose client-side timeout cancelled it, returns [`Error::Cancelled`] at once while the
//! refresh goes on for the next call. A refresh that fails answers the calls waiting on it
//! with [`Error::IndexUnavailable`] (retryable); the next call tries again.

pub mod watch;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use crate::error::{Error, Result};
use crate::index::Scope;
use crate::store::TraceStore;

pub use watch::WatchMode;

/// Quiet time a burst of writes gets before the background refresh runs (a call waiting does
/// not wait for it).
pub const DEBOUNCE: Duration = Duration::from_millis(200);
/// A log written without a pause is still refreshed this often.
const MAX_DELAY: Duration = Duration::from_secs(2);
/// How often a waiting call checks whether its caller gave up.
const POLL: Duration = Duration::from_millis(20);
/// The first retry after a failed refresh that no call waits for; doubled up to [`MAX_BACKOFF`].
const BACKOFF: Duration = Duration::from_secs(1);
const MAX_BACKOFF: Duration = Duration::from_secs(30);
/// More named paths than this are refreshed by a walk of the roots (as cheap by then).
const MAX_NAMED: usize = 256;

#[derive(Default)]
struct State {
    /// Files named as changed since the last refresh started.
    named: BTreeSet<PathBuf>,
    /// Something changed since the last refresh started that only a walk of the roots finds.
    walk: bool,
    /// The last walk followed links to logs, whose changes no event names: every refresh
    /// walks while there are any.
    links: bool,
    /// Changes seen (plus one for the first build, and one per periodic re-scan).
    wanted: u64,
    /// `wanted` as it was when the last successful refresh started.
    done: u64,
    /// The last failed refresh: the `wanted` it started at, and why it failed.
    failed: Option<(u64, String)>,
    /// Calls waiting for a refresh.
    waiting: usize,
    /// A refresh that walks the roots has started and has not begun its walk yet (it is setting
    /// up the watcher): whatever changed before a call made now, that walk finds.
    walk_ahead: bool,
    stop: bool,
}

/// Makes sure every change already on its way (an event the kernel queued before the call)
/// has been counted; `false` when it could not tell in time (the call then re-scans).
pub type SyncPoint = Box<dyn Fn() -> bool + Send + Sync>;

/// The freshness gate of one served store; see the module docs.
pub struct Freshness {
    state: Mutex<State>,
    changed: Condvar,
    /// False while changes are seen by scanning on each call instead of by a watcher.
    watching: AtomicBool,
    sync_point: OnceLock<SyncPoint>,
}

impl State {
    /// A change that only a walk of the roots finds.
    fn changed_unnamed(&mut self) {
        self.wanted += 1;
        self.walk = true;
    }

    /// What the refresh starting now looks at: every change counted so far.
    fn take_scope(&mut self) -> Scope {
        let named = std::mem::take(&mut self.named);
        if std::mem::take(&mut self.walk) || self.links || named.len() > MAX_NAMED {
            Scope::All
        } else {
            Scope::Paths(named)
        }
    }
}

impl Freshness {
    /// A gate with the first build still to do; every call counts as a change until
    /// [`Freshness::start_watching`].
    pub fn new() -> Arc<Self> {
        Arc::new(Freshness {
            state: Mutex::new(State {
                wanted: 1,
                walk: true,
                ..State::default()
            }),
            changed: Condvar::new(),
            watching: AtomicBool::new(false),
            sync_point: OnceLock::new(),
        })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A change to the logs was seen, one that names no file the index could take alone:
    /// the next call does not answer before a walk of the roots has it.
    pub fn mark_dirty(&self) {
        self.lock().changed_unnamed();
        self.changed.notify_all();
    }

    /// These files (paths under a log root) were created, written, renamed or removed: the
    /// next call does not answer before the index has them.
    pub fn mark_changed(&self, paths: impl IntoIterator<Item = PathBuf>) {
        let mut st = self.lock();
        st.named.extend(paths);
        st.wanted += 1;
        drop(st);
        self.changed.notify_all();
    }

    /// Changes are seen by a watcher from now on; `sync_point` is its barrier.
    pub fn start_watching(&self, sync_point: SyncPoint) {
        let _ = self.sync_point.set(sync_point);
        self.watching.store(true, Ordering::SeqCst);
    }

    /// The watcher failed (`why`): from now on each call re-scans.
    pub fn fall_back_to_polling(&self, why: &str) {
        if self.watching.swap(false, Ordering::SeqCst) {
            tracing::warn!("watching the logs failed ({why}): each call re-scans the logs instead");
        }
        self.mark_dirty();
    }

    /// Whether a watcher sees the changes (false: each call re-scans).
    pub fn is_watching(&self) -> bool {
        self.watching.load(Ordering::SeqCst)
    }

    /// Blocks until the index holds every change seen before this call; `check` returns an
    /// error (the call's [`Error::Cancelled`]) once the caller gave up, ending the wait.
    pub fn wait(&self, check: &dyn Fn() -> Result<()>) -> Result<()> {
        self.wait_unless(check, &|| false)
    }

    /// [`Freshness::wait`], except that it does not wait when `already_fresh` says the index
    /// already answers this call as a refresh would (asked only when a refresh is due, and
    /// without the gate's lock held). The refresh still runs, for the calls after it.
    pub fn wait_unless(
        &self,
        check: &dyn Fn() -> Result<()>,
        already_fresh: &dyn Fn() -> bool,
    ) -> Result<()> {
        let seen = self.is_watching() && self.sync_point.get().is_some_and(|sync| sync());
        let mut st = self.lock();
        // A call before the walk ahead has begun is answered by it: counted as a change, it
        // would take a second walk of every root (at startup: after the first build's).
        if !seen && !st.walk_ahead {
            st.changed_unnamed();
        }
        let mut target = st.wanted;
        if st.done >= target {
            return Ok(());
        }
        // Nothing changed since a refresh failed: this call is a retry, not its audience.
        if st.failed.as_ref().is_some_and(|(at, _)| *at >= target) {
            st.changed_unnamed();
            target = st.wanted;
        }
        self.changed.notify_all();
        drop(st);
        if already_fresh() {
            return Ok(());
        }
        let mut st = self.lock();
        st.waiting += 1;
        self.changed.notify_all();
        let outcome = loop {
            if st.done >= target {
                break Ok(());
            }
            if let Some((at, why)) = &st.failed
                && *at >= target
            {
                break Err(Error::IndexUnavailable(why.clone()));
            }
            if let Err(e) = check() {
                break Err(e);
            }
            st = self
                .changed
                .wait_timeout(st, POLL)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        };
        st.waiting -= 1;
        outcome
    }

    /// Runs the refresher on its own thread until [`Freshness::stop`]: it calls `on_start`,
    /// opens the index, makes the first build, then a refresh after each change (debounced)
    /// and every `rescan`, each after `before_refresh`.
    pub fn spawn_refresher(
        self: &Arc<Self>,
        store: TraceStore,
        rescan: Option<Duration>,
        on_start: impl FnOnce() + Send + 'static,
        before_refresh: impl FnMut() + Send + 'static,
    ) -> std::io::Result<std::thread::JoinHandle<()>> {
        let gate = self.clone();
        std::thread::Builder::new()
            .name("agtrace-refresh".into())
            .spawn(move || {
                on_start();
                gate.refresh_loop(&store, rescan, before_refresh)
            })
    }

    /// Ends the refresher after its current refresh.
    pub fn stop(&self) {
        self.lock().stop = true;
        self.changed.notify_all();
    }

    fn refresh_loop(
        &self,
        store: &TraceStore,
        rescan: Option<Duration>,
        mut before_refresh: impl FnMut(),
    ) {
        // At once, not after the debounce: a call about a session that need not wait for the
        // first refresh still needs the index open, and would otherwise open it itself. A
        // failure is left to the first refresh, which reports it.
        if let Err(e) = store.open_index() {
            tracing::debug!("opening the index before the first refresh: {e}");
        }
        let mut backoff = BACKOFF;
        let mut retry_at: Option<Instant> = None;
        let mut st = self.lock();
        loop {
            if st.stop {
                return;
            }
            if st.done >= st.wanted {
                let idle = rescan.unwrap_or(Duration::from_secs(3600));
                let (guard, waited) = self
                    .changed
                    .wait_timeout(st, idle)
                    .unwrap_or_else(|p| p.into_inner());
                st = guard;
                if waited.timed_out() && rescan.is_some() {
                    st.changed_unnamed();
                }
                continue;
            }
            // Let a burst of writes (or a failing index) settle, unless a call is waiting. The
            // first build starts at once: the first index-wide call waits for it, and a client
            // sends that call right after the handshake.
            let dirty_since = Instant::now();
            let first_build = st.done == 0 && retry_at.is_none();
            loop {
                if st.stop || st.waiting > 0 || first_build {
                    break;
                }
                let now = Instant::now();
                let until = match retry_at {
                    Some(at) => at,
                    None => (now + DEBOUNCE).min(dirty_since + MAX_DELAY),
                };
                if now >= until {
                    break;
                }
                let before = st.wanted;
                st = self
                    .changed
                    .wait_timeout(st, until - now)
                    .unwrap_or_else(|p| p.into_inner())
                    .0;
                // Quiet for a whole debounce period (and no retry pending): go.
                if st.wanted == before && retry_at.is_none() && Instant::now() >= until {
                    break;
                }
            }
            if st.stop {
                return;
            }
            let generation = st.wanted;
            let scope = st.take_scope();
            st.walk_ahead = scope == Scope::All;
            drop(st);
            before_refresh();
            self.lock().walk_ahead = false;
            let started = Instant::now();
            let outcome = store.refresh_scoped(&scope);
            st = self.lock();
            match outcome {
                Ok(stats) => {
                    if stats.walked_roots {
                        st.links = stats.links_followed > 0;
                    }
                    let ms = started.elapsed().as_millis() as u64;
                    if st.done == 0 {
                        for note in &stats.notes {
                            tracing::info!("{note}");
                        }
                        tracing::info!(
                            parsed = stats.files_parsed,
                            skipped = stats.files_skipped,
                            ms,
                            "index ready"
                        );
                    } else {
                        tracing::debug!(
                            parsed = stats.files_parsed,
                            appended = stats.files_appended,
                            walked = stats.walked_roots,
                            plan_ms = stats.plan_ms,
                            commit_ms = stats.commit_ms,
                            checkpoint_ms = stats.checkpoint_ms,
                            ms,
                            "index refreshed"
                        );
                    }
                    st.done = st.done.max(generation);
                    backoff = BACKOFF;
                    retry_at = None;
                }
                Err(e) => {
                    tracing::warn!("re-indexing the logs failed: {e}");
                    // The paths it was to look at are not in the index: the retry walks.
                    st.walk = true;
                    st.failed = Some((generation, e.to_string()));
                    retry_at = Some(Instant::now() + backoff);
                    backoff = (backoff * 2).min(MAX_BACKOFF);
                }
            }
            self.changed.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_waits_for_the_change_it_saw_and_not_for_later_ones() {
        let gate = Freshness::new();
        gate.start_watching(Box::new(|| true));
        {
            let mut st = gate.lock();
            st.done = st.wanted;
        }
        assert!(gate.wait(&|| Ok(())).is_ok(), "nothing changed: no wait");
        gate.mark_dirty();
        let cancelled = AtomicBool::new(false);
        let gate2 = gate.clone();
        let waiter = std::thread::spawn(move || gate2.wait(&|| Ok(())));
        // The waiter holds until the refresh that started after its change is done.
        while gate.lock().waiting == 0 {
            std::thread::yield_now();
        }
        let wanted = gate.lock().wanted;
        gate.mark_dirty();
        gate.lock().done = wanted;
        gate.changed.notify_all();
        assert!(waiter.join().unwrap().is_ok());
        // A caller that gives up stops waiting.
        cancelled.store(true, Ordering::SeqCst);
        let out = gate.wait(&|| {
            if cancelled.load(Ordering::SeqCst) {
                Err(Error::Cancelled)
            } else {
                Ok(())
            }
        });
        assert!(matches!(out, Err(Error::Cancelled)));
    }

    #[test]
    fn a_refresh_looks_at_the_named_files_unless_something_needs_a_walk() {
        let gate = Freshness::new();
        assert_eq!(
            gate.lock().take_scope(),
            Scope::All,
            "the first build walks"
        );
        let a = PathBuf::from("/logs/a.jsonl");
        let b = PathBuf::from("/logs/b.jsonl");
        gate.mark_changed([a.clone()]);
        gate.mark_changed([b.clone(), a.clone()]);
        assert_eq!(
            gate.lock().take_scope(),
            Scope::Paths([a.clone(), b.clone()].into())
        );
        assert_eq!(gate.lock().take_scope(), Scope::Paths(BTreeSet::new()));
        gate.mark_changed([a.clone()]);
        gate.mark_dirty();
        assert_eq!(gate.lock().take_scope(), Scope::All, "an unnamed change");
        gate.mark_changed((0..=MAX_NAMED).map(|n| PathBuf::from(format!("/logs/{n}"))));
        assert_eq!(gate.lock().take_scope(), Scope::All, "too many to name");
        gate.lock().links = true;
        gate.mark_changed([a]);
        assert_eq!(gate.lock().take_scope(), Scope::All, "logs behind links");
    }

    #[test]
    fn a_call_before_the_walk_ahead_begins_is_answered_by_it() {
        let gate = Freshness::new();
        // The first build has taken its generation and is setting up the watcher.
        let first = {
            let mut st = gate.lock();
            let generation = st.wanted;
            assert_eq!(st.take_scope(), Scope::All);
            st.walk_ahead = true;
            generation
        };
        assert!(gate.wait_unless(&|| Ok(()), &|| true).is_ok());
        assert_eq!(
            gate.lock().wanted,
            first,
            "not a change: the walk ahead finds what changed before the call"
        );
        // Once the walk has begun, a call without a watcher counts as a change again.
        gate.lock().walk_ahead = false;
        assert!(gate.wait_unless(&|| Ok(()), &|| true).is_ok());
        let st = gate.lock();
        assert_eq!(st.wanted, first + 1, "a change the next walk finds");
        assert!(st.walk);
    }

    #[test]
    fn without_a_watcher_every_call_needs_a_refresh() {
        let gate = Freshness::new();
        {
            let mut st = gate.lock();
            st.done = st.wanted;
        }
        let out = gate.wait(&|| Err(Error::Cancelled));
        assert!(
            matches!(out, Err(Error::Cancelled)),
            "polling: a call is a change"
        );
    }

    #[test]
    fn a_call_the_index_already_answers_does_not_wait_and_the_refresh_stays_due() {
        let gate = Freshness::new();
        let gave_up = || Err(Error::Cancelled);
        // A call that would wait for the first build stops at once with its caller's error...
        assert!(matches!(
            gate.wait_unless(&gave_up, &|| false),
            Err(Error::Cancelled)
        ));
        // ...one whose logs are as indexed answers without waiting at all...
        assert!(gate.wait_unless(&gave_up, &|| true).is_ok());
        // ...and leaves the refresh to do for the calls after it.
        let st = gate.lock();
        assert!(st.done < st.wanted && st.walk && st.waiting == 0);
    }

    #[test]
    fn a_failed_refresh_answers_its_waiters_and_the_next_call_retries() {
        let gate = Freshness::new();
        gate.lock().failed = Some((1, "database is locked".into()));
        let out = gate.wait(&|| Err(Error::Cancelled));
        assert!(
            matches!(out, Err(Error::Cancelled)),
            "an old failure is retried, not repeated: {out:?}"
        );
        let gate2 = gate.clone();
        let waiter = std::thread::spawn(move || gate2.wait(&|| Ok(())));
        while gate.lock().waiting == 0 {
            std::thread::yield_now();
        }
        let wanted = gate.lock().wanted;
        gate.lock().failed = Some((wanted, "disk full".into()));
        gate.changed.notify_all();
        match waiter.join().unwrap() {
            Err(Error::IndexUnavailable(why)) => assert_eq!(why, "disk full"),
            other => panic!("expected IndexUnavailable, got {other:?}"),
        }
    }
}
