//! The `agtrace` binary end to end: `serve` over stdio with a real MCP client, `call`,
//! `tools`, `index`; and the log roots byte-identical before and after all of it.

mod tools_support;

use mcp_tool::rmcp::transport::TokioChildProcess;
use mcp_tool::testing::TestClient;
use serde_json::{Value, json};
use std::process::Command;
use tools_support::common::SampleTree;
use tools_support::{assert_rows_cover, served_tool_names};

impl SampleTree {
    fn flags(&self) -> Vec<String> {
        // Every provider's root inside the tree: none falls back to one in the real home.
        let mut flags: Vec<String> = agtrace_tools::model::Provider::ALL
            .into_iter()
            .map(|p| {
                format!(
                    "--{}={}",
                    p.spec().flag,
                    self.logs.join(p.spec().tree_root).display()
                )
            })
            .collect();
        flags.push(format!("--data-dir={}", self.data.display()));
        flags
    }

    fn agtrace(&self, args: &[&str]) -> std::process::Output {
        Command::new(env!("CARGO_BIN_EXE_agtrace"))
            .args(self.flags())
            .args(args)
            .output()
            .unwrap()
    }

    async fn serve(&self) -> TestClient {
        let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_agtrace"));
        command
            .args(self.flags())
            .arg("serve")
            .stderr(std::process::Stdio::null());
        TestClient::connect(TokioChildProcess::new(command).unwrap())
            .await
            .expect("MCP handshake with agtrace serve")
    }
}

