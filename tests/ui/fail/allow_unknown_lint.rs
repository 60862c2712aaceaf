// A misspelt lint name would silence nothing; the error suggests the closest one.
use mcp_tool::prelude::*;

#[tool_args]
pub struct CompleteArgs {
    /// Model to complete with, as named by the provider.
    #[arg(allow(closed_domain_strings = "model names are open-ended"))]
    pub model_provider: String,
    /// Text to complete.
    #[arg(allow(no_such_rule = "because"))]
    pub prompt: String,
}

#[tool_output]
pub struct Info {
    /// The session id.
    pub session_id: String,
}

/// The newest session.
#[mcp_tool(name = "session", family = "trace", size_hint = "1KB", read_only, allow(toolname = "name fixed by a client"))]
pub async fn session_info() -> ToolResult<Info> {
    Ok(Info { session_id: String::new() })
}

fn main() {}
