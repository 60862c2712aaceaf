//! `#[mcp_tool]` without `name`: the fn's own name is the tool's name on the wire, a raw
//! identifier without its `r#`.

use mcp_tool::ToolServer;
use mcp_tool::prelude::*;
use mcp_tool::testing::TestClient;
use serde_json::json;

/// How many widgets there are.
#[tool_output]
pub struct WidgetCount {
    /// Widgets on hand.
    pub widgets: u32,
}

/// Count the widgets on hand.
#[mcp_tool(family = "widgets", size_hint = "1KB", read_only)]
pub async fn count_widgets() -> ToolResult<WidgetCount> {
    Ok(WidgetCount { widgets: 3 })
}

/// Match the widgets against the catalogue and count the ones found.
#[mcp_tool(family = "widgets", size_hint = "1KB", read_only)]
pub async fn r#match() -> ToolResult<WidgetCount> {
    Ok(WidgetCount { widgets: 2 })
}

fn server() -> ToolServer {
    ToolServer::builder()
        .name("default-name-tests")
        .version("0.0.0")
        .families(["widgets"])
        .build()
        .unwrap()
}

#[tokio::test]
async fn without_name_the_wire_name_is_the_fn_name() {
    let client = TestClient::in_process(&server()).await;
    let names: Vec<String> = client
        .list_tools()
        .await
        .into_iter()
        .map(|t| t.name.to_string())
        .collect();
    assert_eq!(names, ["count_widgets", "match"]);
    let answer = client.call("count_widgets", json!({})).await;
    assert_eq!(answer.expect_ok()["widgets"], 3);
    let answer = client.call("match", json!({})).await;
    assert_eq!(answer.expect_ok()["widgets"], 2);
}
