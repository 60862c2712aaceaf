//! Prints the precision and recall of the rules on the corpus in `tests/corpus/` as the
//! markdown that `docs/lints.md` shows, so that the docs are regenerated, not hand-copied:
//!
//! ```text
//! cargo run -p mcp-tool-lint --example corpus_report                 # the table
//! cargo run -p mcp-tool-lint --example corpus_report -- --cases      # and every mismatch
//! cargo run -p mcp-tool-lint --example corpus_report -- --floors     # the floors, as Rust
//! cargo run -p mcp-tool-lint --example corpus_report -- --update-docs
//! ```
//!
//! `--floors` prints today's values, rounded down, in the form of the constants at the top of
//! `tests/corpus.rs`, to paste there when the rules improve. `--update-docs` replaces the
//! table between the `corpus-table` markers of `docs/lints.md`.

use std::path::Path;
use std::process::ExitCode;

#[path = "../tests/corpus/score.rs"]
mod score;

const START: &str = "<!-- corpus-table:start";
const END: &str = "<!-- corpus-table:end -->";

fn main() -> ExitCode {
    let s = score::score(&score::load());
    let flag = |name: &str| std::env::args().any(|a| a == name);
    if flag("--floors") {
        print!("{}", score::floors(&s));
    } else if flag("--update-docs") {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/lints.md");
        match update_docs(&path, &score::markdown(&s)) {
            Ok(()) => println!("updated {}", path.display()),
            Err(e) => {
                eprintln!("{}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        }
    } else {
        print!("{}", score::markdown(&s));
        if flag("--cases") {
            println!(
                "\nMismatches (false alarm = found, not expected; missed = expected, not found):\n"
            );
            print!("{}", score::mismatches(&s));
        }
    }
    ExitCode::SUCCESS
}

/// Replaces what lies between the line that starts with `START` and the `END` line.
fn update_docs(path: &Path, table: &str) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let start = text.find(START).ok_or("no `corpus-table:start` marker")?;
    let body = start
        + text[start..]
            .find('\n')
            .ok_or("the start marker ends the file")?
        + 1;
    let end = body
        + text[body..]
            .find(END)
            .ok_or("no `corpus-table:end` marker")?;
    let updated = format!("{}{table}{}", &text[..body], &text[end..]);
    std::fs::write(path, updated).map_err(|e| e.to_string())
}
