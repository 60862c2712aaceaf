//! Text: one block per finding, as the compile errors read (`[lint] message`, then `help:`),
//! located at `tool/param`, then the allows that silenced nothing and a summary line.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::catalog::Catalog;
use crate::check::Outcome;

pub fn render(catalog: &Catalog, outcome: &Outcome) -> String {
    let mut out = String::new();
    for f in &outcome.findings {
        let _ = writeln!(
            out,
            "{}: {}[{}] {}\n  help: {}\n",
            f.locations().join(", "),
            match f.level {
                mcp_tool_lint::Level::Error => "error",
                mcp_tool_lint::Level::Advice => "note",
            },
            f.lint,
            f.message,
            f.help
        );
    }
    for u in outcome.allows.iter().filter(|u| u.suppressed == 0) {
        let scope = u
            .allow
            .tool
            .as_deref()
            .map_or(String::new(), |t| format!(" on `{t}`"));
        let _ = writeln!(
            out,
            "note: the allow of `{}`{scope} silenced nothing",
            u.allow.lint
        );
    }
    let mut per_lint: BTreeMap<&str, usize> = BTreeMap::new();
    for f in &outcome.findings {
        *per_lint.entry(f.lint).or_default() += 1;
    }
    let silenced: usize = outcome.allows.iter().map(|u| u.suppressed).sum();
    let errors = outcome
        .findings
        .iter()
        .filter(|f| f.level == mcp_tool_lint::Level::Error)
        .count();
    let _ = writeln!(
        out,
        "{} finding(s) ({errors} error(s), {} note(s)) on {} tool(s){}; {} of {} catalog tokens{}",
        outcome.findings.len(),
        outcome.findings.len() - errors,
        catalog.tools.len(),
        if per_lint.is_empty() {
            String::new()
        } else {
            format!(
                " ({})",
                per_lint
                    .iter()
                    .map(|(l, n)| format!("{l}: {n}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        },
        outcome.tokens,
        outcome.token_budget,
        if silenced > 0 {
            format!("; {silenced} silenced by allows")
        } else {
            String::new()
        }
    );
    out
}
