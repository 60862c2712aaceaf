//! The rmcp `ServerHandler` over a `ToolServer`: one per client session, or per request for
//! 2026-07-28 clients (stateless: no session, each request carries its own `_meta`).

use super::ToolServer;
use super::input_required::{InputRound, missing_capability_error};
use super::session_transport::SessionTransport;
use super::task_store::TaskStore;
use super::tasks::{Switch, TaskCall, TaskLink, task_required_error};
use crate::context::{ClientBudget, LevelFilter, LogLevel, ToolContext};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CancelTaskMethod, CancelTaskParams,
    ContentBlock, GetTaskMethod, GetTaskParams, GetTaskResult, InitializeRequestParams,
    InitializeResult, InputRequiredResult, ListToolsResult, PaginatedRequestParams,
    ProtocolVersion, ServerConfig, SetLevelRequestParams, Tool, UpdateTaskMethod, UpdateTaskParams,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde_json::json;
use std::borrow::Cow;
use std::convert::Infallible;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

#[derive(Clone)]
pub(crate) struct Handler {
    server: ToolServer,
    level: LevelFilter,
    /// Cancelled when the session ends, and with it every call in flight (tasks included):
    /// a call outliving its session could answer nobody.
    session: CancellationToken,
}

impl Handler {
    pub fn new(server: ToolServer) -> Self {
        Self {
            server,
            level: LevelFilter::default(),
            session: CancellationToken::new(),
        }
    }

    /// `transport`, ending this handler's session (and cancelling its calls in flight) when
    /// the session is over: its input ended and every request read before is answered, or
    /// the client went away ([`super::session_transport`]). Serve over this rather than the
    /// bare transport, so that rmcp does not drop the answers of calls still running when
    /// the input ends.
    pub fn session_transport<T>(&self, transport: T) -> SessionTransport<T> {
        SessionTransport::new(transport, self.session.clone())
    }

    /// Ends the session (cancelling its calls) when `gone` resolves: the client can no longer
    /// read the answers. The watch itself ends with the session.
    pub fn end_session_when(&self, gone: impl Future<Output = ()> + Send + 'static) {
        let session = self.session.clone();
        tokio::spawn(async move {
            tokio::select! {
                () = gone => {
                    tracing::debug!("the client closed its end of the output: ending the session");
                    session.cancel();
                }
                () = session.cancelled() => {}
            }
        });
    }
}

/// `tools/list` cursors are plain offsets: the list is static for the life of the server.
fn parse_list_cursor(cursor: Option<&str>, len: usize) -> Result<usize, McpError> {
    let Some(text) = cursor else { return Ok(0) };
    let offset = text
        .strip_prefix("tools:")
        .and_then(|n| n.parse::<usize>().ok());
    match offset {
        Some(o) if o <= len => Ok(o),
        _ => Err(McpError::invalid_params(
            format!("invalid tools/list cursor `{text}`: pass `nextCursor` exactly as returned"),
            None,
        )),
    }
}

impl Handler {
    /// The server's tasks, for a 2026-07-28 request; `-32601` in a session (the extension is
    /// not offered there) or on a server without tasks.
    fn task_store<M: rmcp::model::ConstString>(
        &self,
        context: &RequestContext<RoleServer>,
    ) -> Result<&TaskStore, McpError> {
        let stateless = context
            .meta
            .protocol_version()
            .is_some_and(|v| !v.has_initialize());
        match self.server.task_store() {
            Some(store) if stateless => Ok(store),
            _ => Err(McpError::method_not_found::<M>()),
        }
    }
}

