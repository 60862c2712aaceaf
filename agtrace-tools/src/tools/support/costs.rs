//! Cost estimates on the wire: tokens in the providers' terms with an estimated USD amount.

use mcp_tool::prelude::*;

use super::TokenTotals;
use crate::pricing::attribution::Tally;
use crate::pricing::prices;

/// Tokens of a group of model requests and what they would cost at API list prices.
#[tool_output]
#[derive(Debug, Clone, PartialEq)]
pub struct CostTotals {
    /// The tokens.
    pub tokens: TokenTotals,
    /// Model requests (generations).
    pub requests: u32,
    /// Estimated USD at the price table's list prices; null when no token of the group has a
    /// price (its model is not in the table).
    pub estimated_cost_usd: Option<f64>,
    /// Tokens of models without a price, left out of `estimated_cost_usd`.
    pub unpriced_tokens: u64,
}

impl From<&Tally> for CostTotals {
    fn from(t: &Tally) -> Self {
        CostTotals {
            tokens: t.tokens.usage().into(),
            requests: t.requests,
            estimated_cost_usd: t.cost().map(round_usd),
            unpriced_tokens: t.unpriced_tokens.max(0) as u64,
        }
    }
}

/// To a millionth of a dollar: more digits would only show float noise.
pub(crate) fn round_usd(v: f64) -> f64 {
    (v * 1e6).round() / 1e6
}

/// The sentence every cost answer carries.
pub(crate) fn estimate_note() -> String {
    format!(
        "Costs are estimates at API list prices of {} (agtrace's price table), not a bill: subscriptions, batch and priority tiers, and regional rates differ.",
        prices().date
    )
}

/// A warning naming the models without a price that have tokens, if any; takes each model
/// with a token count.
pub(crate) fn unpriced_warning<'a>(
    models: impl IntoIterator<Item = (Option<&'a str>, i64)>,
) -> Option<String> {
    let mut names: Vec<String> = models
        .into_iter()
        .filter(|(m, tokens)| *tokens > 0 && m.is_none_or(|m| prices().find(m).is_none()))
        .map(|(m, _)| m)
        .map(|m| {
            m.map_or_else(
                || "(model not named in the log)".to_owned(),
                |m| format!("'{}'", m.chars().take(80).collect::<String>()),
            )
        })
        .collect();
    names.sort();
    names.dedup();
    (!names.is_empty()).then(|| {
        format!("No price for {}: their tokens are counted but their cost is unknown (null), not included in the estimates.", names.join(", "))
    })
}
