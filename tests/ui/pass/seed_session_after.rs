// The seed redesign of `get_session_details`: one tool per level, so `include_reasoning` belongs
// only to the tools where it means something.
use mcp_tool::prelude::*;

#[tool_args]
pub struct GetSessionSummaryArgs {
    /// Session id or a unique prefix of one.
    pub session_id: String,
}

/// One session at a glance.
#[tool_output]
pub struct SessionSummary {
    /// Full session id.
    pub session_id: String,
    /// Number of turns.
    pub turn_count: u32,
    /// The first prompt, shortened.
    pub first_prompt: String,
}

/// Ids, times, model, turn count, tokens and first prompt of one session.
/// Use `get_session_turns` for what happened turn by turn.
#[mcp_tool(name = "get_session_summary", family = "trace", size_hint = "5KB", read_only)]
pub async fn get_session_summary(args: GetSessionSummaryArgs) -> ToolResult<SessionSummary> {
    Ok(SessionSummary { session_id: args.session_id, turn_count: 0, first_prompt: String::new() })
}

#[tool_args]
pub struct GetSessionTurnsArgs {
    /// Session id or a unique prefix of one.
    pub session_id: String,
    /// Turns per page.
    #[arg(default = 10, min = 1, max = 50)]
    pub limit: u32,
    /// `next_cursor` from the previous page; omit for the first page.
    pub cursor: Option<Cursor>,
}

/// One turn: a person's prompt and all that follows it.
#[tool_output]
pub struct TurnSummary {
    /// Zero-based index of the turn, for `get_turn_steps`.
    pub turn_index: u32,
    /// The prompt, shortened.
    pub prompt: String,
    /// The tool actions that mattered.
    pub key_actions: Vec<String>,
}

/// Per-turn summaries of one session: prompt snippet, key tool actions, outcome, tokens.
/// Use `get_turn_steps` for the steps of one turn.
#[mcp_tool(name = "get_session_turns", family = "trace", size_hint = "30KB", read_only)]
pub async fn get_session_turns(args: GetSessionTurnsArgs) -> ToolResult<Page<TurnSummary>> {
    let _ = args;
    Ok(Page::new(Vec::new()))
}

#[tool_args]
pub struct GetTurnStepsArgs {
    /// Session id or a unique prefix of one.
    pub session_id: String,
    /// Zero-based index of the turn, as given by `get_session_turns`.
    pub turn_index: u32,
    /// Include the model's reasoning blocks in each step.
    #[arg(default = false)]
    pub include_reasoning: bool,
    /// `next_cursor` from the previous page; omit for the first page.
    pub cursor: Option<Cursor>,
}

/// One model generation with its tool calls and results.
#[tool_output]
pub struct Step {
    /// Zero-based index of the step in its turn.
    pub step_index: u32,
    /// The generation's text, truncated to 2000 characters.
    pub text: String,
    /// Whether `text` was truncated.
    pub truncated: bool,
}

/// The steps of one turn with truncated payloads; truncation is stated per step.
/// Use `get_session_full` for untruncated payloads.
#[mcp_tool(name = "get_turn_steps", family = "trace", size_hint = "50KB", read_only)]
pub async fn get_turn_steps(args: GetTurnStepsArgs) -> ToolResult<Page<Step>> {
    let _ = args;
    Ok(Page::new(Vec::new()))
}

#[tool_args]
pub struct GetSessionFullArgs {
    /// Session id or a unique prefix of one.
    pub session_id: String,
    /// Include the model's reasoning blocks among the events.
    #[arg(default = true)]
    pub include_reasoning: bool,
    /// `next_cursor` from the previous page; omit for the first page.
    pub cursor: Option<Cursor>,
}

/// One event of the session, complete.
#[tool_output]
pub struct FullEvent {
    /// Index of the event in its session.
    pub event_index: u32,
    /// The payload, or the part of it that fits this page.
    pub payload: String,
}

/// Every event of one session with complete payloads, page by page; a payload larger than a
/// page continues on the next.
#[mcp_tool(name = "get_session_full", family = "trace", size_hint = "100KB", read_only)]
pub async fn get_session_full(args: GetSessionFullArgs) -> ToolResult<Page<FullEvent>> {
    let _ = args;
    Ok(Page::new(Vec::new()))
}

fn main() {}
