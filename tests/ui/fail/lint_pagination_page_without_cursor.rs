// A `Page` output whose arguments have no cursor: `has_more: true` and no way to go on.
use mcp_tool::prelude::*;

#[tool_args]
pub struct ListSessionsArgs {
    /// Results per page.
    #[arg(default = 20, max = 100)]
    pub limit: u32,
}

#[tool_output]
pub struct SessionRow {
    /// Full session id.
    pub session_id: String,
}

/// Sessions, newest first.
#[mcp_tool(name = "list_sessions", family = "trace", size_hint = "10KB", read_only)]
pub async fn list_sessions(args: ListSessionsArgs) -> ToolResult<Page<SessionRow>> {
    let _ = args.limit;
    Ok(Page::new(Vec::new()))
}

fn main() {}
