// A description that repeats every parameter's doc and a worked example, sent with every request.
#![deny(deprecated)] // advice is a warning; denying it makes it fail the build, as here
use mcp_tool::prelude::*;

#[tool_output]
pub struct Count {
    /// How many events are indexed.
    pub events: u64,
}

/// Search event content across every indexed session and return short previews of the hits.
/// The `query` parameter is the text to look for; it is matched case-insensitively against the
/// text of user prompts, model messages, reasoning blocks, tool calls and tool results. The
/// `provider` parameter restricts the search to one provider: Claude Code, Codex or Gemini.
/// The `event_type` parameter restricts the search to one kind of event. The `limit` parameter
/// is the number of results per page, 10 by default and 50 at most. The `cursor` parameter is
/// the `next_cursor` of the previous page. Example: to find where a session ran `cargo test`,
/// call with query "cargo test" and event_type tool_call, then call `get_event_details` with
/// the session id and event index of the hit you want, and read its full payload page by page.
/// Each preview holds about 300 characters around the match, the session id, the turn index,
/// the event index, the provider, the event type and the time of the event, in that order.
/// Results are ordered by relevance first and by time second; ties keep the index order, so
/// paging through the same query twice returns the same hits in the same order every time.
#[mcp_tool(name = "count_events", family = "trace", size_hint = "1KB", read_only)]
pub async fn count_events() -> ToolResult<Count> {
    Ok(Count { events: 0 })
}

fn main() {}
