//! `--probe`: asks a live server whether it rejects an argument its schema does not list.
//!
//! A schema's `additionalProperties: false` is most often an artifact of the converter that
//! wrote it (zod-to-JSON-Schema writes it on every object while zod itself drops unknown keys),
//! so the schema alone cannot say whether a model's stray key fails a call. The probe asks:
//! each tool gets one `tools/call` with [`PROBE_KEY`] and arguments that cannot run it (a
//! required parameter left out, or, when nothing is required, one parameter of the wrong
//! type), so a server that validates refuses the call either way, and one that enforces
//! strictness names the unknown key in its refusal. A tool with no parameter to make invalid
//! is not called.

use serde_json::{Map, Value, json};

/// The unknown argument the probe sends; no server has a parameter of this name.
pub const PROBE_KEY: &str = "mcp_tool_lint_probe";

/// The arguments that probe `tool`, or `None` when no call is sure to be refused.
pub fn arguments(tool: &Value) -> Option<Map<String, Value>> {
    let schema = tool.get("inputSchema")?;
    let mut args = Map::new();
    args.insert(PROBE_KEY.into(), json!(true));
    let required = schema
        .get("required")
        .and_then(Value::as_array)
        .is_some_and(|r| !r.is_empty());
    if required {
        return Some(args);
    }
    // Nothing required: one typed parameter given a value of another type.
    let (name, wrong) = schema
        .get("properties")
        .and_then(Value::as_object)?
        .iter()
        .find_map(|(name, prop)| {
            let wrong = match prop.get("type").and_then(Value::as_str)? {
                "object" => json!(0),
                "string" | "number" | "integer" | "boolean" | "array" => {
                    json!({ PROBE_KEY: "a value of the wrong type" })
                }
                _ => return None,
            };
            Some((name.clone(), wrong))
        })?;
    args.insert(name, wrong);
    Some(args)
}

/// Whether a refusal (a tool error's text or a JSON-RPC error's message) names the unknown
/// key as what is wrong, in the words validators use: zod's "Unrecognized key", pydantic's
/// "Extra inputs are not permitted" / "Unexpected keyword argument", JSON Schema validators'
/// "additional properties".
pub fn rejected(refusal: &str) -> bool {
    let lower = refusal.to_ascii_lowercase();
    let names_key = lower.contains(PROBE_KEY)
        && [
            "unrecognized",
            "unknown",
            "unexpected",
            "extra",
            "additional",
            "not allowed",
            "not permitted",
        ]
        .iter()
        .any(|w| lower.contains(w));
    names_key || lower.contains("additional propert")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_that_cannot_run_the_tool() {
        let required = json!({"inputSchema": {"type": "object", "required": ["url"],
            "properties": {"url": {"type": "string"}}}});
        assert_eq!(
            arguments(&required).unwrap(),
            *json!({PROBE_KEY: true}).as_object().unwrap()
        );
        let optional = json!({"inputSchema": {"type": "object",
            "properties": {"query": {"type": "string"}}}});
        let args = arguments(&optional).unwrap();
        assert!(args["query"].is_object());
        let nothing = json!({"inputSchema": {"type": "object", "properties": {}}});
        assert_eq!(arguments(&nothing), None);
    }

    #[test]
    fn refusals_that_name_the_key() {
        assert!(rejected(
            "Input validation error: pageId: Invalid input, Unrecognized key: \"mcp_tool_lint_probe\""
        ));
        assert!(rejected(
            "1 validation error: mcp_tool_lint_probe Extra inputs are not permitted"
        ));
        assert!(rejected("data must NOT have additional properties"));
        assert!(!rejected(
            "parameter validation failed: url: Invalid input: expected string, received undefined"
        ));
        // An echo of the arguments is no refusal of the key.
        assert!(!rejected(
            "missing `url`; got {\"mcp_tool_lint_probe\": true}"
        ));
    }
}
