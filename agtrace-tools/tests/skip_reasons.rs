//! Every log file the index skips is noted with its true reason: in the run's stats, in
//! `agtrace index`'s summary and in `get_project_info`'s answer.
#![cfg(unix)]

mod common;

use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, SystemTime};

use agtrace_tools::config::Config;
use agtrace_tools::index::{SkipReason, SkippedFile};
use agtrace_tools::model::Provider;
use agtrace_tools::store::TraceStore;
use common::samples;
use mcp_tool::testing::TestClient;
use serde_json::json;

fn claude_sample() -> PathBuf {
    samples().join(
        "claude/projects/-Users-test_user-agent-sample/7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl",
    )
}

fn gemini_sample() -> Vec<u8> {
    let dir = samples().join("gemini/tmp");
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "json") {
                return std::fs::read(p).unwrap();
            }
        }
    }
    panic!("no Gemini sample");
}

/// The three roots of `Config::for_tree` under `tmp/logs`, created, and the config.
fn tree(tmp: &Path) -> (PathBuf, Config) {
    let logs = tmp.join("logs");
    for r in [
        "claude/projects/proj",
        "codex/sessions",
        "gemini/tmp/h/chats",
    ] {
        std::fs::create_dir_all(logs.join(r)).unwrap();
    }
    (logs.clone(), Config::for_tree(&logs, &tmp.join("data")))
}

fn skipped(path: &str, reason: SkipReason) -> SkippedFile {
    SkippedFile {
        path: path.to_string(),
        reason,
    }
}

fn set_mtime(path: &Path, ago: Duration) {
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(SystemTime::now() - ago)
        .unwrap();
}

