//! Every lint of [`mcp_tool_lint`] on one listed tool, through its JSON Schema front-end: the
//! same names, messages and help as the compile errors.

use mcp_tool_lint::schema::{args_from_schema, check_schema_tool};
use mcp_tool_lint::{Annotations, Target};
use serde_json::{Value, json};

use crate::catalog::{tool_description, tool_name};
use crate::check::Finding;

/// The tool's annotations as declared: an absent hint is `false` here, not the protocol's
/// default, so that only what the server says can contradict itself.
fn annotations(tool: &Value) -> Annotations {
    let hint = |key: &str| {
        tool.get("annotations")
            .and_then(|a| a.get(key))
            .and_then(Value::as_bool)
            .unwrap_or(false)
    };
    Annotations {
        read_only: hint("readOnlyHint"),
        destructive: hint("destructiveHint"),
        idempotent: hint("idempotentHint"),
        open_world: hint("openWorldHint"),
    }
}

/// The findings of the design lints on `tool`, located at the tool or its parameter.
pub fn check(tool: &Value) -> Vec<Finding> {
    let name = tool_name(tool);
    let empty = json!({"type": "object"});
    let input = tool.get("inputSchema").unwrap_or(&empty);
    let output = tool.get("outputSchema").filter(|o| !o.is_null());
    let report = check_schema_tool(
        name,
        tool_description(tool),
        annotations(tool),
        input,
        output,
    );
    let params = args_from_schema(input).params;
    report
        .findings
        .into_iter()
        .filter_map(|f| {
            let lint = f.lint?.name();
            let param = match f.target {
                Target::Param(i) => params.get(i).map(|p| p.name.clone()),
                _ => None,
            };
            // The fix in schema terms, and this tool's way to silence it instead of the
            // macros' `#[arg(allow(..))]`: the server may not be written in Rust.
            let help = format!(
                "{}; or, if the design is right here, allow it with a reason: `[tools.{name}.allow] {lint} = \"why\"` in mcp-tool-lint.toml (`--allow {lint}` for every tool)",
                f.fix_for_schema()
            );
            Some(Finding {
                level: f.level,
                lint,
                tools: vec![name.to_string()],
                param,
                message: f.message,
                help,
            })
        })
        .collect()
}
