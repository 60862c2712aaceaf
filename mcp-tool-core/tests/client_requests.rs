//! Sampling and elicitation from inside a tool, against a real rmcp client in-process: the
//! client's answers reach the tool, and a client without the capability gets a clear error.

// rmcp marks sampling deprecated for the 2026-07-28 protocol; these servers speak up to 2025-11-25.
#![allow(deprecated)]

use mcp_tool::content::Content;
use mcp_tool::prelude::*;
use mcp_tool::{Elicitation, SamplingRequest, ToolServer};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig,
    CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult,
    ElicitationAction, ElicitationCapability, Implementation, SamplingCapability, SamplingMessage,
};
use rmcp::service::{RequestContext, RunningService};
use rmcp::{ClientHandler, ErrorData as McpError, RoleClient, ServiceExt};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};

#[tool_args]
pub struct AskArgs {
    /// The question for the client's model.
    pub question: String,
}

/// Ask the client's model a question and return its answer, model and stop reason.
#[mcp_tool(
    name = "query_model",
    family = "client_requests_test",
    size_hint = "2KB",
    read_only,
    open_world
)]
pub async fn query_model(ctx: &ToolContext, args: AskArgs) -> ToolResult<Content> {
    let answer = ctx
        .sample(
            SamplingRequest::user(args.question)
                .system_prompt("Be brief.")
                .max_tokens(64)
                .temperature(0.2),
        )
        .await?;
    Ok(Content::new().text(format!(
        "{} | {} | {}",
        answer.text(),
        answer.model(),
        answer.stop_reason().unwrap_or("-")
    )))
}

/// How urgent a ticket is.
#[tool_args]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Urgency {
    /// Can wait a week.
    Low,
    /// Needs a look today.
    High,
}

/// The form the user fills in.
#[tool_args]
pub struct TicketForm {
    /// One-line summary of the problem.
    pub summary: String,
    /// How many people are affected.
    #[arg(default = 1, min = 1, max = 1000)]
    pub affected: u32,
    /// How urgent it is.
    #[arg(default = Urgency::Low)]
    pub urgency: Urgency,
}

/// Ask the user to describe a ticket and report what they chose.
#[mcp_tool(
    name = "open_ticket",
    family = "client_requests_test",
    size_hint = "2KB",
    open_world
)]
pub async fn open_ticket(ctx: &ToolContext) -> ToolResult<Content> {
    let text = match ctx.elicit::<TicketForm>("Describe the problem").await? {
        Elicitation::Accepted(t) => {
            format!("accepted: {} / {} / {:?}", t.summary, t.affected, t.urgency)
        }
        other => format!("no ticket: {}", other.action()),
    };
    Ok(Content::new().text(text))
}

/// Ask the user to pick colors from a hand-written schema and echo the content.
#[mcp_tool(
    name = "collect_colors",
    family = "client_requests_test",
    size_hint = "2KB",
    read_only,
    open_world
)]
pub async fn collect_colors(ctx: &ToolContext) -> ToolResult<Content> {
    let schema = json!({"type": "object", "properties": {
        "colors": {"type": "array", "items": {"anyOf": [{"const": "r", "title": "Red"}, {"const": "g", "title": "Green"}]}, "default": ["r"]}
    }});
    let answer = ctx.elicit_with_schema("Pick colors", schema).await?;
    Ok(Content::new().text(format!(
        "{}: {}",
        answer.action(),
        Value::Object(answer.accepted().unwrap_or_default())
    )))
}

/// A client that answers sampling and elicitation as scripted, and records what it was asked.
#[derive(Clone)]
struct ScriptedClient {
    capabilities: ClientCapabilities,
    elicit_answer: ElicitResult,
    asked: Arc<Mutex<Vec<Value>>>,
}

