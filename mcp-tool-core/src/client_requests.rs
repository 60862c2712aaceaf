//! Requests a tool makes to the client through its `ToolContext`: sampling and elicitation.
//!
//! They work in both protocol eras. Up to revision 2025-11-25 they are server-to-client
//! requests sent while the call runs, and need a client that declared the capability at
//! `initialize`. From revision 2026-07-28 on, there are no server-to-client requests: a
//! question the client has not answered yet ends the call with an `input_required` result, and
//! the tool is run again, from the start, with the client's answers (see
//! [`ToolContext::ask`] and docs/protocol-eras.md). Work done before the first question is
//! done again in each round, so ask first, then act.
//!
//! A tool asks anyway and gets a [`ToolError`] with a stable code when it cannot be served, so
//! the model reads why instead of a transport failure:
//!
//! | code | when |
//! | --- | --- |
//! | `client_capability_missing` | the client did not declare `sampling` / `elicitation` (or no client is attached); `details.capability` names it |
//! | `client_request_failed` | the client answered the request with a JSON-RPC error, or the connection closed |
//! | `invalid_client_response` | the client's answer does not fit what was asked (accepted form data that fails the form's type or bounds) |
//! | `invalid_elicitation_schema` | the form cannot be expressed as an MCP elicitation schema (a bug in the tool) |
//! | `timeout` | the client did not answer within the time given |
//! | `input_required` | (2026-07-28) the client has not answered yet: return the error with `?`; the call is answered with the question and run again with the answer |
//!
//! In the 2026-07-28 era a missing capability is answered with the protocol error `-32021`
//! (MissingRequiredClientCapability) that revision requires, rather than a tool error.
//!
//! ```no_run
//! use mcp_tool::prelude::*;
//! use mcp_tool::{Elicitation, SamplingRequest};
//!
//! /// What the user is asked for.
//! #[tool_args]
//! pub struct Contact {
//!     /// The name to greet.
//!     pub name: String,
//! }
//!
//! # async fn demo(ctx: &ToolContext) -> ToolResult<()> {
//! let summary = ctx.sample(SamplingRequest::user("Summarize: ...").max_tokens(200)).await?;
//! match ctx.elicit::<Contact>("Who should be greeted?").await? {
//!     Elicitation::Accepted(contact) => println!("{} / {}", summary.text(), contact.name),
//!     Elicitation::Declined | Elicitation::Cancelled => {}
//! }
//! # Ok(()) }
//! ```

use crate::args::ToolArgs;
use crate::context::ToolContext;
use crate::error::{ToolError, ToolResult};
use crate::server::input_required::InputRound;
use rmcp::model::{
    ClientResult, ElicitRequest, ElicitRequestParams, ElicitationAction, InputRequest,
    ListRootsRequest, ListRootsResult, PrimitiveSchemaDefinition, ServerRequest,
};
use rmcp::{Peer, ServiceError};
use serde::Serialize;
use serde_json::{Map, Value, json};
use std::time::Duration;

pub use rmcp::model::{
    ContextInclusion, CreateMessageRequestParams, CreateMessageResult, ElicitationSchema,
    ModelHint, ModelPreferences, Root, SamplingMessage,
};

/// The error codes of client requests (see the module docs).
pub mod codes {
    /// The client did not declare the capability (or no client is attached);
    /// `details.capability` names it.
    pub const CLIENT_CAPABILITY_MISSING: &str = "client_capability_missing";
    /// The client answered with a JSON-RPC error, or the connection closed.
    pub const CLIENT_REQUEST_FAILED: &str = "client_request_failed";
    /// The client's answer does not fit what was asked.
    pub const INVALID_CLIENT_RESPONSE: &str = "invalid_client_response";
    /// The form cannot be expressed as an MCP elicitation schema: a bug in the tool.
    pub const INVALID_ELICITATION_SCHEMA: &str = "invalid_elicitation_schema";
    /// (2026-07-28) The client has not answered this question yet; the call ends with an
    /// `input_required` result and runs again with the answer. Return it with `?`.
    pub const INPUT_REQUIRED: &str = "input_required";
}

