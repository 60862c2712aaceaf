//! Testing kit: a real rmcp client talking to a server, in-process or over any transport.
//!
//! Every answer is checked as the strictest clients check it: its text copy must equal its
//! `structuredContent`, and its `structuredContent` must match the tool's listed
//! `outputSchema` (JSON Schema 2020-12); a test fails with the JSON path of any mismatch.
//!
//! ```
//! use mcp_tool::prelude::*;
//! use mcp_tool::{ToolServer, testing::TestClient};
//!
//! /// Arguments of `get_greeting`.
//! #[tool_args]
//! pub struct GreetArgs {
//!     /// Who to greet.
//!     pub name: String,
//! }
//!
//! /// Return a greeting for `name`.
//! #[mcp_tool(name = "get_greeting", family = "greetings", size_hint = "1KB", read_only)]
//! pub async fn get_greeting(args: GreetArgs) -> ToolResult<String> {
//!     Ok(format!("Hello, {}!", args.name))
//! }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! let server = ToolServer::builder().families(["greetings"]).build().unwrap();
//! let client = TestClient::in_process(&server).await;
//! let answer = client.call("get_greeting", serde_json::json!({"name": "Ada"})).await;
//! assert_eq!(answer.expect_ok(), "Hello, Ada!");
//! client.assert_within_size_hint(&answer);
//!
//! let bad = client.call("get_greeting", serde_json::json!({})).await;
//! assert_eq!(bad.error_code(), Some("invalid_parameter"));
//! client.close().await;
//! # }
//! ```

use crate::server::answer_check::AnswerCheck;
use crate::{LogLevel, SIZE_HINT_META, ToolServer};
use rmcp::model::{
    CallToolRequestParams, ClientConfig, Implementation, LoggingMessageNotificationParam,
    NumberOrString, PaginatedRequestParams, ProgressNotificationParam, ProgressToken,
    RequestMetaObject, SetLevelRequestParams, Tool,
};
use rmcp::service::{NotificationContext, RunningService};
use rmcp::transport::IntoTransport;
use rmcp::{ClientHandler, RoleClient, ServiceError, ServiceExt};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// A notification the client received.
#[derive(Debug, Clone, PartialEq)]
pub enum Notification {
    /// A `notifications/progress` (see [`ToolContext::progress`](crate::ToolContext::progress)).
    Progress {
        /// Work done so far.
        progress: f64,
        /// Work in all, if the tool knows it.
        total: Option<f64>,
        /// What the tool is doing.
        message: Option<String>,
    },
    /// A `notifications/message` (see [`ToolContext::log`](crate::ToolContext::log)).
    Log {
        /// The level's wire name (`info`, `warning`, ...).
        level: String,
        /// The tool that logged it.
        logger: Option<String>,
        /// The logged value.
        data: Value,
    },
}

/// Client side of the test session: records what the server sends unprompted.
#[derive(Clone, Default)]
pub struct Recorder {
    seen: Arc<Mutex<Vec<Notification>>>,
    /// The `clientInfo.name` to send instead of `mcp-tool-testing` (see `in_process_as`).
    client_name: Option<Arc<str>>,
}

impl Recorder {
    fn push(&self, n: Notification) {
        self.seen.lock().unwrap_or_else(|p| p.into_inner()).push(n);
    }
}

impl ClientHandler for Recorder {
    async fn on_progress(&self, p: ProgressNotificationParam, _: NotificationContext<RoleClient>) {
        self.push(Notification::Progress {
            progress: p.progress,
            total: p.total,
            message: p.message,
        });
    }

    async fn on_logging_message(
        &self,
        p: LoggingMessageNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        let level = serde_json::to_value(p.level)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        self.push(Notification::Log {
            level,
            logger: p.logger,
            data: p.data,
        });
    }

    fn get_info(&self) -> ClientConfig {
        let mut config = ClientConfig::default();
        let name = self.client_name.as_deref().unwrap_or("mcp-tool-testing");
        config.client_info = Implementation::new(name, env!("CARGO_PKG_VERSION"));
        config
    }
}

/// One answer, parsed: the envelope from `structuredContent`, checked against the text copy.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The tool that was called.
    pub tool: String,
    /// The envelope (`structuredContent`).
    pub envelope: Value,
    /// The text content, whose JSON equals `envelope`.
    pub text: String,
    /// The result's `isError`.
    pub is_error: bool,
}

impl Answer {
    /// Whether the envelope says `"status": "ok"`.
    pub fn is_ok(&self) -> bool {
        self.envelope["status"] == "ok"
    }

    /// The envelope's `data` (`null` for an error).
    pub fn data(&self) -> &Value {
        &self.envelope["data"]
    }

    /// The error code of a tool error, `None` for a success.
    pub fn error_code(&self) -> Option<&str> {
        self.envelope["error"]["code"].as_str()
    }

