//! Symbolic links in the log roots: followed only into a log root, never in a loop, and a log
//! reached twice is indexed once.
#![cfg(unix)]

mod common;

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use agtrace_tools::config::Config;
use agtrace_tools::index::{SkipReason, SkippedFile};
use agtrace_tools::store::TraceStore;
use mcp_tool::testing::TestClient;
use serde_json::json;

const CLAUDE_SAMPLE: &str =
    "claude/projects/-Users-test_user-agent-sample/7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl";
const CODEX_SAMPLE: &str = "codex/sessions/2025/12/09/rollout-2025-12-09T19-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c.jsonl";

struct Tree {
    _tmp: tempfile::TempDir,
    claude: PathBuf,
    codex: PathBuf,
    outside: PathBuf,
    store: TraceStore,
}

/// Claude and Codex roots with one real log each, and a folder outside the roots with a log.
fn tree() -> Tree {
    let tmp = tempfile::tempdir().unwrap();
    let logs = tmp.path().join("logs");
    let claude = logs.join("claude/projects");
    let codex = logs.join("codex/sessions");
    let outside = tmp.path().join("outside");
    for d in [claude.join("proj"), codex.join("2025"), outside.clone()] {
        std::fs::create_dir_all(d).unwrap();
    }
    let samples = common::samples();
    std::fs::copy(
        samples.join(CLAUDE_SAMPLE),
        claude.join("proj/target.jsonl"),
    )
    .unwrap();
    std::fs::copy(
        samples.join(CODEX_SAMPLE),
        codex.join("2025/rollout-x.jsonl"),
    )
    .unwrap();
    std::fs::copy(samples.join(CLAUDE_SAMPLE), outside.join("elsewhere.jsonl")).unwrap();
    let store = TraceStore::open(Config::for_tree(&logs, &tmp.path().join("data"))).unwrap();
    Tree {
        _tmp: tmp,
        claude,
        codex,
        outside,
        store,
    }
}

fn skipped(path: &str, reason: SkipReason) -> SkippedFile {
    SkippedFile {
        path: path.to_string(),
        reason,
    }
}

/// Paths of the indexed sessions, relative to `base`, sorted.
fn session_paths(store: &TraceStore, base: &Path) -> Vec<String> {
    let mut paths: Vec<String> = store
        .list_sessions(&Default::default(), None, 100)
        .unwrap()
        .sessions
        .into_iter()
        .map(|s| {
            Path::new(&s.path)
                .strip_prefix(base)
                .unwrap()
                .display()
                .to_string()
        })
        .collect();
    paths.sort();
    paths
}

#[test]
fn a_linked_log_inside_its_root_is_indexed_once() {
    let t = tree();
    symlink("target.jsonl", t.claude.join("proj/linked.jsonl")).unwrap();
    // The link sorts before its target, and is still not the one indexed.
    symlink("proj/target.jsonl", t.claude.join("a-link.jsonl")).unwrap();
    let stats = t.store.refresh().unwrap();
    assert_eq!(
        stats.skipped,
        vec![
            skipped("<claude_code root>/a-link.jsonl", SkipReason::DuplicateLink),
            skipped(
                "<claude_code root>/proj/linked.jsonl",
                SkipReason::DuplicateLink
            ),
        ]
    );
    let base = t.claude.parent().unwrap().parent().unwrap();
    assert_eq!(
        session_paths(&t.store, base),
        [
            "claude/projects/proj/target.jsonl",
            "codex/sessions/2025/rollout-x.jsonl"
        ]
    );
}

#[test]
fn a_linked_folder_inside_its_root_adds_nothing_twice() {
    let t = tree();
    symlink("proj", t.claude.join("alias")).unwrap();
    let stats = t.store.refresh().unwrap();
    assert_eq!(
        stats.skipped,
        vec![skipped(
            "<claude_code root>/alias",
            SkipReason::DuplicateLink
        )]
    );
    assert_eq!(stats.files_seen, 2);
}

#[test]
fn loops_are_noted_and_not_followed() {
    let t = tree();
    symlink(".", t.claude.join("proj/loop")).unwrap();
    symlink("..", t.claude.join("proj/up")).unwrap();
    // A chain that never ends: the file system itself refuses to resolve it.
    symlink("b.jsonl", t.claude.join("proj/a.jsonl")).unwrap();
    symlink("a.jsonl", t.claude.join("proj/b.jsonl")).unwrap();
    let stats = t.store.refresh().unwrap();
    assert_eq!(
        stats.skipped,
        vec![
            skipped("<claude_code root>/proj/a.jsonl", SkipReason::SymlinkLoop),
            skipped("<claude_code root>/proj/b.jsonl", SkipReason::SymlinkLoop),
            skipped("<claude_code root>/proj/loop", SkipReason::SymlinkLoop),
            skipped("<claude_code root>/proj/up", SkipReason::SymlinkLoop),
        ]
    );
    assert_eq!(stats.files_seen, 2);
}

