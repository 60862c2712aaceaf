//! The published rules of the model APIs and clients that read a tool's JSON Schemas, as
//! checks: each function returns what a schema breaks (a JSON path and the rule), empty when
//! the provider accepts it as it is. A server's tests can hold its whole catalog to them:
//!
//! ```
//! use mcp_tool::provider_rules;
//! use serde_json::json;
//!
//! let schema = json!({"type": "object", "properties": {"q": {"type": ["string", "null"]}}});
//! assert!(provider_rules::anthropic(&schema).is_empty());
//! assert!(!provider_rules::gemini(&schema).is_empty()); // one type name, not an array
//! ```
//!
//! Written from each provider's documentation (linked on each function); what a provider
//! does not document is not checked.

use crate::schema::{CONSTRAINING, Holds, holds};
use serde_json::{Value, json};

/// Every subschema of `schema` with its JSON path (keys of `properties` and the like are
/// names, not schemas).
fn walk<'a>(schema: &'a Value, path: String, out: &mut Vec<(String, &'a Value)>) {
    out.push((path.clone(), schema));
    let Some(map) = schema.as_object() else {
        return;
    };
    for (key, value) in map {
        match holds(key) {
            Some(Holds::Named) => {
                for (name, child) in value.as_object().into_iter().flatten() {
                    walk(child, format!("{path}/{key}/{name}"), out);
                }
            }
            Some(Holds::Listed) => {
                for (i, child) in value.as_array().into_iter().flatten().enumerate() {
                    walk(child, format!("{path}/{key}/{i}"), out);
                }
            }
            Some(Holds::One) => walk(value, format!("{path}/{key}"), out),
            None => {}
        }
    }
}

fn nodes(schema: &Value) -> Vec<(String, &Value)> {
    let mut out = Vec::new();
    walk(schema, String::new(), &mut out);
    out
}

/// Local `$ref`s that point nowhere in `schema`: refused by every provider that reads `$ref`.
fn unresolved_refs(schema: &Value) -> Vec<String> {
    nodes(schema)
        .into_iter()
        .filter_map(|(path, node)| {
            let r = node["$ref"].as_str()?;
            schema
                .pointer(r.trim_start_matches('#'))
                .is_none()
                .then(|| format!("{path}: `$ref` {r} does not resolve"))
        })
        .collect()
}

const JSON_TYPES: &[&str] = &[
    "string", "number", "integer", "boolean", "array", "object", "null",
];

/// OpenAI function calling without strict mode:
/// <https://platform.openai.com/docs/guides/function-calling> ("parameters" is a JSON Schema
/// object). The API answers 400 `invalid_function_parameters` for: a root that is not
/// `type: "object"` or carries `oneOf`/`anyOf`/`allOf`/`enum`/`not` at the top level, an array
/// schema without `items` ("array schema missing items"), and a `$ref` it cannot resolve.
pub fn openai(schema: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    if schema["type"] != "object" {
        problems.push("root: not `type: object`".to_owned());
    }
    for key in ["oneOf", "anyOf", "allOf", "enum", "not"] {
        if schema.get(key).is_some() {
            problems.push(format!("root: `{key}` at the top level"));
        }
    }
    for (path, node) in nodes(schema) {
        if node["type"] == "array" && node.get("items").is_none() {
            problems.push(format!("{path}: array schema missing items"));
        }
    }
    problems.extend(unresolved_refs(schema));
    problems
}

/// OpenAI strict mode (`"strict": true`), "Supported schemas" in
/// <https://platform.openai.com/docs/guides/structured-outputs#supported-schemas>: the root is
/// an object and not `anyOf`; every object has `additionalProperties: false` and lists every
/// property in `required` (optional is written as a union with null); only the listed keywords
/// are supported (strings: `pattern`, `format` among date-time, time, date, duration, email,
/// hostname, ipv4, ipv6, uuid; numbers: `multipleOf`, `maximum`, `exclusiveMaximum`,
/// `minimum`, `exclusiveMinimum`; arrays: `minItems`, `maxItems`; plus `anyOf`, `enum`,
/// `const`, `$defs`/`$ref`). `allOf`, `not`, `oneOf`, `if`/`then`/`else`,
/// `dependentRequired`, `patternProperties`, `default` and the rest are refused ("'default'
/// is not permitted", e.g. <https://github.com/dotnet/extensions/issues/6196>).
pub fn openai_strict(schema: &Value) -> Vec<String> {
    const ALLOWED: &[&str] = &[
        "type",
        "description",
        "title",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "enum",
        "const",
        "anyOf",
        "$defs",
        "$ref",
        "pattern",
        "format",
        "multipleOf",
        "maximum",
        "exclusiveMaximum",
        "minimum",
        "exclusiveMinimum",
        "minItems",
        "maxItems",
    ];
    const FORMATS: &[&str] = &[
        "date-time",
        "time",
        "date",
        "duration",
        "email",
        "hostname",
        "ipv4",
        "ipv6",
        "uuid",
    ];
    let mut problems = Vec::new();
    if schema["type"] != "object" || schema.get("anyOf").is_some() {
        problems.push("root: must be an object, not anyOf".to_owned());
    }
    for (path, node) in nodes(schema) {
        if node.is_boolean() && path.ends_with("/additionalProperties") {
            continue;
        }
        let Some(map) = node.as_object() else {
            problems.push(format!("{path}: not a schema object"));
            continue;
        };
        for key in map.keys() {
            if !ALLOWED.contains(&key.as_str()) {
                problems.push(format!("{path}: `{key}` is not permitted"));
            }
        }
        if let Some(f) = map.get("format").and_then(Value::as_str)
            && !FORMATS.contains(&f)
        {
            problems.push(format!("{path}: format `{f}` is not supported"));
        }
        if map.get("type") == Some(&json!("object")) {
            if map.get("additionalProperties") != Some(&json!(false)) {
                problems.push(format!("{path}: `additionalProperties: false` missing"));
            }
            let required = map["required"].as_array().cloned().unwrap_or_default();
            for name in map["properties"]
                .as_object()
                .into_iter()
                .flatten()
                .map(|(k, _)| k)
            {
                if !required.contains(&json!(name)) {
                    problems.push(format!("{path}: property `{name}` not in required"));
                }
            }
        }
    }
    problems
}

