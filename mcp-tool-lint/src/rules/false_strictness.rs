//! `false_strictness`: `#[serde(deny_unknown_fields)]` (or `additionalProperties: false`),
//! which fails a whole call over a harmless extra key.

use super::Rule;
use crate::{Args, Finding, Lint, Target};

pub(crate) const RULE: Rule = Rule {
    args: Some(check),
    ..Rule::NONE
};

fn check(args: &Args, out: &mut Vec<Finding>) {
    if args.deny_unknown_fields {
        out.push(Finding::new(
            Lint::FalseStrictness,
            Target::Args,
            "the arguments reject unknown fields (`#[serde(deny_unknown_fields)]`): a harmless extra key from a model fails the whole call",
            "remove `#[serde(deny_unknown_fields)]`; the declared fields are still validated",
        ));
    }
}
