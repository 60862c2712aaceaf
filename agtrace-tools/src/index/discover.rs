//! Finding the log files under the roots, and naming why each one that is not indexed is not.
//!
//! # Symbolic links
//!
//! Each root's own tree is walked first, without following links; links are followed after,
//! and only to a target inside a log root (any of them: resolved, so `..` and chained links
//! cannot leave it). A target the walk already reached, directly or through another link, is
//! not indexed twice: the link is noted as [`SkipReason::DuplicateLink`] and the file keeps the
//! path it was first reached by. As every root's tree is walked whole, a link into a log root
//! (its own or another's) therefore adds nothing but a note; a link out of the roots, a link to
//! a folder that contains it (`loop -> .`) and a link chain that never ends are not followed,
//! each noted with its own reason.

use std::collections::{BTreeSet, HashSet, VecDeque};
use std::fs::{self, Metadata};
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use serde::{Deserialize, Serialize};

use crate::config::Config;
use crate::model::Provider;
use crate::providers::StoreSpec;

/// A ctime this close to the moment the file was examined is not trusted on its own: on a
/// filesystem with a coarse clock a later write in the same tick leaves it unchanged.
const RACY_NS: i64 = 2_000_000_000;

/// Why a file that may hold a log is not indexed. The set is closed; each reason has a stable
/// snake_case name ([`SkipReason::as_str`]) that notes, counts and tools use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SkipReason {
    /// A folder that could not be listed (no permission): logs inside it are not seen.
    UnreadableFolder,
    /// A log file that could not be opened or read.
    UnreadableFile,
    /// A path that is not valid UTF-8: the index names files by text, and a lossy name could
    /// not be read again.
    NonUtf8Name,
    /// A link to a folder that contains it, or a chain of links that never ends.
    SymlinkLoop,
    /// A link to a place outside every log root.
    SymlinkOutsideRoot,
    /// A link whose target does not exist.
    BrokenSymlink,
    /// A link to a file or folder already indexed under another path.
    DuplicateLink,
    /// A JSON document nested deeper than the parser follows (128 levels).
    TooDeeplyNested,
    /// A document that is not JSON.
    NotValidJson,
    /// Valid JSON, but not a session document.
    NotALog,
    /// Ends mid-document and has not changed for a while: not being written, cut short.
    Truncated,
    /// Ends mid-document and changed moments ago: caught mid-write, retried next run.
    BeingWritten,
    /// Removed between being found and being read.
    Vanished,
    /// A database another program holds locked for longer than agtrace waits: retried next run.
    DatabaseBusy,
    /// A database file that SQLite cannot read: not a database, or damaged.
    CorruptDatabase,
    /// A database without the tables and columns agtrace reads (another version's schema).
    UnknownSchema,
    /// A file that only replays a session another file holds (a Gemini resume writes one
    /// beside the session's own file): no session of its own.
    Replay,
}

impl SkipReason {
    /// Every reason, in the order counts are listed.
    pub const ALL: [SkipReason; 17] = [
        SkipReason::UnreadableFolder,
        SkipReason::UnreadableFile,
        SkipReason::NonUtf8Name,
        SkipReason::SymlinkLoop,
        SkipReason::SymlinkOutsideRoot,
        SkipReason::BrokenSymlink,
        SkipReason::DuplicateLink,
        SkipReason::TooDeeplyNested,
        SkipReason::NotValidJson,
        SkipReason::NotALog,
        SkipReason::Truncated,
        SkipReason::BeingWritten,
        SkipReason::Vanished,
        SkipReason::DatabaseBusy,
        SkipReason::CorruptDatabase,
        SkipReason::UnknownSchema,
        SkipReason::Replay,
    ];

