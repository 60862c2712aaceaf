//! `agtrace serve` answers at once and stays fresh, through MCP with the real binary over
//! stdio: a change to the logs made before a call is in that call's answer (by design: the
//! tests write, then call, with no sleep between), a half-written line waits for its end,
//! `tools/list` does not wait for the index, and without a watcher each call re-scans.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use mcp_tool::rmcp::transport::TokioChildProcess;
use mcp_tool::testing::TestClient;
use serde_json::{Value, json};

/// Three log roots and a data dir; `codex` starts missing so that its appearance is tested.
struct Tree {
    sample: common::SampleTree,
    claude: PathBuf,
    codex: PathBuf,
    gemini: PathBuf,
}

impl Tree {
    fn new() -> Self {
        let sample = common::SampleTree::copy();
        let logs = &sample.logs;
        let tree = Tree {
            claude: logs.join("claude/projects"),
            codex: logs.join("late/codex/sessions"),
            gemini: logs.join("gemini/tmp"),
            sample,
        };
        assert!(!tree.codex.exists());
        tree
    }

    fn flags(&self) -> Vec<String> {
        vec![
            format!("--claude-dir={}", self.claude.display()),
            format!("--codex-dir={}", self.codex.display()),
            format!("--gemini-dir={}", self.gemini.display()),
            format!("--data-dir={}", self.sample.data.display()),
        ]
    }

    async fn serve(&self, extra: &[&str]) -> TestClient {
        self.serve_with(self.flags(), extra).await
    }

    /// Served with every root and the data dir named relative to the tree's own folder, the
    /// server's working directory.
    async fn serve_relative(&self) -> TestClient {
        let base = self.sample.dir.path();
        let flags = self
            .flags()
            .into_iter()
            .map(|f| f.replace(&format!("{}/", base.display()), ""))
            .collect::<Vec<_>>();
        assert!(flags.iter().all(|f| !f.contains(&*base.to_string_lossy())));
        self.serve_with(flags, &[]).await
    }

    async fn serve_with(&self, flags: Vec<String>, extra: &[&str]) -> TestClient {
        let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_agtrace"));
        command
            .current_dir(self.sample.dir.path())
            .args(flags)
            .arg("serve")
            .args(extra)
            .env_remove("AGTRACE_WATCH")
            .stderr(std::process::Stdio::null());
        TestClient::connect(TokioChildProcess::new(command).unwrap())
            .await
            .expect("MCP handshake with agtrace serve")
    }
}

/// A Claude Code session file of one prompt in a new project folder; returns its path.
fn new_claude_session(root: &Path, project: &str, id: &str, prompt: &str) -> PathBuf {
    let dir = root.join(project);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{id}.jsonl"));
    std::fs::write(&path, claude_prompt(id, 0, prompt)).unwrap();
    path
}

fn claude_prompt(id: &str, n: u32, text: &str) -> String {
    let line = json!({
        "type": "user", "sessionId": id, "cwd": "/work/fresh-project", "userType": "external",
        "uuid": format!("{id}-u{n}"), "parentUuid": if n == 0 { Value::Null } else { json!(format!("{id}-u{}", n - 1)) },
        "timestamp": format!("2025-12-10T10:{:02}:{:02}.000Z", n / 60, n % 60),
        "message": {"role": "user", "content": text},
    });
    format!("{line}\n")
}

fn append(path: &Path, text: &str) {
    let mut f = std::fs::OpenOptions::new().append(true).open(path).unwrap();
    f.write_all(text.as_bytes()).unwrap();
}

/// The session of each event matching `word`, per `search_event_previews`.
async fn event_hits(client: &TestClient, word: &str) -> Vec<String> {
    let answer = client
        .call("search_event_previews", json!({"query": word}))
        .await;
    answer
        .expect_ok()
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["session_id"].as_str().unwrap().to_owned())
        .collect()
}

/// The sessions whose events match `word`.
async fn hits(client: &TestClient, word: &str) -> Vec<String> {
    event_hits(client, word)
        .await
        .into_iter()
        .fold(Vec::new(), |mut ids, id| {
            if !ids.contains(&id) {
                ids.push(id);
            }
            ids
        })
}

