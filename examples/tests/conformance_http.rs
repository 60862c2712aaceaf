//! The conformance server over streamable HTTP, driven by an rmcp client that can answer
//! sampling and elicitation: what the official suite checks, kept in `cargo test` so a
//! regression shows without npm (scripts/conformance.sh runs the suite itself).

// rmcp marks sampling deprecated for the 2026-07-28 protocol; these servers speak up to 2025-11-25.
#![allow(deprecated)]

use mcp_tool::LogLevel;
use mcp_tool::testing::{Notification, TestClient};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig,
    CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult,
    ElicitationAction, ElicitationCapability, Implementation, SamplingCapability, SamplingMessage,
};
use rmcp::service::{RequestContext, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientHandler, ErrorData as McpError, RoleClient, ServiceExt};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};

/// Answers like the suite's client: a fixed completion, and accepts every form with `content`.
#[derive(Clone)]
struct SuiteLikeClient {
    form_answer: Value,
    elicitations: Arc<Mutex<Vec<Value>>>,
    samplings: Arc<Mutex<Vec<Value>>>,
}

impl SuiteLikeClient {
    fn new(form_answer: Value) -> Self {
        Self {
            form_answer,
            elicitations: Arc::default(),
            samplings: Arc::default(),
        }
    }
}

impl ClientHandler for SuiteLikeClient {
    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
        _: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, McpError> {
        self.samplings
            .lock()
            .unwrap()
            .push(serde_json::to_value(&params).unwrap());
        Ok(CreateMessageResult::new(
            SamplingMessage::assistant_text("This is a test response from the client"),
            "test-model".into(),
        ))
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, McpError> {
        self.elicitations
            .lock()
            .unwrap()
            .push(serde_json::to_value(&request).unwrap());
        let mut result = ElicitResult::new(ElicitationAction::Accept);
        result.content = Some(self.form_answer.clone());
        Ok(result)
    }

    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        capabilities.sampling = Some(SamplingCapability::default());
        capabilities.elicitation = Some(ElicitationCapability::default());
        let mut config = ClientConfig::default();
        config.capabilities = capabilities;
        config.client_info = Implementation::new("suite-like-client", "1.0.0");
        config
    }
}

async fn serve() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = mcp_tool_examples::conformance::server();
    tokio::spawn(async move { server.serve_http_on(listener).await });
    format!("http://{addr}/mcp")
}

async fn connect(client: SuiteLikeClient) -> RunningService<RoleClient, SuiteLikeClient> {
    let url = serve().await;
    client
        .serve(StreamableHttpClientTransport::from_uri(url))
        .await
        .expect("HTTP handshake")
}

async fn call(
    service: &RunningService<RoleClient, SuiteLikeClient>,
    name: &str,
    args: Value,
) -> CallToolResult {
    let mut params = CallToolRequestParams::new(name.to_owned());
    if let Value::Object(map) = args {
        params = params.with_arguments(map);
    }
    service
        .peer()
        .call_tool(params)
        .await
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn blocks(result: &CallToolResult) -> Value {
    serde_json::to_value(&result.content).unwrap()
}

#[test]
fn the_conformance_tool_set_raises_no_design_warnings() {
    assert_eq!(
        mcp_tool_examples::conformance::server().lint_warnings(),
        &[]
    );
}

#[test]
fn every_tool_the_crate_links_is_served_or_excluded() {
    assert_eq!(
        mcp_tool_examples::conformance::server().unserved_tools(),
        &[]
    );
}

/// The tools the server owns, sorted, from its own definitions.
fn owned_tools() -> Vec<&'static str> {
    let mut names: Vec<&str> = mcp_tool_examples::conformance::server()
        .definitions()
        .map(|d| d.name)
        .collect();
    names.sort();
    names
}