/// A `sampling/createMessage` request: the conversation to complete and how.
///
/// `max_tokens` defaults to 1000; set it to what the tool can use.
#[derive(Debug, Clone)]
pub struct SamplingRequest {
    params: CreateMessageRequestParams,
    timeout: Option<Duration>,
}

impl SamplingRequest {
    /// A conversation of one user message.
    pub fn user(text: impl Into<String>) -> Self {
        Self::from_messages(vec![SamplingMessage::user_text(text)])
    }

    /// Any conversation (user and assistant turns, images, audio).
    pub fn from_messages(messages: Vec<SamplingMessage>) -> Self {
        Self {
            params: CreateMessageRequestParams::new(messages, 1000),
            timeout: None,
        }
    }

    /// Adds a user turn.
    pub fn then_user(mut self, text: impl Into<String>) -> Self {
        self.params.messages.push(SamplingMessage::user_text(text));
        self
    }

    /// Adds an assistant turn (a prior answer, or a prefix to continue).
    pub fn then_assistant(mut self, text: impl Into<String>) -> Self {
        self.params
            .messages
            .push(SamplingMessage::assistant_text(text));
        self
    }

    /// The system prompt the tool asks for; the client may modify or ignore it.
    pub fn system_prompt(mut self, prompt: impl Into<String>) -> Self {
        self.params.system_prompt = Some(prompt.into());
        self
    }

    /// The most tokens the client's model may generate (default 1000).
    pub fn max_tokens(mut self, max_tokens: u32) -> Self {
        self.params.max_tokens = max_tokens;
        self
    }

    /// Sampling temperature; the client decides whether to honor it.
    pub fn temperature(mut self, temperature: f32) -> Self {
        self.params.temperature = Some(temperature);
        self
    }

    /// Adds a sequence at which generation stops.
    pub fn stop_sequence(mut self, stop: impl Into<String>) -> Self {
        self.params
            .stop_sequences
            .get_or_insert_with(Vec::new)
            .push(stop.into());
        self
    }

    /// A model the client should prefer (a name or family, e.g. `claude-3-5-sonnet`); the
    /// client decides.
    pub fn model_hint(mut self, name: impl Into<String>) -> Self {
        let preferences = self
            .params
            .model_preferences
            .get_or_insert_with(ModelPreferences::default);
        preferences
            .hints
            .get_or_insert_with(Vec::new)
            .push(ModelHint::new(name));
        self
    }

    /// Gives up with the `timeout` error when the client has not answered in time. Without it
    /// the request waits as long as the tool may run (see the server's `timeout`).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// The wire parameters, for what the setters above do not cover.
    pub fn params_mut(&mut self) -> &mut CreateMessageRequestParams {
        &mut self.params
    }

    /// The wire parameters, for sending through [`ToolContext::peer`] directly.
    pub fn into_params(self) -> CreateMessageRequestParams {
        self.params
    }
}

/// The client's answer to a sampling request.
#[derive(Debug, Clone)]
pub struct Sampled {
    /// The client's answer as received, for what the accessors below do not cover.
    pub result: CreateMessageResult,
}

impl Sampled {
    /// The text of the answer (its text blocks joined by newlines; empty if it has none).
    pub fn text(&self) -> String {
        self.result
            .message
            .content
            .iter()
            .filter_map(|block| block.as_text().map(|t| t.text.as_str()))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The model the client used.
    pub fn model(&self) -> &str {
        &self.result.model
    }

    /// Why generation stopped (`endTurn`, `maxTokens`, `stopSequence`, ...), if the client said.
    pub fn stop_reason(&self) -> Option<&str> {
        self.result.stop_reason.as_deref()
    }
}

/// The user's answer to an elicitation: the data, or no data and why.
#[derive(Debug, Clone, PartialEq)]
pub enum Elicitation<T> {
    /// The user submitted the form.
    Accepted(T),
    /// The user explicitly said no.
    Declined,
    /// The user dismissed the request without choosing.
    Cancelled,
}

impl<T> Elicitation<T> {
    /// The wire name of the user's action: `accept`, `decline` or `cancel`.
    pub fn action(&self) -> &'static str {
        match self {
            Self::Accepted(_) => "accept",
            Self::Declined => "decline",
            Self::Cancelled => "cancel",
        }
    }

