//! `mcp-tool-lint`: the design lints of [`mcp_tool_lint`] on any MCP server's `tools/list`.
//!
//! Each tool goes through the JSON Schema front-end ([`mcp_tool_lint::schema`]), so findings
//! carry the same lint names and help as the compile errors of `#[tool_args]`/`#[mcp_tool]`.
//! The catalog as a whole gets three more lints ([`rules::CATALOG_LINTS`]): its token cost,
//! tools a model cannot tell apart, and names that break the server's own convention.
//! `docs/lints.md` documents every lint; the crate's README documents the command line.

#![warn(missing_docs)]

pub mod allow;
pub mod catalog;
pub mod check;
pub mod cli;
pub mod config;
pub mod output;
pub mod probe;
pub mod rules;
pub mod source;

pub use check::{Finding, Outcome};
pub use cli::Cli;

use std::time::Duration;

/// Reads the catalog the command line names, lints it and prints the findings.
pub async fn run(cli: Cli) -> Result<Outcome, String> {
    let config = config::load(cli.config.as_deref())?;
    let mut allows = config.allows.clone();
    for name in &cli.allow {
        allows.push(allow::Allow::from_flag(name)?);
    }
    let timeout = Duration::from_secs(cli.timeout);
    let catalog = match (&cli.file, &cli.url, cli.command.is_empty()) {
        (Some(path), None, true) => source::from_file(path)?,
        (None, Some(url), true) => source::from_url(url, timeout, cli.probe).await?,
        (None, None, false) => source::from_command(&cli.command, timeout, cli.probe).await?,
        (None, None, true) => {
            return Err(
                "say which server to lint: `--file tools.json`, `--url URL` or `-- CMD ARGS...`"
                    .into(),
            );
        }
        _ => return Err("give only one of `--file`, `--url` and `-- CMD ARGS...`".into()),
    };
    if let Some(path) = &cli.dump {
        let text = serde_json::to_string_pretty(&catalog.to_json()).map_err(|e| e.to_string())?;
        std::fs::write(path, text + "\n")
            .map_err(|e| format!("cannot write `{}`: {e}", path.display()))?;
    }
    for warning in allow::unknown_tools(&allows, &catalog) {
        eprintln!("mcp-tool-lint: warning: {warning}");
    }
    let budget = cli
        .token_budget
        .or(config.token_budget)
        .unwrap_or_else(|| rules::catalog_tokens::default_budget(catalog.tools.len()));
    let outcome = check::check(&catalog, &allows, budget);
    print!("{}", output::render(cli.format, &catalog, &outcome));
    Ok(outcome)
}
