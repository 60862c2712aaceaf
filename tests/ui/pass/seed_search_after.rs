// The seed redesign of `search_events`: previews and details are two tools, closed sets are
// enums, the page size is bounded and declared.
use mcp_tool::prelude::*;

/// The agent that wrote the session.
#[tool_args]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provider {
    /// Anthropic's Claude Code.
    ClaudeCode,
    /// OpenAI's Codex CLI.
    Codex,
    /// Google's Gemini CLI.
    Gemini,
}

/// What an event is.
#[tool_args]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventType {
    /// A prompt typed by the person.
    User,
    /// Text the model wrote to the person.
    Message,
    /// The model's reasoning before it answers.
    Reasoning,
    /// A tool call made by the model.
    ToolCall,
    /// The result returned for a tool call.
    ToolResult,
    /// Tokens used by one model generation.
    TokenUsage,
    /// A notice from the agent itself (compaction, errors, limits).
    Notification,
}

#[tool_args]
pub struct SearchEventPreviewsArgs {
    /// Text to look for in event content (case-insensitive).
    pub query: String,
    /// Results per page.
    #[arg(default = 10, min = 1, max = 50)]
    pub limit: u32,
    /// `next_cursor` from the previous page; omit for the first page.
    pub cursor: Option<Cursor>,
    /// Only events of this provider.
    pub provider: Option<Provider>,
    /// Only events of this type.
    pub event_type: Option<EventType>,
}

/// One hit: where it is and ~300 characters around the match.
#[tool_output]
pub struct EventPreview {
    /// Session the event belongs to.
    pub session_id: String,
    /// Index of the event in its session, for `get_event_details`.
    pub event_index: u32,
    /// What the event is.
    pub event_type: EventType,
    /// About 300 characters around the match.
    pub preview: String,
}

/// Search event content across sessions and return ~300-character previews.
/// Use `get_event_details` for the full payload of one hit.
#[mcp_tool(name = "search_event_previews", family = "trace", size_hint = "10KB", read_only)]
pub async fn search_event_previews(args: SearchEventPreviewsArgs) -> ToolResult<Page<EventPreview>> {
    let _ = args;
    Ok(Page::new(Vec::new()))
}

#[tool_args]
pub struct GetEventDetailsArgs {
    /// Session id or a unique prefix of one.
    pub session_id: String,
    /// Index of the event in its session, as given by `search_event_previews`.
    pub event_index: u32,
    /// `next_cursor` from the previous page; omit for the first page.
    pub cursor: Option<Cursor>,
}

/// A part of one event's payload, untruncated.
#[tool_output]
pub struct EventChunk {
    /// What the event is.
    pub event_type: EventType,
    /// The payload text of this page.
    pub text: String,
}

/// One event with its full payload, continued on the next page when larger than a page.
#[mcp_tool(name = "get_event_details", family = "trace", size_hint = "32KB", read_only)]
pub async fn get_event_details(args: GetEventDetailsArgs) -> ToolResult<Page<EventChunk>> {
    let _ = args;
    Ok(Page::new(Vec::new()))
}

fn main() {}
