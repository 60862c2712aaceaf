//! The runtime's contract, end to end through an in-process MCP client: build errors,
//! panics, timeouts, cancellation, families, `tools/list` paging, size warnings, rich content.

use mcp_tool::ToolServer;
use mcp_tool::content::Role;
use mcp_tool::prelude::*;
use mcp_tool::registry::ToolDef;
use mcp_tool::testing::TestClient;
use serde_json::{Value, json};
use std::time::Duration;

/// A counter the tools share, to show state injection.
pub struct Counter(std::sync::atomic::AtomicU64);

#[tool_args]
pub struct EchoArgs {
    /// Text to send back.
    pub text: String,
    /// How many times to repeat it.
    #[arg(default = 1, min = 1, max = 10000)]
    pub times: u32,
}

/// Echo a text, repeated, to test sizes and warnings.
#[mcp_tool(name = "render_text", family = "runtime", size_hint = "1KB", read_only)]
pub async fn render_text(
    counter: &Counter,
    ctx: &ToolContext,
    args: EchoArgs,
) -> ToolResult<String> {
    counter.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    if args.text == "warn" {
        ctx.add_warning("The text was the word warn.");
    }
    Ok(args.text.repeat(args.times as usize))
}

/// Panic on purpose, to show that the server survives it.
#[mcp_tool(
    name = "trigger_panic",
    family = "runtime",
    size_hint = "1KB",
    read_only
)]
pub async fn trigger_panic() -> ToolResult<String> {
    panic!("boom at the disco")
}

/// Sleep for a long time, to test timeouts and cancellation.
#[mcp_tool(name = "wait_long", family = "runtime", size_hint = "1KB", read_only)]
pub async fn wait_long() -> ToolResult<String> {
    tokio::time::sleep(Duration::from_secs(30)).await;
    Ok("woke up".into())
}

/// Set by `wait_for_cancel` when its future is dropped: the server stopped running it.
pub struct Stopped(std::sync::atomic::AtomicBool);

struct SetOnDrop<'a>(&'a Stopped);

impl Drop for SetOnDrop<'_> {
    fn drop(&mut self) {
        self.0.0.store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

/// Wait until the client cancels the call, to test cancellation.
#[mcp_tool(
    name = "wait_for_cancel",
    family = "runtime",
    size_hint = "1KB",
    read_only
)]
pub async fn wait_for_cancel(stopped: &Stopped, ctx: &ToolContext) -> ToolResult<String> {
    let _guard = SetOnDrop(stopped);
    tokio::time::timeout(Duration::from_secs(20), ctx.cancelled())
        .await
        .ok();
    Ok("cancelled or tired of waiting".into())
}

/// Show a picture with a caption, to test rich content.
#[mcp_tool(
    name = "show_picture",
    family = "runtime",
    size_hint = "1KB",
    read_only
)]
pub async fn show_picture() -> ToolResult<Content> {
    Ok(Content::new()
        .text("A red pixel.")
        .for_audience(&[Role::User])
        .image_bytes(&[1, 2, 3], "image/png"))
}

/// Count the calls made so far.
#[mcp_tool(name = "count_calls", family = "other", size_hint = "1KB", read_only)]
pub async fn count_calls(counter: &Counter) -> ToolResult<u64> {
    Ok(counter.0.load(std::sync::atomic::Ordering::Relaxed))
}

/// Same name as another tool, in a family no other test serves.
#[mcp_tool(name = "get_twin", family = "duplicates", size_hint = "1KB", read_only)]
pub async fn get_twin_one() -> ToolResult<u8> {
    Ok(1)
}

/// Same name as another tool, in a family no other test serves.
#[mcp_tool(name = "get_twin", family = "duplicates", size_hint = "1KB", read_only)]
pub async fn get_twin_two() -> ToolResult<u8> {
    Ok(2)
}

fn server() -> ToolServer {
    ToolServer::builder()
        .name("runtime-tests")
        .version("1.2.3")
        .state(Counter(Default::default()))
        .state(Stopped(Default::default()))
        .families(["runtime", "other"])
        .exclude_families(["duplicates"])
        .timeout(Duration::from_millis(300))
        .build()
        .unwrap()
}