    /// The stable snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            SkipReason::UnreadableFolder => "unreadable_folder",
            SkipReason::UnreadableFile => "unreadable_file",
            SkipReason::NonUtf8Name => "non_utf8_name",
            SkipReason::SymlinkLoop => "symlink_loop",
            SkipReason::SymlinkOutsideRoot => "symlink_outside_root",
            SkipReason::BrokenSymlink => "broken_symlink",
            SkipReason::DuplicateLink => "duplicate_link",
            SkipReason::TooDeeplyNested => "too_deeply_nested",
            SkipReason::NotValidJson => "not_valid_json",
            SkipReason::NotALog => "not_a_log",
            SkipReason::Truncated => "truncated",
            SkipReason::BeingWritten => "being_written",
            SkipReason::Vanished => "vanished",
            SkipReason::DatabaseBusy => "database_busy",
            SkipReason::CorruptDatabase => "corrupt_database",
            SkipReason::UnknownSchema => "unknown_schema",
            SkipReason::Replay => "replay",
        }
    }

    /// The reason named `name` ([`SkipReason::as_str`]).
    pub fn from_name(name: &str) -> Option<SkipReason> {
        SkipReason::ALL.into_iter().find(|r| r.as_str() == name)
    }

    /// The reason of a failed open or read of a log file.
    pub(crate) fn of_read_error(e: &std::io::Error) -> SkipReason {
        match e.kind() {
            std::io::ErrorKind::NotFound => SkipReason::Vanished,
            _ => SkipReason::UnreadableFile,
        }
    }
}

impl std::fmt::Display for SkipReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One file (or folder, or link) not indexed, and why.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SkippedFile {
    /// Named relative to its log root (`<claude_code root>/proj/x.jsonl`).
    pub path: String,
    /// Why it is not indexed.
    pub reason: SkipReason,
}

/// A log file found under a root, with what its metadata says.
#[derive(Debug, Clone)]
pub(super) struct Found {
    pub provider: Provider,
    pub path: PathBuf,
    pub key: String,
    pub size: u64,
    pub mtime_ns: i64,
    pub ino: i64,
    /// 0 when unknown. For a store session, its fingerprint.
    pub ctime_ns: i64,
    /// The ctime to store: 0 when within [`RACY_NS`] of discovery, so the next run compares
    /// content instead of trusting it.
    pub stored_ctime_ns: i64,
    /// The session inside a store source ([`Layout::Store`]); `key` is then
    /// `<path>#<session id>`.
    pub unit: Option<String>,
}

/// A log file (not a store source) as found at `path`, examined at `now`.
fn log_file(p: Provider, path: PathBuf, key: String, md: &Metadata, now: i64) -> Found {
    let mtime_ns = md
        .modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map(|d| d.as_nanos() as i64)
        .unwrap_or(0);
    let (ino, ctime_ns) = identity(md);
    let stored_ctime_ns = if now.saturating_sub(ctime_ns) < RACY_NS {
        0
    } else {
        ctime_ns
    };
    Found {
        provider: p,
        path,
        key,
        size: md.len(),
        mtime_ns,
        ino,
        ctime_ns,
        stored_ctime_ns,
        unit: None,
    }
}

/// Whether a file at `path` is named like provider `p`'s logs (a name that is not UTF-8 is
/// read lossily here, so that it is noted rather than silently ignored).
pub(super) fn matches_provider(p: Provider, path: &Path) -> bool {
    (p.spec().is_log)(path)
}

/// Inode and ctime of a file, or zeros where the platform has none.
#[cfg(unix)]
fn identity(md: &Metadata) -> (i64, i64) {
    use std::os::unix::fs::MetadataExt;
    (
        md.ino() as i64,
        md.ctime()
            .saturating_mul(1_000_000_000)
            .saturating_add(md.ctime_nsec()),
    )
}

#[cfg(not(unix))]
fn identity(_md: &Metadata) -> (i64, i64) {
    (0, 0)
}

/// What tells two paths to the same file or folder apart from two different ones.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum NodeId {
    #[cfg(unix)]
    Inode(u64, u64),
    #[cfg(not(unix))]
    Path(PathBuf),
}

#[cfg(unix)]
fn node_id(_path: &Path, md: &Metadata) -> Option<NodeId> {
    use std::os::unix::fs::MetadataExt;
    Some(NodeId::Inode(md.dev(), md.ino()))
}

