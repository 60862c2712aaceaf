// `pattern` does not say regex, glob or text; `process_data` does not say what it does.
use mcp_tool::prelude::*;

#[tool_args]
pub struct ProcessDataArgs {
    /// Regex or text to search.
    pub pattern: String,
    /// Extra settings.
    pub options: Option<String>,
}

#[tool_output]
pub struct Hits {
    /// How many events matched.
    pub count: u32,
}

/// Searches events.
#[mcp_tool(name = "process_data", family = "trace", size_hint = "5KB", read_only)]
pub async fn process_data(args: ProcessDataArgs) -> ToolResult<Hits> {
    let _ = args;
    Ok(Hits { count: 0 })
}

fn main() {}
