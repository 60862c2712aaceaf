//! Design rules for MCP tools.
//!
//! The rules run over a neutral model of a tool ([`Tool`], [`Args`], [`Param`]) so that two
//! front-ends share them: the `#[tool_args]`/`#[mcp_tool]` macros build the model from syntax
//! and turn findings into compile errors, and the runtime builds it from JSON Schema
//! ([`schema`]) and logs findings as warnings. The lints and their rationale are documented in
//! `docs/lints.md`.
//!
//! This crate is linked into the proc macro, so it depends on nothing but `serde_json` and
//! keeps its text heuristics hand-written (no regex engine to compile in every user build).
//!
//! ```
//! use mcp_tool_lint::{Args, Lint, Param, TypeClass, check_args};
//!
//! let args = Args {
//!     params: vec![Param::new("data", TypeClass::String)],
//!     ..Args::default()
//! };
//! let report = check_args(&args);
//! assert!(report.lints().contains(&Lint::VagueName));
//! println!("{}", report.findings[0]); // `[lint_name] message`, a blank line, `help: ...`
//! ```

#![warn(missing_docs)]

mod allow;
mod model;
mod report;
mod rules;
pub mod schema;
mod text;

use std::fmt;

pub use allow::find_allow;
pub use model::{Allow, Annotations, Args, Origin, OutputShape, Param, Tool, TypeClass, Variant};
pub use report::{AcceptedAllow, Finding, Level, Report, Target};
pub use rules::Lint;
pub use rules::description_budget::{DEFAULT_DESCRIPTION_BUDGET, estimate_tokens};
pub use rules::too_many_params::MAX_PARAMS;

impl Lint {
    /// The lint with exactly this [`name`](Lint::name), if any.
    pub fn from_name(name: &str) -> Option<Lint> {
        Lint::ALL.into_iter().find(|l| l.name() == name)
    }

    /// The closest lint name to a misspelt one, for "did you mean" help.
    pub fn suggest(name: &str) -> Option<Lint> {
        let normalized = name.trim().to_ascii_lowercase().replace(['-', ' '], "_");
        if let Some(l) = Lint::from_name(&normalized) {
            return Some(l);
        }
        Lint::ALL
            .into_iter()
            .map(|l| (text::identifiers::edit_distance(&normalized, l.name()), l))
            .filter(|(d, l)| *d <= 3.max(l.name().len() / 4))
            .min_by_key(|(d, _)| *d)
            .map(|(_, l)| l)
    }
}

impl fmt::Display for Lint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether a lowercase word is a verb a tool name may start with (`get`, `reindex`,
/// `vectorize`): the rules' own test, for front-ends that judge names across a catalog.
pub fn is_verb(word: &str) -> bool {
    text::verbs::is_verb(word)
}

/// Parameter-level lints plus `too_many_params` and `false_strictness`, after applying the
/// allows of the fields (for their field) and of the struct (for the whole struct).
pub fn check_args(args: &Args) -> Report {
    rules::check_args(args)
}

/// Tool-level lints (name, description, annotations, description budget) with the default
/// budget, after applying the tool's allows.
pub fn check_tool(tool: &Tool) -> Report {
    rules::check_tool(tool, DEFAULT_DESCRIPTION_BUDGET)
}

/// [`check_tool`] with a description budget in estimated tokens (see [`estimate_tokens`]).
pub fn check_tool_with_budget(tool: &Tool, description_budget: usize) -> Report {
    rules::check_tool(tool, description_budget)
}

/// The cross-item rule: a `cursor` parameter needs a `Page` output and a `Page` output needs a
/// `cursor` parameter. `OutputShape::Unknown` is never a mismatch. The macros reuse
/// `render()` as the message of their const-evaluated check.
pub fn check_pagination(has_cursor: bool, output: OutputShape) -> Option<Finding> {
    rules::pagination_mismatch::check(has_cursor, output)
}
