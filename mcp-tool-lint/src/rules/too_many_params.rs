//! `too_many_params`: more than [`MAX_PARAMS`] parameters.

use super::Rule;
use crate::{Args, Finding, Lint, Target};

pub(crate) const RULE: Rule = Rule {
    args: Some(check),
    ..Rule::NONE
};

/// `too_many_params` fires above this many parameters.
pub const MAX_PARAMS: usize = 8;

fn check(args: &Args, out: &mut Vec<Finding>) {
    if args.params.len() > MAX_PARAMS {
        out.push(Finding::new(
            Lint::TooManyParams,
            Target::Args,
            format!(
                "the arguments have {} parameters, more than {MAX_PARAMS}: every call makes the model fill a long form",
                args.params.len()
            ),
            "split the tool by task, so that each tool takes only the parameters its task needs",
        ));
    }
}
