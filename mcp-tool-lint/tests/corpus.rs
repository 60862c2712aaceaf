//! The rules on a real-world corpus: tool designs transcribed from public MCP servers and bad
//! designs phrased unlike the seeds, each with the lints a reviewer expects
//! (`tests/corpus/README.md`). Run with `--nocapture` to see the table and every mismatch.

#[path = "corpus/score.rs"]
mod score;

use std::collections::BTreeSet;

use mcp_tool_lint::Lint;
use score::{Score, load, markdown, mismatches, percent_floor as percent, score};

/// The measured share of findings that name an expected lint, rounded down (percent).
/// Raise it when the rules improve; never lower it to make a change pass.
const FINDING_PRECISION_FLOOR: u32 = 97;
/// The measured share of expected (case, lint) pairs that were found, rounded down (percent).
const RECALL_FLOOR: u32 = 96;
/// Per lint: precision and recall floors in percent, measured and rounded down. A lint that
/// never fires has no precision to hold, one never expected has no recall to hold.
const LINT_FLOORS: &[(&str, u32, u32)] = &[
    ("too_many_params", 100, 100),
    ("closed_domain_string", 88, 93),
    ("hidden_coupling", 100, 94),
    ("mode_toggle", 88, 100),
    ("missing_description", 100, 86),
    ("implicit_default", 94, 100),
    ("unbounded_limit", 100, 100),
    ("pagination_mismatch", 100, 100),
    ("vague_name", 100, 100),
    ("tool_name", 100, 100),
    ("annotation_conflict", 100, 90),
    ("false_strictness", 0, 0),
    ("description_budget", 100, 100),
];

fn scored() -> Score {
    score(&load())
}

#[test]
fn every_case_is_well_formed() {
    let cases = load();
    let mut problems = Vec::new();
    let mut seen = BTreeSet::new();
    for c in &cases {
        let id = format!("{}/{}", c.file, c.name);
        if !seen.insert(id.clone()) {
            problems.push(format!("{id}: the same tool twice in one file"));
        }
        if c.source.trim().is_empty() {
            problems.push(format!("{id}: no source"));
        }
        for lint in &c.expect {
            if Lint::from_name(lint).is_none() {
                problems.push(format!("{id}: `{lint}` is not a lint"));
            }
        }
        if c.expect.iter().collect::<BTreeSet<_>>().len() != c.expect.len() {
            problems.push(format!("{id}: a lint expected twice"));
        }
        if !c.expect.is_empty() && c.why.as_deref().is_none_or(|w| w.trim().is_empty()) {
            problems.push(format!("{id}: a fail case needs a `why`"));
        }
        if !c.real && c.why.as_deref().is_none_or(|w| w.trim().is_empty()) {
            problems.push(format!(
                "{id}: a written case needs a `why` (what it breaks or tempts)"
            ));
        }
        if !c.input_schema.is_object() {
            problems.push(format!("{id}: `inputSchema` is not an object"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));

    let real = cases.iter().filter(|c| c.real).count();
    let bad = cases
        .iter()
        .filter(|c| !c.real && !c.expect.is_empty())
        .count();
    assert!(real >= 60, "{real} real designs, the corpus promises 60");
    assert!(bad >= 60, "{bad} bad designs, the corpus promises 60");
}

#[test]
fn the_rules_hold_their_floors_on_the_corpus() {
    let s = scored();
    println!("{}", markdown(&s));
    println!("Mismatches (false alarm = found, not expected; missed = expected, not found):");
    println!("{}", mismatches(&s));

    let mut below = Vec::new();
    let precision = percent(s.finding_precision()).unwrap_or(100);
    if precision < FINDING_PRECISION_FLOOR {
        below.push(format!(
            "finding precision {precision}% < {FINDING_PRECISION_FLOOR}%"
        ));
    }
    let recall = percent(s.total().recall()).unwrap_or(100);
    if recall < RECALL_FLOOR {
        below.push(format!("recall {recall}% < {RECALL_FLOOR}%"));
    }
    for (lint, p_floor, r_floor) in LINT_FLOORS {
        if Lint::from_name(lint).is_none() {
            below.push(format!("`{lint}` has a floor but is not a lint"));
        }
        let c = s.per_lint.get(*lint).copied().unwrap_or_default();
        if let Some(p) = percent(c.precision())
            && p < *p_floor
        {
            below.push(format!("`{lint}` precision {p}% < {p_floor}%"));
        }
        if let Some(r) = percent(c.recall())
            && r < *r_floor
        {
            below.push(format!("`{lint}` recall {r}% < {r_floor}%"));
        }
    }
    assert!(below.is_empty(), "below the floors:\n{}", below.join("\n"));
}