    /// The envelope's `error` object (`null` for a success).
    pub fn error(&self) -> &Value {
        &self.envelope["error"]
    }

    /// `pagination.next_cursor`, to pass as `cursor` for the next page.
    pub fn next_cursor(&self) -> Option<&str> {
        self.envelope["pagination"]["next_cursor"].as_str()
    }

    /// The size of the answer's text in bytes.
    pub fn bytes(&self) -> usize {
        self.text.len()
    }

    /// Panics with the whole envelope unless the answer is a success.
    #[track_caller]
    pub fn expect_ok(&self) -> &Value {
        assert!(
            self.is_ok(),
            "expected `{}` to succeed, got {}",
            self.tool,
            self.envelope
        );
        self.data()
    }
}

/// An rmcp client connected to a server, for tests.
pub struct TestClient {
    service: RunningService<RoleClient, Recorder>,
    recorder: Recorder,
    /// Size hints by tool, from the `_meta` of the listed tools.
    size_hints: Mutex<HashMap<String, usize>>,
    /// Each listed tool's compiled `outputSchema`, fetched at the first call.
    output_checks: tokio::sync::OnceCell<HashMap<String, AnswerCheck>>,
    /// What the server's client limits give the name this client sent (`in_process_as`).
    client_limit: Option<usize>,
}

impl TestClient {
    /// Connects to `server` through an in-memory duplex pipe; the server runs on a task.
    pub async fn in_process(server: &ToolServer) -> Self {
        let (client_io, server_io) = tokio::io::duplex(1 << 20);
        let serving = server.clone();
        tokio::spawn(async move {
            if let Err(e) = serving.serve(server_io).await {
                tracing::debug!(error = %e, "in-process test server stopped");
            }
        });
        let client = Self::connect(client_io)
            .await
            .expect("in-process MCP handshake");
        let hints = server
            .definitions()
            .map(|d| (d.name.to_owned(), d.size_hint))
            .collect();
        *client.size_hints.lock().unwrap_or_else(|p| p.into_inner()) = hints;
        client
    }

    /// Like [`in_process`](Self::in_process), but the client introduces itself with
    /// `client_name` as its `clientInfo.name`, e.g. [`client_limits::CODEX_CLI`], to see what
    /// tools answer that client. [`assert_within_size_hint`](Self::assert_within_size_hint)
    /// then holds answers to the smaller of each tool's `size_hint` and that client's limit.
    ///
    /// [`client_limits::CODEX_CLI`]: crate::client_limits::CODEX_CLI
    pub async fn in_process_as(server: &ToolServer, client_name: &str) -> Self {
        let (client_io, server_io) = tokio::io::duplex(1 << 20);
        let serving = server.clone();
        tokio::spawn(async move {
            if let Err(e) = serving.serve(server_io).await {
                tracing::debug!(error = %e, "in-process test server stopped");
            }
        });
        let recorder = Recorder {
            client_name: Some(client_name.into()),
            ..Recorder::default()
        };
        let service = recorder
            .clone()
            .serve(client_io)
            .await
            .expect("in-process MCP handshake");
        let hints = server
            .definitions()
            .map(|d| (d.name.to_owned(), d.size_hint))
            .collect();
        Self {
            service,
            recorder,
            size_hints: Mutex::new(hints),
            output_checks: tokio::sync::OnceCell::new(),
            client_limit: server.client_limits().limit_for(client_name),
        }
    }

