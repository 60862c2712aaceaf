//! `mcp-tool-lint`: the design lints of mcp-tool on any MCP server's `tools/list`.
//!
//! Exit status: 0 when nothing but advice is found, 1 on an error (or any finding with
//! `--deny-advice`), 2 on a usage, configuration or
//! connection error (explained on stderr).

use std::process::ExitCode;

use clap::Parser;
use mcp_tool_lint_cli::{Cli, run};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("mcp-tool-lint: cannot start the async runtime: {e}");
            return ExitCode::from(2);
        }
    };
    let deny_advice = cli.deny_advice;
    match runtime.block_on(run(cli)) {
        Ok(outcome) => ExitCode::from(outcome.exit_code(deny_advice)),
        Err(e) => {
            eprintln!("mcp-tool-lint: {e}");
            ExitCode::from(2)
        }
    }
}
