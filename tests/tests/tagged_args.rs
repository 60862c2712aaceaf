//! `#[tool_args(tag = "..")]` enums end to end: the schema a client sees, calls with each
//! variant, errors in a variant, and the runtime's design lints on the generated schema.

use mcp_tool::ToolServer;
use mcp_tool::prelude::*;
use mcp_tool::testing::TestClient;
use serde_json::{Value, json};

/// How much of the session to return.
#[tool_args(tag = "detail_level")]
#[derive(Debug, Clone, PartialEq)]
pub enum Detail {
    /// Ids, times and model only.
    Summary,
    /// One entry per turn.
    Turns {
        /// Most turns to return.
        #[arg(default = 20, min = 1, max = 50)]
        max_turns: u32,
        /// Include the model's reasoning in each turn.
        with_reasoning: Option<bool>,
        /// Only turns whose prompt contains this text; omit for every turn.
        #[arg(allow(vague_name = "the word users of the log viewer know"))]
        pattern: Option<String>,
    },
    /// The steps of one turn.
    Steps {
        /// Index of the turn, from 0.
        #[arg(min = 0, max = 999)]
        turn_index: u32,
    },
}

#[tool_args]
pub struct GetSessionArgs {
    /// Id of the session.
    pub session_id: String,
    /// How much of the session to return, and the options of that level.
    pub detail: Detail,
}

/// Return one session at the chosen level of detail.
#[mcp_tool(name = "get_session", family = "tagged", size_hint = "1KB", read_only)]
pub async fn get_session(args: GetSessionArgs) -> ToolResult<String> {
    Ok(format!("{} {:?}", args.session_id, args.detail))
}

#[tool_args]
pub struct CountSessionItemsArgs {
    /// Which items of the session to count.
    #[arg(default = Detail::Summary)]
    pub detail: Detail,
}

/// Count the items of the latest session at a level of detail.
#[mcp_tool(
    name = "count_session_items",
    family = "tagged",
    size_hint = "1KB",
    read_only
)]
pub async fn count_session_items(args: CountSessionItemsArgs) -> ToolResult<String> {
    Ok(format!("{:?}", args.detail))
}

fn server() -> ToolServer {
    ToolServer::builder()
        .name("tagged-tests")
        .version("1.0.0")
        .families(["tagged"])
        .build()
        .unwrap()
}

/// The branch of `detail` whose tag is `value`: in the portable schema `Detail` is inlined as
/// an `anyOf` with one branch per variant, each tag a one-value `enum`.
fn branch<'a>(schema: &'a Value, value: &str) -> &'a Value {
    let detail = &schema["properties"]["detail"];
    detail["anyOf"]
        .as_array()
        .expect("one branch per variant")
        .iter()
        .find(|b| b["properties"]["detail_level"]["enum"] == json!([value]))
        .unwrap_or_else(|| panic!("no branch for `{value}` in {detail:#}"))
}

#[tokio::test]
async fn the_input_schema_has_a_branch_per_variant_with_docs_defaults_and_bounds() {
    let client = TestClient::in_process(&server()).await;
    let tools = client.list_tools().await;
    let tool = tools.iter().find(|t| t.name == "get_session").unwrap();
    let schema = Value::Object((*tool.input_schema).clone());

    let summary = branch(&schema, "summary");
    assert_eq!(summary["description"], "Ids, times and model only.");
    assert_eq!(summary["required"], json!(["detail_level"]));

    let turns = branch(&schema, "turns");
    assert_eq!(turns["description"], "One entry per turn.");
    let max_turns = &turns["properties"]["max_turns"];
    assert_eq!(max_turns["description"], "Most turns to return.");
    assert_eq!(max_turns["default"], 20);
    assert_eq!(max_turns["minimum"], 1);
    assert_eq!(max_turns["maximum"], 50);
    assert_eq!(
        turns["properties"]["with_reasoning"]["description"],
        "Include the model's reasoning in each turn."
    );
    assert_eq!(
        turns["required"],
        json!(["detail_level"]),
        "a field with a default is not required"
    );

    let steps = branch(&schema, "steps");
    assert_eq!(steps["properties"]["turn_index"]["minimum"], 0);
    assert_eq!(steps["properties"]["turn_index"]["maximum"], 999);
    assert!(steps["properties"]["turn_index"].get("default").is_none());
    assert_eq!(steps["required"], json!(["detail_level", "turn_index"]));
}