fn session_ids(answer: &Value) -> Vec<String> {
    answer
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["session_id"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn every_tool_over_stdio_and_the_log_roots_stay_byte_identical() {
    let tree = SampleTree::copy();
    let before = tree.snapshot();
    let client = tree.serve().await;

    let names: Vec<String> = client
        .list_tools()
        .await
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    assert_eq!(
        names,
        served_tool_names(),
        "the binary lists the library's tools, in the same order"
    );

    // Page through every session one at a time: first, middle and last pages.
    let mut all = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut args = json!({"limit": 1});
        if let Some(c) = &cursor {
            args["cursor"] = json!(c);
        }
        let page = client.call("list_sessions", args).await;
        all.extend(session_ids(page.expect_ok()));
        match page.next_cursor() {
            Some(c) => cursor = Some(c.to_owned()),
            None => break,
        }
    }
    let whole = client.call("list_sessions", json!({"limit": 50})).await;
    assert_eq!(
        all,
        session_ids(whole.expect_ok()),
        "one-by-one pages list the same sessions in the same order"
    );
    assert!(all.len() >= 4, "{all:?}");

    let session = all
        .iter()
        .find(|id| id.len() >= 12 && !id.starts_with("agent-"))
        .cloned()
        .unwrap_or_else(|| all[0].clone());
    let prefix: String = session.chars().take(10).collect();
    let summary = client
        .call("get_session_summary", json!({"session_id": prefix}))
        .await;
    assert_eq!(summary.expect_ok()["session_id"], session.as_str());
    client.assert_within_size_hint(&summary);

    let calls = [
        ("get_session_turns", json!({"session_id": session})),
        (
            "get_turn_steps",
            json!({"session_id": session, "turn_index": 0}),
        ),
        ("get_session_full", json!({"session_id": session})),
        ("analyze_session", json!({"session_id": session})),
        ("get_session_costs", json!({"session_id": session})),
        ("get_project_costs", json!({"group_by": "day"})),
        ("get_project_info", json!({})),
        (
            "get_event_details",
            json!({"session_id": session, "event_index": 0}),
        ),
        ("search_event_previews", json!({"query": "hoge"})),
        ("list_file_history", json!({"path": "**/*"})),
    ];
    // `list_sessions` and `get_session_summary` were called above.
    assert_rows_cover(
        "every_tool_over_stdio",
        calls
            .iter()
            .map(|(tool, _)| *tool)
            .chain(["list_sessions", "get_session_summary"]),
        names.iter().map(String::as_str),
    );
    for (tool, args) in calls {
        let answer = client.call(tool, args).await;
        assert!(answer.is_ok(), "{tool}: {}", answer.envelope);
        client.assert_within_size_hint(&answer);
    }

    let unknown = client
        .call(
            "get_session_summary",
            json!({"session_id": "ffffffff-ffff-ffff"}),
        )
        .await;
    assert_eq!(unknown.error_code(), Some("session_not_found"));
    let bad_time = client
        .call("list_sessions", json!({"since": "last tuesday"}))
        .await;
    assert_eq!(bad_time.error_code(), Some("invalid_parameter"));
    assert_eq!(bad_time.error()["details"]["path"], "since");
    let bad_provider = client
        .call(
            "search_event_previews",
            json!({"query": "x", "provider": "claude"}),
        )
        .await;
    assert_eq!(
        bad_provider.error()["details"]["allowed"],
        json!(agtrace_tools::model::Provider::ALL.map(|p| p.as_str()))
    );

    client.close().await;
    // `serve` indexed, answered, and left: not one byte of the logs changed, no file appeared.
    assert_eq!(tree.snapshot(), before);
    assert!(tree.data.join("index.sqlite").exists());
}

#[test]
fn call_prints_the_envelope_and_exits_zero_even_for_tool_errors() {
    let tree = SampleTree::copy();
    let ok = tree.agtrace(&["call", "list_sessions", r#"{"limit": 2}"#]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let envelope: Value =
        serde_json::from_slice(&ok.stdout).expect("stdout is exactly one JSON envelope");
    assert_eq!(envelope["status"], "ok");
    assert_eq!(envelope["data"].as_array().unwrap().len(), 2);

    let err = tree.agtrace(&[
        "call",
        "get_session_summary",
        r#"{"session_id": "0000000000"}"#,
    ]);
    assert!(err.status.success());
    let envelope: Value = serde_json::from_slice(&err.stdout).unwrap();
    assert_eq!(envelope["status"], "error");
    assert_eq!(envelope["error"]["code"], "session_not_found");

    let unknown = tree.agtrace(&["call", "get_weather", "{}"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(unknown.stdout.is_empty());
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("unknown tool `get_weather`"));

    let not_json = tree.agtrace(&["call", "list_sessions", "{limit: 2"]);
    assert_eq!(not_json.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&not_json.stderr).contains("not JSON"));
}

#[test]
fn index_reports_what_it_did_and_a_second_run_skips_everything() {
    let tree = SampleTree::copy();
    let first = tree.agtrace(&["index"]);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let text = String::from_utf8_lossy(&first.stdout).into_owned();
    assert!(
        text.contains(" parsed, ") && text.contains("0 unchanged"),
        "{text}"
    );
    let second = String::from_utf8_lossy(&tree.agtrace(&["index"]).stdout).into_owned();
    assert!(second.contains(" 0 parsed, 0 appended,"), "{second}");
}

#[test]
fn tools_lists_the_catalog_with_sizes_and_no_design_warnings() {
    let tree = SampleTree::copy();
    let out = tree.agtrace(&["tools"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        text.contains("search_event_previews") && text.contains("10KB/page"),
        "{text}"
    );
    let tools = format!("{} tools", served_tool_names().len());
    assert!(text.contains(&tools), "{text}");
    assert!(!text.contains("design warning"), "{text}");
    // The input side and the output schema are counted in columns of their own, and the
    // totals row adds each column up.
    let header: Vec<&str> = text.lines().next().unwrap().split_whitespace().collect();
    assert_eq!(header[..4], ["tool", "input", "output", "listed"], "{text}");
    let column = |line: &str, i: usize| -> usize {
        line.split_whitespace().nth(i).unwrap().parse().unwrap()
    };
    let n = served_tool_names().len();
    let rows: Vec<&str> = text.lines().skip(1).take(n).collect();
    let totals = text
        .lines()
        .find(|l| l.starts_with(&format!("{n} tools")))
        .unwrap();
    for i in 1..=3 {
        let sum: usize = rows.iter().map(|r| column(r, i)).sum();
        assert_eq!(sum, column(totals, i + 1), "column {i}: {text}");
    }
    for row in &rows {
        assert!(column(row, 1) + column(row, 2) < column(row, 3), "{row}");
    }
    let json = tree.agtrace(&["tools", "--json"]);
    let listed: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(listed["tools"].as_array().unwrap().len(), n);
    let input = tree.agtrace(&["tools", "--json=input"]);
    let input: Value = serde_json::from_slice(&input.stdout).unwrap();
    let output = tree.agtrace(&["tools", "--json=output"]);
    let output: Value = serde_json::from_slice(&output.stdout).unwrap();
    for (i, tool) in listed["tools"].as_array().unwrap().iter().enumerate() {
        let expected_input = json!({
            "name": tool["name"],
            "description": tool["description"],
            "inputSchema": tool["inputSchema"],
        });
        assert_eq!(input["tools"][i], expected_input);
        let expected_output = json!({"name": tool["name"], "outputSchema": tool["outputSchema"]});
        assert_eq!(output["tools"][i], expected_output);
    }
}

#[test]
fn a_data_dir_inside_a_log_root_is_refused() {
    let tree = SampleTree::copy();
    let inside = tree.logs.join("claude/projects/index-here");
    let mut flags = tree.flags();
    flags.pop();
    let out = Command::new(env!("CARGO_BIN_EXE_agtrace"))
        .args(flags)
        .arg(format!("--data-dir={}", inside.display()))
        .arg("index")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("inside the claude_code log root"));
    assert!(!inside.exists());
}

#[test]
fn the_session_cache_size_is_a_number_of_megabytes() {
    let tree = SampleTree::copy();
    let off = tree.agtrace(&[
        "--session-cache-mb",
        "0",
        "call",
        "get_session_summary",
        r#"{"session_id": "7f2abd2d"}"#,
    ]);
    assert!(
        off.status.success(),
        "{}",
        String::from_utf8_lossy(&off.stderr)
    );
    let envelope: Value = serde_json::from_slice(&off.stdout).unwrap();
    assert_eq!(envelope["status"], "ok", "{envelope}");

    let bad = Command::new(env!("CARGO_BIN_EXE_agtrace"))
        .args(tree.flags())
        .args(["call", "list_sessions", "{}"])
        .env("AGTRACE_SESSION_CACHE_MB", "lots")
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(bad.stdout.is_empty());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        err.contains("invalid value 'lots' for '--session-cache-mb <MB>'"),
        "{err}"
    );
}

#[test]
fn a_cursor_from_one_call_is_honoured_by_the_next_process() {
    let tree = SampleTree::copy();
    let first = tree.agtrace(&["call", "list_sessions", r#"{"limit": 1}"#]);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let page: Value = serde_json::from_slice(&first.stdout).unwrap();
    let cursor = page["pagination"]["next_cursor"]
        .as_str()
        .unwrap_or_else(|| panic!("a next page: {page}"));
    let args = json!({"limit": 1, "cursor": cursor}).to_string();
    let second = tree.agtrace(&["call", "list_sessions", &args]);
    let next: Value = serde_json::from_slice(&second.stdout).unwrap();
    assert!(second.status.success(), "{next}");
    assert_ne!(
        next["data"], page["data"],
        "the second page, not the first again"
    );
    // The key lives beside the index, readable by its owner only.
    let mode = std::fs::metadata(tree.data.join("signing.key"))
        .unwrap()
        .permissions();
    assert_eq!(
        std::os::unix::fs::PermissionsExt::mode(&mode) & 0o777,
        0o600
    );
}

const HANDSHAKE: &str = concat!(
    r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipes","version":"1"}}}"#,
    "\n",
    r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    "\n",
    r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}"#,
    "\n",
);

/// The ids of the answers `serve` wrote, and whether `tools/list` listed tools.
fn answered(out: &str) -> (Vec<Value>, bool) {
    let answers: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let listed = answers.iter().any(|a| {
        a["result"]["tools"]
            .as_array()
            .is_some_and(|t| !t.is_empty())
    });
    (answers.iter().map(|a| a["id"].clone()).collect(), listed)
}

/// Serves the handshake over `to_child` and `from_child`, the other ends of the child's
/// `stdin` and `stdout`. `shared` is the child's own stdout, also held here as a shell
/// pipeline would hold it: non-blocking while the session runs, blocking again once the
/// server is gone.
#[cfg(unix)]
fn served_without_blocking_threads(
    stdin: std::process::Stdio,
    stdout: std::process::Stdio,
    shared: std::os::fd::OwnedFd,
    mut to_child: impl std::io::Write,
    from_child: impl std::io::Read,
) {
    use std::io::{BufRead, BufReader};
    use std::os::fd::AsRawFd;
    let tree = SampleTree::copy();
    let mut child = Command::new(env!("CARGO_BIN_EXE_agtrace"))
        .args(tree.flags())
        .arg("serve")
        .stdin(stdin)
        .stdout(stdout)
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    to_child.write_all(HANDSHAKE.as_bytes()).unwrap();
    let mut lines = BufReader::new(from_child);
    let mut out = String::new();
    for _ in 0..2 {
        lines.read_line(&mut out).unwrap();
    }
    let nonblocking = || {
        // SAFETY: F_GETFL only reads the flags of a descriptor this test holds open.
        let flags = unsafe { libc::fcntl(shared.as_raw_fd(), libc::F_GETFL) };
        assert!(flags >= 0);
        flags & libc::O_NONBLOCK != 0
    };
    assert!(nonblocking(), "served without blocking threads");
    drop(to_child);
    assert!(child.wait().unwrap().success());
    assert!(!nonblocking(), "blocking again at exit");
    assert_eq!(answered(&out), (vec![json!(1), json!(2)], true));
}

/// Pipes, as Python's `subprocess` makes them.
#[cfg(unix)]
#[test]
fn serve_over_pipes_leaves_them_blocking_when_it_ends() {
    let (in_read, in_write) = std::io::pipe().unwrap();
    let (out_read, out_write) = std::io::pipe().unwrap();
    let shared = std::os::fd::OwnedFd::from(out_write.try_clone().unwrap());
    served_without_blocking_threads(in_read.into(), out_write.into(), shared, in_write, out_read);
}

/// Unix stream sockets, as Node's `child_process` makes them (MCP clients in Node).
#[cfg(unix)]
#[test]
fn serve_over_unix_sockets_leaves_them_blocking_when_it_ends() {
    use std::os::unix::net::UnixStream;
    let (to_child, child_in) = UnixStream::pair().unwrap();
    let (from_child, child_out) = UnixStream::pair().unwrap();
    let shared = std::os::fd::OwnedFd::from(child_out.try_clone().unwrap());
    served_without_blocking_threads(
        std::os::fd::OwnedFd::from(child_in).into(),
        std::os::fd::OwnedFd::from(child_out).into(),
        shared,
        to_child,
        from_child,
    );
}

/// stdin that is not a pipe (a file of requests) is served as before.
#[test]
fn serve_answers_requests_read_from_a_file() {
    let tree = SampleTree::copy();
    let requests = tree.data.with_extension("jsonl");
    std::fs::write(&requests, HANDSHAKE).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_agtrace"))
        .args(tree.flags())
        .arg("serve")
        .stdin(std::fs::File::open(&requests).unwrap())
        .stderr(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success());
    let out = String::from_utf8(out.stdout).unwrap();
    assert_eq!(answered(&out), (vec![json!(1), json!(2)], true));
}

/// A batch a client pipes in and then closes its end: the handshake and a call that has to
/// wait for the index.
const BATCH: &str = concat!(
    r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"batch","version":"1"}}}"#,
    "\n",
    r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    "\n",
    r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_sessions","arguments":{"limit":50}}}"#,
    "\n",
);