async fn turn_count(client: &TestClient, session: &str) -> u64 {
    let answer = client
        .call("get_session_summary", json!({"session_id": session}))
        .await;
    answer.expect_ok()["turns"].as_u64().unwrap()
}

async fn session_ids(client: &TestClient) -> Vec<String> {
    let mut ids = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut args = json!({"limit": 50, "include_subagents": true});
        if let Some(c) = &cursor {
            args["cursor"] = json!(c);
        }
        let page = client.call("list_sessions", args).await;
        ids.extend(
            page.expect_ok()
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["session_id"].as_str().unwrap().to_owned()),
        );
        match page.next_cursor() {
            Some(c) => cursor = Some(c.to_owned()),
            None => return ids,
        }
    }
}

/// Appends one prompt at a time and calls at once: each call sees every line written before it.
async fn each_append_is_in_the_next_answer(client: &TestClient, tree: &Tree, rounds: u32) {
    let id = "5e55f0e5-0000-4000-8000-00000000f1e5";
    let path = new_claude_session(
        &tree.claude,
        "-work-fresh-project",
        id,
        "openingwordzz prompt",
    );
    assert_eq!(hits(client, "openingwordzz").await, vec![id.to_owned()]);
    for n in 1..=rounds {
        let word = format!("freshword{n}x");
        append(
            &path,
            &claude_prompt(id, n, &format!("prompt number {word}")),
        );
        assert_eq!(hits(client, &word).await, vec![id.to_owned()], "round {n}");
        assert_eq!(turn_count(client, id).await, u64::from(n) + 1, "round {n}");
    }
}

#[tokio::test]
async fn with_the_watcher_an_append_is_in_the_next_answer() {
    let tree = Tree::new();
    let client = tree.serve(&[]).await;
    each_append_is_in_the_next_answer(&client, &tree, 20).await;
    client.close().await;
}

/// Relative roots and data dir: the watcher names what changed by absolute paths, which must
/// still match them (they matched nothing, and appends went unseen).
/// Every folder below a root at startup is watched (each found by listing its parent): an
/// append to a sub-agent's log, three folders down, is in the next answer.
#[tokio::test]
async fn an_append_three_folders_below_a_root_is_in_the_next_answer() {
    let tree = Tree::new();
    let client = tree.serve(&[]).await;
    let parent = "7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9";
    let log = tree.claude.join(format!(
        "-Users-test_user-agent-sample/{parent}/subagents/agent-0c4c3cf8.jsonl"
    ));
    assert!(log.is_file());
    assert!(event_hits(&client, "deepfolderwordzz").await.is_empty());
    for n in 1..=3u32 {
        let word = format!("deepfolderword{n}x");
        let line = json!({
            "parentUuid": null, "isSidechain": true, "userType": "external",
            "cwd": "/Users/test_user/agent-sample", "sessionId": parent, "version": "2.0.28",
            "agentId": "0c4c3cf8", "type": "user",
            "message": {"role": "user", "content": format!("prompt {word}")},
            "uuid": format!("deep-folder-{n}"),
            "timestamp": format!("2025-12-10T11:00:{n:02}.000Z"),
        });
        append(&log, &format!("{line}\n"));
        assert!(
            !event_hits(&client, &word).await.is_empty(),
            "append {n} is not in the answer"
        );
    }
}

#[tokio::test]
async fn with_relative_roots_an_append_is_in_the_next_answer() {
    let tree = Tree::new();
    let client = tree.serve_relative().await;
    each_append_is_in_the_next_answer(&client, &tree, 5).await;
    client.close().await;
}

#[tokio::test]
async fn without_the_watcher_each_call_rescans_and_an_append_is_in_the_next_answer() {
    let tree = Tree::new();
    // The periodic re-scan is off: only the per-call re-scan can find the appends.
    let client = tree
        .serve(&["--watch", "poll", "--refresh-secs", "0"])
        .await;
    each_append_is_in_the_next_answer(&client, &tree, 10).await;
    client.close().await;
}

