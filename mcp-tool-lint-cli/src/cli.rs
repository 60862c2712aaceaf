//! The command line.

use std::path::PathBuf;

use clap::Parser;

/// Lints the tools of an MCP server with mcp-tool's design rules.
///
/// Each finding is an error or advice (a `note`): a lint is an error only where its precision
/// on servers it was not tuned on is at least 90% (docs/lints.md).
///
/// Exit status: 0 when nothing but advice is found, 1 on an error (or on any finding with
/// `--deny-advice`), 2 on a usage, configuration or connection error.
#[derive(Debug, Parser)]
#[command(name = "mcp-tool-lint", version)]
pub struct Cli {
    /// A saved `tools/list` result (`{"tools": [..]}`) or a JSON array of tools; `-` reads stdin.
    #[arg(long, value_name = "PATH")]
    pub file: Option<PathBuf>,
    /// A streamable HTTP server's endpoint, e.g. `http://127.0.0.1:8080/mcp`.
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// Fails the run (exit 1) on advice too, not only on errors.
    #[arg(long)]
    pub deny_advice: bool,
    /// Calls each tool of a live server once to learn whether it rejects an argument its
    /// schema does not list (`false_strictness`): with the probe key and arguments that cannot
    /// run the tool (a required parameter left out, or one of the wrong type); a tool with no
    /// parameter to make invalid is not called. Only for servers you may call.
    #[arg(long)]
    pub probe: bool,
    /// How the findings are printed.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Silences a lint on every tool (repeatable). A config file can give a reason and a tool.
    #[arg(long, value_name = "LINT")]
    pub allow: Vec<String>,
    /// The config file; by default `mcp-tool-lint.toml` in the current directory, if any.
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// The most o200k tokens the input side of the catalog (every tool's name, description and
    /// input schema) may cost before `catalog_tokens` fires.
    #[arg(long, value_name = "TOKENS")]
    pub token_budget: Option<usize>,
    /// Seconds a server gets to answer `initialize` and every page of `tools/list`, in all.
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    pub timeout: u64,
    /// Also writes the catalog read (a `tools/list` result with `serverInfo`) to this file.
    #[arg(long, value_name = "PATH")]
    pub dump: Option<PathBuf>,
    /// The command that starts a stdio server, after `--`.
    #[arg(last = true, value_name = "CMD ARGS")]
    pub command: Vec<String>,
}

/// The output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One block per finding, as the compile errors read, and a summary line.
    Text,
    /// One JSON document: the server, the tool count, the token count and the findings.
    Json,
    /// SARIF 2.1.0, for code-scanning dashboards.
    Sarif,
}
