//! JSON: one document with the server, the counts, the findings and the allows.

use serde_json::{Value, json};

use crate::allow::Origin;
use crate::catalog::Catalog;
use crate::check::Outcome;

pub fn render(catalog: &Catalog, outcome: &Outcome) -> Value {
    json!({
        "server": catalog.server,
        "tools": catalog.tools.len(),
        "tokens": outcome.tokens,
        "token_budget": outcome.token_budget,
        "findings": outcome.findings.iter().map(|f| json!({
            "lint": f.lint,
            "level": f.level.name(),
            "tools": f.tools,
            "param": f.param,
            "locations": f.locations(),
            "message": f.message,
            "help": f.help,
        })).collect::<Vec<_>>(),
        "allows": outcome.allows.iter().map(|u| json!({
            "lint": u.allow.lint,
            "tool": u.allow.tool,
            "reason": u.allow.reason,
            "origin": match u.allow.origin { Origin::Flag => "flag", Origin::Config => "config" },
            "suppressed": u.suppressed,
        })).collect::<Vec<_>>(),
    })
}
