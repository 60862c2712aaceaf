// A description that says what comes back, when to use it and what to call next.
use mcp_tool::prelude::*;

#[tool_output]
pub struct Count {
    /// How many events are indexed.
    pub events: u64,
}

/// Count the events in the index, across every session and provider.
/// Use `search_event_previews` to find particular events.
#[mcp_tool(name = "count_events", family = "trace", size_hint = "1KB", read_only)]
pub async fn count_events() -> ToolResult<Count> {
    Ok(Count { events: 0 })
}

fn main() {}