#[tokio::test]
async fn each_variant_reaches_the_tool_with_its_data() {
    let client = TestClient::in_process(&server()).await;
    let call = |detail: Value| {
        let client = &client;
        async move {
            client
                .call("get_session", json!({"session_id": "s1", "detail": detail}))
                .await
                .expect_ok()
                .clone()
        }
    };
    assert_eq!(call(json!({"detail_level": "summary"})).await, "s1 Summary");
    assert_eq!(
        call(json!({"detail_level": "turns", "max_turns": 5, "with_reasoning": true})).await,
        "s1 Turns { max_turns: 5, with_reasoning: Some(true), pattern: None }"
    );
    assert_eq!(
        call(json!({"detail_level": "turns"})).await,
        "s1 Turns { max_turns: 20, with_reasoning: None, pattern: None }",
        "the declared default fills an omitted variant field"
    );
    assert_eq!(
        call(json!({"detail_level": "steps", "turn_index": 3})).await,
        "s1 Steps { turn_index: 3 }"
    );
}

#[tokio::test]
async fn a_tagged_enum_field_takes_a_default_like_any_field() {
    let server = server();
    let tool = server
        .tools()
        .find(|t| t.name == "count_session_items")
        .unwrap();
    assert_eq!(
        tool.input_schema["properties"]["detail"]["default"],
        json!({"detail_level": "summary"})
    );
    let client = TestClient::in_process(&server).await;
    assert_eq!(
        client
            .call("count_session_items", json!({}))
            .await
            .expect_ok(),
        "Summary"
    );
    let steps = client
        .call(
            "count_session_items",
            json!({"detail": {"detail_level": "steps", "turn_index": 1}}),
        )
        .await;
    assert_eq!(steps.expect_ok(), "Steps { turn_index: 1 }");
}

#[tokio::test]
async fn an_unknown_tag_is_invalid_parameter_listing_the_variants() {
    let client = TestClient::in_process(&server()).await;
    let answer = client
        .call(
            "get_session",
            json!({"session_id": "s1", "detail": {"detail_level": "everything"}}),
        )
        .await;
    assert_eq!(answer.error_code(), Some("invalid_parameter"));
    let details = &answer.error()["details"];
    assert_eq!(details["path"], "detail.detail_level", "{}", answer.error());
    assert_eq!(
        details["allowed"],
        json!(["summary", "turns", "steps"]),
        "{}",
        answer.error()
    );

    let untagged = client
        .call(
            "get_session",
            json!({"session_id": "s1", "detail": {"max_turns": 5}}),
        )
        .await;
    assert_eq!(untagged.error_code(), Some("invalid_parameter"));
    assert_eq!(
        untagged.error()["details"]["path"],
        "detail.detail_level",
        "{}",
        untagged.error()
    );
}

#[tokio::test]
async fn a_variant_field_out_of_range_is_invalid_parameter_naming_it() {
    let client = TestClient::in_process(&server()).await;
    let answer = client
        .call(
            "get_session",
            json!({"session_id": "s1", "detail": {"detail_level": "turns", "max_turns": 99}}),
        )
        .await;
    assert_eq!(answer.error_code(), Some("invalid_parameter"));
    let error = answer.error();
    assert_eq!(error["details"]["path"], "detail.max_turns", "{error}");
    assert_eq!(error["details"]["maximum"], 50.0, "{error}");
    assert_eq!(
        error["message"],
        "`detail.max_turns` must be between 1 and 50 (got 99)."
    );

    let below = client
        .call(
            "count_session_items",
            json!({"detail": {"detail_level": "turns", "max_turns": 0}}),
        )
        .await;
    assert_eq!(
        below.error()["details"]["path"],
        "detail.max_turns",
        "{}",
        below.error()
    );
}

#[test]
fn the_runtime_lints_accept_the_generated_schema() {
    let server = server();
    assert_eq!(server.tools().count(), 2);
    assert!(
        server.lint_warnings().is_empty(),
        "{:#?}",
        server.lint_warnings()
    );
}

#[test]
fn an_allow_on_a_variant_field_is_kept_for_review() {
    let exceptions = server().exceptions();
    let kept: Vec<_> = exceptions
        .iter()
        .filter(|(tool, _)| *tool == "get_session")
        .map(|(_, e)| (e.target, e.lint, e.reason))
        .collect();
    assert_eq!(
        kept,
        [(
            "Detail::Turns.pattern",
            "vague_name",
            "the word users of the log viewer know"
        )]
    );
}