    /// The submitted data, or `None` when the user declined or cancelled.
    pub fn accepted(self) -> Option<T> {
        match self {
            Self::Accepted(data) => Some(data),
            _ => None,
        }
    }

    /// Converts the submitted data, keeping a decline or a cancel as it is.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Elicitation<U> {
        match self {
            Self::Accepted(data) => Elicitation::Accepted(f(data)),
            Self::Declined => Elicitation::Declined,
            Self::Cancelled => Elicitation::Cancelled,
        }
    }
}

/// A server-to-client request the client may not support.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientCapability {
    /// `sampling/createMessage`: completions from the client's model.
    Sampling,
    /// Elicitation with a form (`mode: "form"`, the default mode).
    Elicitation,
    /// `roots/list`: the folders or files the client exposes.
    Roots,
}

impl ClientCapability {
    /// The capability's name in `initialize` (`sampling`, `elicitation`), as
    /// `details.capability` gives it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Sampling => "sampling",
            Self::Elicitation => "elicitation",
            Self::Roots => "roots",
        }
    }

    fn method(self) -> &'static str {
        match self {
            Self::Sampling => "sampling/createMessage",
            Self::Elicitation => "elicitation/create",
            Self::Roots => "roots/list",
        }
    }

    /// The prefix of the keys given to this kind's unnamed questions.
    fn key_prefix(self) -> &'static str {
        match self {
            Self::Sampling => "sample",
            Self::Elicitation => "elicit",
            Self::Roots => "roots",
        }
    }
}

/// Questions to the client under a key the tool chooses; see [`ToolContext::ask`].
#[derive(Clone, Copy)]
pub struct Ask<'a> {
    context: &'a ToolContext,
    key: Option<&'a str>,
}

impl Ask<'_> {
    /// [`ToolContext::sample`] under this key.
    pub async fn sample(self, request: SamplingRequest) -> ToolResult<Sampled> {
        let timeout = request.timeout;
        let result = self
            .context
            .send(
                self.key,
                ClientCapability::Sampling,
                request.params,
                timeout,
            )
            .await?;
        Ok(Sampled { result })
    }

    /// [`ToolContext::create_message`] under this key.
    pub async fn create_message(
        self,
        params: CreateMessageRequestParams,
    ) -> ToolResult<CreateMessageResult> {
        self.context
            .send(self.key, ClientCapability::Sampling, params, None)
            .await
    }

    /// [`ToolContext::elicit`] under this key.
    pub async fn elicit<T: ToolArgs>(
        self,
        message: impl Into<String>,
    ) -> ToolResult<Elicitation<T>> {
        let schema = form_schema(crate::args::input_schema::<T>())?;
        let answer = self.elicit_form(message.into(), schema).await?;
        match answer {
            Elicitation::Accepted(content) => {
                let data = crate::args::parse::<T>(content).map_err(|e| {
                    let mut error = ToolError::new(
                        codes::INVALID_CLIENT_RESPONSE,
                        format!("The user's answer does not fit the form: {}", e.message),
                    );
                    error.details = e.details;
                    error
                })?;
                Ok(Elicitation::Accepted(data))
            }
            Elicitation::Declined => Ok(Elicitation::Declined),
            Elicitation::Cancelled => Ok(Elicitation::Cancelled),
        }
    }

    /// [`ToolContext::elicit_with_schema`] under this key.
    pub async fn elicit_with_schema(
        self,
        message: impl Into<String>,
        schema: impl Serialize,
    ) -> ToolResult<Elicitation<Map<String, Value>>> {
        let value = serde_json::to_value(schema).map_err(|e| invalid_schema(e.to_string()))?;
        self.elicit_form(message.into(), parse_form(value)?).await
    }

    /// [`ToolContext::list_roots`] under this key.
    pub async fn list_roots(self) -> ToolResult<Vec<Root>> {
        let result = self
            .context
            .send(self.key, ClientCapability::Roots, ListRoots, None)
            .await?;
        Ok(result.roots)
    }

    async fn elicit_form(
        self,
        message: String,
        schema: ElicitationSchema,
    ) -> ToolResult<Elicitation<Map<String, Value>>> {
        let params = ElicitRequestParams::FormElicitationParams {
            meta: None,
            message,
            requested_schema: schema,
        };
        let result: rmcp::model::ElicitResult = self
            .context
            .send(self.key, ClientCapability::Elicitation, params, None)
            .await?;
        Ok(match result.action {
            ElicitationAction::Accept => match result.content {
                Some(Value::Object(content)) => Elicitation::Accepted(content),
                None | Some(Value::Null) => Elicitation::Accepted(Map::new()),
                Some(other) => {
                    return Err(ToolError::new(
                        codes::INVALID_CLIENT_RESPONSE,
                        "The client accepted the form but sent content that is not an object.",
                    )
                    .with_detail("content", other));
                }
            },
            ElicitationAction::Decline => Elicitation::Declined,
            _ => Elicitation::Cancelled,
        })
    }
}