/// Serves [`BATCH`] on `stdin` (closed once written, if it is a pipe), reading stdout as it
/// comes: the answer to the call, and how long after it the server exited.
fn serve_batch(tree: &SampleTree, stdin: std::process::Stdio) -> (Value, std::time::Duration) {
    use std::io::{BufRead, BufReader, Write};
    use std::time::{Duration, Instant};
    let mut child = Command::new(env!("CARGO_BIN_EXE_agtrace"))
        .args(tree.flags())
        .arg("serve")
        .stdin(stdin)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    if let Some(mut input) = child.stdin.take() {
        input.write_all(BATCH.as_bytes()).unwrap();
        // Dropped: `printf` has exited, the pipe is closed.
    }
    let mut answers = BufReader::new(child.stdout.take().unwrap()).lines();
    let call = loop {
        let line = answers
            .next()
            .expect("the server ended without answering the call")
            .unwrap();
        let message: Value = serde_json::from_str(&line).unwrap();
        if message["id"] == json!(2) {
            break message;
        }
    };
    let answered_at = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if answered_at.elapsed() > Duration::from_secs(30) {
            child.kill().unwrap();
            panic!("the server still runs 30 s after its last answer");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    assert!(status.success(), "{status}");
    assert!(
        answers.next().is_none(),
        "nothing is written after the last answer"
    );
    (call, answered_at.elapsed())
}

fn assert_batch_answered(tree: &SampleTree, stdin: std::process::Stdio) {
    let (call, exited_after) = serve_batch(tree, stdin);
    let envelope = &call["result"]["structuredContent"];
    assert_eq!(envelope["status"], "ok", "{call}");
    assert!(
        !session_ids(&envelope["data"]).is_empty(),
        "the sessions of the samples: {call}"
    );
    assert!(
        exited_after < std::time::Duration::from_secs(1),
        "the server exited {exited_after:?} after its last answer"
    );
}

/// `printf '...' | agtrace serve`: stdin ends right after the last request, before the
/// index is ready; the call still gets its data, then the server exits.
#[test]
fn serve_answers_a_piped_batch_with_data_then_exits() {
    assert_batch_answered(&SampleTree::copy(), std::process::Stdio::piped());
}

/// `agtrace serve < batch.jsonl`: the same from a file.
#[test]
fn serve_answers_a_batch_read_from_a_file_with_data_then_exits() {
    let tree = SampleTree::copy();
    let requests = tree.data.with_extension("batch.jsonl");
    std::fs::write(&requests, BATCH).unwrap();
    let stdin = std::fs::File::open(&requests).unwrap();
    assert_batch_answered(&tree, stdin.into());
}

/// `agtrace call ... | head -c 300` once `head` has its bytes: stdout's reader is gone. The
/// command ends without a panic or a word, with SIGPIPE's status as a shell shows it.
#[cfg(unix)]
#[test]
fn output_to_a_closed_pipe_ends_quietly() {
    let tree = SampleTree::copy();
    for args in [&["call", "list_sessions", "{}"][..], &["tools"]] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = Command::new(env!("CARGO_BIN_EXE_agtrace"))
            .args(tree.flags())
            .args(args)
            .stdout(writer)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(stderr, "", "{args:?}");
        assert_eq!(out.status.code(), Some(141), "{args:?}");
    }
}