#[cfg(not(unix))]
fn node_id(path: &Path, _md: &Metadata) -> Option<NodeId> {
    fs::canonicalize(path).ok().map(NodeId::Path)
}

/// `ELOOP`: too many levels of symbolic links (Rust has no stable `ErrorKind` for it).
#[cfg(target_os = "linux")]
const ELOOP: i32 = 40;
#[cfg(not(target_os = "linux"))]
const ELOOP: i32 = 62;

/// Nanoseconds since the Unix epoch, now.
pub(super) fn now_ns() -> i64 {
    std::time::SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as i64)
        .unwrap_or(0)
}

/// The log files under the roots, and what was passed over and why (absolute paths, lossy).
#[derive(Default)]
pub(super) struct Discovery {
    pub found: Vec<Found>,
    pub skipped: Vec<(PathBuf, SkipReason)>,
    /// The providers whose log root does not exist.
    pub missing_roots: Vec<Provider>,
    /// Links followed to a log file or a folder (see [`named`] for why they matter).
    pub links_followed: u64,
}

struct Walker {
    now: i64,
    /// The roots, resolved, that a link may lead into.
    roots: Vec<PathBuf>,
    out: Discovery,
    files: HashSet<NodeId>,
    folders: HashSet<NodeId>,
    /// Links met, to follow once every root's own tree is walked.
    links: VecDeque<(Provider, PathBuf)>,
}

/// Walks every root (see the module notes for links).
pub(super) fn discover(cfg: &Config) -> Discovery {
    let mut w = Walker::new(now_ns(), Vec::new());
    let mut present = Vec::new();
    for p in Provider::ALL {
        let root = cfg.root(p);
        match fs::metadata(root) {
            Ok(md) if md.is_dir() => {
                if let Ok(resolved) = fs::canonicalize(root) {
                    w.roots.push(resolved);
                }
                if let Some(id) = node_id(root, &md) {
                    w.folders.insert(id);
                }
                present.push(p);
            }
            _ => w.out.missing_roots.push(p),
        }
    }
    // Each root's own tree on a thread of its own (a stat per log file is most of a walk);
    // merged in provider order, what they found is what one walk after the other finds, as
    // a root's walk reads nothing the others write (the links wait for the merge).
    let walked: Vec<Walker> = std::thread::scope(|s| {
        let mut walks = Vec::new();
        for p in present {
            let mut own = w.empty();
            let root = cfg.root(p).to_path_buf();
            let thread = std::thread::Builder::new().name("agtrace-walk".into());
            walks.push(if walks.is_empty() {
                // The first root on this thread, once the others are under way.
                Err((p, root))
            } else {
                thread
                    .spawn_scoped(s, move || {
                        own.walk(p, root);
                        own
                    })
                    .map_err(|_| (p, cfg.root(p).to_path_buf()))
            });
        }
        walks
            .into_iter()
            .map(|walk| match walk {
                Ok(thread) => thread
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
                // No thread to be had (or the first root): walked here.
                Err((p, root)) => {
                    let mut own = w.empty();
                    own.walk(p, root);
                    own
                }
            })
            .collect()
    });
    for own in walked {
        w.take(own);
    }
    while let Some((p, link)) = w.links.pop_front() {
        w.follow(p, link);
    }
    w.out
}

/// `path` as a file watcher names what is under it: absolute, a relative path joined to the
/// current directory, nothing resolved (as `notify` does).
pub(crate) fn as_watched(path: &Path) -> PathBuf {
    if path.is_absolute() {
        return path.to_path_buf();
    }
    std::env::current_dir()
        .map(|d| d.join(path))
        .unwrap_or_else(|_| path.to_path_buf())
}

/// What a look at named paths ([`named`]) found.
pub(super) struct NamedPaths {
    /// The log files among the paths, as a walk of the roots would find them (and the log
    /// files among them it would note as skipped).
    pub discovery: Discovery,
    /// The paths where nothing is now, as keys: a log indexed there is gone.
    pub gone: Vec<String>,
}