impl ToolContext {
    /// Whether the client declared `capability`: in this request's `_meta` (2026-07-28), or at
    /// `initialize` (earlier revisions). False outside an MCP session.
    pub fn client_supports(&self, capability: ClientCapability) -> bool {
        let caps = match self.input_round() {
            Some(round) => round.capabilities().clone(),
            None => match self.peer().and_then(Peer::peer_info) {
                Some(info) => info.capabilities.clone(),
                None => return false,
            },
        };
        match capability {
            ClientCapability::Sampling => caps.sampling.is_some(),
            // A capability that names no mode means form mode (2025-06-18 clients).
            ClientCapability::Elicitation => caps
                .elicitation
                .as_ref()
                .is_some_and(|e| e.form.is_some() || e.url.is_none()),
            ClientCapability::Roots => caps.roots.is_some(),
        }
    }

    /// Questions to the client under `key`, for a tool that names its questions (the keys of
    /// `inputRequests` in the 2026-07-28 era; the methods without `ask` number them in call
    /// order). Keys matter only in that era; before it the same calls are plain requests.
    ///
    /// Questions asked together, with `tokio::join!`, reach the client in one round:
    ///
    /// ```no_run
    /// # use mcp_tool::prelude::*;
    /// # use mcp_tool::SamplingRequest;
    /// # async fn demo(ctx: &ToolContext) -> ToolResult<()> {
    /// let (roots, greeting) = tokio::join!(
    ///     ctx.ask("client_roots").list_roots(),
    ///     ctx.ask("greeting").sample(SamplingRequest::user("Write a greeting")),
    /// );
    /// let (roots, greeting) = (roots?, greeting?);
    /// # Ok(()) }
    /// ```
    pub fn ask<'a>(&'a self, key: &'a str) -> Ask<'a> {
        Ask {
            context: self,
            key: Some(key),
        }
    }

