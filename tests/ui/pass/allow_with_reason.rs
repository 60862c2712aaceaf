// An allow with a reason silences exactly the lint it names, on a field, a struct or a tool.
use mcp_tool::prelude::*;

#[tool_args(allow(too_many_params = "mirrors the upstream completion API one to one"))]
pub struct CompleteArgs {
    /// Model to complete with, as named by the provider (`gpt-4.1`, `claude-sonnet-4-5`, ...).
    #[arg(allow(closed_domain_string = "model names are open-ended and change monthly"))]
    pub model_provider: String,
    /// The prompt.
    pub prompt: String,
    /// The system prompt.
    pub system: Option<String>,
    /// Sampling temperature.
    #[arg(min = 0.0, max = 2.0)]
    pub temperature: Option<f64>,
    /// Nucleus sampling mass.
    #[arg(min = 0.0, max = 1.0)]
    pub top_p: Option<f64>,
    /// Tokens to generate at most.
    #[arg(min = 1, max = 8192)]
    pub max_tokens: Option<u32>,
    /// Text that ends the completion.
    pub stop: Option<String>,
    /// Seed for reproducible sampling.
    pub seed: Option<u64>,
    /// Glob of files to attach, as the upstream API names it.
    #[arg(allow(vague_name = "the upstream API calls it pattern and users search for that"))]
    pub pattern: Option<String>,
}

#[tool_output]
pub struct Completion {
    /// The generated text.
    pub text: String,
}

/// Complete a prompt with the named model.
#[mcp_tool(
    name = "completion",
    family = "llm",
    size_hint = "16KB",
    allow(tool_name = "name fixed by an existing client")
)]
pub async fn completion(args: CompleteArgs) -> ToolResult<Completion> {
    Ok(Completion { text: args.prompt })
}

fn main() {}