/// The paths a file watcher named ([`as_watched`]), each as a walk of the roots would find it
/// (named from its root as configured), without the walk; `None` where only the walk can tell: a folder (which files it holds), a link, a file
/// under a link to a folder (the walk names it by another path, or not at all), a path under
/// no log root or under two, a root itself, a path under a store's root (its sessions live in
/// a database whose journal files are not named like logs), or one that cannot be examined
/// (the walk names why). A file reached through a link is indexed under the link's path,
/// which no event names: while the walk follows any link ([`Discovery::links_followed`]),
/// only walks see every change.
pub(super) fn named(cfg: &Config, paths: &BTreeSet<PathBuf>) -> Option<NamedPaths> {
    let now = now_ns();
    let mut out = NamedPaths {
        discovery: Discovery::default(),
        gone: Vec::new(),
    };
    let watched: Vec<(Provider, PathBuf)> = Provider::ALL
        .into_iter()
        .map(|p| (p, as_watched(cfg.root(p))))
        .collect();
    for named in paths {
        let mut under = watched.iter().filter(|(_, r)| named.starts_with(r));
        let (p, watched_root) = under.next()?;
        if under.next().is_some() || p.spec().store.is_some() {
            return None;
        }
        let (p, root) = (*p, cfg.root(*p));
        let path = &root.join(named.strip_prefix(watched_root).ok()?);
        let md = match fs::symlink_metadata(path) {
            Ok(md) => md,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && named != watched_root => {
                // A key is text: a name that is not had no log indexed under it.
                if let Some(key) = path.to_str() {
                    out.gone.push(key.to_string());
                }
                continue;
            }
            Err(_) => return None,
        };
        if !md.is_file() {
            return None;
        }
        if !matches_provider(p, path) {
            continue;
        }
        let parent = named.parent()?;
        let below = parent.strip_prefix(watched_root).ok()?;
        if fs::canonicalize(parent).ok()? != fs::canonicalize(root).ok()?.join(below) {
            return None;
        }
        match path.to_str() {
            Some(key) => {
                let key = key.to_string();
                out.discovery
                    .found
                    .push(log_file(p, path.clone(), key, &md, now));
            }
            None => out
                .discovery
                .skipped
                .push((path.clone(), SkipReason::NonUtf8Name)),
        }
    }
    Some(out)
}

impl Walker {
    /// A walker for one root's tree, with this one's clock and roots.
    fn empty(&self) -> Walker {
        Walker::new(self.now, self.roots.clone())
    }

    /// A walker that has found nothing yet.
    fn new(now: i64, roots: Vec<PathBuf>) -> Walker {
        Walker {
            now,
            roots,
            out: Discovery::default(),
            files: HashSet::new(),
            folders: HashSet::new(),
            links: VecDeque::new(),
        }
    }

    /// Adds what `other` found after what this one found.
    fn take(&mut self, other: Walker) {
        self.out.found.extend(other.out.found);
        self.out.skipped.extend(other.out.skipped);
        self.out.links_followed += other.out.links_followed;
        self.files.extend(other.files);
        self.folders.extend(other.folders);
        self.links.extend(other.links);
    }

    fn skip(&mut self, path: PathBuf, reason: SkipReason) {
        self.out.skipped.push((path, reason));
    }