impl ServerHandler for Handler {
    fn get_info(&self) -> ServerConfig {
        self.server.inner.config.clone()
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, McpError> {
        // rmcp keeps the client's `initialize` (its `clientInfo`) on the peer; calls read the
        // name from there to size their answers.
        let client = &request.client_info;
        match self.server.client_limits().limit_for(&client.name) {
            Some(bytes) => tracing::info!(client = %client.name, version = %client.version,
                max_answer_bytes = bytes, "answers are paged to fit what this client keeps"),
            None => tracing::debug!(client = %client.name, version = %client.version,
                "no answer limit known for this client: tools use their own size_hint"),
        }
        context.peer.set_peer_info(request.clone());
        let mut result = self.negotiate_initialize(&request)?;
        // The tasks extension is built on 2026-07-28 results: a session is not offered it.
        if let Some(extensions) = &mut result.capabilities.extensions {
            extensions.remove(rmcp::model::TASKS_EXTENSION_ID);
            if extensions.is_empty() {
                result.capabilities.extensions = None;
            }
        }
        Ok(result)
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        // Both eras: sessions with `initialize` up to 2025-11-25, stateless requests from
        // 2026-07-28 on (a call's client requests become `input_required` rounds there).
        Cow::Borrowed(ProtocolVersion::known_up_to(&ProtocolVersion::V_2026_07_28))
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let all = &self.server.inner.tools;
        let start = parse_list_cursor(
            request.as_ref().and_then(|r| r.cursor.as_deref()),
            all.len(),
        )?;
        let end = (start + self.server.inner.tools_page_size).min(all.len());
        let caching = self.server.list_caching();
        let mut result = ListToolsResult::with_all_items(
            all[start..end].iter().map(|p| p.tool().clone()).collect(),
        )
        .with_ttl_ms(u64::try_from(caching.ttl.as_millis()).unwrap_or(u64::MAX))
        .with_cache_scope(caching.scope);
        if end < all.len() {
            result.next_cursor = Some(format!("tools:{end}"));
        }
        Ok(result)
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.server.prepared(name).map(|p| p.tool().clone())
    }

    async fn call_tool(
        &self,
        mut request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let Some(prepared) = self.server.prepared(&request.name) else {
            let unknown = self.server.unknown(&request.name);
            return Err(McpError::invalid_params(
                unknown.to_string(),
                Some(json!({"tool": unknown.name, "available": unknown.available})),
            ));
        };
        let progress_token = context.meta.get_progress_token();
        // Per call rather than once per session: 2026-07-28 clients send `clientInfo` with each
        // request, and `client_info()` reads it there first, the `initialize` one otherwise.
        let client = context.client_info().map(|info| ClientBudget {
            max_bytes: self.server.client_limits().limit_for(&info.name),
            name: info.name,
        });
        // The call's own token, cancelled by the client (through rmcp's request token) or by
        // the end of the session, whichever comes first.
        let cancel = self.session.child_token();
        let arguments = request.arguments.take().unwrap_or_default();
        let stateless = context
            .meta
            .protocol_version()
            .is_some_and(|v| !v.has_initialize());
        // A 2026-07-28 request has no session: its log level, capabilities and the answers to
        // its tool's questions all come with it.
        let (level, round) = if stateless {
            let level = match context.meta.log_level() {
                Some(level) => LevelFilter::at(LogLevel::from_rmcp(level)),
                None => LevelFilter::off(),
            };
            let round = InputRound::open(
                self.server.signing_keys(),
                &request.name,
                &arguments,
                context.client_capabilities().unwrap_or_default(),
                request.request_state.as_deref(),
                request.input_responses.take(),
            )?;
            (level, Some(Arc::new(round)))
        } else {
            (self.level.clone(), None)
        };
        let mut tool_context = ToolContext::new(
            prepared.def,
            client,
            Some(context.peer.clone()),
            progress_token,
            cancel.clone(),
            level,
        );
        if let Some(round) = &round {
            tool_context = tool_context.with_input_round(Arc::clone(round));
        }
        // Tasks are a 2026-07-28 extension: a session's calls always run in-line.
        let switch = Arc::new(Switch::default());
        if self.server.task_store().is_some() {
            let follows = stateless
                && context
                    .client_capabilities()
                    .is_some_and(|caps| caps.supports_tasks());
            tool_context = tool_context.with_task(if follows {
                TaskLink::Offered(Arc::clone(&switch))
            } else {
                TaskLink::Declined(Arc::clone(&switch))
            });
        }
        let sealed_arguments = round.as_ref().map(|_| arguments.clone());
        let trace = super::telemetry::TraceContext::from_meta(&context.meta);
        let run = self
            .server
            .run_traced(prepared, arguments, tool_context, trace);
        let forward = async {
            context.ct.cancelled().await;
            cancel.cancel();
            std::future::pending::<Infallible>().await
        };
        let envelope = tokio::select! {
            envelope = run => envelope,
            never = forward => match never {},
        };
        if let (Some(round), Some(arguments)) = (&round, &sealed_arguments) {
            // Questions the client has not answered win over whatever the tool made of their
            // absence: the call is not over.
            let questions = round.take_questions();
            if !questions.is_empty() {
                let state = round.seal(self.server.signing_keys(), &request.name, arguments);
                return Ok(CallToolResponse::InputRequired(InputRequiredResult::new(
                    Some(questions),
                    Some(state),
                )));
            }
            if envelope.is_error
                && let Some(capability) = round.missing_capability()
            {
                return Err(missing_capability_error(capability));
            }
            if switch.required() {
                return Err(task_required_error());
            }
            if switch.wanted() {
                let call = TaskCall {
                    tool: request.name.to_string(),
                    arguments: arguments.clone(),
                    client: context.client_info().map(|info| ClientBudget {
                        max_bytes: self.server.client_limits().limit_for(&info.name),
                        name: info.name,
                    }),
                    capabilities: context.client_capabilities().unwrap_or_default(),
                    answers: round.answers().clone(),
                    session: self.session.clone(),
                    trace: super::telemetry::TraceContext::from_meta(&context.meta),
                };
                return Ok(match self.server.start_task(call) {
                    Ok(task) => CallToolResponse::Task(task),
                    Err(busy) => {
                        CallToolResponse::Complete(call_result(crate::envelope::failure(&busy)))
                    }
                });
            }
        }
        Ok(CallToolResponse::Complete(call_result(envelope)))
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, McpError> {
        let store = self.task_store::<GetTaskMethod>(&context)?;
        store.get(&request.task_id).map(GetTaskResult::new)
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        let store = self.task_store::<UpdateTaskMethod>(&context)?;
        store.answer(
            &request.task_id,
            request.input_responses.into_iter().collect(),
        )
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        let store = self.task_store::<CancelTaskMethod>(&context)?;
        store.cancel(&request.task_id)
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.level.set(LogLevel::from_rmcp(request.level));
        Ok(())
    }
}

/// A finished call as an MCP result: rich answers as their blocks (their size in `_meta`),
/// the rest as the envelope in `structuredContent` and as text.
pub(crate) fn call_result(envelope: crate::Envelope) -> CallToolResult {
    let mut result = CallToolResult::default();
    result.is_error = Some(envelope.is_error);
    match envelope.blocks {
        // Rich answers go out as their blocks; their size is reported in `_meta`.
        Some(blocks) => {
            result.content = blocks;
            let mut meta = rmcp::model::MetaObject::new();
            meta.insert("bytes".into(), json!(envelope.text.len()));
            meta.insert(
                "estimated_tokens".into(),
                json!(crate::estimate_tokens(envelope.text.len())),
            );
            result.meta = Some(meta);
        }
        None => {
            result.content = vec![ContentBlock::text(envelope.text)];
            result.structured_content = Some(envelope.value);
        }
    }
    result
}
