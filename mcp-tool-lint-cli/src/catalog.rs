//! A server's tool catalog, as `tools/list` sends it.

use std::collections::BTreeMap;

use serde_json::{Value, json};

/// The tools of one server, kept as JSON: the lints read them through the JSON Schema
/// front-end, and `--dump` writes them back unchanged.
#[derive(Debug, Clone)]
pub struct Catalog {
    /// `serverInfo` (`name`, `version`) when the source knows it.
    pub server: Option<Value>,
    /// The tools, in the order the server listed them.
    pub tools: Vec<Value>,
    /// What `--probe` learned, by tool name: `true` when the tool refused a call for an
    /// argument its schema does not list (see [`crate::probe`]). Kept in a dump under
    /// [`PROBES_KEY`], so a saved catalog carries the evidence.
    pub probes: BTreeMap<String, bool>,
}

/// Where a dump keeps the probes' answers, beside `tools`.
pub const PROBES_KEY: &str = "x-mcp-tool-lint-probes";

impl Catalog {
    /// A `tools/list` result (`{"tools": [..]}`, optionally with `serverInfo`), a JSON-RPC
    /// response holding one, or a bare array of tools. Every tool needs a string `name`.
    pub fn from_json(value: Value) -> Result<Catalog, String> {
        let (server, tools, probes) = match value {
            Value::Array(tools) => (None, tools, BTreeMap::new()),
            Value::Object(mut map) => {
                if let Some(Value::Object(result)) = map.remove("result") {
                    return Catalog::from_json(Value::Object(result));
                }
                let server = map.remove("serverInfo");
                let probes = match map.remove(PROBES_KEY) {
                    None => BTreeMap::new(),
                    Some(v) => serde_json::from_value(v).map_err(|e| {
                        format!("`{PROBES_KEY}` is not a map of tool names to booleans: {e}")
                    })?,
                };
                match map.remove("tools") {
                    Some(Value::Array(tools)) => (server, tools, probes),
                    Some(_) => return Err("`tools` is not an array".into()),
                    None => {
                        return Err(
                            "no `tools` array: expected a `tools/list` result (`{\"tools\": [..]}`) or an array of tools"
                                .into(),
                        );
                    }
                }
            }
            _ => return Err("expected a `tools/list` result or an array of tools".into()),
        };
        for (i, tool) in tools.iter().enumerate() {
            if tool.get("name").and_then(Value::as_str).is_none() {
                return Err(format!("tool #{} has no string `name`", i + 1));
            }
        }
        Ok(Catalog {
            server,
            tools,
            probes,
        })
    }

    /// The tool names, in listed order.
    pub fn names(&self) -> Vec<&str> {
        self.tools.iter().map(tool_name).collect()
    }

    /// What `--dump` writes: a `tools/list` result with the server's identity.
    pub fn to_json(&self) -> Value {
        let mut out = json!({ "tools": self.tools });
        if let Some(server) = &self.server {
            out["serverInfo"] = server.clone();
        }
        if !self.probes.is_empty() {
            out[PROBES_KEY] = json!(self.probes);
        }
        out
    }
}

/// A tool's `name` (checked present by [`Catalog::from_json`]).
pub fn tool_name(tool: &Value) -> &str {
    tool.get("name").and_then(Value::as_str).unwrap_or_default()
}

/// A tool's `description`, if it is a string.
pub fn tool_description(tool: &Value) -> Option<&str> {
    tool.get("description").and_then(Value::as_str)
}