    /// Walks the tree under `top` without following links (they are queued).
    fn walk(&mut self, p: Provider, top: PathBuf) {
        let mut stack = vec![top];
        while let Some(dir) = stack.pop() {
            let rd = match fs::read_dir(&dir) {
                Ok(rd) => rd,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(_) => {
                    self.skip(dir, SkipReason::UnreadableFolder);
                    continue;
                }
            };
            let mut entries = Vec::new();
            let mut listing_failed = false;
            for entry in rd {
                match entry {
                    Ok(e) => entries.push(e),
                    Err(_) => listing_failed = true,
                }
            }
            if listing_failed {
                self.skip(dir.clone(), SkipReason::UnreadableFolder);
            }
            // Sorted, so that which of two paths to one file is kept does not depend on the
            // order the file system lists them in.
            entries.sort_by_key(|e| e.file_name());
            let mut subdirs = Vec::new();
            for entry in entries {
                let path = entry.path();
                let Ok(ft) = entry.file_type() else {
                    if matches_provider(p, &path) {
                        self.skip(path, SkipReason::UnreadableFile);
                    }
                    continue;
                };
                if ft.is_symlink() {
                    self.links.push_back((p, path));
                } else if ft.is_dir() {
                    if let Some(id) = entry.metadata().ok().and_then(|md| node_id(&path, &md)) {
                        self.folders.insert(id);
                    }
                    subdirs.push(path);
                } else if ft.is_file() && matches_provider(p, &path) {
                    match entry.metadata() {
                        Ok(md) => self.file(p, path, &md),
                        Err(e) => self.skip(path, SkipReason::of_read_error(&e)),
                    }
                }
            }
            stack.extend(subdirs.into_iter().rev());
        }
    }

    /// Takes a log file found at `path` (named like a log of `p`).
    fn file(&mut self, p: Provider, path: PathBuf, md: &Metadata) {
        let Some(key) = path.to_str().map(str::to_string) else {
            self.skip(path, SkipReason::NonUtf8Name);
            return;
        };
        if let Some(id) = node_id(&path, md) {
            self.files.insert(id);
        }
        if let Some(store) = p.spec().store {
            self.store(p, path, key, store);
            return;
        }
        self.out.found.push(log_file(p, path, key, md, self.now));
    }

    /// Takes each session of a store source as its own unit: its fingerprint stands for the
    /// file's identity, so an unchanged session is not read again.
    fn store(&mut self, p: Provider, path: PathBuf, key: String, store: &StoreSpec) {
        let units = match (store.list)(&path) {
            Ok(units) => units,
            Err(reason) => return self.skip(path, reason),
        };
        for u in units {
            self.out.found.push(Found {
                provider: p,
                path: path.clone(),
                key: format!("{key}#{}", u.id),
                size: u.records,
                mtime_ns: u.updated_ms.saturating_mul(1_000_000),
                ino: 0,
                ctime_ns: u.fingerprint,
                stored_ctime_ns: u.fingerprint,
                unit: Some(u.id),
            });
        }
    }

    /// Follows one link met in `p`'s tree, if it stays in the roots and leads somewhere new.
    fn follow(&mut self, p: Provider, link: PathBuf) {
        let target = match fs::canonicalize(&link) {
            Ok(t) => t,
            Err(e) => {
                // Where the target is unknown, only a link named like a log is worth a note.
                let reason = match e.kind() {
                    std::io::ErrorKind::NotFound => SkipReason::BrokenSymlink,
                    std::io::ErrorKind::PermissionDenied => SkipReason::UnreadableFolder,
                    _ if e.raw_os_error() == Some(ELOOP) => SkipReason::SymlinkLoop,
                    _ => SkipReason::UnreadableFile,
                };
                if reason == SkipReason::SymlinkLoop || matches_provider(p, &link) {
                    self.skip(link, reason);
                }
                return;
            }
        };
        let md = match fs::metadata(&target) {
            Ok(md) => md,
            Err(e) => {
                if matches_provider(p, &link) {
                    self.skip(link, SkipReason::of_read_error(&e));
                }
                return;
            }
        };
        let is_log = md.is_file() && matches_provider(p, &link);
        if !md.is_dir() && !is_log {
            return;
        }
        if !self.roots.iter().any(|r| target.starts_with(r)) {
            self.skip(link, SkipReason::SymlinkOutsideRoot);
            return;
        }
        let id = node_id(&target, &md);
        if md.is_dir() {
            if id.as_ref().is_some_and(|id| self.folders.contains(id)) {
                let inside = link
                    .parent()
                    .and_then(|d| fs::canonicalize(d).ok())
                    .is_some_and(|d| d.starts_with(&target));
                let reason = if inside {
                    SkipReason::SymlinkLoop
                } else {
                    SkipReason::DuplicateLink
                };
                self.skip(link, reason);
                return;
            }
            if let Some(id) = id {
                self.folders.insert(id);
            }
            // Walked under the link's own path: the files keep names inside this root.
            self.out.links_followed += 1;
            self.walk(p, link);
        } else if id.as_ref().is_some_and(|id| self.files.contains(id)) {
            self.skip(link, SkipReason::DuplicateLink);
        } else {
            self.out.links_followed += 1;
            self.file(p, link, &md);
        }
    }
}

