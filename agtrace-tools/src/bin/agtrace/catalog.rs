//! `agtrace tools`: the catalog a client receives, and what each entry costs in its context.

use super::{Failure, Roots, open_store};
use mcp_tool_core::rmcp::model::Tool;

#[derive(clap::Args)]
pub struct ToolsArgs {
    /// Print the `tools/list` JSON instead of the table.
    #[arg(long)]
    json: bool,
}

pub async fn run(roots: &Roots, args: ToolsArgs) -> Result<(), Failure> {
    let server = agtrace_tools::server::build(open_store(roots.config())?)?;
    let tools: Vec<&Tool> = server.tools().collect();
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({"tools": tools}))?
        );
        return Ok(());
    }
    let bpe = tiktoken_rs::o200k_base().map_err(|e| format!("tokenizer: {e}"))?;
    println!(
        "{:<24} {:>8} {:>8} {:>10}  annotations",
        "tool", "bytes", "tokens", "budget"
    );
    let (mut total_bytes, mut total_tokens) = (0, 0);
    for (tool, def) in tools.iter().zip(server.definitions()) {
        let json = serde_json::to_string(tool)?;
        let tokens = bpe.encode_with_special_tokens(&json).len();
        total_bytes += json.len();
        total_tokens += tokens;
        let budget = format!(
            "{}{}",
            mcp_tool_core::format_size(def.size_hint),
            if def.paginated { "/page" } else { "" }
        );
        let hints = [
            (def.read_only, "read_only"),
            (def.destructive, "destructive"),
            (def.idempotent, "idempotent"),
            (def.open_world, "open_world"),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, n)| *n)
        .collect::<Vec<_>>()
        .join(", ");
        println!(
            "{:<24} {:>8} {:>8} {:>10}  {}",
            tool.name,
            json.len(),
            tokens,
            budget,
            hints
        );
    }
    println!(
        "{:<24} {:>8} {:>8}",
        format!("{} tools", tools.len()),
        total_bytes,
        total_tokens
    );
    println!("(tokens counted with the o200k_base tokenizer on each tool's JSON as listed)");
    for (tool, e) in server.exceptions() {
        println!(
            "silenced: {tool}: [{}] on {}: {}",
            e.lint, e.target, e.reason
        );
    }
    for w in server.lint_warnings() {
        println!("design warning: {}: {}", w.tool, w.message);
    }
    Ok(())
}
