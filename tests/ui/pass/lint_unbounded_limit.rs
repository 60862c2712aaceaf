// Every page size has a maximum; other integers need none.
use mcp_tool::prelude::*;

#[tool_args]
pub struct ListSessionsArgs {
    /// Results per page.
    #[arg(default = 20, min = 1, max = 100)]
    pub limit: u32,
    /// Sessions returned per project.
    #[arg(min = 1, max = 10)]
    pub per_project_limit: Option<u32>,
    /// Only sessions with at least this many turns.
    pub min_turns: Option<u32>,
    /// `next_cursor` from the previous page; omit for the first page.
    pub cursor: Option<Cursor>,
}

fn main() {}