/// Per-reason counts of skipped files, with a few of them as examples.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkipSummary {
    /// Files (or folders, or links) skipped, per reason; reasons with none are left out.
    pub counts: Vec<(SkipReason, u64)>,
    /// A few of them, the first of each reason first.
    pub examples: Vec<SkippedFile>,
}

impl SkipSummary {
    /// Counts and at most `max_examples` examples (one per reason before a second of any).
    pub fn of(skipped: &[SkippedFile], max_examples: usize) -> SkipSummary {
        let mut sorted: Vec<&SkippedFile> = skipped.iter().collect();
        sorted.sort_by(|a, b| (a.reason, &a.path).cmp(&(b.reason, &b.path)));
        let mut counts: Vec<(SkipReason, u64)> = Vec::new();
        for s in &sorted {
            match counts.last_mut() {
                Some((r, n)) if *r == s.reason => *n += 1,
                _ => counts.push((s.reason, 1)),
            }
        }
        let mut examples = Vec::new();
        let mut round = 0usize;
        while examples.len() < max_examples && examples.len() < sorted.len() {
            for (reason, _) in &counts {
                if examples.len() == max_examples {
                    break;
                }
                if let Some(s) = sorted.iter().filter(|s| s.reason == *reason).nth(round) {
                    examples.push((*s).clone());
                }
            }
            round += 1;
        }
        SkipSummary { counts, examples }
    }

    /// Files skipped in all.
    pub fn total(&self) -> u64 {
        self.counts.iter().map(|(_, n)| n).sum()
    }

    /// How many were skipped for `reason`.
    pub fn count(&self, reason: SkipReason) -> u64 {
        self.counts
            .iter()
            .find(|(r, _)| *r == reason)
            .map_or(0, |(_, n)| *n)
    }

    /// `unreadable_file 2, symlink_loop 1`.
    pub fn counts_text(&self) -> String {
        self.counts
            .iter()
            .map(|(r, n)| format!("{r} {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_has_its_own_stable_name() {
        let names: HashSet<&str> = SkipReason::ALL.iter().map(|r| r.as_str()).collect();
        assert_eq!(names.len(), SkipReason::ALL.len());
        for r in SkipReason::ALL {
            assert_eq!(SkipReason::from_name(r.as_str()), Some(r));
            // The serde name is the stored one too.
            assert_eq!(serde_json::to_value(r).unwrap(), r.as_str());
        }
        assert_eq!(SkipReason::from_name("something_new"), None);
    }

    #[test]
    fn a_summary_names_one_example_of_each_reason_before_a_second() {
        let s = |path: &str, reason| SkippedFile {
            path: path.into(),
            reason,
        };
        let all = [
            s("b", SkipReason::SymlinkLoop),
            s("a", SkipReason::SymlinkLoop),
            s("c", SkipReason::UnreadableFile),
            s("d", SkipReason::SymlinkLoop),
        ];
        let summary = SkipSummary::of(&all, 3);
        assert_eq!(
            summary.counts,
            [
                (SkipReason::UnreadableFile, 1),
                (SkipReason::SymlinkLoop, 3)
            ]
        );
        assert_eq!(summary.total(), 4);
        assert_eq!(summary.count(SkipReason::SymlinkLoop), 3);
        assert_eq!(summary.counts_text(), "unreadable_file 1, symlink_loop 3");
        let paths: Vec<&str> = summary.examples.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(paths, ["c", "a", "b"]);
        assert!(SkipSummary::of(&all, 0).examples.is_empty());
    }
}
