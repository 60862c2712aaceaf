//! End to end: `hello_tools` as a child process, driven over stdio by an rmcp client.

use mcp_tool::LogLevel;
use mcp_tool::testing::{Notification, TestClient};
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};

/// The tools the server owns, in `tools/list` order, from its own definitions.
fn owned_tools() -> Vec<&'static str> {
    mcp_tool_examples::hello::server()
        .definitions()
        .map(|d| d.name)
        .collect()
}

/// One valid call per tool, in `tools/list` order; a test checks it covers exactly the
/// server's tools, so a new tool cannot go uncalled.
fn one_call_each() -> Vec<(&'static str, Value)> {
    vec![
        ("add_task", json!({"title": "try every tool"})),
        ("archive_done_tasks", json!({})),
        ("get_task", json!({"task_id": 2})),
        ("list_tasks", json!({"status": "todo"})),
    ]
}

async fn spawn() -> TestClient {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_hello_tools"));
    command.stderr(std::process::Stdio::null());
    let transport = TokioChildProcess::new(command).expect("spawn hello_tools");
    TestClient::connect(transport)
        .await
        .expect("MCP handshake with hello_tools")
}

#[tokio::test]
async fn initialize_reports_the_servers_own_name_and_tools_are_listed_in_order() {
    let client = spawn().await;
    let info = client.server_info().expect("server info");
    let implementation = info.server_info.as_ref().expect("serverInfo");
    assert_eq!(implementation.name, "hello_tools");
    let names: Vec<String> = client
        .list_tools()
        .await
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    assert_eq!(names, owned_tools());
    assert!(names.is_sorted(), "one family: listed by name, {names:?}");
    assert_eq!(names.len(), 4);
}

#[tokio::test]
async fn every_tool_answers_a_valid_call_within_its_size_hint() {
    let calls = one_call_each();
    let called: Vec<&str> = calls.iter().map(|(name, _)| *name).collect();
    assert_eq!(called, owned_tools(), "one call per tool the server owns");
    let client = spawn().await;
    client.list_tools().await;
    for (name, args) in calls {
        let answer = client.call(name, args).await;
        answer.expect_ok();
        client.assert_within_size_hint(&answer);
    }
}

#[tokio::test]
async fn schemas_carry_descriptions_defaults_bounds_and_the_envelope() {
    let client = spawn().await;
    let tools = client.list_tools().await;
    let list = tools.iter().find(|t| t.name == "list_tasks").unwrap();
    let limit = &list.input_schema["properties"]["limit"];
    assert_eq!(limit["default"], 3);
    assert_eq!(limit["minimum"], 1);
    assert_eq!(limit["maximum"], 50);
    assert_eq!(limit["description"], "Tasks per page.");
    let description = list.description.as_deref().unwrap();
    assert!(description.contains("at most about 4KB"), "{description}");
    let output = list.output_schema.as_ref().expect("outputSchema");
    assert!(output["properties"]["pagination"].is_object());
    assert_eq!(output["properties"]["data"]["type"], "array");
    let annotations = list.annotations.as_ref().unwrap();
    assert_eq!(annotations.read_only_hint, Some(true));
}

#[tokio::test]
async fn pages_first_middle_last_cover_every_item_once() {
    let client = spawn().await;
    let mut ids = Vec::new();
    let mut cursor: Option<String> = None;
    let mut pages = 0;
    loop {
        let mut args = json!({"limit": 3});
        if let Some(c) = &cursor {
            args["cursor"] = json!(c);
        }
        let answer = client.call("list_tasks", args).await;
        let data = answer.expect_ok();
        pages += 1;
        ids.extend(
            data.as_array()
                .unwrap()
                .iter()
                .map(|t| t["task_id"].as_u64().unwrap()),
        );
        let has_more = answer.envelope["pagination"]["has_more"].as_bool().unwrap();
        assert_eq!(has_more, answer.next_cursor().is_some());
        match answer.next_cursor() {
            Some(c) => cursor = Some(c.to_owned()),
            None => break,
        }
    }
    assert_eq!(pages, 3, "7 seeded tasks in pages of 3");
    assert_eq!(ids, (1..=7).collect::<Vec<u64>>());
}

#[tokio::test]
async fn a_mangled_cursor_and_a_cursor_for_other_arguments_are_invalid_cursor() {
    let client = spawn().await;
    let first = client.call("list_tasks", json!({"limit": 2})).await;
    let cursor = first.next_cursor().unwrap().to_owned();

    let mut mangled = cursor.clone();
    mangled.truncate(cursor.len() - 4);
    let answer = client
        .call("list_tasks", json!({"limit": 2, "cursor": mangled}))
        .await;
    assert!(answer.is_error);
    assert_eq!(answer.error_code(), Some("invalid_cursor"));
    assert!(
        answer.error()["details"]["hint"]
            .as_str()
            .unwrap()
            .contains("without `cursor`")
    );

    let answer = client
        .call(
            "list_tasks",
            json!({"limit": 2, "cursor": cursor, "status": "todo"}),
        )
        .await;
    assert_eq!(answer.error_code(), Some("invalid_cursor"));
    assert!(
        answer.error()["message"]
            .as_str()
            .unwrap()
            .contains("other arguments")
    );

    // A different page size is the same query: the cursor still works.
    let answer = client
        .call("list_tasks", json!({"limit": 5, "cursor": cursor}))
        .await;
    assert!(answer.is_ok(), "{}", answer.envelope);
    // So is one with an argument the tool ignores (and warns about).
    let answer = client
        .call(
            "list_tasks",
            json!({"limit": 2, "cursor": cursor, "verbose": true}),
        )
        .await;
    assert!(answer.is_ok(), "{}", answer.envelope);
}

