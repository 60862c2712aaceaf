//! `agtrace call TOOL 'JSON'`: one tool, no MCP, the envelope on stdout.

use super::output::outln;
use super::{Failure, Roots, open_store, refresh};

#[derive(clap::Args)]
pub struct CallArgs {
    #[command(flatten)]
    pub roots: super::Roots,
    /// The tool's name, e.g. list_sessions (see `agtrace tools`).
    tool: String,
    /// The arguments as a JSON object, e.g. '{"limit": 5}'.
    #[arg(default_value = "{}")]
    arguments: String,
}

pub async fn run(roots: &Roots, args: CallArgs) -> Result<(), Failure> {
    let arguments: serde_json::Value = serde_json::from_str(&args.arguments).map_err(|e| {
        Failure::usage(format!(
            "the arguments are not JSON ({e}): {}",
            args.arguments
        ))
    })?;
    let store = open_store(roots.config())?;
    refresh(&store).await?;
    let server = agtrace_tools::server::build(store)?;
    let envelope = server
        .call(&args.tool, arguments)
        .await
        .map_err(|e| Failure::usage(e.to_string()))?;
    outln!("{}", envelope.text)?;
    Ok(())
}