    fn unnamed(&self) -> Ask<'_> {
        Ask {
            context: self,
            key: None,
        }
    }

    /// Asks the client's model to complete a conversation (`sampling/createMessage`).
    pub async fn sample(&self, request: SamplingRequest) -> ToolResult<Sampled> {
        self.unnamed().sample(request).await
    }

    /// `sampling/createMessage` with parameters built by hand.
    pub async fn create_message(
        &self,
        params: CreateMessageRequestParams,
    ) -> ToolResult<CreateMessageResult> {
        self.unnamed().create_message(params).await
    }

    /// Asks the user to fill in a form described by a `#[tool_args]` struct
    /// (`elicitation/create`): field docs become the field descriptions, `#[arg(default)]` the
    /// defaults (SEP-1034), `#[arg(min, max)]` the bounds, and an enum field a choice list,
    /// titled by its variants' doc comments (SEP-1330). An optional `Vec` of an enum is a
    /// multi-select. Accepted data is checked like tool arguments; data that fails is
    /// `invalid_client_response` with the field's path.
    pub async fn elicit<T: ToolArgs>(
        &self,
        message: impl Into<String>,
    ) -> ToolResult<Elicitation<T>> {
        self.unnamed().elicit(message).await
    }

    /// Asks the user to fill in a form given as an MCP elicitation schema: a flat object of
    /// string, number, integer, boolean and enum properties, with `default`s, titled enums
    /// (`oneOf` of `const`/`title`), legacy `enumNames`, and multi-select arrays. Pass a
    /// `serde_json::Value` or an [`ElicitationSchema`]. The accepted content comes back as
    /// the client sent it.
    pub async fn elicit_with_schema(
        &self,
        message: impl Into<String>,
        schema: impl Serialize,
    ) -> ToolResult<Elicitation<Map<String, Value>>> {
        self.unnamed().elicit_with_schema(message, schema).await
    }

    /// The roots (folders, files) the client exposes (`roots/list`).
    pub async fn list_roots(&self) -> ToolResult<Vec<Root>> {
        self.unnamed().list_roots().await
    }

    async fn send<P: ClientRequest>(
        &self,
        key: Option<&str>,
        capability: ClientCapability,
        params: P,
        timeout: Option<Duration>,
    ) -> ToolResult<P::Answer> {
        if let Some(round) = self.input_round() {
            return self.ask_in_round(round, key, capability, params);
        }
        let Some(peer) = self.peer() else {
            return Err(missing(
                capability,
                "No MCP client is attached to this call (it was made directly).",
            ));
        };
        if !self.client_supports(capability) {
            let client = peer
                .peer_info()
                .map(|i| i.client_info.name.clone())
                .unwrap_or_else(|| "the client".into());
            return Err(missing(
                capability,
                format!(
                    "`{client}` did not declare the `{}` capability, so this tool cannot ask it for {}.",
                    capability.name(),
                    P::WHAT
                ),
            ));
        }
        let sent = peer.send_request(params.into_request());
        let answer = match timeout {
            None => sent.await,
            Some(limit) => match tokio::time::timeout(limit, sent).await {
                Ok(answer) => answer,
                Err(_) => {
                    return Err(ToolError::timeout(format!(
                        "The client did not answer `{}` within {} ms.",
                        capability.method(),
                        limit.as_millis()
                    )));
                }
            },
        };
        let answer = answer.map_err(|e| request_failed(capability, e))?;
        P::from_result(answer).ok_or_else(|| {
            ToolError::new(
                codes::INVALID_CLIENT_RESPONSE,
                format!(
                    "The client answered `{}` with a result of another kind.",
                    capability.method()
                ),
            )
        })
    }

    /// A question in the 2026-07-28 era: answered from the client's `inputResponses`, or
    /// recorded for the `input_required` result that ends this round.
    fn ask_in_round<P: ClientRequest>(
        &self,
        round: &InputRound,
        key: Option<&str>,
        capability: ClientCapability,
        params: P,
    ) -> ToolResult<P::Answer> {
        let key = round.key(key, capability.key_prefix());
        if !self.client_supports(capability) {
            round.record_missing(capability);
            return Err(missing(
                capability,
                format!(
                    "The request's _meta does not declare the `{}` capability, so this tool \
                     cannot ask the client for {}.",
                    capability.name(),
                    P::WHAT
                ),
            ));
        }
        let Some(answer) = round.answer(&key) else {
            round.ask(key.clone(), params.into_input());
            return Err(ToolError::new(
                codes::INPUT_REQUIRED,
                format!(
                    "The client has not answered `{}` (key `{key}`) yet: this call is answered \
                     with the question and runs again with the answer.",
                    capability.method()
                ),
            )
            .with_detail("key", key));
        };
        P::from_value(answer.clone()).map_err(|why| {
            ToolError::new(
                codes::INVALID_CLIENT_RESPONSE,
                format!(
                    "The client's answer to `{}` (key `{key}`) does not fit: {why}",
                    capability.method()
                ),
            )
            .with_detail("key", key)
        })
    }
}

/// The two request kinds, so one send path handles capability checks and errors.
trait ClientRequest {
    type Answer;
    const WHAT: &'static str;
    fn into_request(self) -> ServerRequest;
    fn from_result(result: ClientResult) -> Option<Self::Answer>;
    /// The question as an entry of `inputRequests` (2026-07-28).
    fn into_input(self) -> InputRequest;
    /// The answer from an entry of `inputResponses` (2026-07-28).
    fn from_value(value: Value) -> Result<Self::Answer, String>;
}

