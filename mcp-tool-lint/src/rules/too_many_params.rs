//! `too_many_params`: more than [`MAX_PARAMS`] parameters.

use super::Rule;
use crate::{Args, Finding, Level, Lint, Origin, Target};

pub(crate) const RULE: Rule = Rule {
    args: Some(check),
    ..Rule::NONE
};

/// `too_many_params` fires above this many parameters.
pub const MAX_PARAMS: usize = 8;

/// Above this many, another server's arguments are an error too: a few over
/// [`MAX_PARAMS`] often mirror one cohesive API call; this many are several tasks in one form.
pub const MAX_SCHEMA_PARAMS: usize = 12;

fn check(args: &Args, out: &mut Vec<Finding>) {
    let n = args.params.len();
    if n > MAX_PARAMS {
        let level = if args.origin == Origin::Schema && n <= MAX_SCHEMA_PARAMS {
            Level::Advice
        } else {
            Level::Error
        };
        out.push(Finding::new(
            Lint::TooManyParams,
            Target::Args,
            format!(
                "the arguments have {} parameters, more than {MAX_PARAMS}: every call makes the model fill a long form",
                args.params.len()
            ),
            "split the tool by task, so that each tool takes only the parameters its task needs",
        ).at(level));
    }
}
