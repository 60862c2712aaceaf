//! The design lints against the judged development set in `eval/`: per lint, its level and
//! its precision and recall on each half of the servers. The rules were tuned on half A, so
//! half B is the held-out figure that `docs/lints.md` publishes.
//!
//! ```text
//! cargo run -p mcp-tool-lint-cli --example lint_eval                  # the table
//! cargo run -p mcp-tool-lint-cli --example lint_eval -- --cases A     # false alarms and misses of half A
//! cargo run -p mcp-tool-lint-cli --example lint_eval -- --unjudged    # findings to judge, as findings.tsv rows
//! ```

use std::process::ExitCode;

#[path = "../eval/score.rs"]
mod score;

fn main() -> ExitCode {
    let scores = match score::score() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("lint_eval: {e}");
            return ExitCode::FAILURE;
        }
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--unjudged") {
        print!("{}", score::unjudged_rows(&scores));
        return ExitCode::SUCCESS;
    }
    if let Some(i) = args.iter().position(|a| a == "--cases") {
        let half = args.get(i + 1).map_or("A", String::as_str);
        let halves = score::halves().unwrap_or_default();
        print!("{}", score::mismatches(&scores, half, &halves));
        return ExitCode::SUCCESS;
    }
    print!("{}", score::markdown(&scores));
    ExitCode::SUCCESS
}
