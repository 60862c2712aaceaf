// Names that say what the value is, and a tool name that says what it does.
use mcp_tool::prelude::*;

#[tool_args]
pub struct SearchEventPreviewsArgs {
    /// Text to look for in event content (case-insensitive).
    pub query: String,
    /// Glob over project paths, e.g. `~/src/*`.
    pub project_glob: Option<String>,
    /// Text of the note to attach.
    pub content: Option<String>,
}

#[tool_output]
pub struct Hits {
    /// How many events matched.
    pub matched: u32,
}

/// Count the events whose content contains the query.
#[mcp_tool(name = "count_matching_events", family = "trace", size_hint = "1KB", read_only)]
pub async fn count_matching_events(args: SearchEventPreviewsArgs) -> ToolResult<Hits> {
    let _ = args;
    Ok(Hits { matched: 0 })
}

/// Run the project's tests and report failures.
#[mcp_tool(name = "run_tests", family = "dev", size_hint = "8KB")]
pub async fn run_tests() -> ToolResult<Hits> {
    Ok(Hits { matched: 0 })
}

fn main() {}