/// Anthropic tool use, <https://docs.anthropic.com/en/docs/build-with-claude/tool-use>:
/// `input_schema` is a JSON Schema object whose root is `type: "object"`; the API refuses
/// `oneOf`, `allOf` or `anyOf` at the top level ("input_schema does not support oneOf, allOf,
/// or anyOf at the top level"). Below the root, any JSON Schema 2020-12 is read; local `$ref`s
/// must resolve.
pub fn anthropic(schema: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    if schema["type"] != "object" {
        problems.push("root: not `type: object`".to_owned());
    }
    for key in ["oneOf", "anyOf", "allOf"] {
        if schema.get(key).is_some() {
            problems.push(format!("root: `{key}` at the top level"));
        }
    }
    problems.extend(unresolved_refs(schema));
    problems
}

/// Gemini function declarations, whose `parameters` is a `Schema`, "a select subset of an
/// OpenAPI 3.0 schema object": <https://ai.google.dev/api/caching#Schema> and
/// <https://ai.google.dev/gemini-api/docs/function-calling#function_declarations>. Its fields
/// are the only keys accepted (anything else is "Unknown name" 400): `type` is ONE type name,
/// `enum` holds strings, `format` is float/double for numbers, int32/int64 for integers,
/// enum/date-time for strings; no `$ref`/`$defs`, `oneOf`, `allOf`, `const`,
/// `additionalProperties`, `$schema`.
pub fn gemini(schema: &Value) -> Vec<String> {
    const FIELDS: &[&str] = &[
        "type",
        "format",
        "title",
        "description",
        "nullable",
        "enum",
        "maxItems",
        "minItems",
        "properties",
        "required",
        "minProperties",
        "maxProperties",
        "minLength",
        "maxLength",
        "pattern",
        "example",
        "anyOf",
        "propertyOrdering",
        "default",
        "items",
        "minimum",
        "maximum",
    ];
    let mut problems = Vec::new();
    for (path, node) in nodes(schema) {
        if node.is_boolean() && path.ends_with("/additionalProperties") {
            continue;
        }
        let Some(map) = node.as_object() else {
            problems.push(format!("{path}: not a schema object"));
            continue;
        };
        for key in map.keys() {
            if !FIELDS.contains(&key.as_str()) {
                problems.push(format!("{path}: unknown field `{key}`"));
            }
        }
        match map.get("type") {
            None => {}
            Some(Value::String(t)) if JSON_TYPES.contains(&t.to_lowercase().as_str()) => {}
            Some(t) => problems.push(format!("{path}: `type` {t} is not one type name")),
        }
        if let Some(values) = map.get("enum").and_then(Value::as_array)
            && !values.iter().all(Value::is_string)
        {
            problems.push(format!("{path}: enum values must be strings"));
        }
        if let Some(f) = map.get("format").and_then(Value::as_str) {
            let ok = match map.get("type").and_then(Value::as_str) {
                Some("number") => ["float", "double"].contains(&f),
                Some("integer") => ["int32", "int64"].contains(&f),
                Some("string") => ["enum", "date-time"].contains(&f),
                _ => false,
            };
            if !ok {
                problems.push(format!("{path}: format `{f}` not supported"));
            }
        }
    }
    problems
}

/// MCP Inspector `tools/list --strict` (@modelcontextprotocol/inspector 2.12.0,
/// `core/json/schemaLint.ts`): warnings for a `type` array, a `$ref` outside the document, and a
/// schema with no constraining keyword (accepts anything); errors for a bare boolean schema
/// where an object is expected. Applies to input and output schemas.
pub fn inspector_strict(schema: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    for (path, node) in nodes(schema) {
        match node {
            Value::Bool(_)
                if !path.ends_with("additionalProperties")
                    && !path.ends_with("unevaluatedProperties")
                    && !path.ends_with("unevaluatedItems") =>
            {
                problems.push(format!("{path}: bare boolean schema"));
            }
            Value::Object(map) => {
                if map.get("type").is_some_and(Value::is_array) {
                    problems.push(format!("{path}: `type` is an array"));
                }
                if node["$ref"].as_str().is_some_and(|r| !r.starts_with('#')) {
                    problems.push(format!("{path}: remote `$ref`"));
                }
                if !path.ends_with("/not")
                    && !map.keys().any(|k| CONSTRAINING.contains(&k.as_str()))
                {
                    problems.push(format!("{path}: untyped schema"));
                }
            }
            _ => {}
        }
    }
    problems
}
