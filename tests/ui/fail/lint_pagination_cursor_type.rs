// A cursor is a cursor by its type too: the cross-item check and the lint agree on that.
use mcp_tool::prelude::*;

#[tool_args]
pub struct GetTurnArgs {
    /// Session id or a unique prefix of one.
    pub session_id: String,
    /// `next_cursor` from the previous page; omit for the first page.
    pub page_after: Option<Cursor>,
}

#[tool_output]
pub struct Turn {
    /// Zero-based index of the turn.
    pub turn_index: u32,
}

/// The first turn of one session.
#[mcp_tool(name = "get_first_turn", family = "trace", size_hint = "5KB", read_only)]
pub async fn get_first_turn(args: GetTurnArgs) -> ToolResult<Turn> {
    let _ = args;
    Ok(Turn { turn_index: 0 })
}

fn main() {}