impl ScriptedClient {
    fn capable(elicit_answer: ElicitResult) -> Self {
        let mut capabilities = ClientCapabilities::default();
        capabilities.sampling = Some(SamplingCapability::default());
        capabilities.elicitation = Some(ElicitationCapability::default());
        Self {
            capabilities,
            elicit_answer,
            asked: Arc::default(),
        }
    }

    fn incapable() -> Self {
        Self {
            capabilities: ClientCapabilities::default(),
            ..Self::capable(ElicitResult::new(ElicitationAction::Cancel))
        }
    }

    fn asked(&self) -> Vec<Value> {
        self.asked.lock().unwrap().clone()
    }
}

impl ClientHandler for ScriptedClient {
    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
        _: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, McpError> {
        self.asked
            .lock()
            .unwrap()
            .push(serde_json::to_value(&params).unwrap());
        let mut result = CreateMessageResult::new(
            SamplingMessage::assistant_text("forty-two"),
            "scripted-model".into(),
        );
        result.stop_reason = Some(CreateMessageResult::STOP_REASON_END_TURN.into());
        Ok(result)
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, McpError> {
        self.asked
            .lock()
            .unwrap()
            .push(serde_json::to_value(&request).unwrap());
        Ok(self.elicit_answer.clone())
    }

    fn get_info(&self) -> ClientConfig {
        let mut config = ClientConfig::default();
        config.capabilities = self.capabilities.clone();
        config.client_info = Implementation::new("scripted-client", "1.0.0");
        config
    }
}

fn server() -> ToolServer {
    ToolServer::builder()
        .name("client-requests-test")
        .families(["client_requests_test"])
        .build()
        .unwrap()
}

async fn connect(client: ScriptedClient) -> RunningService<RoleClient, ScriptedClient> {
    let (client_io, server_io) = tokio::io::duplex(1 << 16);
    let server = server();
    tokio::spawn(async move { server.serve(server_io).await });
    client.serve(client_io).await.expect("handshake")
}

async fn call(
    service: &RunningService<RoleClient, ScriptedClient>,
    name: &str,
    args: Value,
) -> CallToolResult {
    let params = CallToolRequestParams::new(name.to_owned())
        .with_arguments(args.as_object().unwrap().clone());
    service.peer().call_tool(params).await.expect("tools/call")
}

fn text(result: &CallToolResult) -> String {
    result.content[0]
        .as_text()
        .map(|t| t.text.clone())
        .unwrap_or_default()
}

/// The envelope of a failed call: its text content is the envelope JSON.
fn error_of(result: &CallToolResult) -> Value {
    assert_eq!(
        result.is_error,
        Some(true),
        "expected a tool error, got {}",
        text(result)
    );
    serde_json::from_str::<Value>(&text(result)).unwrap()["error"].clone()
}

fn accept(content: Value) -> ElicitResult {
    let mut r = ElicitResult::new(ElicitationAction::Accept);
    r.content = Some(content);
    r
}

#[tokio::test]
async fn sampling_sends_the_request_and_returns_the_clients_answer() {
    let client = ScriptedClient::capable(accept(json!({})));
    let service = connect(client.clone()).await;
    let result = call(
        &service,
        "query_model",
        json!({"question": "What is six times seven?"}),
    )
    .await;
    assert_eq!(result.is_error, Some(false));
    assert_eq!(text(&result), "forty-two | scripted-model | endTurn");
    let asked = client.asked();
    assert_eq!(asked.len(), 1);
    assert_eq!(
        asked[0]["messages"],
        json!([{"role": "user", "content": {"type": "text", "text": "What is six times seven?"}}])
    );
    assert_eq!(asked[0]["maxTokens"], 64);
    assert_eq!(asked[0]["systemPrompt"], "Be brief.");
}

#[tokio::test]
async fn typed_elicitation_sends_defaults_bounds_titled_enums_and_parses_the_answer() {
    let client = ScriptedClient::capable(accept(
        json!({"summary": "login broken", "affected": 12, "urgency": "high"}),
    ));
    let service = connect(client.clone()).await;
    let result = call(&service, "open_ticket", json!({})).await;
    assert_eq!(text(&result), "accepted: login broken / 12 / High");

    let asked = client.asked();
    assert_eq!(asked[0]["message"], "Describe the problem");
    let props = &asked[0]["requestedSchema"]["properties"];
    assert_eq!(
        props["summary"],
        json!({"type": "string", "description": "One-line summary of the problem."})
    );
    assert_eq!(
        props["affected"],
        json!({"type": "integer", "description": "How many people are affected.", "minimum": 1, "maximum": 1000, "default": 1})
    );
    assert_eq!(props["urgency"]["default"], "low");
    assert_eq!(
        props["urgency"]["oneOf"],
        json!([{"const": "low", "title": "Can wait a week."}, {"const": "high", "title": "Needs a look today."}])
    );
    assert_eq!(asked[0]["requestedSchema"]["required"], json!(["summary"]));
}

#[tokio::test]
async fn accepted_data_is_checked_like_tool_arguments() {
    let client = ScriptedClient::capable(accept(json!({"summary": "x", "affected": 5000})));
    let service = connect(client).await;
    let error = error_of(&call(&service, "open_ticket", json!({})).await);
    assert_eq!(error["code"], "invalid_client_response");
    assert_eq!(error["details"]["path"], "affected");

    // Omitted fields take their defaults, as they would in a tool call.
    let client = ScriptedClient::capable(accept(json!({"summary": "printer on fire"})));
    let service = connect(client).await;
    assert_eq!(
        text(&call(&service, "open_ticket", json!({})).await),
        "accepted: printer on fire / 1 / Low"
    );
}

#[tokio::test]
async fn decline_and_cancel_reach_the_tool_as_values() {
    for (action, word) in [
        (ElicitationAction::Decline, "decline"),
        (ElicitationAction::Cancel, "cancel"),
    ] {
        let service = connect(ScriptedClient::capable(ElicitResult::new(action))).await;
        let result = call(&service, "open_ticket", json!({})).await;
        assert_eq!(result.is_error, Some(false));
        assert_eq!(text(&result), format!("no ticket: {word}"));
    }
}

#[tokio::test]
async fn a_raw_schema_goes_out_as_written_and_content_comes_back_as_sent() {
    let client = ScriptedClient::capable(accept(json!({"colors": ["g", "r"]})));
    let service = connect(client.clone()).await;
    assert_eq!(
        text(&call(&service, "collect_colors", json!({})).await),
        r#"accept: {"colors":["g","r"]}"#
    );
    assert_eq!(
        client.asked()[0]["requestedSchema"]["properties"]["colors"],
        json!({"type": "array", "items": {"anyOf": [{"const": "r", "title": "Red"}, {"const": "g", "title": "Green"}]}, "default": ["r"]})
    );
}

#[tokio::test]
async fn a_client_without_the_capability_gets_client_capability_missing() {
    let client = ScriptedClient::incapable();
    let service = connect(client.clone()).await;
    let error = error_of(&call(&service, "query_model", json!({"question": "hi"})).await);
    assert_eq!(error["code"], "client_capability_missing");
    assert_eq!(error["details"]["capability"], "sampling");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("scripted-client"),
        "{error}"
    );

    let error = error_of(&call(&service, "open_ticket", json!({})).await);
    assert_eq!(error["code"], "client_capability_missing");
    assert_eq!(error["details"]["capability"], "elicitation");
    assert_eq!(error["details"]["method"], "elicitation/create");
    assert!(
        client.asked().is_empty(),
        "nothing may be sent to a client that cannot answer"
    );
}

#[tokio::test]
async fn a_direct_call_without_a_client_gets_client_capability_missing() {
    let envelope = server()
        .call("query_model", json!({"question": "hi"}))
        .await
        .unwrap();
    assert!(envelope.is_error);
    assert_eq!(envelope.value["error"]["code"], "client_capability_missing");
}
