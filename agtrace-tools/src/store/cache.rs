//! Parsed sessions kept between tool calls.
//!
//! A model reads one session through several calls (summary, turns, steps, then every page of
//! the full transcript), and each call needs the whole parsed file. Without a cache, paging
//! through a session of N pages parses it N times. An entry is used only while the log file
//! has the size and modification time it had when it was parsed, and while the index still
//! describes the session the same way; anything else is a miss and a fresh parse.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use super::detail::SessionDetail;

const MAX_ENTRIES: usize = 32;

/// What a log file looked like when it was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FileStamp {
    len: u64,
    modified: Option<SystemTime>,
}

impl FileStamp {
    pub(crate) fn of(path: &Path) -> std::io::Result<Self> {
        let meta = std::fs::metadata(path)?;
        Ok(FileStamp {
            len: meta.len(),
            modified: meta.modified().ok(),
        })
    }
}

struct Entry {
    stamp: FileStamp,
    detail: Arc<SessionDetail>,
    last_used: u64,
}

#[derive(Default)]
struct Entries {
    list: Vec<Entry>,
    clock: u64,
}

impl Entries {
    fn bytes(&self) -> u64 {
        self.list.iter().map(|e| e.stamp.len).sum()
    }
}

/// Parsed sessions, least recently used evicted first, bounded by the log bytes they were
/// parsed from.
pub(crate) struct SessionCache {
    entries: Mutex<Entries>,
    budget: u64,
}

impl SessionCache {
    /// A cache of at most `budget` log bytes; 0 keeps nothing.
    pub(crate) fn new(budget: u64) -> Self {
        SessionCache {
            entries: Mutex::default(),
            budget,
        }
    }

    /// The parsed session, if it was parsed from the file as it is now and `fresh` (what the
    /// index says of it now) matches what it was parsed with.
    pub(crate) fn get(
        &self,
        stamp: FileStamp,
        fresh: impl Fn(&SessionDetail) -> bool,
    ) -> Option<Arc<SessionDetail>> {
        let mut entries = self.entries.lock().ok()?;
        entries.clock += 1;
        let now = entries.clock;
        let hit = entries
            .list
            .iter_mut()
            .find(|e| e.stamp == stamp && fresh(&e.detail))?;
        hit.last_used = now;
        Some(hit.detail.clone())
    }

    /// Keeps a parsed session, replacing an older parse of the same session and evicting the
    /// least recently used ones beyond the budget. A session larger than the budget is not kept.
    pub(crate) fn put(&self, stamp: FileStamp, detail: Arc<SessionDetail>) {
        if stamp.len > self.budget {
            return;
        }
        let Ok(mut entries) = self.entries.lock() else {
            return;
        };
        entries.clock += 1;
        let now = entries.clock;
        entries
            .list
            .retain(|e| e.detail.summary.id != detail.summary.id);
        entries.list.push(Entry {
            stamp,
            detail,
            last_used: now,
        });
        while entries.list.len() > MAX_ENTRIES || entries.bytes() > self.budget {
            let oldest = (0..entries.list.len())
                .min_by_key(|&i| entries.list[i].last_used)
                .expect("not empty: the new entry fits");
            entries.list.swap_remove(oldest);
        }
    }

    /// Number of sessions kept and the log bytes they were parsed from.
    pub(crate) fn usage(&self) -> (usize, u64) {
        self.entries
            .lock()
            .map(|e| (e.list.len(), e.bytes()))
            .unwrap_or((0, 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::{ProjectRef, SessionSummary};
    use crate::model::Provider;

    fn detail(id: &str) -> Arc<SessionDetail> {
        let summary = SessionSummary {
            id: id.to_string(),
            provider: Provider::Codex,
            project: ProjectRef {
                hash: None,
                root: None,
            },
            parent_id: None,
            is_subagent: false,
            start: None,
            end: None,
            model: None,
            event_count: 0,
            turn_count: 0,
            prompt_count: 0,
            tool_calls: 0,
            tool_errors: 0,
            malformed_lines: 0,
            tokens: Default::default(),
            first_prompt: None,
            path: format!("/logs/{id}.jsonl"),
            archived: false,
        };
        Arc::new(SessionDetail {
            summary,
            events: Vec::new(),
            turns: Vec::new(),
            tokens: Default::default(),
            children: Vec::new(),
        })
    }

    fn stamp(len: u64) -> FileStamp {
        FileStamp {
            len,
            modified: Some(SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(len)),
        }
    }

    fn kept(cache: &SessionCache, id: &str, len: u64) -> bool {
        cache.get(stamp(len), |d| d.summary.id == id).is_some()
    }

    const BUDGET_BYTES: u64 = 1 << 20;

    #[test]
    fn a_hit_needs_the_same_file_stamp_and_a_fresh_description() {
        let cache = SessionCache::new(BUDGET_BYTES);
        cache.put(stamp(10), detail("a"));
        assert!(kept(&cache, "a", 10));
        assert!(!kept(&cache, "a", 11), "the file changed");
        assert!(
            cache.get(stamp(10), |_| false).is_none(),
            "the index describes it otherwise"
        );
        // A new parse of the same session replaces the old one.
        cache.put(stamp(11), detail("a"));
        assert_eq!(cache.usage(), (1, 11));
        assert!(!kept(&cache, "a", 10));
    }

    #[test]
    fn the_least_recently_used_go_first_beyond_the_budget() {
        let cache = SessionCache::new(BUDGET_BYTES);
        let third = BUDGET_BYTES / 3;
        for (i, id) in ["a", "b", "c"].iter().enumerate() {
            cache.put(stamp(third - i as u64), detail(id));
        }
        assert!(kept(&cache, "a", third), "a is now the most recently used");
        cache.put(stamp(third - 3), detail("d"));
        assert!(
            !kept(&cache, "b", third - 1),
            "b was the least recently used"
        );
        assert!(
            kept(&cache, "a", third)
                && kept(&cache, "c", third - 2)
                && kept(&cache, "d", third - 3)
        );
        // A session over the budget is not kept and evicts nothing.
        cache.put(stamp(BUDGET_BYTES + 1), detail("huge"));
        assert_eq!(cache.usage().0, 3);
        // A budget of 0 keeps nothing.
        let off = SessionCache::new(0);
        off.put(stamp(1), detail("a"));
        assert_eq!(off.usage(), (0, 0));
    }

    #[test]
    fn at_most_max_entries_are_kept() {
        let cache = SessionCache::new(BUDGET_BYTES);
        for i in 0..MAX_ENTRIES as u64 + 5 {
            cache.put(stamp(i + 1), detail(&format!("s{i}")));
        }
        assert_eq!(cache.usage().0, MAX_ENTRIES);
        assert!(
            !kept(&cache, "s0", 1)
                && kept(
                    &cache,
                    &format!("s{}", MAX_ENTRIES + 4),
                    MAX_ENTRIES as u64 + 5
                )
        );
    }
}
