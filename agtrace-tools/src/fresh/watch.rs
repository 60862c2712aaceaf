//! Sees changes to the log roots with a file watcher ([`notify`]: inotify on Linux, FSEvents
//! on macOS, ReadDirectoryChangesW on Windows), recursive on each root.
//!
//! Folders created under a root are watched by the watcher itself and again by the refresher
//! before it scans, so that they are watched before the scan that finds their files.
//!
//! An event that names the files it changed (created, written, renamed, removed: not folders)
//! passes their paths on, so the refresh looks at those files alone; any other event under a
//! root (a folder created or removed, a queue overflow) makes the refresh walk the roots.
//!
//! A root that does not exist yet is waited for through its nearest existing parent (watched
//! alone, not recursively); once it appears it is watched in turn. Every event marks the gate
//! dirty at once; only the background refresh is debounced (by the gate, not here), so that a
//! call never answers from an index older than a change the watcher has seen.
//!
//! "Seen" needs a barrier: the kernel queues an event during the write itself, but the watcher
//! thread may not have read it when the next call arrives. The barrier renames a file of this
//! process in a folder of the data directory, watched by the same watcher: events come out of
//! one queue in order, so once the rename's event is read, every event queued before the call
//! has been too. That costs a rename and a thread wake-up per call (tens of microseconds); if
//! the barrier does not come back in [`BARRIER_TIMEOUT`] the call re-scans instead.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use notify::event::ModifyKind;
use notify::{Event, EventKind, RecommendedWatcher, RecursiveMode, Watcher};

use super::Freshness;
use crate::config::Config;
use crate::index::discover::as_watched;
use crate::model::Provider;

/// How a served index notices changes to the logs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum WatchMode {
    /// A file watcher where one can be had, else [`WatchMode::Poll`].
    #[default]
    Auto,
    /// No watcher: each call re-scans the logs (a stat per file), as on file systems that send
    /// no events (network mounts) or with no inotify watches left.
    Poll,
}

/// Longest wait for the barrier's own event before a call re-scans instead.
pub const BARRIER_TIMEOUT: Duration = Duration::from_millis(250);

/// The folder of the data directory holding the barrier files (one per serving process).
const BARRIER_DIR: &str = "watch";

/// What the watcher thread and the refresher share.
struct Shared {
    gate: Arc<Freshness>,
    /// Recursively watched roots.
    roots: Mutex<Vec<PathBuf>>,
    /// Roots that do not exist yet, each waited for through an existing parent.
    pending: Mutex<Vec<PathBuf>>,
    /// A parent of a pending root changed: try to watch the pending roots again.
    pending_changed: AtomicBool,
    /// Folders created under a root since the last refresh. The watcher adds their watches
    /// itself, but only after it has handled the events read with theirs; watching them again
    /// from the refresher, before it scans, makes sure they are watched before the scan.
    new_dirs: Mutex<Vec<PathBuf>>,
    barrier: Barrier,
}

/// The watcher of one served store; [`LogWatch::update`] before each refresh.
pub struct LogWatch {
    mode: WatchMode,
    roots: Vec<PathBuf>,
    barrier_dir: PathBuf,
    shared: Option<Arc<Shared>>,
    watcher: Option<RecommendedWatcher>,
    started: bool,
}

impl LogWatch {
    /// Watches the log roots of `config` once [`LogWatch::update`] first runs
    /// (on the refresher thread, off the path of the first answers).
    pub fn new(config: &Config, mode: WatchMode) -> Self {
        // Named as the watcher names their contents: a relative root (`--claude-dir=logs/x`)
        // would otherwise match no event, and no change would be seen.
        let mut roots: Vec<PathBuf> = Provider::ALL
            .into_iter()
            .map(|p| as_watched(config.root(p)))
            .collect();
        roots.sort();
        roots.dedup();
        LogWatch {
            mode,
            roots,
            barrier_dir: as_watched(&config.data_dir.join(BARRIER_DIR)),
            shared: None,
            watcher: None,
            started: false,
        }
    }

