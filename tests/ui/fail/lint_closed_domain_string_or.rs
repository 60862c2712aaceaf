// A `String` whose doc names its few values joined by "or".
use mcp_tool::prelude::*;

#[tool_args]
pub struct ExportArgs {
    /// How much of each session to export, summary or full.
    pub detail: String,
    /// Units of the sizes: metric or imperial
    pub units: String,
}

fn main() {}