/// `roots/list`, which has no parameters.
struct ListRoots;

impl ClientRequest for ListRoots {
    type Answer = ListRootsResult;
    const WHAT: &'static str = "its roots";

    fn into_request(self) -> ServerRequest {
        ServerRequest::ListRootsRequest(ListRootsRequest::default())
    }

    fn from_result(result: ClientResult) -> Option<ListRootsResult> {
        match result {
            ClientResult::ListRootsResult(r) => Some(r),
            _ => None,
        }
    }

    fn into_input(self) -> InputRequest {
        InputRequest::ListRoots(ListRootsRequest::default())
    }

    fn from_value(value: Value) -> Result<ListRootsResult, String> {
        serde_json::from_value(value).map_err(|e| e.to_string())
    }
}

impl ClientRequest for CreateMessageRequestParams {
    type Answer = CreateMessageResult;
    const WHAT: &'static str = "a model completion";

    fn into_request(self) -> ServerRequest {
        ServerRequest::CreateMessageRequest(rmcp::model::CreateMessageRequest::new(self))
    }

    fn from_result(result: ClientResult) -> Option<CreateMessageResult> {
        match result {
            ClientResult::CreateMessageResult(r) => Some(*r),
            _ => None,
        }
    }

    fn into_input(self) -> InputRequest {
        InputRequest::CreateMessage(rmcp::model::CreateMessageRequest::new(self))
    }

    fn from_value(value: Value) -> Result<CreateMessageResult, String> {
        serde_json::from_value(value).map_err(|e| e.to_string())
    }
}

impl ClientRequest for ElicitRequestParams {
    type Answer = rmcp::model::ElicitResult;
    const WHAT: &'static str = "user input";

    fn into_request(self) -> ServerRequest {
        ServerRequest::ElicitRequest(ElicitRequest::new(self))
    }

    fn from_result(result: ClientResult) -> Option<rmcp::model::ElicitResult> {
        match result {
            ClientResult::ElicitResult(r) => Some(r),
            _ => None,
        }
    }

    fn into_input(self) -> InputRequest {
        InputRequest::Elicitation(ElicitRequest::new(self))
    }

    fn from_value(value: Value) -> Result<rmcp::model::ElicitResult, String> {
        serde_json::from_value(value).map_err(|e| e.to_string())
    }
}

fn missing(capability: ClientCapability, message: impl Into<String>) -> ToolError {
    ToolError::new(codes::CLIENT_CAPABILITY_MISSING, message)
        .with_detail("capability", capability.name())
        .with_detail("method", capability.method())
}

fn request_failed(capability: ClientCapability, error: ServiceError) -> ToolError {
    let method = capability.method();
    match error {
        ServiceError::Timeout { timeout } => ToolError::timeout(format!(
            "The client did not answer `{method}` within {} ms.",
            timeout.as_millis()
        )),
        ServiceError::McpError(e) => ToolError::new(
            codes::CLIENT_REQUEST_FAILED,
            format!("The client refused `{method}`: {}", e.message),
        )
        .with_detail("method", method)
        .with_detail("rpc_code", e.code.0)
        .with_detail("rpc_data", e.data),
        other => ToolError::new(
            codes::CLIENT_REQUEST_FAILED,
            format!("`{method}` to the client failed: {other}"),
        )
        .with_detail("method", method)
        .retryable(matches!(other, ServiceError::TransportSend(_))),
    }
}

fn invalid_schema(why: String) -> ToolError {
    ToolError::new(
        codes::INVALID_ELICITATION_SCHEMA,
        format!(
            "The form is not a valid MCP elicitation schema (a flat object of strings, numbers, booleans and enums): {why}"
        ),
    )
}

