//! SARIF 2.1.0: one run whose driver declares every lint as a rule (id = the lint's name),
//! and one result per finding, located by logical locations `tool` or `tool/param` (a tool
//! list has no files or lines).

use serde_json::{Value, json};

use crate::check::Outcome;
use crate::rules;

pub fn render(outcome: &Outcome) -> Value {
    let all = rules::all();
    let rules_json: Vec<Value> = all
        .iter()
        .map(|d| {
            json!({
                "id": d.name,
                "name": d.name,
                "shortDescription": {"text": format!("rejects {}", d.summary)},
                "help": {"text": format!("See docs/lints.md#{} for why and how to fix it.", d.name)},
                "defaultConfiguration": {"level": "warning"},
            })
        })
        .collect();
    let results: Vec<Value> = outcome
        .findings
        .iter()
        .map(|f| {
            let index = all.iter().position(|d| d.name == f.lint);
            json!({
                "ruleId": f.lint,
                "ruleIndex": index,
                "level": match f.level { mcp_tool_lint::Level::Error => "error", mcp_tool_lint::Level::Advice => "note" },
                "message": {"text": format!("{}\nhelp: {}", f.message, f.help)},
                "locations": [{
                    "logicalLocations": f.locations().into_iter().map(|l| json!({
                        "fullyQualifiedName": l,
                        "kind": if f.param.is_some() { "parameter" } else if f.tools.is_empty() { "module" } else { "function" },
                    })).collect::<Vec<_>>(),
                }],
            })
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "mcp-tool-lint",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules_json,
            }},
            "results": results,
        }],
    })
}
