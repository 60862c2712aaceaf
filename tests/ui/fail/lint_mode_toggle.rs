// One name, two response shapes: the size_hint can only describe one of them.
use mcp_tool::prelude::*;

#[tool_args]
pub struct GetEventArgs {
    /// Session id or a unique prefix of one.
    pub session_id: String,
    /// Return the untruncated payload instead of a preview.
    pub include_full_payload: Option<bool>,
    /// Render the answer as Markdown instead of JSON.
    pub as_markdown: Option<bool>,
}

fn main() {}
