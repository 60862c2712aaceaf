// A verb no list knows is still a verb when the tool's own description acts it out.
use mcp_tool::prelude::*;

#[tool_args]
pub struct GreetArgs {
    /// Who to greet.
    pub name: String,
}

/// Greets a person by name.
#[mcp_tool(family = "hello", size_hint = "1KB", read_only)]
pub async fn greet_person(args: GreetArgs) -> ToolResult<String> {
    Ok(format!("Hello, {}!", args.name))
}

fn main() {}