#[tokio::test]
async fn a_new_project_folder_and_a_root_that_appears_are_seen() {
    let tree = Tree::new();
    let client = tree.serve(&[]).await;
    let before = session_ids(&client).await;
    assert!(!before.is_empty());

    let id = "a11ce0de-0000-4000-8000-0000000000a1";
    new_claude_session(&tree.claude, "-work-brand-new", id, "first words");
    let after = session_ids(&client).await;
    assert!(after.contains(&id.to_owned()), "{after:?}");
    assert_eq!(after.len(), before.len() + 1);

    // The Codex root did not exist when the server started.
    let day = tree.codex.join("2025/12/11");
    std::fs::create_dir_all(&day).unwrap();
    let codex_id = "019b0000-0000-7000-8000-00000000c0de";
    let meta = json!({"timestamp": "2025-12-11T09:00:00.000Z", "type": "session_meta",
        "payload": {"id": codex_id, "timestamp": "2025-12-11T09:00:00.000Z", "cwd": "/work/late",
            "originator": "codex_cli_rs", "cli_version": "0.77.0", "source": "cli"}});
    let prompt = json!({"timestamp": "2025-12-11T09:00:01.000Z", "type": "event_msg",
        "payload": {"type": "user_message", "message": "latecomerword", "images": []}});
    std::fs::write(
        day.join(format!("rollout-2025-12-11T09-00-00-{codex_id}.jsonl")),
        format!("{meta}\n{prompt}\n"),
    )
    .unwrap();
    assert_eq!(
        hits(&client, "latecomerword").await,
        vec![codex_id.to_owned()]
    );
    client.close().await;
}

/// Sorted, for comparing sets of session ids.
fn sorted(mut ids: Vec<String>) -> Vec<String> {
    ids.sort();
    ids
}

/// Each kind of change the watcher names, and one it cannot map to files alone, made just
/// before a call: the call sees exactly the logs as they are then, neither a stale session nor
/// a lost one (a log left indexed under its old path would show as a second session).
#[tokio::test]
async fn appends_new_logs_deletions_and_a_renamed_folder_are_each_in_the_next_answer() {
    let tree = Tree::new();
    let client = tree.serve(&[]).await;
    let before = session_ids(&client).await;
    let with = |extra: &[&str]| {
        let mut ids = before.clone();
        ids.extend(extra.iter().map(|id| id.to_string()));
        sorted(ids)
    };

    // A new project folder (a walk finds its log).
    let a = "a0000000-0000-4000-8000-0000000000aa";
    let path_a = new_claude_session(&tree.claude, "-work-moves", a, "alphaopenword");
    assert_eq!(sorted(session_ids(&client).await), with(&[a]));

    // An append to that log.
    append(&path_a, &claude_prompt(a, 1, "the alphaappendword prompt"));
    assert_eq!(hits(&client, "alphaappendword").await, vec![a.to_owned()]);
    assert_eq!(turn_count(&client, a).await, 2);

    // A new log in a folder that exists.
    let b = "b0000000-0000-4000-8000-0000000000bb";
    let path_b = new_claude_session(&tree.claude, "-work-moves", b, "bravoopenword");
    assert_eq!(sorted(session_ids(&client).await), with(&[a, b]));
    assert_eq!(hits(&client, "bravoopenword").await, vec![b.to_owned()]);

    // A log deleted.
    std::fs::remove_file(&path_a).unwrap();
    assert_eq!(sorted(session_ids(&client).await), with(&[b]));
    assert!(hits(&client, "alphaappendword").await.is_empty());

    // The folder renamed: its log is the same session under its new path, once.
    let moved = tree.claude.join("-work-moved");
    std::fs::rename(tree.claude.join("-work-moves"), &moved).unwrap();
    assert_eq!(sorted(session_ids(&client).await), with(&[b]));
    assert_eq!(
        event_hits(&client, "bravoopenword").await,
        vec![b.to_owned()]
    );

    // Appends under the new path are seen, and a log created there too.
    let path_b = moved.join(path_b.file_name().unwrap());
    append(&path_b, &claude_prompt(b, 1, "the bravoappendword prompt"));
    assert_eq!(hits(&client, "bravoappendword").await, vec![b.to_owned()]);
    assert_eq!(turn_count(&client, b).await, 2);
    let c = "c0000000-0000-4000-8000-0000000000cc";
    new_claude_session(&tree.claude, "-work-moved", c, "charlieopenword");
    assert_eq!(sorted(session_ids(&client).await), with(&[b, c]));

    // A log renamed inside its folder: one session, named by its file as Claude Code names
    // them, and none left at the old path.
    let d = "d0000000-0000-4000-8000-0000000000dd";
    let renamed = moved.join(format!("{d}.jsonl"));
    std::fs::rename(&path_b, &renamed).unwrap();
    assert_eq!(sorted(session_ids(&client).await), with(&[c, d]));
    append(
        &renamed,
        &claude_prompt(b, 2, "the bravorenamedword prompt"),
    );
    assert_eq!(hits(&client, "bravorenamedword").await, vec![d.to_owned()]);
    assert_eq!(turn_count(&client, d).await, 3);
    client.close().await;
}