#[tokio::test]
async fn a_panicking_tool_is_an_internal_error_and_the_server_keeps_serving() {
    let client = TestClient::in_process(&server()).await;
    let answer = client.call("trigger_panic", json!({})).await;
    assert!(answer.is_error);
    assert_eq!(answer.error_code(), Some("internal"));
    assert_eq!(answer.error()["details"]["panic"], "boom at the disco");
    let again = client
        .call("render_text", json!({"text": "still here"}))
        .await;
    assert_eq!(again.expect_ok(), "still here");
}

#[tokio::test]
async fn a_slow_tool_times_out_with_a_retryable_error() {
    let client = TestClient::in_process(&server()).await;
    let answer = client.call("wait_long", json!({})).await;
    assert_eq!(answer.error_code(), Some("timeout"));
    assert_eq!(answer.error()["retryable"], true);
}

#[tokio::test]
async fn an_answer_over_its_size_hint_says_so_and_tool_warnings_are_kept() {
    let server = server();
    let client = TestClient::in_process(&server).await;
    let small = client.call("render_text", json!({"text": "hi"})).await;
    assert!(small.envelope.get("warnings").is_none());
    client.assert_within_size_hint(&small);

    let big = client
        .call("render_text", json!({"text": "abcdefghij", "times": 200}))
        .await;
    let warning = big.envelope["warnings"][0].as_str().unwrap();
    assert!(warning.contains("over its budget of 1KB"), "{warning}");
    assert_eq!(
        big.envelope["meta"]["bytes"].as_u64().unwrap() as usize,
        big.bytes()
    );
    assert_eq!(
        big.envelope["meta"]["estimated_tokens"].as_u64().unwrap() as usize,
        big.bytes().div_ceil(4)
    );

    let warned = client.call("render_text", json!({"text": "warn"})).await;
    assert_eq!(
        warned.envelope["warnings"],
        json!(["The text was the word warn."])
    );
}

#[tokio::test]
async fn rich_content_is_sent_as_blocks_without_the_envelope() {
    let client = TestClient::in_process(&server()).await;
    let tools = client.list_tools().await;
    let picture = tools.iter().find(|t| t.name == "show_picture").unwrap();
    assert!(
        picture.output_schema.is_none(),
        "rich tools have no outputSchema"
    );
    // The testing client reads text content; check the raw blocks through the direct path.
    let envelope = server().call("show_picture", json!({})).await.unwrap();
    let blocks = envelope.blocks.expect("rich blocks");
    let wire = serde_json::to_value(&blocks).unwrap();
    assert_eq!(
        wire[0],
        json!({"type": "text", "text": "A red pixel.", "annotations": {"audience": ["user"]}})
    );
    assert_eq!(
        wire[1],
        json!({"type": "image", "data": "AQID", "mimeType": "image/png"})
    );
    assert_eq!(envelope.value["content"], wire);
}

#[tokio::test]
async fn families_select_tools_and_list_order_is_family_then_name() {
    let client = TestClient::in_process(&server()).await;
    let names: Vec<String> = client
        .list_tools()
        .await
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    assert_eq!(
        names,
        [
            "count_calls",
            "render_text",
            "show_picture",
            "trigger_panic",
            "wait_for_cancel",
            "wait_long"
        ]
    );
    let only = ToolServer::builder()
        .state(Counter(Default::default()))
        .families(["other"])
        .build()
        .unwrap();
    assert_eq!(
        only.tools().map(|t| t.name.to_string()).collect::<Vec<_>>(),
        ["count_calls"]
    );
}

#[tokio::test]
async fn tools_list_is_paginated_with_next_cursor() {
    let server = ToolServer::builder()
        .state(Counter(Default::default()))
        .state(Stopped(Default::default()))
        .families(["runtime", "other"])
        .tools_page_size(2)
        .build()
        .unwrap();
    let client = TestClient::in_process(&server).await;
    let first = client.list_tools_page(None).await.unwrap();
    assert_eq!(first.tools.len(), 2);
    let second = client
        .list_tools_page(first.next_cursor.clone())
        .await
        .unwrap();
    let third = client
        .list_tools_page(second.next_cursor.clone())
        .await
        .unwrap();
    assert_eq!(third.tools.len(), 2);
    assert!(third.next_cursor.is_none());
    assert_eq!(
        client.list_tools().await.len(),
        6,
        "list_all_tools follows the cursors"
    );
    let bad = client.list_tools_page(Some("tools:999".into())).await;
    assert!(bad.is_err(), "a cursor past the end is a protocol error");
}