#[test]
fn links_out_of_the_roots_are_noted_and_not_followed() {
    let t = tree();
    symlink(
        t.outside.join("elsewhere.jsonl"),
        t.claude.join("proj/escape.jsonl"),
    )
    .unwrap();
    symlink(&t.outside, t.claude.join("escaped-folder")).unwrap();
    // `..` out of the root, then back into a folder beside it.
    symlink("../../../../outside", t.claude.join("proj/sneaky")).unwrap();
    // Broken, and named like a log; a link to a file that is no log is not worth a note.
    symlink("missing.jsonl", t.claude.join("proj/broken.jsonl")).unwrap();
    symlink("/etc/hostname", t.claude.join("proj/hostname.txt")).unwrap();
    let stats = t.store.refresh().unwrap();
    assert_eq!(
        stats.skipped,
        vec![
            skipped(
                "<claude_code root>/escaped-folder",
                SkipReason::SymlinkOutsideRoot
            ),
            skipped(
                "<claude_code root>/proj/broken.jsonl",
                SkipReason::BrokenSymlink
            ),
            skipped(
                "<claude_code root>/proj/escape.jsonl",
                SkipReason::SymlinkOutsideRoot
            ),
            skipped(
                "<claude_code root>/proj/sneaky",
                SkipReason::SymlinkOutsideRoot
            ),
        ]
    );
    assert_eq!((stats.files_seen, stats.files_parsed), (2, 2));
}

#[test]
fn links_into_another_log_root_are_deduplicated_or_followed() {
    let t = tree();
    // Into the Codex root: its logs are indexed once, as Codex logs.
    symlink(&t.codex, t.claude.join("codex-folder")).unwrap();
    symlink(
        t.codex.join("2025/rollout-x.jsonl"),
        t.claude.join("proj/codex-file.jsonl"),
    )
    .unwrap();
    // A file there that the Codex root does not index is followed, as a Claude log.
    std::fs::copy(
        common::samples().join(CLAUDE_SAMPLE),
        t.codex.join("2025/kept-here.jsonl"),
    )
    .unwrap();
    symlink(
        t.codex.join("2025/kept-here.jsonl"),
        t.claude.join("proj/followed.jsonl"),
    )
    .unwrap();
    let stats = t.store.refresh().unwrap();
    assert_eq!(
        stats.skipped,
        vec![
            skipped("<claude_code root>/codex-folder", SkipReason::DuplicateLink),
            skipped(
                "<claude_code root>/proj/codex-file.jsonl",
                SkipReason::DuplicateLink
            ),
        ]
    );
    let base = t.claude.parent().unwrap().parent().unwrap();
    assert_eq!(
        session_paths(&t.store, base),
        [
            "claude/projects/proj/followed.jsonl",
            "claude/projects/proj/target.jsonl",
            "codex/sessions/2025/rollout-x.jsonl"
        ]
    );
    let providers: Vec<String> = t
        .store
        .list_sessions(&Default::default(), None, 100)
        .unwrap()
        .sessions
        .iter()
        .map(|s| format!("{:?}", s.provider))
        .collect();
    assert_eq!(
        providers.iter().filter(|p| p.contains("Codex")).count(),
        1,
        "{providers:?}"
    );
    // Unchanged on the next run: the link's session stays, nothing is re-read.
    let again = t.store.refresh().unwrap();
    assert_eq!((again.files_parsed, again.files_skipped), (0, 3));
    assert_eq!(again.skipped, stats.skipped);
}

#[tokio::test]
async fn get_project_info_counts_link_problems() {
    let t = tree();
    symlink(".", t.claude.join("proj/loop")).unwrap();
    symlink(&t.outside, t.claude.join("escaped")).unwrap();
    symlink("target.jsonl", t.claude.join("proj/linked.jsonl")).unwrap();
    t.store.refresh().unwrap();
    let server = agtrace_tools::server::build(t.store.clone()).unwrap();
    let client = TestClient::in_process(&server).await;
    let answer = client.call("get_project_info", json!({})).await;
    // The Claude and Codex samples share one project.
    assert_eq!(answer.expect_ok()[0]["sessions"]["total"], 2);
    assert_eq!(
        answer.envelope["warnings"],
        json!([
            "3 log files or folders are not indexed: symlink_loop 1, symlink_outside_root 1, duplicate_link 1. \
             E.g. <claude_code root>/proj/loop (symlink_loop); <claude_code root>/escaped (symlink_outside_root); \
             <claude_code root>/proj/linked.jsonl (duplicate_link). `agtrace index` lists them all."
        ])
    );
}
