//! `catalog_tokens`: the input side of `tools/list` (every tool's name, description and input
//! schema, what a model reads on every request to choose a tool and write its arguments)
//! costs more o200k tokens than its budget. Counted as `agtrace tools` counts it: the compact
//! JSON of `{name, description, inputSchema}` per tool, summed.

use std::sync::OnceLock;

use serde_json::{Value, json};
use tiktoken_rs::CoreBPE;

use crate::catalog::tool_name;
use crate::check::Finding;

/// The lint's name.
pub const NAME: &str = "catalog_tokens";

/// The least default budget: the 2,000 tokens agtrace held its own 9-tool catalog to (issue
/// 11, `agtrace-tools/tests/catalog_tokens.rs`).
pub const MIN_TOKEN_BUDGET: usize = 2_000;

/// What the default budget allows each tool of a larger catalog: a short description and a
/// small schema. A catalog's cost grows with what it offers; the waste is a tool that costs
/// more than this (inlined API objects, worked examples, adverts).
pub const TOKENS_PER_TOOL: usize = 300;

/// The most default budget: past it, any catalog is a real cost on every request, however
/// lean each tool is.
pub const MAX_TOKEN_BUDGET: usize = 10_000;

/// The budget of a catalog of `tools` tools when none is given: 300 tokens a tool, at least
/// 2,000 and at most 10,000.
pub fn default_budget(tools: usize) -> usize {
    (tools * TOKENS_PER_TOOL).clamp(MIN_TOKEN_BUDGET, MAX_TOKEN_BUDGET)
}

/// How many of the costliest tools the message names.
const NAMED_TOOLS: usize = 3;

fn bpe() -> &'static CoreBPE {
    static BPE: OnceLock<CoreBPE> = OnceLock::new();
    BPE.get_or_init(|| tiktoken_rs::o200k_base().expect("o200k_base is built into tiktoken-rs"))
}

/// The o200k tokens of one tool's input side.
pub fn tool_tokens(tool: &Value) -> usize {
    let side = json!({
        "name": tool.get("name"),
        "description": tool.get("description"),
        "inputSchema": tool.get("inputSchema"),
    });
    bpe().encode_with_special_tokens(&side.to_string()).len()
}

/// The o200k tokens of each tool's input side, in catalog order: tokenized once, for the total
/// and for naming the costliest tools.
pub fn costs(tools: &[&Value]) -> Vec<usize> {
    tools.iter().map(|t| tool_tokens(t)).collect()
}

/// A finding when the catalog's tokens (`costs`, one per tool, from [`costs`]) are over
/// `budget`, naming the costliest tools.
pub fn check(tools: &[&Value], costs: &[usize], budget: usize) -> Option<Finding> {
    let tokens: usize = costs.iter().sum();
    if tokens <= budget {
        return None;
    }
    let mut costs: Vec<(usize, &str)> = costs
        .iter()
        .zip(tools)
        .map(|(&n, t)| (n, tool_name(t)))
        .collect();
    costs.sort_by_key(|c| std::cmp::Reverse(c.0));
    let costliest = costs
        .iter()
        .take(NAMED_TOOLS)
        .map(|(n, t)| format!("`{t}` {n}"))
        .collect::<Vec<_>>()
        .join(", ");
    Some(Finding::catalog_advice(
        NAME,
        format!(
            "the input side of `tools/list` ({} tools: names, descriptions, input schemas) costs {tokens} o200k tokens, over the budget of {budget}: a model carries it in its context on every request (costliest: {costliest})",
            tools.len()
        ),
        format!(
            "shorten the descriptions (no worked examples, no text repeated across tools or parameters), drop schema keywords a model does not need (`$schema`, `title`, `format`), or split the server by task; or raise the budget (`--token-budget`, `token_budget` in the config) or allow it with a reason (`[allow] {NAME} = \"...\"`)"
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_the_input_side_only() {
        let small =
            json!({"name": "get_time", "description": "Now.", "inputSchema": {"type": "object"}});
        let with_output = json!({"name": "get_time", "description": "Now.", "inputSchema": {"type": "object"},
            "outputSchema": {"type": "object", "properties": {"now": {"type": "string"}}}});
        assert_eq!(tool_tokens(&small), tool_tokens(&with_output));
        assert!(tool_tokens(&small) > 5);
    }

    #[test]
    fn the_default_budget_grows_with_the_catalog_within_bounds() {
        assert_eq!(default_budget(1), 2_000);
        assert_eq!(default_budget(9), 2_700);
        assert_eq!(default_budget(25), 7_500);
        assert_eq!(default_budget(100), 10_000);
    }

    #[test]
    fn fires_only_over_the_budget() {
        let t =
            json!({"name": "get_time", "description": "Now.", "inputSchema": {"type": "object"}});
        let tools = [&t];
        let costs = costs(&tools);
        let n: usize = costs.iter().sum();
        assert!(check(&tools, &costs, n).is_none());
        let f = check(&tools, &costs, n - 1).unwrap();
        assert!(f.message.contains(&format!(
            "costs {n} o200k tokens, over the budget of {}",
            n - 1
        )));
        assert!(f.message.contains(&format!("`get_time` {n}")));
    }
}
