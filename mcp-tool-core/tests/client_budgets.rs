//! Budgets that fit the client: a tool's `ctx.size_hint()` is the smaller of its own
//! `size_hint` and what the connected client keeps of an answer (by its `clientInfo.name`),
//! while the description and the listed `_meta` keep stating the tool's own.

use mcp_tool::client_limits::{CLAUDE_CODE, CODEX_CLI, ClientLimits, GEMINI_CLI};
use mcp_tool::prelude::*;
use mcp_tool::testing::TestClient;
use mcp_tool::{SIZE_HINT_META, ToolServer};
use serde_json::{Value, json};

const FAMILY: &str = "client_budgets_test";

/// What a tool was told about its budget and its client.
#[tool_output]
#[derive(Debug)]
pub struct BudgetSeen {
    /// `ctx.size_hint()`: the budget the tool pages by.
    pub size_hint: usize,
    /// `ctx.tool_size_hint()`: the tool's own, as its description states it.
    pub tool_size_hint: usize,
    /// The client's `clientInfo.name`, if any.
    pub client_name: Option<String>,
    /// The client's limit, when the server knows it.
    pub client_max_bytes: Option<usize>,
}

/// Return the answer budget this call was given and the client it was given for.
#[mcp_tool(family = "client_budgets_test", size_hint = "50KB", read_only)]
pub async fn get_budget(ctx: &ToolContext) -> ToolResult<BudgetSeen> {
    Ok(BudgetSeen {
        size_hint: ctx.size_hint(),
        tool_size_hint: ctx.tool_size_hint(),
        client_name: ctx.client_name().map(str::to_owned),
        client_max_bytes: ctx.client_max_bytes(),
    })
}

/// Return the answer budget of a tool whose own hint is smaller than any client's limit.
#[mcp_tool(family = "client_budgets_test", size_hint = "5KB", read_only)]
pub async fn get_small_budget(ctx: &ToolContext) -> ToolResult<BudgetSeen> {
    get_budget(ctx).await
}

/// Arguments of `list_records`.
#[tool_args]
pub struct ListRecordsArgs {
    /// `next_cursor` from the previous page; omit for the first page.
    pub cursor: Option<Cursor>,
}

/// One record of the fixed test set.
#[tool_output]
#[derive(Debug, Clone)]
pub struct TestRecord {
    /// Position in the set, from 0.
    pub index: usize,
    /// 200 characters of filler.
    pub body: String,
}

const RECORDS: usize = 60;
/// Room left for the envelope around the items (status, pagination, cursor, meta).
const ENVELOPE_RESERVE: usize = 600;

/// List the 60 test records (about 12 KB in all), as many per page as the budget allows.
#[mcp_tool(family = "client_budgets_test", size_hint = "50KB", read_only)]
pub async fn list_records(
    ctx: &ToolContext,
    args: ListRecordsArgs,
) -> ToolResult<Page<TestRecord>> {
    let start: usize = match &args.cursor {
        Some(cursor) => cursor.position()?,
        None => 0,
    };
    let budget = ctx.size_hint().saturating_sub(ENVELOPE_RESERVE);
    let mut used = 2;
    let mut items = Vec::new();
    for index in start..RECORDS {
        let record = TestRecord {
            index,
            body: format!("{index:03}").repeat(67)[..200].to_owned(),
        };
        let len = serde_json::to_string(&record).map_or(0, |s| s.len()) + 1;
        if !items.is_empty() && used + len > budget {
            break;
        }
        used += len;
        items.push(record);
    }
    let end = start + items.len();
    let page = Page::new(items).with_total(RECORDS as u64);
    Ok(if end < RECORDS {
        page.with_next(end)
    } else {
        page
    })
}

/// Return `bytes` bytes of filler, ignoring the budget (a tool that does not page).
#[mcp_tool(family = "client_budgets_test", size_hint = "50KB", read_only)]
pub async fn get_filler(args: FillerArgs) -> ToolResult<String> {
    Ok("x".repeat(args.bytes as usize))
}

/// Arguments of `get_filler`.
#[tool_args]
pub struct FillerArgs {
    /// How many bytes of filler to return.
    #[arg(max = 100000)]
    pub bytes: u32,
}

fn server(builder: mcp_tool::ToolServerBuilder) -> ToolServer {
    builder
        .families([FAMILY])
        .build()
        .unwrap_or_else(|e| panic!("{e}"))
}

async fn budget_as(server: &ToolServer, tool: &str, client_name: &str) -> Value {
    let client = TestClient::in_process_as(server, client_name).await;
    let answer = client.call(tool, json!({})).await;
    let seen = answer.expect_ok().clone();
    client.close().await;
    seen
}

#[tokio::test]
async fn each_known_client_gets_the_smaller_of_its_limit_and_the_tool_hint() {
    let server = server(ToolServer::builder());
    for (name, limit) in [
        (CODEX_CLI, 10_000),
        (CLAUDE_CODE, 40_000),
        (GEMINI_CLI, 36_000),
    ] {
        let seen = budget_as(&server, "get_budget", name).await;
        assert_eq!(
            seen,
            json!({"size_hint": limit, "tool_size_hint": 51_200,
                   "client_name": name, "client_max_bytes": limit}),
            "{name}"
        );
        // A tool whose own hint is already smaller keeps it.
        let small = budget_as(&server, "get_small_budget", name).await;
        assert_eq!(small["size_hint"], 5_120, "{name}");
        assert_eq!(small["client_max_bytes"], limit, "{name}");
    }
}

