//! `description_budget`: a tool description over its budget of estimated tokens.

use super::{Rule, ToolCx};
use crate::{Finding, Lint, Origin, Target};

pub(crate) const RULE: Rule = Rule {
    tool: Some(check),
    ..Rule::NONE
};

/// The default `description_budget`, in estimated tokens.
pub const DEFAULT_DESCRIPTION_BUDGET: usize = 250;

/// Estimated tokens of English text: one per four characters, rounded up. An estimate, so the
/// lint's message says "estimated"; the runtime measures real responses separately.
pub fn estimate_tokens(text: &str) -> usize {
    text.chars().count().div_ceil(4)
}

fn check(cx: &ToolCx<'_>, out: &mut Vec<Finding>) {
    let Some(doc) = cx.doc else { return };
    let (name, budget) = (&cx.tool.name, cx.budget);
    let tokens = estimate_tokens(doc);
    // Another server's description is reported only half again over the budget: the count is
    // an estimate (four characters a token), and a modest overrun of notes a call needs wastes
    // nothing a model would miss. The author's own is held to the budget itself (a warning).
    let limit = match cx.tool.origin {
        Origin::Schema => budget + budget / 2,
        Origin::Code => budget,
    };
    if tokens > limit {
        out.push(Finding::new(
            Lint::DescriptionBudget,
            Target::ToolDescription,
            format!(
                "the description of `{name}` is about {tokens} estimated tokens, over its budget of {budget}: it is sent with every request"
            ),
            "keep what a model needs to choose and call the tool; move details into the parameters' docs or the response's `hint`",
        ));
    }
}