/// Turns the JSON Schema of a `#[tool_args]` struct into the restricted dialect elicitation
/// uses: no `$ref`, no nullable types, enums as `enum` or titled `oneOf`, multi-selects as
/// arrays of those. What cannot be expressed there is an `invalid_elicitation_schema` error.
fn form_schema(schema: Value) -> ToolResult<ElicitationSchema> {
    let Value::Object(mut root) = schema else {
        return Err(invalid_schema("the form's schema is not an object".into()));
    };
    let defs = match root.remove("$defs") {
        Some(Value::Object(d)) => d,
        _ => Map::new(),
    };
    let mut properties = Map::new();
    if let Some(Value::Object(props)) = root.remove("properties") {
        for (name, prop) in props {
            let prop = form_property(prop, &defs)
                .map_err(|why| invalid_schema(format!("field `{name}`: {why}")))?;
            properties.insert(name, prop);
        }
    }
    let mut out = Map::new();
    out.insert("type".into(), json!("object"));
    out.insert("properties".into(), Value::Object(properties));
    if let Some(required) = root.remove("required") {
        out.insert("required".into(), required);
    }
    if let Some(description) = root.remove("description") {
        out.insert("description".into(), description);
    }
    parse_form(Value::Object(out))
}

/// Checks a schema against the elicitation dialect, naming the first property that breaks it
/// (serde alone only says that no kind of property matched).
fn parse_form(schema: Value) -> ToolResult<ElicitationSchema> {
    if let Some(Value::Object(props)) = schema.get("properties") {
        for (name, prop) in props {
            if let Err(e) = serde_json::from_value::<PrimitiveSchemaDefinition>(prop.clone()) {
                return Err(invalid_schema(format!(
                    "field `{name}` ({prop}) is not a string, number, integer, boolean or enum: {e}"
                )));
            }
        }
    }
    serde_json::from_value(schema).map_err(|e| invalid_schema(e.to_string()))
}

fn form_property(prop: Value, defs: &Map<String, Value>) -> Result<Value, String> {
    let Value::Object(mut prop) = resolve(prop, defs)? else {
        return Err("its schema is not an object".into());
    };
    // `Option<T>`: 2020-12 spells it `type: [T, "null"]` or `anyOf: [T, {type: null}]`.
    if let Some(Value::Array(types)) = prop.get("type") {
        let kept: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        match kept.as_slice() {
            [one] => {
                prop.insert("type".into(), one.clone());
            }
            _ => {
                return Err(format!(
                    "a field has one type in a form, not {}",
                    Value::Array(types.clone())
                ));
            }
        }
    }
    for key in ["anyOf", "oneOf"] {
        let Some(Value::Array(variants)) = prop.get(key) else {
            continue;
        };
        let non_null: Vec<Value> = variants
            .iter()
            .filter(|v| v.get("type") != Some(&json!("null")))
            .cloned()
            .collect();
        if non_null.len() == 1 && non_null.len() < variants.len() {
            prop.remove(key);
            let Value::Object(inner) = resolve(non_null[0].clone(), defs)? else {
                continue;
            };
            for (k, v) in inner {
                prop.entry(k).or_insert(v);
            }
            return form_property(Value::Object(prop), defs);
        }
    }
    titled_choices(&mut prop, "oneOf");
    if prop.get("type") == Some(&json!("array")) {
        let items = prop.remove("items").ok_or("a list field needs `items`")?;
        let Value::Object(mut items) = resolve(items, defs)? else {
            return Err("bad `items`".into());
        };
        if titled_choices(&mut items, "oneOf") || items.contains_key("anyOf") {
            // Multi-select with titles is `items.anyOf` in MCP; a titled single select is `oneOf`.
            if let Some(choices) = items.remove("oneOf") {
                items.insert("anyOf".into(), choices);
            }
            items.remove("type");
        }
        items.remove("description");
        prop.insert("items".into(), Value::Object(items));
    }
    match prop.get("type").and_then(Value::as_str) {
        Some("integer" | "number") => {
            prop.remove("format");
        }
        Some("string") => {
            let allowed = ["email", "uri", "date", "date-time"];
            if prop
                .get("format")
                .and_then(Value::as_str)
                .is_some_and(|f| !allowed.contains(&f))
            {
                prop.remove("format");
            }
        }
        _ => {}
    }
    prop.remove("$schema");
    Ok(Value::Object(prop))
}