    /// Starts watching on the first call; then watches the roots that appeared since.
    pub fn update(&mut self, gate: &Arc<Freshness>) {
        if !self.started {
            self.started = true;
            if self.mode == WatchMode::Poll {
                tracing::info!("not watching the logs (poll mode): each call re-scans them");
                return;
            }
            if let Err(why) = self.start(gate) {
                self.watcher = None;
                gate.fall_back_to_polling(&why);
            }
            return;
        }
        let (Some(shared), Some(watcher)) = (&self.shared, &mut self.watcher) else {
            return;
        };
        if shared.pending_changed.swap(false, Ordering::SeqCst)
            && let Err(why) = watch_roots(watcher, shared)
        {
            gate.fall_back_to_polling(&why);
        }
        let new_dirs =
            std::mem::take(&mut *shared.new_dirs.lock().unwrap_or_else(|p| p.into_inner()));
        for dir in new_dirs {
            match watcher.watch(&dir, RecursiveMode::Recursive) {
                Ok(()) => {}
                // Gone again: the scan will not find it either.
                Err(e) if matches!(e.kind, notify::ErrorKind::PathNotFound) => {}
                Err(e) => {
                    gate.fall_back_to_polling(&format!("cannot watch {}: {e}", dir.display()))
                }
            }
        }
    }

    fn start(&mut self, gate: &Arc<Freshness>) -> Result<(), String> {
        let shared = Arc::new(Shared {
            gate: gate.clone(),
            roots: Mutex::new(Vec::new()),
            pending: Mutex::new(self.roots.clone()),
            pending_changed: AtomicBool::new(false),
            new_dirs: Mutex::new(Vec::new()),
            barrier: Barrier::new(&self.barrier_dir)?,
        });
        let handler_shared = shared.clone();
        let mut watcher = notify::recommended_watcher(move |event: notify::Result<Event>| {
            on_event(&handler_shared, event)
        })
        .map_err(|e| format!("no file watcher: {e}"))?;
        watch_roots(&mut watcher, &shared)?;
        watcher
            .watch(&self.barrier_dir, RecursiveMode::NonRecursive)
            .map_err(|e| format!("cannot watch {}: {e}", self.barrier_dir.display()))?;
        let barrier_shared = shared.clone();
        gate.start_watching(Box::new(move || {
            barrier_shared.barrier.pass(BARRIER_TIMEOUT)
        }));
        tracing::info!(
            roots = shared.roots.lock().map(|r| r.len()).unwrap_or(0),
            waiting_for = shared.pending.lock().map(|p| p.len()).unwrap_or(0),
            "watching the log roots"
        );
        self.shared = Some(shared);
        self.watcher = Some(watcher);
        Ok(())
    }
}

impl Drop for LogWatch {
    fn drop(&mut self) {
        if let Some(shared) = &self.shared {
            shared.barrier.remove();
        }
    }
}

/// Watches each pending root that exists now (recursively), and the nearest existing parent
/// of each one that does not.
fn watch_roots(watcher: &mut RecommendedWatcher, shared: &Shared) -> Result<(), String> {
    let pending = std::mem::take(&mut *shared.pending.lock().map_err(|e| e.to_string())?);
    let mut still = Vec::new();
    for root in pending {
        if root.is_dir() {
            match watch_tree(watcher, &root) {
                Ok(()) => {
                    shared.roots.lock().map_err(|e| e.to_string())?.push(root);
                    continue;
                }
                // Gone between the check and the watch: wait for it again.
                Err(e) if matches!(e.kind, notify::ErrorKind::PathNotFound) => {}
                Err(e) => return Err(format!("cannot watch {}: {e}", root.display())),
            }
        }
        if let Some(parent) = root.ancestors().skip(1).find(|p| p.is_dir()) {
            watcher
                .watch(parent, RecursiveMode::NonRecursive)
                .map_err(|e| format!("cannot watch {}: {e}", parent.display()))?;
        }
        still.push(root);
    }
    // Appeared while its parent watch was being set up: the next update takes it.
    if still.iter().any(|r| r.is_dir()) {
        shared.pending_changed.store(true, Ordering::SeqCst);
        shared.gate.mark_dirty();
    }
    shared
        .pending
        .lock()
        .map_err(|e| e.to_string())?
        .extend(still);
    Ok(())
}