#[tokio::test]
async fn a_half_written_last_line_waits_for_its_end() {
    let tree = Tree::new();
    let client = tree.serve(&[]).await;
    let id = "ba1f0000-0000-4000-8000-00000000ba1f";
    let path = new_claude_session(&tree.claude, "-work-half", id, "complete opening");
    assert_eq!(turn_count(&client, id).await, 1);

    let line = claude_prompt(id, 1, "the halfwrittenword prompt");
    let (head, tail) = line.split_at(line.len() / 2);
    append(&path, head);
    assert!(hits(&client, "halfwrittenword").await.is_empty());
    assert_eq!(
        turn_count(&client, id).await,
        1,
        "the cut line is not a turn"
    );
    append(&path, tail);
    assert_eq!(hits(&client, "halfwrittenword").await, vec![id.to_owned()]);
    assert_eq!(turn_count(&client, id).await, 2);
    client.close().await;
}

#[tokio::test]
async fn tools_list_answers_before_the_first_index_and_a_call_meanwhile_waits_for_all_of_it() {
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("logs");
    let spec = agtrace_tools::corpus::CorpusSpec::new(240, 16);
    let stats = agtrace_tools::corpus::generate(&spec, &logs).unwrap();
    let total: u64 = stats.sessions.iter().sum();
    let data = dir.path().join("data");
    // An index that exists but cannot be written: the server's first build is held up for
    // as long as this transaction is open, however fast the machine.
    let config = agtrace_tools::config::Config::for_tree(&logs, &data);
    drop(agtrace_tools::store::TraceStore::open(config).unwrap());
    let mut lock = rusqlite::Connection::open(data.join("index.sqlite")).unwrap();
    let held = lock
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .unwrap();

    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_agtrace"));
    command
        .arg(format!(
            "--claude-dir={}",
            logs.join("claude/projects").display()
        ))
        .arg(format!(
            "--codex-dir={}",
            logs.join("codex/sessions").display()
        ))
        .arg(format!(
            "--gemini-dir={}",
            logs.join("gemini/tmp").display()
        ))
        .arg(format!("--data-dir={}", data.display()))
        .arg("serve")
        .stderr(std::process::Stdio::null());
    let client = std::sync::Arc::new(
        TestClient::connect(TokioChildProcess::new(command).unwrap())
            .await
            .expect("initialize answers while the index is locked"),
    );
    assert!(
        !client.list_tools().await.is_empty(),
        "tools/list answers while the index is locked"
    );
    let caller = client.clone();
    let call = tokio::spawn(async move { session_ids(&caller).await });
    // A call answered now could only come from an index that misses sessions.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        !call.is_finished(),
        "a call answered before the index was built"
    );
    held.commit().unwrap();
    drop(lock);
    let ids = call.await.unwrap();
    assert_eq!(
        ids.len() as u64,
        total,
        "the first answer has every session"
    );
}