/// The suite's tools (its names are fixed by the suite) with arguments for one call each,
/// sorted, and whether a session-era client that can sample and elicit but has no roots gets
/// a tool error; a test checks it covers exactly the server's tools.
fn suite_calls() -> Vec<(&'static str, Value, bool)> {
    vec![
        // Task fixtures run in-line in a session; `require_task` ones are `task_required`.
        ("confirm_delete", json!({"filename": "a.txt"}), false),
        ("echo_region", json!({"region": "eu-west1"}), false),
        ("failing_job", json!({}), true),
        ("greet", json!({"name": "Ada"}), false),
        ("json_schema_2020_12_tool", json!({"name": "Ada"}), false),
        ("multi_input", json!({}), false),
        // Panics on purpose: an `internal` tool error in a session.
        ("protocol_error_job", json!({}), true),
        ("slow_compute", json!({"seconds": 0, "label": "now"}), false),
        ("test_audio_content", json!({}), false),
        (
            "test_elicitation",
            json!({"message": "Who are you?"}),
            false,
        ),
        ("test_elicitation_sep1034_defaults", json!({}), false),
        ("test_elicitation_sep1330_enums", json!({}), false),
        ("test_embedded_resource", json!({}), false),
        ("test_error_handling", json!({}), true),
        ("test_image_content", json!({}), false),
        ("test_input_required_result_capabilities", json!({}), false),
        ("test_input_required_result_elicitation", json!({}), false),
        // No `roots` capability: `client_capability_missing`.
        ("test_input_required_result_list_roots", json!({}), true),
        ("test_input_required_result_multi_round", json!({}), false),
        (
            "test_input_required_result_multiple_inputs",
            json!({}),
            true,
        ),
        ("test_input_required_result_request_state", json!({}), false),
        ("test_input_required_result_sampling", json!({}), false),
        (
            "test_input_required_result_tampered_state",
            json!({}),
            false,
        ),
        ("test_logging_tool", json!({}), false),
        ("test_missing_capability", json!({}), false),
        ("test_multiple_content_types", json!({}), false),
        ("test_sampling", json!({"prompt": "Say hi."}), false),
        ("test_simple_text", json!({}), false),
        ("test_streaming_elicitation", json!({}), false),
        ("test_tool_with_logging", json!({}), false),
        ("test_tool_with_progress", json!({}), false),
        ("test_tool_with_task", json!({}), true),
    ]
}

#[tokio::test]
async fn the_suite_table_covers_the_servers_tools_and_every_call_is_answered() {
    let calls = suite_calls();
    let names: Vec<&str> = calls.iter().map(|(name, _, _)| *name).collect();
    assert_eq!(
        names,
        owned_tools(),
        "the suite's tools are exactly the server's"
    );
    let service = connect(SuiteLikeClient::new(
        json!({"username": "ada", "email": "ada@example.com"}),
    ))
    .await;
    for (name, args, fails) in calls {
        let result = call(&service, name, args).await;
        assert!(!result.content.is_empty(), "`{name}` answered no content");
        assert_eq!(
            result.is_error,
            Some(fails),
            "`{name}`: {:?}",
            result.content
        );
    }
}

