// The seed "before" design of `search_events`: four faults, all reported by one compile.
use mcp_tool::prelude::*;

#[tool_args]
pub struct SearchEventsArgs {
    /// Regex or text to search
    pub pattern: String,
    /// Maximum number of results
    #[arg(default = 20, max = 100)]
    pub limit: u32,
    /// `next_cursor` from the previous page; omit for the first page.
    pub cursor: Option<Cursor>,
    /// Filter by provider
    pub provider: Option<String>,
    /// Filter by event type (e.g. ToolCall, ToolResult, Message)
    pub event_type: Option<String>,
    /// Return the full payload instead of a preview
    pub include_full_payload: Option<bool>,
}

#[tool_output]
pub struct EventHit {
    /// Session the event belongs to.
    pub session_id: String,
    /// Index of the event in its session.
    pub event_index: u32,
}

/// Search events across sessions.
#[mcp_tool(name = "search_events", family = "trace", size_hint = "10KB", read_only)]
pub async fn search_events(args: SearchEventsArgs) -> ToolResult<Page<EventHit>> {
    let _ = args;
    Ok(Page::new(Vec::new()))
}

fn main() {}
