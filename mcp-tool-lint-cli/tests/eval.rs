//! The design lints against the judged development set of `eval/` (`eval/README.md`): every
//! finding is judged, and on the half of the servers the rules were not tuned on (B) the errors
//! are at least 90% precise and the figures hold their floors.
//! `cargo run -p mcp-tool-lint-cli --example lint_eval` prints the table.

#[path = "../eval/score.rs"]
mod score;

use mcp_tool_lint::{Level, Lint};

/// Held-out (half B) floors, as fractions, measured and rounded down. Raise them when the rules
/// improve. Lowered once, and only recall, for precision that a half held out at the time
/// showed: `vague_name` skips another server's parameters that describe themselves (half E,
/// first linted with the rules of `b96bb02`, had 26 such findings and no real one; half B
/// loses everything's `data`, recall 90% to 89%, and gains 82% to 84% precision).
const ALL_PRECISION_FLOOR: f64 = 0.84;
const ALL_RECALL_FLOOR: f64 = 0.88;
/// The bar the issue sets for an error, on servers the rule was not tuned on.
const ERROR_PRECISION: f64 = 0.90;

fn scores() -> score::Scores {
    score::score().unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_finding_on_the_development_set_is_judged() {
    let s = scores();
    let rows = score::unjudged_rows(&s);
    assert!(
        rows.is_empty(),
        "judge these findings by the standard of eval/README.md and add them to eval/findings.tsv \
         (`cargo run -p mcp-tool-lint-cli --example lint_eval -- --unjudged`):\n{rows}"
    );
}

#[test]
fn errors_are_precise_on_the_held_out_half() {
    let s = scores();
    let errors = s.errors.get("B").copied().unwrap_or_default();
    let p = errors.precision().unwrap_or(1.0);
    assert!(p >= ERROR_PRECISION, "errors on half B: {errors:?}");
    // Each lint's own errors on half B bear the level out too.
    let halves = score::halves().unwrap_or_else(|e| panic!("{e}"));
    for lint in Lint::ALL {
        let verdicts: Vec<bool> = s
            .found
            .iter()
            .filter(|f| f.key.lint == lint.name() && f.level == Level::Error)
            .filter(|f| halves.get(&f.key.server).is_some_and(|h| h == "B"))
            .filter_map(|f| f.verdict)
            .collect();
        let real = verdicts.iter().filter(|v| **v).count();
        assert!(
            verdicts.is_empty() || real as f64 / verdicts.len() as f64 >= ERROR_PRECISION,
            "`{lint}` errors on half B: {real} real of {}",
            verdicts.len()
        );
    }
}

#[test]
fn the_held_out_figures_hold_their_floors() {
    let s = scores();
    let all = s.all.get("B").copied().unwrap_or_default();
    let (p, r) = (all.precision().unwrap_or(0.0), all.recall().unwrap_or(0.0));
    assert!(
        p >= ALL_PRECISION_FLOOR && r >= ALL_RECALL_FLOOR,
        "half B: precision {p:.2}, recall {r:.2}\n{}",
        score::markdown(&s)
    );
}

#[test]
fn a_finding_is_matched_by_what_it_is_about_not_its_wording() {
    assert_eq!(score::subject("`maxAge` has no description"), "maxAge");
    assert_eq!(
        score::subject("`maxAge` is a span of time with no unit and no description"),
        "maxAge"
    );
    assert_eq!(
        score::subject("the values of `proxy` have no description: `basic`"),
        "values:proxy"
    );
    assert_eq!(
        score::subject("the argument `x` is one of 2 shapes (`anyOf`) with no field"),
        "union:x"
    );
}