async fn project_info_warning(store: &TraceStore) -> Option<String> {
    let server = agtrace_tools::server::build(store.clone()).unwrap();
    let client = TestClient::in_process(&server).await;
    let answer = client.call("get_project_info", json!({})).await;
    answer.expect_ok();
    client.assert_within_size_hint(&answer);
    let warnings = answer.envelope["warnings"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(warnings.len() <= 1, "{warnings:?}");
    warnings.first().map(|w| w.as_str().unwrap().to_string())
}

#[tokio::test]
async fn each_content_and_name_reason_is_noted_counted_and_served() {
    let tmp = tempfile::tempdir().unwrap();
    let (logs, cfg) = tree(tmp.path());
    let claude = logs.join("claude/projects");
    let chats = logs.join("gemini/tmp/h/chats");
    std::fs::copy(claude_sample(), claude.join("proj/good.jsonl")).unwrap();
    // A name that is not UTF-8, and a log in a folder whose name is not.
    let bad = claude
        .join("proj")
        .join(std::ffi::OsStr::from_bytes(b"bad\xffname.jsonl"));
    std::fs::copy(claude_sample(), &bad).unwrap();
    let bad_dir = claude.join(std::ffi::OsStr::from_bytes(b"dir\xfe"));
    std::fs::create_dir(&bad_dir).unwrap();
    std::fs::copy(claude_sample(), bad_dir.join("inner.jsonl")).unwrap();
    // Not named like a log: not a skipped log either.
    std::fs::write(claude.join("proj/notes.txt"), "hello").unwrap();

    let doc = gemini_sample();
    std::fs::write(chats.join("session-good.json"), &doc).unwrap();
    // Complete, valid JSON, but 100,000 arrays deep: beyond serde_json's 128 levels.
    let depth = 100_000;
    let deep = format!(
        "{{\"sessionId\":\"deep\",\"messages\":[],\"x\":{}{}}}",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    std::fs::write(chats.join("session-deep.json"), deep).unwrap();
    std::fs::write(chats.join("session-garbage.json"), "this is not JSON {").unwrap();
    std::fs::write(chats.join("session-array.json"), "[1, 2, 3]").unwrap();
    // Cut in half: an old one was cut short, a fresh one is being written.
    std::fs::write(chats.join("session-old-cut.json"), &doc[..doc.len() / 2]).unwrap();
    set_mtime(
        &chats.join("session-old-cut.json"),
        Duration::from_secs(2 * 86_400),
    );
    std::fs::write(chats.join("session-fresh-cut.json"), &doc[..doc.len() / 2]).unwrap();

    let store = TraceStore::open(cfg.clone()).unwrap();
    let stats = store.refresh().unwrap();
    let expected = vec![
        skipped(
            "<claude_code root>/dir\u{FFFD}/inner.jsonl",
            SkipReason::NonUtf8Name,
        ),
        skipped(
            "<claude_code root>/proj/bad\u{FFFD}name.jsonl",
            SkipReason::NonUtf8Name,
        ),
        skipped(
            "<gemini root>/h/chats/session-array.json",
            SkipReason::NotALog,
        ),
        skipped(
            "<gemini root>/h/chats/session-deep.json",
            SkipReason::TooDeeplyNested,
        ),
        skipped(
            "<gemini root>/h/chats/session-fresh-cut.json",
            SkipReason::BeingWritten,
        ),
        skipped(
            "<gemini root>/h/chats/session-garbage.json",
            SkipReason::NotValidJson,
        ),
        skipped(
            "<gemini root>/h/chats/session-old-cut.json",
            SkipReason::Truncated,
        ),
    ];
    assert_eq!(stats.skipped, expected);
    assert_eq!(
        stats.files_incomplete, 1,
        "only the fresh cut is being written"
    );
    assert_eq!(stats.files_parsed, 2, "the good Claude and Gemini logs");
    assert!(
        stats.notes.iter().all(|n| !n.contains("being written")),
        "{:?}",
        stats.notes
    );

    let warning = project_info_warning(&store).await.expect("a warning");
    assert!(
        warning.starts_with(
            "7 log files or folders are not indexed: non_utf8_name 2, too_deeply_nested 1, \
             not_valid_json 1, not_a_log 1, truncated 1, being_written 1. E.g. "
        ),
        "{warning}"
    );
    // One example of each reason first, three in all.
    assert!(
        warning.contains("<claude_code root>/dir\u{FFFD}/inner.jsonl (non_utf8_name); <gemini root>/h/chats/session-deep.json (too_deeply_nested); <gemini root>/h/chats/session-garbage.json (not_valid_json)."),
        "{warning}"
    );
    assert!(!warning.contains(tmp.path().to_str().unwrap()), "{warning}");

    // Unchanged files are noted again, and a file set right drops out of the notes.
    let again = store.refresh().unwrap();
    assert_eq!(again.skipped, expected);
    std::fs::write(chats.join("session-deep.json"), &doc).unwrap();
    let fixed = store.refresh().unwrap();
    assert_eq!(fixed.skipped.len(), 6);
    assert!(
        fixed
            .skipped
            .iter()
            .all(|s| s.reason != SkipReason::TooDeeplyNested)
    );
    assert!(
        project_info_warning(&store).await.unwrap().starts_with(
            "6 log files or folders are not indexed: non_utf8_name 2, not_valid_json 1,"
        )
    );

    // Nothing skipped: no warning.
    for name in [
        "session-array.json",
        "session-garbage.json",
        "session-old-cut.json",
        "session-fresh-cut.json",
    ] {
        std::fs::remove_file(chats.join(name)).unwrap();
    }
    std::fs::remove_file(&bad).unwrap();
    std::fs::remove_dir_all(&bad_dir).unwrap();
    assert_eq!(store.refresh().unwrap().skipped, vec![]);
    assert_eq!(project_info_warning(&store).await, None);
}

/// Whether this process runs as root, which reads files whatever their permissions.
fn running_as_root(tmp: &Path) -> bool {
    let probe = tmp.join("uid-probe");
    std::fs::write(&probe, "").unwrap();
    std::fs::metadata(&probe).unwrap().uid() == 0
}

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// `agtrace index` on `cfg`'s roots. As root, run without the capabilities that let root
/// ignore permissions (through `setpriv`); `None` when that is not possible here.
fn agtrace_index(cfg: &Config, as_root: bool) -> Option<std::process::Output> {
    let bin = env!("CARGO_BIN_EXE_agtrace");
    let mut cmd = if as_root {
        let available = Command::new("setpriv")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        if !available {
            return None;
        }
        let mut c = Command::new("setpriv");
        c.args([
            "--inh-caps=-all",
            "--bounding-set=-dac_override,-dac_read_search",
            bin,
        ]);
        c
    } else {
        Command::new(bin)
    };
    let out = cmd
        .arg(format!(
            "--claude-dir={}",
            cfg.root(Provider::ClaudeCode).display()
        ))
        .arg(format!(
            "--codex-dir={}",
            cfg.root(Provider::Codex).display()
        ))
        .arg(format!(
            "--gemini-dir={}",
            cfg.root(Provider::Gemini).display()
        ))
        .arg(format!("--data-dir={}", cfg.data_dir.display()))
        .arg("index")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    Some(out)
}

#[tokio::test]
async fn unreadable_files_and_folders_are_noted_as_such_and_keep_their_sessions() {
    let tmp = tempfile::tempdir().unwrap();
    let (logs, cfg) = tree(tmp.path());
    let claude = logs.join("claude/projects");
    std::fs::copy(claude_sample(), claude.join("proj/good.jsonl")).unwrap();
    std::fs::copy(claude_sample(), claude.join("proj/unreadable.jsonl")).unwrap();
    std::fs::create_dir(claude.join("locked")).unwrap();
    std::fs::copy(claude_sample(), claude.join("locked/inside.jsonl")).unwrap();
    let store = TraceStore::open(cfg.clone()).unwrap();
    assert_eq!(store.refresh().unwrap().files_parsed, 3);

    chmod(&claude.join("proj/unreadable.jsonl"), 0o000);
    chmod(&claude.join("locked"), 0o000);
    let as_root = running_as_root(tmp.path());
    let out = agtrace_index(&cfg, as_root);
    chmod(&claude.join("proj/unreadable.jsonl"), 0o644);
    chmod(&claude.join("locked"), 0o755);
    let Some(out) = out else {
        eprintln!(
            "skipped: running as root without `setpriv`, so permissions cannot deny a read here"
        );
        return;
    };
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stdout.contains("0 removed, 2 not indexed (unreadable_folder 1, unreadable_file 1);"),
        "{stdout}"
    );
    assert!(
        stderr.contains("note: not indexed (unreadable_folder): <claude_code root>/locked\n"),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "note: not indexed (unreadable_file): <claude_code root>/proj/unreadable.jsonl\n"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("being written"), "{stderr}");

    // The tool reads what that run (another process) recorded.
    let warning = project_info_warning(&store).await.expect("a warning");
    assert_eq!(
        warning,
        "2 log files or folders are not indexed: unreadable_folder 1, unreadable_file 1. \
         E.g. <claude_code root>/locked (unreadable_folder); \
         <claude_code root>/proj/unreadable.jsonl (unreadable_file). `agtrace index` lists them all."
    );
    // What was indexed before is kept while it cannot be read.
    let sessions = store
        .list_sessions(&Default::default(), None, 10)
        .unwrap()
        .sessions;
    assert_eq!(sessions.len(), 3);
}

/// A missing log root is noted under its own provider's name, also when several providers
/// were given the same folder.
#[test]
fn a_missing_root_shared_by_providers_is_noted_for_each_by_its_own_name() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("none");
    let mut config = Config::for_tree(&tmp.path().join("logs"), &tmp.path().join("data"));
    for p in [Provider::QwenCode, Provider::CopilotCli, Provider::Opencode] {
        config = config.with_root(p, &missing);
    }
    let stats = TraceStore::open(config).unwrap().refresh().unwrap();
    for p in [Provider::QwenCode, Provider::CopilotCli, Provider::Opencode] {
        let note = format!("{p} log root <{p} root> does not exist; skipped");
        assert!(stats.notes.contains(&note), "{note:?} in {:?}", stats.notes);
    }
}
