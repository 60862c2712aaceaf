// A field with only a `//` comment: the macro (and the model) never sees it.
use mcp_tool::prelude::*;

#[tool_args]
pub struct ReadFileArgs {
    // The file to read, relative to the project root.
    pub path: String,
}

fn main() {}
