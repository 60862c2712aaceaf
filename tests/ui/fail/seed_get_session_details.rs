// The seed "before" design of `get_session_details`: a parameter that means something only for
// one value of another.
use mcp_tool::prelude::*;

/// How much of the session to return.
#[tool_args]
pub enum DetailLevel {
    /// Ids, times, model and token counts.
    Summary,
    /// One entry per turn.
    Turns,
    /// Every event, untruncated.
    Full,
}

#[tool_args]
pub struct GetSessionDetailsArgs {
    /// Session id or a unique prefix of one.
    pub session_id: String,
    /// How much of the session to return.
    pub detail_level: Option<DetailLevel>,
    /// Include reasoning blocks (only applies to 'turns' level)
    pub include_reasoning: Option<bool>,
}

#[tool_output]
pub struct SessionDetails {
    /// Full session id.
    pub session_id: String,
}

/// Details of one session, at the chosen level.
#[mcp_tool(name = "get_session_details", family = "trace", size_hint = "50KB", read_only)]
pub async fn get_session_details(args: GetSessionDetailsArgs) -> ToolResult<SessionDetails> {
    Ok(SessionDetails { session_id: args.session_id })
}

fn main() {}
