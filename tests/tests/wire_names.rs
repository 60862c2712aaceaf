//! Parameters named as serde reads them, end to end: the field `r#type` is the parameter
//! `type`, a field with `#[serde(rename = "min_score")]` the parameter `min_score`, and under
//! `rename_all = "camelCase"` `max_turns` is `maxTurns`, in the schema, in the call and in the
//! errors of their checks.

use mcp_tool::ToolServer;
use mcp_tool::prelude::*;
use mcp_tool::testing::TestClient;
use serde_json::{Value, json};

/// What a note is.
#[tool_args]
#[derive(Debug)]
pub enum Kind {
    /// A thing to do.
    Todo,
    /// A thing to remember.
    r#Memo,
}

/// How much of each note to return.
#[tool_args(tag = "detail_level")]
#[derive(Debug)]
pub enum Detail {
    /// Titles only.
    Titles,
    /// The text, cut after some lines.
    r#Text {
        /// Lines per note.
        #[arg(default = 20, min = 1, max = 100)]
        r#lines: u32,
    },
}

#[tool_args]
pub struct MatchNotesArgs {
    /// What kind of note to look at.
    #[arg(default = Kind::Todo)]
    pub r#type: Kind,
    /// Text the notes must contain.
    pub r#match: String,
    /// Most notes to count.
    #[arg(default = 10, min = 1, max = 50)]
    pub r#limit: u32,
    /// How much of each note to return.
    pub r#detail: Option<Detail>,
    /// Least relevance of a note, from 0 to 1; omit for every note.
    #[serde(rename = "min_score")]
    #[arg(min = 0, max = 1)]
    pub score: Option<f64>,
}

/// Find the notes that contain a text.
#[mcp_tool(family = "notes", size_hint = "1KB", read_only)]
pub async fn r#match(args: MatchNotesArgs) -> ToolResult<String> {
    Ok(format!(
        "{:?} {} {} {:?} {:?}",
        args.r#type, args.r#match, args.r#limit, args.r#detail, args.score
    ))
}

#[tool_args]
#[serde(rename_all = "camelCase")]
pub struct ListTurnsArgs {
    /// Turns per page.
    #[arg(default = 10, min = 1, max = 50)]
    pub max_turns: u32,
}

/// List the turns of the latest session.
#[mcp_tool(family = "notes", size_hint = "1KB", read_only)]
pub async fn list_turns(args: ListTurnsArgs) -> ToolResult<u32> {
    Ok(args.max_turns)
}

fn server() -> ToolServer {
    ToolServer::builder()
        .name("raw-identifier-tests")
        .version("0.0.0")
        .families(["notes"])
        .build()
        .unwrap()
}

#[tokio::test]
async fn a_raw_or_renamed_field_is_a_parameter_named_as_serde_reads_it() {
    let client = TestClient::in_process(&server()).await;
    let tools = client.list_tools().await;
    let tool = tools
        .iter()
        .find(|t| t.name == "match")
        .expect("the tool `match`");
    let schema = Value::Object((*tool.input_schema).clone());
    let props = &schema["properties"];
    let names: Vec<&String> = props.as_object().unwrap().keys().collect();
    assert_eq!(names.len(), 5, "{names:?}");
    assert_eq!(props["min_score"]["minimum"], 0, "{schema:#}");
    assert_eq!(props["min_score"]["maximum"], 1, "{schema:#}");
    assert_eq!(props["type"]["default"], "todo", "{schema:#}");
    assert_eq!(
        props["type"]["description"],
        "What kind of note to look at (`todo`: A thing to do; `memo`: A thing to remember)."
    );
    assert_eq!(props["limit"]["default"], 10);
    assert_eq!(props["limit"]["minimum"], 1);
    assert_eq!(props["limit"]["maximum"], 50);
    assert_eq!(schema["required"], json!(["match"]));
    assert!(
        schema.to_string().contains(r#""enum":["text"]"#),
        "{schema:#}"
    );
    assert!(!schema.to_string().contains("r#"), "{schema:#}");
}

#[tokio::test]
async fn a_raw_or_renamed_field_takes_its_value_default_and_checks() {
    let client = TestClient::in_process(&server()).await;
    let answer = client.call("match", json!({"match": "milk"})).await;
    assert_eq!(answer.expect_ok(), "Todo milk 10 None None");
    let answer = client
        .call(
            "match",
            json!({"type": "memo", "match": "milk", "limit": 3,
                   "detail": {"detail_level": "text"}}),
        )
        .await;
    assert_eq!(
        answer.expect_ok(),
        r#"Memo milk 3 Some(Text { lines: 20 }) None"#
    );

    let answer = client
        .call("match", json!({"match": "milk", "limit": 500}))
        .await;
    assert_eq!(answer.error_code(), Some("invalid_parameter"));
    assert_eq!(
        answer.error()["details"]["path"],
        "limit",
        "{}",
        answer.error()
    );
    let answer = client
        .call("match", json!({"match": "milk", "min_score": 2}))
        .await;
    assert_eq!(answer.error_code(), Some("invalid_parameter"));
    assert_eq!(
        answer.error()["details"]["path"],
        "min_score",
        "{}",
        answer.error()
    );
    let answer = client
        .call(
            "match",
            json!({"match": "milk", "detail": {"detail_level": "text", "lines": 0}}),
        )
        .await;
    assert_eq!(answer.error_code(), Some("invalid_parameter"));
    assert_eq!(
        answer.error()["details"]["path"],
        "detail.lines",
        "{}",
        answer.error()
    );
}

#[tokio::test]
async fn rename_all_names_the_parameters() {
    let server = server();
    let tool = server.tools().find(|t| t.name == "list_turns").unwrap();
    let max_turns = &tool.input_schema["properties"]["maxTurns"];
    assert_eq!(max_turns["default"], 10, "{:?}", tool.input_schema);
    assert_eq!(max_turns["maximum"], 50, "{:?}", tool.input_schema);
    let client = TestClient::in_process(&server).await;
    let answer = client.call("list_turns", json!({"maxTurns": 99})).await;
    assert_eq!(
        answer.error()["details"]["path"],
        "maxTurns",
        "{}",
        answer.error()
    );
    let answer = client.call("list_turns", json!({})).await;
    assert_eq!(answer.expect_ok(), 10);
}
