// One tool doing the work of four: nine parameters, each one more thing to fill in wrongly.
use mcp_tool::prelude::*;

/// The session provider.
#[tool_args]
pub enum Provider {
    /// Claude Code.
    ClaudeCode,
    /// Codex.
    Codex,
}

#[tool_args]
pub struct QuerySessionsArgs {
    /// Only sessions of this provider.
    pub provider: Option<Provider>,
    /// Only sessions of this project root.
    pub project: Option<String>,
    /// Only sessions that started at or after this time (RFC 3339).
    pub since: Option<String>,
    /// Only sessions that started before this time (RFC 3339).
    pub until: Option<String>,
    /// Text to look for in event content.
    pub query: Option<String>,
    /// Session id or a unique prefix of one.
    pub session_id: Option<String>,
    /// Zero-based index of a turn in the session.
    pub turn_index: Option<u32>,
    /// Results per page.
    #[arg(default = 20, max = 100)]
    pub limit: u32,
    /// `next_cursor` from the previous page; omit for the first page.
    pub cursor: Option<Cursor>,
}

fn main() {}