/// Watches `root` and every folder below it.
///
/// With inotify, where each folder takes a watch of its own, `notify`'s recursive watch finds
/// the folders by a stat of every entry below the root, the log files included: at startup, a
/// second walk of every log besides the refresh's own (21 ms of a first refresh's 80 ms on
/// 6,000 sessions; `agtrace-tools/docs/benchmarks.md`). This walk tells folders by the type the
/// listing gives, so its cost follows the folders. Each folder is watched before it is listed:
/// a folder created in it later is an event (and is watched from there, see
/// [`Shared::new_dirs`]), one created before is listed. Links are not followed, as the refresh
/// follows them only to places under a log root, which are watched as such.
#[cfg(target_os = "linux")]
fn watch_tree(watcher: &mut RecommendedWatcher, root: &Path) -> notify::Result<()> {
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        match watcher.watch(&dir, RecursiveMode::NonRecursive) {
            Ok(()) => {}
            // Gone since it was listed: its parent's watch has seen that.
            Err(e) if dir != root && matches!(e.kind, notify::ErrorKind::PathNotFound) => {
                continue;
            }
            Err(e) => return Err(e),
        }
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push(entry.path());
            }
        }
    }
    Ok(())
}

/// Watches `root` and every folder below it (one recursive watch where the platform has them).
#[cfg(not(target_os = "linux"))]
fn watch_tree(watcher: &mut RecommendedWatcher, root: &Path) -> notify::Result<()> {
    watcher.watch(root, RecursiveMode::Recursive)
}

/// On the watcher's thread, for every event in the order the kernel queued them.
fn on_event(shared: &Shared, event: notify::Result<Event>) {
    let event = match event {
        Ok(event) => event,
        Err(e) => {
            match e.kind {
                notify::ErrorKind::MaxFilesWatch => {
                    shared.gate.fall_back_to_polling("no inotify watches left")
                }
                _ => {
                    tracing::warn!("file watcher error: {e}");
                    shared.gate.mark_dirty();
                }
            }
            return;
        }
    };
    if shared.barrier.saw(&event.paths) {
        return;
    }
    // Opening or reading a log (the indexer does) changes nothing.
    if matches!(event.kind, EventKind::Access(_)) {
        return;
    }
    if event.need_rescan() {
        shared.gate.mark_dirty();
        return;
    }
    let under_root = |p: &Path| {
        shared
            .roots
            .lock()
            .is_ok_and(|roots| roots.iter().any(|r| p.starts_with(r)))
    };
    let toward_pending = |p: &Path| {
        shared
            .pending
            .lock()
            .is_ok_and(|pending| pending.iter().any(|r| r.starts_with(p)))
    };
    if event.paths.iter().any(|p| under_root(p)) {
        let mut dirs = event.paths.iter().filter(|p| p.is_dir()).peekable();
        let has_dir = dirs.peek().is_some();
        if matches!(
            event.kind,
            EventKind::Create(_) | EventKind::Modify(ModifyKind::Name(_))
        ) && let Ok(mut new_dirs) = shared.new_dirs.lock()
        {
            new_dirs.extend(dirs.cloned());
        }
        if names_files(&event.kind) && !has_dir {
            let paths = event.paths.into_iter().filter(|p| under_root(p));
            shared.gate.mark_changed(paths);
        } else {
            shared.gate.mark_dirty();
        }
    } else if event.paths.iter().any(|p| toward_pending(p)) {
        shared.pending_changed.store(true, Ordering::SeqCst);
        shared.gate.mark_dirty();
    }
}

