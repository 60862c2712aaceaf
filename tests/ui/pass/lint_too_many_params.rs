// Eight parameters is the limit, not over it.
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
pub struct ListSessionsArgs {
    /// Only sessions of this provider.
    pub provider: Option<Provider>,
    /// Only sessions of this project root.
    pub project: Option<String>,
    /// Only sessions that started at or after this time (RFC 3339).
    pub since: Option<String>,
    /// Only sessions that started before this time (RFC 3339).
    pub until: Option<String>,
    /// Only sessions whose first prompt contains this text.
    pub query: Option<String>,
    /// Only sessions with at least this many turns.
    pub min_turns: Option<u32>,
    /// Results per page.
    #[arg(default = 20, max = 100)]
    pub limit: u32,
    /// `next_cursor` from the previous page; omit for the first page.
    pub cursor: Option<Cursor>,
}

fn main() {}