#[tokio::test]
async fn a_second_indexer_on_the_same_data_dir_neither_hides_nor_doubles_an_append() {
    let tree = Tree::new();
    let client = tree.serve(&[]).await;
    let id = "5ec0d000-0000-4000-8000-0000000005ec";
    let path = new_claude_session(&tree.claude, "-work-two-indexers", id, "twoindexerswordzz");
    assert_eq!(
        hits(&client, "twoindexerswordzz").await,
        vec![id.to_owned()]
    );
    for n in 1..=6 {
        let word = format!("secondindexer{n}x");
        append(&path, &claude_prompt(id, n, &word));
        // `agtrace index` races the server for the same append.
        let mut other = std::process::Command::new(env!("CARGO_BIN_EXE_agtrace"))
            .args(tree.flags())
            .arg("index")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        assert_eq!(
            event_hits(&client, &word).await,
            vec![id.to_owned()],
            "round {n}: once"
        );
        assert_eq!(turn_count(&client, id).await, u64::from(n) + 1, "round {n}");
        assert!(other.wait().unwrap().success());
        assert_eq!(
            event_hits(&client, &word).await,
            vec![id.to_owned()],
            "round {n}: still once"
        );
    }
    client.close().await;
}

/// One JSON-RPC request POSTed on its own (`--stateless`); the JSON answer, from a plain JSON
/// body or the first `data:` line of an event stream.
async fn post(addr: std::net::SocketAddr, body: Value) -> Option<Value> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await.ok()?;
    let body = body.to_string();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n\
         MCP-Protocol-Version: 2025-06-18\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.ok()?;
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.ok()?;
    let text = String::from_utf8_lossy(&response);
    let (_, payload) = text.split_once("\r\n\r\n")?;
    payload
        .lines()
        .map(|l| l.strip_prefix("data:").unwrap_or(l).trim())
        .find_map(|l| {
            serde_json::from_str::<Value>(l)
                .ok()
                .filter(|v| v.get("id").is_some())
        })
}

#[tokio::test]
async fn over_http_tools_list_answers_before_the_first_index_and_a_call_waits_for_it() {
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("logs");
    let stats =
        agtrace_tools::corpus::generate(&agtrace_tools::corpus::CorpusSpec::new(12, 7), &logs)
            .unwrap();
    // Few enough sessions for one page of `list_sessions`.
    let total: u64 = stats.sessions.iter().sum();
    let data = dir.path().join("data");
    let config = agtrace_tools::config::Config::for_tree(&logs, &data);
    drop(agtrace_tools::store::TraceStore::open(config).unwrap());
    let mut lock = rusqlite::Connection::open(data.join("index.sqlite")).unwrap();
    let held = lock
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let addr: std::net::SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_agtrace"))
        .arg(format!(
            "--claude-dir={}",
            logs.join("claude/projects").display()
        ))
        .arg(format!(
            "--codex-dir={}",
            logs.join("codex/sessions").display()
        ))
        .arg(format!(
            "--gemini-dir={}",
            logs.join("gemini/tmp").display()
        ))
        .arg(format!("--data-dir={}", data.display()))
        .args(["serve", "--stateless", "--http", &addr.to_string()])
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
    let started = std::time::Instant::now();
    let tools = loop {
        if let Some(answer) = post(addr, list.clone()).await {
            break answer;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "no HTTP listener"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert!(
        tools["result"]["tools"]
            .as_array()
            .is_some_and(|t| !t.is_empty()),
        "{tools}"
    );
    let call = tokio::spawn(post(
        addr,
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "list_sessions", "arguments": {"limit": 50, "include_subagents": true}}}),
    ));
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        !call.is_finished(),
        "a call answered before the index was built"
    );
    held.commit().unwrap();
    drop(lock);
    let answer = call.await.unwrap().expect("the call is answered");
    let rows = answer["result"]["structuredContent"]["data"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(rows.len() as u64, total, "{answer}");
}
