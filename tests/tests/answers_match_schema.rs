//! An answer and the `outputSchema` it is advertised with cannot disagree: what the serializer
//! may leave out is not required, and an answer that still breaks its schema becomes an
//! `internal` tool error that names the tool and the JSON path.

use mcp_tool::ToolServer;
use mcp_tool::prelude::*;
use mcp_tool::testing::TestClient;
use serde_json::json;

/// One line of a log.
#[tool_output]
pub struct Line {
    /// The line's text.
    pub text: String,
    /// Present, and true, only for a line that reports a failure.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub is_error: bool,
    /// The exit code, when the line reports one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
}

/// List the lines of the build log.
#[mcp_tool(family = "answers", size_hint = "2KB", read_only)]
pub async fn list_log_lines() -> ToolResult<Vec<Line>> {
    Ok(vec![
        Line {
            text: "compiling".into(),
            is_error: false,
            exit_code: None,
        },
        Line {
            text: "failed".into(),
            is_error: true,
            exit_code: Some(1),
        },
    ])
}

/// A count whose hand-written schema says string while it serializes as a number: the kind of
/// disagreement a custom `JsonSchema` impl can still bring in.
pub struct Mislabelled(u32);

impl serde::Serialize for Mislabelled {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(self.0)
    }
}

impl schemars::JsonSchema for Mislabelled {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Mislabelled".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"type": "string"})
    }
}

/// Count the widgets, with a schema that lies about the answer.
#[mcp_tool(family = "answers", size_hint = "1KB", read_only)]
pub async fn count_mislabelled_widgets() -> ToolResult<Mislabelled> {
    Ok(Mislabelled(3))
}

fn server(check_answers: bool) -> ToolServer {
    ToolServer::builder()
        .name("answers")
        .version("0.0.0")
        .families(["answers"])
        .check_answers(check_answers)
        .build()
        .unwrap_or_else(|e| panic!("{e}"))
}

#[tokio::test]
async fn a_field_the_serializer_may_skip_is_not_required() {
    let client = TestClient::in_process(&server(true)).await;
    let tools = client.list_tools().await;
    let tool = tools.iter().find(|t| t.name == "list_log_lines").unwrap();
    let schema = serde_json::to_value(tool.output_schema.as_ref().unwrap()).unwrap();
    let line = &schema["$defs"]["Line"];
    assert_eq!(line["required"], json!(["text"]), "{schema:#}");

    // The first line leaves out `is_error` and `exit_code`; the kit's own check (the one the
    // SDK clients make) passes, and so does the server's.
    let answer = client.call("list_log_lines", json!({})).await;
    let data = answer.expect_ok();
    assert_eq!(data[0], json!({"text": "compiling"}));
    assert_eq!(
        data[1],
        json!({"text": "failed", "is_error": true, "exit_code": 1})
    );
}

#[tokio::test]
async fn an_answer_that_breaks_its_schema_is_an_internal_error_naming_the_path() {
    let answer = server(true)
        .call("count_mislabelled_widgets", json!({}))
        .await
        .unwrap();
    assert!(answer.is_error, "{}", answer.value);
    let error = &answer.value["error"];
    assert_eq!(error["code"], "internal");
    assert_eq!(error["details"]["tool"], "count_mislabelled_widgets");
    assert_eq!(error["details"]["path"], "/data");
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("does not match its outputSchema at `/data`"),
        "{message}"
    );
}

#[tokio::test]
async fn without_the_check_the_answer_goes_out_as_the_tool_made_it() {
    let answer = server(false)
        .call("count_mislabelled_widgets", json!({}))
        .await
        .unwrap();
    assert!(!answer.is_error, "{}", answer.value);
    assert_eq!(answer.value["data"], 3);
}

#[tokio::test]
#[should_panic(expected = "breaks its outputSchema at `/data`")]
async fn the_testing_kit_rejects_an_answer_that_breaks_its_schema() {
    let client = TestClient::in_process(&server(false)).await;
    client.call("count_mislabelled_widgets", json!({})).await;
}