#[tokio::test]
async fn an_unknown_client_gets_the_tool_hint() {
    let server = server(ToolServer::builder());
    let seen = budget_as(&server, "get_budget", "some-ide-mcp").await;
    assert_eq!(
        seen,
        json!({"size_hint": 51_200, "tool_size_hint": 51_200,
               "client_name": "some-ide-mcp", "client_max_bytes": null})
    );
    // The testing kit's own name is not in the table either.
    let client = TestClient::in_process(&server).await;
    let seen = client.call("get_budget", json!({})).await;
    assert_eq!(seen.data()["size_hint"], 51_200);
    assert_eq!(seen.data()["client_name"], "mcp-tool-testing");
    client.close().await;
}

#[tokio::test]
async fn a_direct_call_has_no_client_and_the_tool_hint() {
    let server = server(ToolServer::builder());
    let envelope = server.call("get_budget", Value::Null).await.unwrap();
    assert_eq!(envelope.value["data"]["size_hint"], 51_200);
    assert_eq!(envelope.value["data"]["client_name"], Value::Null);
}

#[tokio::test]
async fn the_builder_overrides_the_table() {
    let raised = server(
        ToolServer::builder()
            .client_limit(CODEX_CLI, 20_000)
            .client_limit("my-agent*", 3_000),
    );
    assert_eq!(
        budget_as(&raised, "get_budget", CODEX_CLI).await["size_hint"],
        20_000
    );
    assert_eq!(
        budget_as(&raised, "get_budget", "my-agent-nightly").await["size_hint"],
        3_000
    );
    // The rows not overridden keep their defaults.
    assert_eq!(
        budget_as(&raised, "get_budget", CLAUDE_CODE).await["size_hint"],
        40_000
    );

    let none = server(ToolServer::builder().client_limits(ClientLimits::empty()));
    assert_eq!(
        budget_as(&none, "get_budget", CODEX_CLI).await["size_hint"],
        51_200
    );
}

#[tokio::test]
async fn the_listed_tool_states_its_own_hint_whatever_the_client() {
    let server = server(ToolServer::builder());
    let client = TestClient::in_process_as(&server, CODEX_CLI).await;
    let tools = client.list_tools().await;
    let tool = tools.iter().find(|t| t.name == "get_budget").unwrap();
    let description = tool.description.as_deref().unwrap_or_default();
    assert!(
        description.contains("50KB"),
        "description lost the tool's own hint: {description}"
    );
    assert!(!description.contains("10000"), "{description}");
    let meta = tool.meta.as_ref().and_then(|m| m.get(SIZE_HINT_META));
    assert_eq!(meta, Some(&json!(51_200)));
    client.close().await;
}

/// Walks every page of `list_records` as `client_name`; returns the indexes seen and the size
/// of each page's answer.
async fn walk_records(server: &ToolServer, client_name: &str) -> (Vec<u64>, Vec<usize>) {
    let client = TestClient::in_process_as(server, client_name).await;
    let (mut seen, mut sizes) = (Vec::new(), Vec::new());
    let mut cursor: Option<String> = None;
    loop {
        let args = match &cursor {
            Some(c) => json!({"cursor": c}),
            None => json!({}),
        };
        let answer = client.call("list_records", args).await;
        answer.expect_ok();
        client.assert_within_size_hint(&answer);
        sizes.push(answer.bytes());
        seen.extend(
            answer
                .data()
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["index"].as_u64().unwrap()),
        );
        match answer.next_cursor() {
            Some(next) => cursor = Some(next.to_owned()),
            None => break,
        }
        assert!(sizes.len() < 20, "paging does not end");
    }
    client.close().await;
    (seen, sizes)
}

#[tokio::test]
async fn a_12kb_answer_reaches_codex_as_pages_that_fit_and_lose_nothing() {
    let server = server(ToolServer::builder());
    let all: Vec<u64> = (0..RECORDS as u64).collect();

    let (seen, sizes) = walk_records(&server, "some-ide-mcp").await;
    assert_eq!(seen, all);
    assert_eq!(sizes.len(), 1, "one page under the tool's own 50KB");
    assert!(
        sizes[0] > 12_000,
        "the whole set is over Codex's cut: {sizes:?}"
    );

    let (seen, sizes) = walk_records(&server, CODEX_CLI).await;
    assert_eq!(seen, all, "every record, once, in order");
    assert!(sizes.len() >= 2, "{sizes:?}");
    assert!(sizes.iter().all(|&s| s <= 10_000), "{sizes:?}");
}

#[tokio::test]
async fn an_answer_over_the_client_limit_says_so() {
    let server = server(ToolServer::builder());
    let client = TestClient::in_process_as(&server, CODEX_CLI).await;
    let answer = client.call("get_filler", json!({"bytes": 15_000})).await;
    answer.expect_ok();
    let warnings = answer.envelope["warnings"].to_string();
    assert!(warnings.contains("over"), "{}", answer.envelope["warnings"]);
    // The same answer is within the tool's own hint for a client without a limit.
    let other = TestClient::in_process(&server).await;
    let answer = other.call("get_filler", json!({"bytes": 15_000})).await;
    assert!(answer.envelope.get("warnings").is_none());
    client.close().await;
    other.close().await;
}
