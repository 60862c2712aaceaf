// Bools that choose which records come back are filters, not toggles.
use mcp_tool::prelude::*;

#[tool_args]
pub struct ListSessionsArgs {
    /// Also list sessions that were archived.
    #[arg(default = false)]
    pub include_archived: bool,
    /// Only sessions that ended with an error.
    pub only_failed: Option<bool>,
    /// Include the model's reasoning blocks among the events.
    pub include_reasoning: Option<bool>,
    /// Leave out sessions started by subagents.
    pub exclude_subagents: Option<bool>,
}

fn main() {}
