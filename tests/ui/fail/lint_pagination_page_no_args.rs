// A `Page` output on a tool without arguments: there is not even a struct to put a cursor in.
use mcp_tool::prelude::*;

#[tool_output]
pub struct ProjectRow {
    /// Project root.
    pub root: String,
}

/// Every project with sessions, by root.
#[mcp_tool(name = "list_projects", family = "trace", size_hint = "10KB", read_only)]
pub async fn list_projects() -> ToolResult<Page<ProjectRow>> {
    Ok(Page::new(Vec::new()))
}

fn main() {}
