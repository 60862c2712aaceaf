//! `list_file_history` end to end through MCP (the in-process server) on the real logs of
//! `tests/real_logs/`: the same task ("add myapp directory and create myapp/hoge.py ...", then
//! "cd to myapp and run python hoge.py") done by Claude Code, Codex and Gemini CLI, each with
//! its own tools (Write / apply_patch / write_file; Bash, shell_command, run_shell_command).

mod tools_support;

use std::collections::BTreeSet;
use std::path::PathBuf;

use agtrace_tools::config::Config;
use agtrace_tools::store::TraceStore;
use mcp_tool::testing::TestClient;
use serde_json::{Value, json};
use tools_support::*;

const ROOT: &str = "/Users/test_user/agent-sample";
const WRITE_PROMPT: &str =
    "add myapp directory and create myapp/hoge.py which shows result of print(1+1).";
const RUN_PROMPT: &str = "cd to myapp and run python hoge.py";
const CODEX_FORK: &str = "019b04bc-2dc0-7a3e-9c11-5f0e2b7d4a61";
const FORK_RUN_PROMPT: &str = "run myapp/hoge.py with python3 and show its output";

struct RealLogs {
    _tmp: tempfile::TempDir,
    client: TestClient,
}

/// The real-log set indexed in place (only read), served in process.
async fn served() -> RealLogs {
    let tmp = tempfile::tempdir().unwrap();
    let logs = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/real_logs");
    let store = TraceStore::open(Config::for_tree(&logs, &tmp.path().join("data"))).unwrap();
    store.refresh().unwrap();
    let server = agtrace_tools::server::build(store).unwrap();
    let client = TestClient::in_process(&server).await;
    RealLogs { _tmp: tmp, client }
}

/// Every row of the history of `args`, page after page (budget and pagination checked).
async fn rows(c: &TestClient, args: Value) -> Vec<Value> {
    items(&all_pages(c, "list_file_history", args).await)
}

/// (session, turn, path, actions) of each row.
fn facts(rows: &[Value]) -> Vec<(String, u64, String, Vec<String>)> {
    rows.iter()
        .map(|r| {
            (
                r["session_id"].as_str().unwrap().to_owned(),
                r["turn_index"].as_u64().unwrap(),
                r["path"].as_str().unwrap().to_owned(),
                r["actions"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|a| a.as_str().unwrap().to_owned())
                    .collect(),
            )
        })
        .collect()
}