/// Whether an event of this kind names the files it changed, each of which the index can
/// refresh alone (once its paths are known not to be folders): a file created, written,
/// renamed or removed. A folder created or removed (which files it holds is for a walk of the
/// roots to find), and whatever the watcher could not classify, does not.
fn names_files(kind: &EventKind) -> bool {
    use notify::event::{CreateKind, RemoveKind};
    matches!(
        kind,
        EventKind::Create(CreateKind::File | CreateKind::Any)
            | EventKind::Modify(
                ModifyKind::Data(_) | ModifyKind::Metadata(_) | ModifyKind::Name(_)
            )
            | EventKind::Remove(RemoveKind::File | RemoveKind::Any)
    )
}

/// This process's barrier file, renamed `<pid>-<n>` for the n-th barrier.
struct Barrier {
    dir: PathBuf,
    prefix: String,
    /// The last barrier issued and the file's name since.
    issued: Mutex<(u64, PathBuf)>,
    /// The last barrier whose event the watcher thread has read.
    seen: Mutex<u64>,
    seen_changed: Condvar,
}

impl Barrier {
    fn new(dir: &Path) -> Result<Self, String> {
        make_private_dir(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        remove_stale(dir);
        let prefix = format!("{}-", std::process::id());
        let first = dir.join(format!("{prefix}0"));
        std::fs::File::create(&first)
            .map_err(|e| format!("cannot create {}: {e}", first.display()))?;
        Ok(Barrier {
            dir: dir.to_path_buf(),
            prefix,
            issued: Mutex::new((0, first)),
            seen: Mutex::new(0),
            seen_changed: Condvar::new(),
        })
    }

    /// True once every event queued before this call has been handled; false if that could
    /// not be told within `timeout`.
    fn pass(&self, timeout: Duration) -> bool {
        let n = {
            let Ok(mut issued) = self.issued.lock() else {
                return false;
            };
            let n = issued.0 + 1;
            let next = self.dir.join(format!("{}{n}", self.prefix));
            let moved = std::fs::rename(&issued.1, &next)
                .or_else(|_| std::fs::File::create(&next).map(drop));
            if moved.is_err() {
                return false;
            }
            *issued = (n, next);
            n
        };
        let deadline = Instant::now() + timeout;
        let Ok(mut seen) = self.seen.lock() else {
            return false;
        };
        while *seen < n {
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            seen = match self.seen_changed.wait_timeout(seen, deadline - now) {
                Ok((guard, _)) => guard,
                Err(_) => return false,
            };
        }
        true
    }

    /// Whether the event is one of this barrier's (then noted as seen).
    fn saw(&self, paths: &[PathBuf]) -> bool {
        let mut ours = false;
        for p in paths {
            if p.parent() != Some(self.dir.as_path()) {
                continue;
            }
            let Some(n) = p
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_prefix(&self.prefix))
                .and_then(|n| n.parse::<u64>().ok())
            else {
                continue;
            };
            ours = true;
            if let Ok(mut seen) = self.seen.lock()
                && n > *seen
            {
                *seen = n;
                self.seen_changed.notify_all();
            }
        }
        ours || paths.iter().any(|p| p.parent() == Some(self.dir.as_path()))
    }

    fn remove(&self) {
        if let Ok(issued) = self.issued.lock() {
            let _ = std::fs::remove_file(&issued.1);
        }
    }
}

/// Removes the barrier files of processes that ended without removing theirs (Linux, where
/// `/proc` tells which are running).
fn remove_stale(dir: &Path) {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let pid = name
            .to_str()
            .and_then(|n| n.split_once('-'))
            .map(|(pid, _)| pid);
        if let Some(pid) = pid.filter(|p| p.bytes().all(|b| b.is_ascii_digit()))
            && !Path::new("/proc").join(pid).exists()
        {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// The data directory holds private session text: folders made here are the owner's only.
fn make_private_dir(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir)
}