#[tokio::test]
async fn bad_arguments_are_invalid_parameter_naming_the_field() {
    let client = spawn().await;
    let answer = client
        .call("list_tasks", json!({"status": "finished"}))
        .await;
    assert!(answer.is_error);
    assert_eq!(answer.error_code(), Some("invalid_parameter"));
    assert_eq!(answer.error()["details"]["path"], "status");
    assert_eq!(
        answer.error()["details"]["allowed"],
        json!(["todo", "doing", "done"])
    );

    let answer = client.call("list_tasks", json!({"limit": 500})).await;
    assert_eq!(answer.error_code(), Some("invalid_parameter"));
    assert_eq!(answer.error()["details"]["path"], "limit");
    assert_eq!(answer.error()["details"]["maximum"], 50.0);

    let answer = client.call("get_task", json!({})).await;
    assert_eq!(answer.error()["details"]["path"], "task_id");
    assert_eq!(
        answer.error()["message"],
        "Missing required parameter `task_id`."
    );

    let answer = client.call("get_task", json!({"task_id": "seven"})).await;
    assert_eq!(answer.error()["details"]["path"], "task_id");
}

#[tokio::test]
async fn a_custom_error_code_carries_its_details() {
    let client = spawn().await;
    let answer = client.call("get_task", json!({"task_id": 99})).await;
    assert!(answer.is_error);
    assert_eq!(answer.error_code(), Some("task_not_found"));
    assert_eq!(answer.error()["retryable"], false);
    assert_eq!(
        answer.error()["details"]["known_ids"],
        json!([1, 2, 3, 4, 5, 6, 7])
    );
    let meta = &answer.envelope["meta"];
    assert_eq!(meta["bytes"].as_u64().unwrap() as usize, answer.bytes());
}

#[tokio::test]
async fn an_unknown_tool_is_a_protocol_error_not_a_tool_error() {
    let client = spawn().await;
    let err = client
        .try_call("delete_everything", json!({}))
        .await
        .unwrap_err();
    let text = err.to_string();
    assert!(text.contains("unknown tool `delete_everything`"), "{text}");
    // The session survives it.
    assert!(client.call("get_task", json!({"task_id": 1})).await.is_ok());
}

#[tokio::test]
async fn progress_and_log_messages_reach_the_client_and_honor_the_level() {
    let client = spawn().await;
    let added = client
        .call("add_task", json!({"title": "ship it", "status": "done"}))
        .await;
    assert_eq!(added.data()["task_id"], 8);
    let answer = client
        .call_with_progress("archive_done_tasks", json!({}))
        .await;
    assert_eq!(answer.expect_ok()["archived"], 3);
    // Notifications may trail the response by a moment.
    for _ in 0..50 {
        if client.notifications().len() >= 6 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let seen = client.notifications();
    let progress: Vec<f64> = seen
        .iter()
        .filter_map(|n| match n {
            Notification::Progress {
                progress, total, ..
            } => {
                assert_eq!(*total, Some(3.0));
                Some(*progress)
            }
            _ => None,
        })
        .collect();
    assert_eq!(progress, [1.0, 2.0, 3.0]);
    let logs = seen
        .iter()
        .filter(|n| matches!(n, Notification::Log { .. }))
        .count();
    assert_eq!(logs, 3);

    // Above `info`, the tool's info messages are no longer sent.
    client.set_log_level(LogLevel::Warning).await;
    client
        .call("add_task", json!({"title": "again", "status": "done"}))
        .await
        .expect_ok();
    let before = client.notifications().len();
    client
        .call("archive_done_tasks", json!({}))
        .await
        .expect_ok();
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    let new_logs = client.notifications()[before..]
        .iter()
        .filter(|n| matches!(n, Notification::Log { .. }))
        .count();
    assert_eq!(new_logs, 0);
}

#[tokio::test]
async fn unknown_arguments_are_ignored_with_a_warning() {
    let client = spawn().await;
    let answer = client
        .call("get_task", json!({"task_id": 2, "verbose": true}))
        .await;
    assert!(answer.is_ok());
    let warnings: Vec<Value> = answer.envelope["warnings"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(warnings, [json!("Unknown argument `verbose` was ignored.")]);
}