/// Follows a local `$ref` into `$defs`, keeping the referring schema's own keywords (its
/// description and default) over the definition's.
fn resolve(schema: Value, defs: &Map<String, Value>) -> Result<Value, String> {
    let Value::Object(mut map) = schema else {
        return Ok(schema);
    };
    let Some(Value::String(reference)) = map.remove("$ref") else {
        return Ok(Value::Object(map));
    };
    let name = reference
        .strip_prefix("#/$defs/")
        .ok_or_else(|| format!("unsupported reference `{reference}`"))?;
    let Some(Value::Object(def)) = defs.get(name) else {
        return Err(format!("`{reference}` is not defined"));
    };
    for (k, v) in def {
        if k != "title" {
            map.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    Ok(Value::Object(map))
}

/// schemars writes an enum whose variants have doc comments as `oneOf` of
/// `{type, const, description}`; MCP wants `{const, title}`. Returns whether it rewrote one.
fn titled_choices(schema: &mut Map<String, Value>, key: &str) -> bool {
    let Some(Value::Array(variants)) = schema.get(key) else {
        return false;
    };
    let mut choices = Vec::new();
    for variant in variants {
        let constant = variant
            .get("const")
            .cloned()
            .or_else(|| match variant.get("enum") {
                Some(Value::Array(one)) if one.len() == 1 => Some(one[0].clone()),
                _ => None,
            });
        let Some(Value::String(constant)) = constant else {
            return false;
        };
        let title = variant
            .get("title")
            .or_else(|| variant.get("description"))
            .and_then(Value::as_str)
            .unwrap_or(&constant)
            .to_owned();
        choices.push(json!({"const": constant, "title": title}));
    }
    schema.insert(key.into(), Value::Array(choices));
    schema.insert("type".into(), json!("string"));
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(schema: Value) -> Value {
        serde_json::to_value(form_schema(schema).expect("a valid form")).unwrap()
    }

    #[test]
    fn refs_options_and_titled_enums_become_the_elicitation_dialect() {
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "Form",
            "type": "object",
            "properties": {
                "nick": {"type": ["string", "null"], "description": "Optional nickname."},
                "age": {"type": "integer", "format": "uint32", "minimum": 0, "default": 30},
                "plan": {"$ref": "#/$defs/Plan", "default": "free"},
                "tier": {"anyOf": [{"$ref": "#/$defs/Tier"}, {"type": "null"}]},
                "extras": {"type": "array", "items": {"$ref": "#/$defs/Plan"}}
            },
            "required": ["age", "plan"],
            "$defs": {
                "Plan": {"type": "string", "enum": ["free", "pro"]},
                "Tier": {"oneOf": [
                    {"type": "string", "const": "gold", "description": "Gold tier"},
                    {"type": "string", "const": "silver", "description": "Silver tier"}
                ]}
            }
        });
        let v = check(schema);
        assert_eq!(
            v["properties"]["nick"],
            json!({"type": "string", "description": "Optional nickname."})
        );
        assert_eq!(
            v["properties"]["age"],
            json!({"type": "integer", "minimum": 0, "default": 30})
        );
        assert_eq!(
            v["properties"]["plan"],
            json!({"type": "string", "enum": ["free", "pro"], "default": "free"})
        );
        assert_eq!(
            v["properties"]["tier"],
            json!({"type": "string", "oneOf": [{"const": "gold", "title": "Gold tier"}, {"const": "silver", "title": "Silver tier"}]})
        );
        assert_eq!(
            v["properties"]["extras"],
            json!({"type": "array", "items": {"type": "string", "enum": ["free", "pro"]}})
        );
        assert_eq!(v["required"], json!(["age", "plan"]));
    }

    #[test]
    fn a_nested_object_is_not_a_form() {
        let schema = json!({"type": "object", "properties": {"address": {"type": "object", "properties": {}}}});
        let e = form_schema(schema).unwrap_err();
        assert_eq!(e.code(), codes::INVALID_ELICITATION_SCHEMA);
        assert!(e.message.contains("address"), "{}", e.message);
    }
}
