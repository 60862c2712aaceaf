// A cursor with a page, a single value without one, a cursor known by its `Cursor` type rather
// than its name, and a paginated tool that silences the rule with a reason.
use mcp_tool::prelude::*;

#[tool_args]
pub struct ListSessionsArgs {
    /// Results per page.
    #[arg(default = 20, max = 100)]
    pub limit: u32,
    /// `next_cursor` from the previous page; omit for the first page.
    pub cursor: Option<Cursor>,
}

#[tool_args]
pub struct GetSessionSummaryArgs {
    /// Session id or a unique prefix of one.
    pub session_id: String,
}

#[tool_output]
pub struct SessionRow {
    /// Full session id.
    pub session_id: String,
}

/// Sessions, newest first. Use `get_session_summary` for one of them.
#[mcp_tool(name = "list_sessions", family = "trace", size_hint = "10KB", read_only)]
pub async fn list_sessions(args: ListSessionsArgs) -> ToolResult<Page<SessionRow>> {
    let _ = (args.limit, args.cursor);
    Ok(Page::new(Vec::new()))
}

/// Ids, times and model of one session.
#[mcp_tool(name = "get_session_summary", family = "trace", size_hint = "5KB", read_only)]
pub async fn get_session_summary(args: GetSessionSummaryArgs) -> ToolResult<SessionRow> {
    Ok(SessionRow { session_id: args.session_id })
}

/// The ten projects with the most sessions; never more than one page.
#[mcp_tool(
    name = "list_top_projects",
    family = "trace",
    size_hint = "2KB",
    read_only,
    allow(pagination_mismatch = "always a single page of at most ten rows")
)]
pub async fn list_top_projects() -> ToolResult<Page<SessionRow>> {
    Ok(Page::new(Vec::new()))
}

#[tool_args]
pub struct ListTurnsArgs {
    /// Session id or a unique prefix of one.
    pub session_id: String,
    /// `next_cursor` from the previous page; omit for the first page.
    pub page_after: Option<Cursor>,
}

/// Turns of one session, oldest first.
#[mcp_tool(name = "list_turns", family = "trace", size_hint = "10KB", read_only)]
pub async fn list_turns(args: ListTurnsArgs) -> ToolResult<Page<SessionRow>> {
    let _ = args;
    Ok(Page::new(Vec::new()))
}

fn main() {}