#[tokio::test]
async fn build_reports_every_problem_at_once() {
    // No state for `&Counter` (nor `&Stopped`), a duplicate name, a family that does not exist.
    let err = ToolServer::builder()
        .families(["duplicates", "runtime", "nonexistent"])
        .build()
        .unwrap_err();
    let text = err.to_string();
    assert!(text.contains("family `nonexistent` has no tools"), "{text}");
    assert!(
        text.contains("tool name `get_twin` is registered twice: at tests/tests/runtime.rs:"),
        "{text}"
    );
    assert!(
        text.contains("tool `render_text` (tests/tests/runtime.rs:"),
        "{text}"
    );
    assert!(
        text.contains("takes `&Counter`, but the server has no state of that type"),
        "{text}"
    );
    assert_eq!(err.problems.len(), 4, "{text}");
}

#[tokio::test]
async fn build_rejects_a_schema_whose_root_is_not_an_object() {
    let echo = mcp_tool::registry::all_tools()
        .into_iter()
        .find(|d| d.name == "count_calls")
        .unwrap();
    let broken: &'static ToolDef = Box::leak(Box::new(ToolDef {
        name: "get_number",
        input_schema: || json!({"type": "string"}),
        injected: &[],
        ..clone_def(echo)
    }));
    let err = ToolServer::builder()
        .with_definitions(vec![broken])
        .build()
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("input schema root must be `\"type\": \"object\"`"),
        "{err}"
    );
}

fn clone_def(d: &ToolDef) -> ToolDef {
    ToolDef {
        name: d.name,
        family: d.family,
        title: d.title,
        description: d.description,
        size_hint: d.size_hint,
        read_only: d.read_only,
        destructive: d.destructive,
        idempotent: d.idempotent,
        open_world: d.open_world,
        paginated: d.paginated,
        input_schema: d.input_schema,
        output_schema: d.output_schema,
        injected: d.injected,
        exceptions: d.exceptions,
        call: d.call,
        file: d.file,
        line: d.line,
    }
}

#[tokio::test]
async fn direct_calls_share_the_envelope_and_reject_non_object_arguments() {
    let server = server();
    let ok = server
        .call("render_text", json!({"text": "x", "times": 3}))
        .await
        .unwrap();
    let value: Value = serde_json::from_str(&ok.text).unwrap();
    assert_eq!(value["data"], "xxx");
    let bad = server.call("render_text", json!([1, 2])).await.unwrap();
    assert_eq!(bad.value["error"]["code"], "invalid_parameter");
    assert_eq!(
        bad.value["error"]["message"],
        "Arguments must be a JSON object, got an array."
    );
    let unknown = server.call("nope", json!({})).await.unwrap_err();
    assert!(unknown.available.contains(&"render_text".to_owned()));
}

#[tokio::test]
async fn state_is_shared_between_tools() {
    let client = TestClient::in_process(&server()).await;
    for _ in 0..3 {
        client
            .call("render_text", json!({"text": "a"}))
            .await
            .expect_ok();
    }
    assert_eq!(client.call("count_calls", json!({})).await.expect_ok(), 3);
}

#[tokio::test]
async fn a_call_the_client_cancels_stops_running_on_the_server() {
    let server = ToolServer::builder()
        .state(Counter(Default::default()))
        .state(Stopped(Default::default()))
        .families(["runtime"])
        .build()
        .unwrap();
    let client = TestClient::in_process(&server).await;
    // Dropping the pending call makes the rmcp client send notifications/cancelled.
    let gave_up = tokio::time::timeout(
        Duration::from_millis(200),
        client.call("wait_for_cancel", json!({})),
    )
    .await;
    assert!(gave_up.is_err());
    let stopped = server.state::<Stopped>().unwrap();
    for _ in 0..100 {
        if stopped.0.load(std::sync::atomic::Ordering::SeqCst) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(
        stopped.0.load(std::sync::atomic::Ordering::SeqCst),
        "the tool's future was dropped after the cancel"
    );
    assert!(
        client
            .call("render_text", json!({"text": "ok"}))
            .await
            .is_ok(),
        "the session goes on"
    );
}
