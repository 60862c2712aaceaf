// The author's own tool names: lowercase snake_case, verb first (after a namespace prefix).
use mcp_tool::prelude::*;

#[tool_output]
pub struct Issue {
    /// Issue number.
    pub number: u32,
}

/// The newest issue.
#[mcp_tool(name = "getIssue", family = "issues", size_hint = "1KB", read_only)]
pub async fn camel_case() -> ToolResult<Issue> {
    Ok(Issue { number: 1 })
}

/// The newest issue.
#[mcp_tool(name = "get-issue", family = "issues", size_hint = "1KB", read_only)]
pub async fn dashes() -> ToolResult<Issue> {
    Ok(Issue { number: 1 })
}

/// Opens an issue.
#[mcp_tool(name = "issue_create", family = "issues", size_hint = "1KB")]
pub async fn noun_first() -> ToolResult<Issue> {
    Ok(Issue { number: 1 })
}

/// The open issues.
#[mcp_tool(name = "issues", family = "tracker", size_hint = "1KB", read_only)]
pub async fn bare_plural() -> ToolResult<Issue> {
    Ok(Issue { number: 1 })
}

fn main() {}
