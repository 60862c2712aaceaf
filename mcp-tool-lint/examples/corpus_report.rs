//! Prints the precision and recall of the rules on the corpus in `tests/corpus/` as the
//! markdown that `docs/lints.md` shows, so that the docs are regenerated, not hand-copied:
//!
//! ```text
//! cargo run -p mcp-tool-lint --example corpus_report            # the table
//! cargo run -p mcp-tool-lint --example corpus_report -- --cases # and every mismatch
//! cargo run -p mcp-tool-lint --example corpus_report -- --floors # the floors, as Rust
//! ```
//!
//! `--floors` prints today's values, rounded down, in the form of the constants at the top of
//! `tests/corpus.rs`, to paste there when the rules improve.

#[path = "../tests/corpus/score.rs"]
mod score;

fn main() {
    let s = score::score(&score::load());
    if std::env::args().any(|a| a == "--floors") {
        print!("{}", score::floors(&s));
        return;
    }
    print!("{}", score::markdown(&s));
    if std::env::args().any(|a| a == "--cases") {
        println!(
            "\nMismatches (false alarm = found, not expected; missed = expected, not found):\n"
        );
        print!("{}", score::mismatches(&s));
    }
}