#[tokio::test]
async fn every_suite_tool_is_listed_and_the_2020_12_schema_survives() {
    let service = connect(SuiteLikeClient::new(json!({}))).await;
    let tools = service.peer().list_all_tools().await.unwrap();
    let mut names: Vec<String> = tools.iter().map(|t| t.name.to_string()).collect();
    names.sort();
    assert_eq!(names, owned_tools());
    assert_eq!(names.len(), 32);
    assert!(
        tools
            .iter()
            .all(|t| t.description.as_deref().is_some_and(|d| !d.is_empty()))
    );
    let tool = tools
        .iter()
        .find(|t| t.name == "json_schema_2020_12_tool")
        .unwrap();
    let schema = Value::Object((*tool.input_schema).clone());
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    assert_eq!(schema["additionalProperties"], false);
    // SEP-2106 (2026-07-28): composition, conditional and `$anchor` keywords survive.
    assert_eq!(
        schema["allOf"],
        json!([{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}])
    );
    assert_eq!(schema["then"], json!({"required": ["phone"]}));
    assert_eq!(schema["else"], json!({"required": ["email"]}));
    assert!(schema["if"].is_object());
    assert_eq!(schema["$defs"]["address"]["$anchor"], json!("addressDef"));
    // Nullable as `anyOf`, the spelling Inspector `--strict` accepts (not a `type` array).
    assert_eq!(
        schema["$defs"]["address"]["properties"]["city"]["anyOf"],
        json!([{"type": "string"}, {"type": "null"}])
    );
    let address = serde_json::to_string(&schema["properties"]["address"]).unwrap();
    assert!(
        address.contains(r##""$ref":"#/$defs/address""##),
        "{address}"
    );

    let result = call(
        &service,
        "json_schema_2020_12_tool",
        json!({"name": "Ada", "address": {"city": "London"}}),
    )
    .await;
    assert_eq!(result.is_error, Some(false));
    let echoed: Value = serde_json::from_str(blocks(&result)[0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(
        echoed,
        json!({"name": "Ada", "address": {"street": null, "city": "London"}})
    );
    let result = call(
        &service,
        "json_schema_2020_12_tool",
        json!({"nmae": "typo"}),
    )
    .await;
    assert_eq!(
        result.is_error,
        Some(true),
        "additionalProperties: false is enforced, not only advertised"
    );
}

#[tokio::test]
async fn content_tools_answer_with_exact_blocks() {
    let service = connect(SuiteLikeClient::new(json!({}))).await;
    let text = blocks(&call(&service, "test_simple_text", json!({})).await);
    assert_eq!(
        text,
        json!([{"type": "text", "text": "This is a simple text response for testing."}])
    );

    let image = blocks(&call(&service, "test_image_content", json!({})).await);
    assert_eq!(image[0]["type"], "image");
    assert_eq!(image[0]["mimeType"], "image/png");
    assert!(
        image[0]["data"]
            .as_str()
            .unwrap()
            .starts_with("iVBORw0KGgo"),
        "PNG signature"
    );

    let audio = blocks(&call(&service, "test_audio_content", json!({})).await);
    assert_eq!(audio[0]["type"], "audio");
    assert_eq!(audio[0]["mimeType"], "audio/wav");
    assert!(
        audio[0]["data"].as_str().unwrap().starts_with("UklGR"),
        "base64 of `RIFF`"
    );

    let resource = blocks(&call(&service, "test_embedded_resource", json!({})).await);
    assert_eq!(
        resource[0]["resource"],
        json!({"uri": "test://embedded-resource", "mimeType": "text/plain", "text": "This is an embedded resource content."})
    );

    let result = call(&service, "test_multiple_content_types", json!({})).await;
    let mixed = blocks(&result);
    let kinds: Vec<&str> = mixed
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["type"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["text", "image", "resource"]);
    assert_eq!(
        mixed[1]["annotations"],
        json!({"audience": ["user"], "priority": 0.5})
    );
    assert_eq!(
        mixed[2]["resource"]["text"],
        r#"{"test":"data","value":123}"#
    );
    assert!(
        result
            .meta
            .as_ref()
            .is_some_and(|m| m.contains_key("bytes")),
        "rich answers report their size in _meta"
    );
}

#[tokio::test]
async fn the_error_tool_is_a_tool_error_with_the_message_in_text() {
    let service = connect(SuiteLikeClient::new(json!({}))).await;
    let result = call(&service, "test_error_handling", json!({})).await;
    assert_eq!(result.is_error, Some(true));
    let envelope: Value =
        serde_json::from_str(blocks(&result)[0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(envelope["error"]["code"], "intentional_error");
    assert_eq!(
        envelope["error"]["message"],
        "This tool intentionally returns an error for testing"
    );
}

#[tokio::test]
async fn sampling_over_http_reaches_the_client_and_back() {
    let client = SuiteLikeClient::new(json!({}));
    let service = connect(client.clone()).await;
    let result = call(
        &service,
        "test_sampling",
        json!({"prompt": "Test prompt for sampling"}),
    )
    .await;
    assert_eq!(
        blocks(&result)[0]["text"],
        "LLM response: This is a test response from the client"
    );
    let asked = client.samplings.lock().unwrap().clone();
    assert_eq!(
        asked[0]["messages"][0]["content"]["text"],
        "Test prompt for sampling"
    );
    assert_eq!(asked[0]["maxTokens"], 100);
}

#[tokio::test]
async fn elicitation_over_http_sends_the_typed_form_and_reports_the_answer() {
    let client = SuiteLikeClient::new(json!({"username": "testuser", "email": "test@example.com"}));
    let service = connect(client.clone()).await;
    let result = call(
        &service,
        "test_elicitation",
        json!({"message": "Please provide your information"}),
    )
    .await;
    let text = blocks(&result)[0]["text"].as_str().unwrap().to_owned();
    let content: Value = serde_json::from_str(
        text.strip_prefix("User response: action=accept, content=")
            .unwrap(),
    )
    .unwrap();
    assert_eq!(
        content,
        json!({"username": "testuser", "email": "test@example.com"})
    );
    let asked = client.elicitations.lock().unwrap().clone();
    assert_eq!(asked[0]["message"], "Please provide your information");
    assert_eq!(
        asked[0]["requestedSchema"]["properties"]["email"],
        json!({"type": "string", "description": "User's email address"})
    );
    assert_eq!(
        asked[0]["requestedSchema"]["required"],
        json!(["username", "email"])
    );
}

#[tokio::test]
async fn sep1034_defaults_cover_every_primitive_type() {
    let answer = json!({"name": "Jane Smith", "age": 25, "score": 88, "status": "inactive", "verified": false});
    let client = SuiteLikeClient::new(answer);
    let service = connect(client.clone()).await;
    let result = call(&service, "test_elicitation_sep1034_defaults", json!({})).await;
    let text = blocks(&result)[0]["text"].as_str().unwrap().to_owned();
    assert!(
        text.starts_with("Elicitation completed: action=accept, content="),
        "{text}"
    );
    assert!(
        text.contains(r#""name":"Jane Smith""#) && text.contains(r#""status":"inactive""#),
        "{text}"
    );

    let props = client.elicitations.lock().unwrap()[0]["requestedSchema"]["properties"].clone();
    assert_eq!(
        (&props["name"]["type"], &props["name"]["default"]),
        (&json!("string"), &json!("John Doe"))
    );
    assert_eq!(
        (&props["age"]["type"], &props["age"]["default"]),
        (&json!("integer"), &json!(30))
    );
    assert_eq!(
        (&props["score"]["type"], &props["score"]["default"]),
        (&json!("number"), &json!(95.5))
    );
    assert_eq!(
        (&props["verified"]["type"], &props["verified"]["default"]),
        (&json!("boolean"), &json!(true))
    );
    assert_eq!(props["status"]["type"], "string");
    assert_eq!(
        props["status"]["enum"],
        json!(["active", "inactive", "pending"])
    );
    assert_eq!(props["status"]["default"], "active");
}

#[tokio::test]
async fn sep1330_enum_kinds_reach_the_client_in_their_own_shapes() {
    let answer = json!({"untitledSingle": "option1", "titledSingle": "value1", "legacyEnum": "opt1",
        "untitledMulti": ["option1", "option2"], "titledMulti": ["value1", "value2"]});
    let client = SuiteLikeClient::new(answer.clone());
    let service = connect(client.clone()).await;
    let result = call(&service, "test_elicitation_sep1330_enums", json!({})).await;
    let text = blocks(&result)[0]["text"].as_str().unwrap().to_owned();
    let content: Value = serde_json::from_str(
        text.strip_prefix("Elicitation completed: action=accept, content=")
            .unwrap(),
    )
    .unwrap();
    assert_eq!(content, answer);

    let props = client.elicitations.lock().unwrap()[0]["requestedSchema"]["properties"].clone();
    assert_eq!(
        props["untitledSingle"]["enum"],
        json!(["option1", "option2", "option3"])
    );
    assert!(props["untitledSingle"].get("oneOf").is_none());
    assert_eq!(
        props["titledSingle"]["oneOf"][0],
        json!({"const": "value1", "title": "First Option"})
    );
    assert!(props["titledSingle"].get("enum").is_none());
    assert_eq!(
        props["legacyEnum"]["enumNames"],
        json!(["Option One", "Option Two", "Option Three"])
    );
    assert_eq!(
        props["untitledMulti"]["items"]["enum"],
        json!(["option1", "option2", "option3"])
    );
    assert_eq!(
        props["titledMulti"]["items"]["anyOf"][2],
        json!({"const": "value3", "title": "Third Choice"})
    );
}

#[tokio::test]
async fn logging_and_progress_tools_notify_during_the_call() {
    let url = serve().await;
    let client = TestClient::connect(StreamableHttpClientTransport::from_uri(url))
        .await
        .unwrap();
    client.set_log_level(LogLevel::Debug).await;
    client.call("test_tool_with_logging", json!({})).await;
    client
        .call_with_progress("test_tool_with_progress", json!({}))
        .await;
    for _ in 0..50 {
        if client.notifications().len() >= 6 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let seen = client.notifications();
    let logs: Vec<&Value> = seen
        .iter()
        .filter_map(|n| {
            if let Notification::Log { data, .. } = n {
                Some(data)
            } else {
                None
            }
        })
        .collect();
    assert_eq!(
        logs,
        [
            &json!("Tool execution started"),
            &json!("Tool processing data"),
            &json!("Tool execution completed")
        ]
    );
    let progress: Vec<(f64, Option<f64>)> = seen
        .iter()
        .filter_map(|n| {
            if let Notification::Progress {
                progress, total, ..
            } = n
            {
                Some((*progress, *total))
            } else {
                None
            }
        })
        .collect();
    assert_eq!(
        progress,
        [
            (0.0, Some(100.0)),
            (50.0, Some(100.0)),
            (100.0, Some(100.0))
        ]
    );

    // Above `info`, the logging tool stays silent.
    client.set_log_level(LogLevel::Error).await;
    let before = client.notifications().len();
    client.call("test_tool_with_logging", json!({})).await;
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    assert_eq!(client.notifications().len(), before);
}