#[tokio::test]
async fn a_file_written_then_run_is_found_in_every_provider_with_its_action_and_prompt() {
    let s = served().await;
    let c = &s.client;
    let found = rows(c, json!({"path": "myapp/hoge.py", "limit": 50})).await;
    // Per provider: the turn that wrote it, and the turn that ran it.
    let mut seen = BTreeSet::new();
    // The Codex fork of the real rollout (tests/real_logs/SOURCES.md) ran it once more, in its
    // own turn: a row of its own, with its own prompt; the history it copied adds none.
    let (forks, others): (Vec<&Value>, Vec<&Value>) =
        found.iter().partition(|r| r["session_id"] == CODEX_FORK);
    assert_eq!(forks.len(), 1, "{forks:?}");
    assert_eq!(forks[0]["prompt"]["text"], FORK_RUN_PROMPT);
    assert_eq!(forks[0]["actions"], json!(["run"]));
    for r in others {
        let provider = r["provider"].as_str().unwrap();
        let actions: Vec<&str> = r["actions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        let prompt = r["prompt"]["text"].as_str().unwrap();
        let tools: Vec<&str> = r["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap())
            .collect();
        let (want_prompt, want_tool) = match (provider, actions.as_slice()) {
            ("claude_code", ["write"]) => (WRITE_PROMPT, "Write"),
            ("codex", ["write"]) => (WRITE_PROMPT, "apply_patch"),
            ("gemini", ["write"]) => (WRITE_PROMPT, "write_file"),
            ("claude_code", ["run"]) => (RUN_PROMPT, "Bash"),
            ("codex", ["run"]) => (RUN_PROMPT, "shell_command"),
            ("gemini", ["run"]) => (RUN_PROMPT, "run_shell_command"),
            other => panic!("unexpected row {other:?}: {r}"),
        };
        assert_eq!(prompt, want_prompt, "{r}");
        assert_eq!(tools, vec![want_tool], "{r}");
        assert!(
            seen.insert((provider.to_owned(), actions[0].to_owned())),
            "two rows for {provider} {actions:?}"
        );
        // Known roots make absolute paths; Gemini's log names none (only a hash).
        let want_path = if provider == "gemini" {
            "myapp/hoge.py".to_owned()
        } else {
            format!("{ROOT}/myapp/hoge.py")
        };
        assert_eq!(r["path"], want_path.as_str());
        // Codex ran it three times (python, again with escalation, python3), the others twice.
        assert_eq!(
            r["calls"],
            if (provider, actions[0]) == ("codex", "run") {
                3
            } else if actions[0] == "run" {
                2
            } else {
                1
            },
            "{r}"
        );

        // The coordinates lead to the turn and the calls.
        let session = r["session_id"].as_str().unwrap();
        let turns = items(
            &all_pages(
                c,
                "get_session_turns",
                json!({"session_id": session, "limit": 50}),
            )
            .await,
        );
        let turn = turns
            .iter()
            .find(|t| t["turn_index"] == r["turn_index"])
            .unwrap();
        assert_eq!(turn["prompt"]["text"], want_prompt);
        for index in r["event_indexes"].as_array().unwrap() {
            let event = c
                .call(
                    "get_event_details",
                    json!({"session_id": session, "event_index": index}),
                )
                .await;
            let part = &event.expect_ok()[0];
            assert_eq!(part["kind"], "tool_call");
            assert_eq!(part["tool_name"], want_tool);
            assert_eq!(part["turn_index"], r["turn_index"]);
            assert!(part["text"].as_str().unwrap().contains("hoge.py"), "{part}");
        }
    }
    assert_eq!(seen.len(), 6, "{seen:?}");

    // Newest session first, a session's later turn first.
    let order: Vec<(String, u64)> = found
        .iter()
        .map(|r| {
            (
                r["session_start"].as_str().unwrap().to_owned(),
                r["turn_index"].as_u64().unwrap(),
            )
        })
        .collect();
    let mut sorted = order.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(order, sorted);

    // Spelled another way, the same file.
    for spelling in ["./myapp//hoge.py", "myapp/../myapp/hoge.py"] {
        assert_eq!(
            facts(&rows(c, json!({"path": spelling, "limit": 50})).await),
            facts(&found),
            "{spelling}"
        );
    }
    // Absolute: the same rows, but for Gemini's, whose root the log does not name.
    let absolute = rows(
        c,
        json!({"path": format!("{ROOT}/myapp/hoge.py"), "limit": 50}),
    )
    .await;
    let known_root: Vec<Value> = found
        .iter()
        .filter(|r| r["provider"] != "gemini")
        .cloned()
        .collect();
    assert_eq!(facts(&absolute), facts(&known_root));
    // Claude Code's and Codex's write and run turns, and the Codex fork's run.
    assert_eq!(absolute.len(), 5);
}

#[tokio::test]
async fn directories_globs_filters_and_pages() {
    let s = served().await;
    let c = &s.client;
    let file = rows(c, json!({"path": "myapp/hoge.py", "limit": 50})).await;
    // A directory: the file, and the directory itself (mkdir myapp).
    let dir = rows(c, json!({"path": "myapp/", "limit": 50})).await;
    let mkdirs: Vec<&Value> = dir
        .iter()
        .filter(|r| r["path"].as_str().unwrap().ends_with("myapp"))
        .collect();
    assert_eq!(mkdirs.len(), 3, "{dir:?}");
    assert!(
        mkdirs
            .iter()
            .all(|r| r["actions"] == json!(["write"]) && r["prompt"]["text"] == WRITE_PROMPT)
    );
    let mut rest: Vec<Value> = dir
        .iter()
        .filter(|r| !r["path"].as_str().unwrap().ends_with("myapp"))
        .cloned()
        .collect();
    rest.sort_by_key(|r| r.to_string());
    let mut want = file.clone();
    want.sort_by_key(|r| r.to_string());
    assert_eq!(rest, want);
    // `myapp` without the slash is the same directory; `myap` is no directory.
    assert_eq!(
        facts(&rows(c, json!({"path": "myapp", "limit": 50})).await),
        facts(&dir)
    );
    let none = c.call("list_file_history", json!({"path": "myap"})).await;
    assert!(none.expect_ok().as_array().unwrap().is_empty());
    assert!(none.envelope["hint"].as_str().unwrap().contains("glob"));

    // Globs: by name, by directory, and a literal-free one.
    assert_eq!(
        facts(&rows(c, json!({"path": "**/*.py", "limit": 50})).await),
        facts(&file)
    );
    assert_eq!(
        facts(&rows(c, json!({"path": "myapp/*", "limit": 50})).await),
        facts(&file)
    );
    assert_eq!(
        facts(&rows(c, json!({"path": "my*/hoge.p?", "limit": 50})).await),
        facts(&file)
    );
    assert_eq!(
        facts(
            &rows(
                c,
                json!({"path": format!("{ROOT}/**/hoge.py"), "limit": 50})
            )
            .await
        ),
        facts(
            &file
                .iter()
                .filter(|r| r["provider"] != "gemini")
                .cloned()
                .collect::<Vec<_>>()
        )
    );
    assert!(rows(c, json!({"path": "myapp/*.rs"})).await.is_empty());

    // Filters.
    let project = rows(
        c,
        json!({"path": "myapp/hoge.py", "project": ROOT, "limit": 50}),
    )
    .await;
    // Claude Code's and Codex's write and run turns, and the Codex fork's run.
    assert_eq!(project.len(), 5);
    assert!(project.iter().all(|r| r["provider"] != "gemini"));
    assert!(
        rows(c, json!({"path": "myapp", "since": "2999-01-01T00:00:00Z"}))
            .await
            .is_empty()
    );

    // Pages of one row hold the same rows, in the same order, as one page.
    let paged = rows(c, json!({"path": "myapp", "limit": 1})).await;
    assert_eq!(paged, dir);
    let first = c
        .call("list_file_history", json!({"path": "myapp", "limit": 1}))
        .await;
    let cursor = first.next_cursor().unwrap().to_owned();
    let other = c
        .call(
            "list_file_history",
            json!({"path": "myapp/hoge.py", "limit": 1, "cursor": cursor}),
        )
        .await;
    assert_eq!(error_code(&other), "invalid_cursor");
}

#[tokio::test]
async fn glob_pages_continue_where_the_last_ended() {
    let s = served().await;
    let c = &s.client;
    // With a literal head and without: pages of one row are the rows of one page.
    for glob in ["myapp/**", "**/hoge.py", "**/*", "my*/*.py"] {
        let whole = rows(c, json!({"path": glob, "limit": 50})).await;
        assert!(whole.len() > 2, "{glob}: {whole:?}");
        assert_eq!(
            rows(c, json!({"path": glob, "limit": 1})).await,
            whole,
            "{glob}"
        );
        // Page 2 starts with the second row.
        let first = c
            .call("list_file_history", json!({"path": glob, "limit": 1}))
            .await;
        let second = c
            .call(
                "list_file_history",
                json!({"path": glob, "limit": 1, "cursor": first.next_cursor().unwrap()}),
            )
            .await;
        assert_eq!(second.expect_ok()[0], whole[1], "{glob}");
    }
    // A glob lists what the directory lists under it (the directory itself, `mkdir myapp`,
    // is outside `myapp/`, the glob's literal head).
    let mut under = facts(&rows(c, json!({"path": "myapp", "limit": 50})).await);
    under.retain(|(_, _, path, _)| !path.ends_with("myapp"));
    assert_eq!(
        facts(&rows(c, json!({"path": "myapp/**", "limit": 50})).await),
        under
    );
    // Globs matching nothing, with and without a literal head.
    for glob in ["**/nothing-here.rs", "nowhere/**/*.py", "/nowhere/**"] {
        let none = c.call("list_file_history", json!({"path": glob})).await;
        assert!(none.expect_ok().as_array().unwrap().is_empty(), "{glob}");
        assert!(none.envelope["hint"].as_str().unwrap().contains("glob"));
    }
}

/// Every row of `q`'s history, page after page of `limit`, through the store.
fn every_page(
    store: &TraceStore,
    path: &str,
    limit: u32,
) -> Vec<agtrace_tools::index::touches::FileTouch> {
    use agtrace_tools::index::touches::{FileHistoryQuery, PathQuery};
    let mut q = FileHistoryQuery::new(PathQuery::parse(path).unwrap(), limit);
    let mut out = Vec::new();
    loop {
        let page = store.file_history(&q).unwrap();
        assert!(page.touches.len() <= limit as usize);
        out.extend(page.touches);
        match page.next {
            Some(n) => q.after = Some(n),
            None => return out,
        }
    }
}

#[test]
fn a_glob_lists_the_rows_of_each_file_it_matches_in_one_order() {
    // A generated corpus: tool calls name `src/<word>/<n>.rs` in three projects.
    let tmp = tempfile::tempdir().unwrap();
    let logs = tmp.path().join("logs");
    let mut spec = agtrace_tools::corpus::CorpusSpec::new(30, 16);
    spec.projects = 3;
    agtrace_tools::corpus::generate(&spec, &logs).unwrap();
    let store = TraceStore::open(Config::for_tree(&logs, &tmp.path().join("data"))).unwrap();
    store.refresh().unwrap();
    // The files, as paths relative to their project, from the history of `src` (no glob).
    let files: BTreeSet<String> = every_page(&store, "src", 50)
        .iter()
        .filter(|t| t.path.ends_with(".rs"))
        .map(|t| match &t.project_root {
            Some(r) => t.path[r.len() + 1..].to_owned(),
            None => t.path.clone(),
        })
        .collect();
    assert!(files.len() > 50, "{files:?}");
    for (glob, of) in [
        ("src/**/3.rs", "/3.rs"),
        ("**/7.rs", "/7.rs"),
        ("**/*.rs", ".rs"),
    ] {
        let mut want: Vec<_> = files
            .iter()
            .filter(|f| f.ends_with(of))
            .flat_map(|f| every_page(&store, f, 50))
            .collect();
        want.sort_by(|a, b| {
            let key = |t: &agtrace_tools::index::touches::FileTouch| {
                let p = &t.position;
                (
                    std::cmp::Reverse(p.start_ms),
                    std::cmp::Reverse(p.sid),
                    std::cmp::Reverse(p.turn),
                    p.path.clone(),
                )
            };
            key(a).cmp(&key(b))
        });
        assert!(want.len() > 20, "{glob}: {}", want.len());
        for limit in [3, 20] {
            assert_eq!(every_page(&store, glob, limit), want, "{glob} by {limit}");
        }
    }
}

#[tokio::test]
async fn bad_paths_are_structured_errors() {
    let s = served().await;
    let c = &s.client;
    for (path, says) in [
        ("src/[ab", "unclosed"),
        ("src/a**/b", "whole path component"),
        (".", "names no file"),
        ("  ", "names no file"),
    ] {
        let a = c.call("list_file_history", json!({"path": path})).await;
        assert_eq!(error_code(&a), "invalid_parameter", "{path}");
        let e = &a.envelope["error"];
        assert!(e["message"].as_str().unwrap().contains(says), "{e}");
        assert_eq!(e["details"]["value"], path, "{e}");
    }
    let a = c
        .call(
            "list_file_history",
            json!({"path": "a", "since": "yesterday"}),
        )
        .await;
    assert_eq!(error_code(&a), "invalid_parameter");
    let a = c
        .call("list_file_history", json!({"path": "a", "limit": 51}))
        .await;
    assert_eq!(error_code(&a), "invalid_parameter");
}

/// (provider, turn, path, actions) of every row of `path`'s history, through the store.
fn history(store: &TraceStore, path: &str) -> Vec<(String, u32, String, Vec<String>)> {
    use agtrace_tools::index::touches::{FileHistoryQuery, PathQuery};
    let page = store
        .file_history(&FileHistoryQuery::new(
            PathQuery::parse(path).unwrap(),
            1000,
        ))
        .unwrap();
    assert!(page.next.is_none());
    page.touches
        .iter()
        .map(|t| {
            (
                t.provider.as_str().to_owned(),
                t.turn,
                t.path.clone(),
                t.actions.iter().map(|a| format!("{a:?}")).collect(),
            )
        })
        .collect()
}

#[tokio::test]
async fn a_replaced_or_removed_session_leaves_no_stale_rows() {
    let served = samples().await;
    let (logs, store) = (served._tmp.path().join("logs"), served.store.clone());
    let claude_rows = |rows: Vec<(String, u32, String, Vec<String>)>| {
        rows.into_iter().filter(|r| r.0 == "claude_code").count()
    };
    assert_eq!(claude_rows(history(&store, "myapp/hoge.py")), 2);
    let file = logs.join(format!(
        "claude/projects/-Users-test_user-agent-sample/{CLAUDE_ID}.jsonl"
    ));
    // Rewritten in the middle: parsed again from the start and its rows replaced.
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.replace("hoge.py", "fuga.py")).unwrap();
    let stats = store.refresh().unwrap();
    assert_eq!(stats.files_parsed, 1);
    assert_eq!(claude_rows(history(&store, "myapp/hoge.py")), 0);
    assert_eq!(claude_rows(history(&store, "myapp/fuga.py")), 2);
    std::fs::remove_file(&file).unwrap();
    assert_eq!(store.refresh().unwrap().files_removed, 1);
    assert!(history(&store, "myapp/fuga.py").is_empty());
    assert_eq!(
        history(&store, "myapp/hoge.py").len(),
        4,
        "the other providers' rows stay"
    );
}

#[tokio::test]
async fn a_version_9_index_gets_the_table_and_each_file_is_reparsed_once() {
    let served = samples().await;
    let tmp = &served._tmp;
    let (logs, store) = (tmp.path().join("logs"), served.store.clone());
    let fresh = history(&store, "myapp");
    assert_eq!(fresh.len(), 9);
    drop(store);
    let data = tmp.path().join("data");
    {
        let conn = rusqlite::Connection::open(data.join("index.sqlite")).unwrap();
        conn.execute_batch("DROP TABLE touches; PRAGMA user_version = 9;")
            .unwrap();
    }
    let store = TraceStore::open(Config::for_tree(&logs, &data)).unwrap();
    // Before the refresh: the kept sessions answer, with no history yet.
    assert!(history(&store, "myapp").is_empty());
    let stats = store.refresh().unwrap();
    assert_eq!((stats.files_parsed, stats.files_skipped), (10, 0));
    assert_eq!(store.refresh().unwrap().files_parsed, 0);
    assert_eq!(history(&store, "myapp"), fresh);
}
