//! Prints the precision and recall of the rules on the corpus in `tests/corpus/` as the
//! markdown that `docs/lints.md` shows, so that the docs are regenerated, not hand-copied:
//!
//! ```text
//! cargo run -p mcp-tool-lint --example corpus_report            # the table
//! cargo run -p mcp-tool-lint --example corpus_report -- --cases # and every mismatch
//! ```

#[path = "../tests/corpus/score.rs"]
mod score;

fn main() {
    let s = score::score(&score::load());
    print!("{}", score::markdown(&s));
    if std::env::args().any(|a| a == "--cases") {
        println!(
            "\nMismatches (false alarm = found, not expected; missed = expected, not found):\n"
        );
        print!("{}", score::mismatches(&s));
    }
}