    /// Connects over any client transport (a child process's pipes, HTTP, ...).
    pub async fn connect<T, E, A>(transport: T) -> Result<Self, String>
    where
        T: IntoTransport<RoleClient, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let recorder = Recorder::default();
        let service = recorder
            .clone()
            .serve(transport)
            .await
            .map_err(|e| e.to_string())?;
        Ok(Self {
            service,
            recorder,
            size_hints: Mutex::default(),
            output_checks: tokio::sync::OnceCell::new(),
            client_limit: None,
        })
    }

    /// The server's `initialize` answer.
    pub fn server_info(&self) -> Option<std::sync::Arc<rmcp::model::ServerPeerInfo>> {
        self.service.peer_info()
    }

    /// Every tool, following `nextCursor` through all pages.
    pub async fn list_tools(&self) -> Vec<Tool> {
        let tools = self
            .service
            .peer()
            .list_all_tools()
            .await
            .expect("tools/list");
        let mut hints = self.size_hints.lock().unwrap_or_else(|p| p.into_inner());
        for tool in &tools {
            let hint = tool
                .meta
                .as_ref()
                .and_then(|m| m.get(SIZE_HINT_META))
                .and_then(|v| v.as_u64());
            if let Some(bytes) = hint {
                hints.insert(tool.name.to_string(), bytes as usize);
            }
        }
        tools
    }

    /// One `tools/list` page.
    pub async fn list_tools_page(
        &self,
        cursor: Option<String>,
    ) -> Result<rmcp::model::ListToolsResult, ServiceError> {
        let params = PaginatedRequestParams::default().with_cursor(cursor);
        self.service.peer().list_tools(Some(params)).await
    }

    /// Calls a tool and parses its envelope; panics on a protocol error (use `try_call`) and
    /// on an answer that breaks the tool's `outputSchema`.
    pub async fn call(&self, name: &str, arguments: Value) -> Answer {
        self.try_call(name, arguments)
            .await
            .unwrap_or_else(|e| panic!("tools/call `{name}` failed: {e}"))
    }

    /// Calls a tool, asking for progress notifications with a progress token.
    pub async fn call_with_progress(&self, name: &str, arguments: Value) -> Answer {
        let meta = RequestMetaObject::with_progress_token(ProgressToken(NumberOrString::String(
            "test-progress".into(),
        )));
        self.request(name, arguments, Some(meta))
            .await
            .unwrap_or_else(|e| panic!("tools/call `{name}` failed: {e}"))
    }

    /// Panics, naming the JSON path, when `envelope` breaks the tool's listed `outputSchema`:
    /// the check that the Python and TypeScript SDK clients make on every answer.
    async fn assert_matches_output_schema(&self, name: &str, envelope: &Value) {
        let checks = self
            .output_checks
            .get_or_init(|| async {
                let mut checks = HashMap::new();
                for tool in self.list_tools().await {
                    if let Some(schema) = &tool.output_schema {
                        let check = AnswerCheck::new(schema).unwrap_or_else(|e| {
                            panic!("the outputSchema of `{}` is not valid: {e}", tool.name)
                        });
                        checks.insert(tool.name.to_string(), check);
                    }
                }
                checks
            })
            .await;
        if let Some(mismatch) = checks.get(name).and_then(|c| c.mismatch(envelope)) {
            panic!(
                "the answer of `{name}` breaks its outputSchema at `{}`: {}\nanswer: {envelope}",
                mismatch.path, mismatch.message
            );
        }
    }

    /// Calls a tool; a JSON-RPC error (e.g. unknown tool) is `Err`.
    pub async fn try_call(&self, name: &str, arguments: Value) -> Result<Answer, ServiceError> {
        self.request(name, arguments, None).await
    }

    async fn request(
        &self,
        name: &str,
        arguments: Value,
        meta: Option<RequestMetaObject>,
    ) -> Result<Answer, ServiceError> {
        let mut params = CallToolRequestParams::new(name.to_owned());
        if let Value::Object(map) = arguments {
            params = params.with_arguments(map);
        }
        params.meta = meta;
        let result = self.service.peer().call_tool(params).await?;
        let text = result
            .content
            .iter()
            .find_map(|c| c.as_text().map(|t| t.text.clone()))
            .unwrap_or_default();
        let envelope = result.structured_content.clone().unwrap_or(Value::Null);
        let from_text: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        assert_eq!(
            from_text, envelope,
            "text content and structuredContent of `{name}` differ"
        );
        self.assert_matches_output_schema(name, &envelope).await;
        Ok(Answer {
            tool: name.to_owned(),
            envelope,
            text,
            is_error: result.is_error.unwrap_or(false),
        })
    }

    /// Asks the server to send only log messages at `level` or above.
    pub async fn set_log_level(&self, level: LogLevel) {
        self.service
            .peer()
            .set_level(SetLevelRequestParams::new(level.to_rmcp()))
            .await
            .expect("logging/setLevel");
    }

    /// Notifications received so far (progress, log messages), oldest first.
    pub fn notifications(&self) -> Vec<Notification> {
        self.recorder
            .seen
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Panics unless the answer is within its tool's `size_hint`, or the client's limit when
    /// smaller ([`in_process_as`](Self::in_process_as)). The hints come from the server itself
    /// in-process, and from the listed tools' `_meta` otherwise (call `list_tools` first).
    #[track_caller]
    pub fn assert_within_size_hint(&self, answer: &Answer) {
        let hint = self
            .size_hints
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&answer.tool)
            .copied();
        let hint = hint.unwrap_or_else(|| {
            panic!(
                "no size hint known for `{}`: call list_tools() first",
                answer.tool
            )
        });
        let hint = self.client_limit.map_or(hint, |limit| limit.min(hint));
        assert!(
            answer.bytes() <= hint,
            "`{}` answered {} bytes, over its size hint of {hint} bytes",
            answer.tool,
            answer.bytes(),
        );
    }

    /// Closes the session.
    pub async fn close(self) {
        let _ = self.service.cancel().await;
    }
}
