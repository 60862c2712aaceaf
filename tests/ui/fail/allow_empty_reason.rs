// An exception without a reason cannot be reviewed: empty and blank reasons are both errors.
use mcp_tool::prelude::*;

#[tool_args]
pub struct CompleteArgs {
    /// Model to complete with, as named by the provider.
    #[arg(allow(closed_domain_string = ""))]
    pub model_provider: String,
}

#[tool_args(allow(too_many_params = "   "))]
pub struct OtherArgs {
    /// Text to look for.
    pub query: String,
}

#[tool_output]
pub struct Info {
    /// The session id.
    pub session_id: String,
}

/// The newest session.
#[mcp_tool(name = "session", family = "trace", size_hint = "1KB", read_only, allow(tool_name = ""))]
pub async fn session_info() -> ToolResult<Info> {
    Ok(Info { session_id: String::new() })
}

fn main() {}
