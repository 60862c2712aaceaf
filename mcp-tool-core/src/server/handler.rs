//! The rmcp `ServerHandler` over a `ToolServer`: one per client session.

use super::ToolServer;
use crate::context::{ClientBudget, LevelFilter, LogLevel, ToolContext};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, InitializeRequestParams,
    InitializeResult, ListToolsResult, PaginatedRequestParams, ProtocolVersion, ServerConfig,
    SetLevelRequestParams, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde_json::json;
use std::borrow::Cow;

#[derive(Clone)]
pub(crate) struct Handler {
    server: ToolServer,
    level: LevelFilter,
}

impl Handler {
    pub fn new(server: ToolServer) -> Self {
        Self {
            server,
            level: LevelFilter::default(),
        }
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
        self.negotiate_initialize(&request)
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        // Tools use server-to-client requests (sampling, elicitation) and logging, which the
        // 2026-07-28 revision replaces; serve the revisions where they are current.
        Cow::Borrowed(ProtocolVersion::known_up_to(&ProtocolVersion::V_2025_11_25))
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
        let mut result = ListToolsResult::with_all_items(
            all[start..end].iter().map(|p| p.tool.clone()).collect(),
        );
        if end < all.len() {
            result.next_cursor = Some(format!("tools:{end}"));
        }
        Ok(result)
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.server.prepared(name).map(|p| p.tool.clone())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
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
        let tool_context = ToolContext::new(
            prepared.def,
            client,
            Some(context.peer.clone()),
            progress_token,
            context.ct.clone(),
            self.level.clone(),
        );
        let envelope = self
            .server
            .run(
                prepared,
                request.arguments.unwrap_or_default(),
                tool_context,
            )
            .await;
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
        Ok(CallToolResponse::Complete(result))
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
