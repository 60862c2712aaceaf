//! The schema profiles against each target's published rules: every input schema of the
//! default (portable) profile is checked against OpenAI function calling, Anthropic tool use,
//! Gemini function declarations and MCP Inspector `--strict`; the `OpenAiStrict` profile
//! against OpenAI's strict-mode rules. The tools here cover every shape an argument struct can
//! take, and calls written the way each profile's schema says are accepted.

use mcp_tool_core::prelude::*;
use mcp_tool_core::testing::TestClient;
use mcp_tool_core::{SchemaProfile, ToolServer};
use serde_json::{Map, Value, json};

/// Which agent wrote a log.
#[tool_args]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agent {
    /// Claude Code.
    ClaudeCode,
    /// Codex CLI.
    Codex,
}

/// A time window.
#[tool_args]
#[derive(Debug, Clone)]
pub struct Window {
    /// Start of the window (RFC 3339).
    pub since: String,
    /// End of the window (RFC 3339); omit for now.
    pub until: Option<String>,
}

/// How much of each record to show.
#[tool_args(tag = "detail_level")]
#[derive(Debug, Clone)]
pub enum Detail {
    /// Ids only.
    Ids,
    /// The first lines of each record.
    Preview {
        /// Lines per record.
        #[arg(default = 3, min = 1, max = 20)]
        lines: u32,
    },
}

#[tool_args]
pub struct FindRecordsArgs {
    /// Words to look for.
    pub query: String,
    /// Only records of this agent.
    pub agent: Option<Agent>,
    /// Skip records shorter than this many bytes.
    #[arg(min = 1, max = 4096)]
    pub min_bytes: Option<u32>,
    /// Only records in this window.
    pub window: Option<Window>,
    /// Only records with all of these labels.
    #[arg(default = Vec::new())]
    pub labels: Vec<String>,
    /// How much of each record to show.
    #[arg(default = Detail::Ids)]
    pub detail: Detail,
    /// Most records per page.
    #[arg(default = 10, min = 1, max = 50)]
    pub limit: u32,
    /// `next_cursor` from the previous page; omit for the first page.
    pub cursor: Option<Cursor>,
}

/// One record found.
#[tool_output]
pub struct Record {
    /// The query echoed back.
    pub query: String,
    /// The agent filter, if any.
    pub agent: Option<Agent>,
    /// The byte filter, if any.
    pub min_bytes: Option<u32>,
    /// The window's start, if any.
    pub since: Option<String>,
    /// The labels asked for.
    pub labels: Vec<String>,
    /// The detail level and its options.
    pub detail: String,
}

/// Find records whose text contains every word of the query.
#[mcp_tool(family = "portable", size_hint = "2KB", read_only)]
pub async fn find_records(args: FindRecordsArgs) -> ToolResult<Page<Record>> {
    let record = Record {
        query: args.query,
        agent: args.agent,
        min_bytes: args.min_bytes,
        since: args.window.map(|w| w.since),
        labels: args.labels,
        detail: format!("{:?}", args.detail),
    };
    Ok(Page::new(vec![record]))
}

#[tool_args]
pub struct CountRecordsArgs {
    /// Which agent's records to count.
    pub agent: Agent,
}

/// Count the records of one agent.
#[mcp_tool(family = "portable", size_hint = "1KB", read_only)]
pub async fn count_records(args: CountRecordsArgs) -> ToolResult<u64> {
    Ok(match args.agent {
        Agent::ClaudeCode => 1,
        Agent::Codex => 2,
    })
}

fn server(profile: SchemaProfile) -> ToolServer {
    ToolServer::builder()
        .name("portable-tests")
        .families(["portable"])
        .schema_profile(profile)
        .build()
        .unwrap_or_else(|e| panic!("{e}"))
}

async fn listed(profile: SchemaProfile) -> Vec<rmcp::model::Tool> {
    let client = TestClient::in_process(&server(profile)).await;
    client.list_tools().await
}

/// Every subschema of `schema` with its JSON path (keys of `properties` and the like are
/// names, not schemas).
fn walk<'a>(schema: &'a Value, path: String, out: &mut Vec<(String, &'a Value)>) {
    out.push((path.clone(), schema));
    let Some(map) = schema.as_object() else {
        return;
    };
    for (key, value) in map {
        match key.as_str() {
            "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas" => {
                for (name, child) in value.as_object().into_iter().flatten() {
                    walk(child, format!("{path}/{key}/{name}"), out);
                }
            }
            "anyOf" | "oneOf" | "allOf" | "prefixItems" => {
                for (i, child) in value.as_array().into_iter().flatten().enumerate() {
                    walk(child, format!("{path}/{key}/{i}"), out);
                }
            }
            "items"
            | "additionalProperties"
            | "not"
            | "if"
            | "then"
            | "else"
            | "contains"
            | "propertyNames"
            | "unevaluatedProperties"
            | "unevaluatedItems" => {
                walk(value, format!("{path}/{key}"), out);
            }
            _ => {}
        }
    }
}

fn nodes(schema: &Value) -> Vec<(String, &Value)> {
    let mut out = Vec::new();
    walk(schema, String::new(), &mut out);
    out
}

const JSON_TYPES: &[&str] = &[
    "string", "number", "integer", "boolean", "array", "object", "null",
];

/// OpenAI function calling without strict mode:
/// <https://platform.openai.com/docs/guides/function-calling> ("parameters" is a JSON Schema
/// object). The API answers 400 `invalid_function_parameters` for: a root that is not
/// `type: "object"` or carries `oneOf`/`anyOf`/`allOf`/`enum`/`not` at the top level, an array
/// schema without `items` ("array schema missing items"), and a `$ref` it cannot resolve.
fn openai_rules(schema: &Value) -> Vec<String> {
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
        if let Some(r) = node["$ref"].as_str()
            && schema.pointer(r.trim_start_matches('#')).is_none()
        {
            problems.push(format!("{path}: `$ref` {r} does not resolve"));
        }
    }
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
fn openai_strict_rules(schema: &Value) -> Vec<String> {
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
fn anthropic_rules(schema: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    if schema["type"] != "object" {
        problems.push("root: not `type: object`".to_owned());
    }
    for key in ["oneOf", "anyOf", "allOf"] {
        if schema.get(key).is_some() {
            problems.push(format!("root: `{key}` at the top level"));
        }
    }
    for (path, node) in nodes(schema) {
        if let Some(r) = node["$ref"].as_str()
            && schema.pointer(r.trim_start_matches('#')).is_none()
        {
            problems.push(format!("{path}: `$ref` {r} does not resolve"));
        }
    }
    problems
}

/// Gemini function declarations, whose `parameters` is a `Schema`, "a select subset of an
/// OpenAPI 3.0 schema object": <https://ai.google.dev/api/caching#Schema> and
/// <https://ai.google.dev/gemini-api/docs/function-calling#function_declarations>. Its fields
/// are the only keys accepted (anything else is "Unknown name" 400): `type` is ONE type name,
/// `enum` holds strings, `format` is float/double for numbers, int32/int64 for integers,
/// enum/date-time for strings; no `$ref`/`$defs`, `oneOf`, `allOf`, `const`,
/// `additionalProperties`, `$schema`.
fn gemini_rules(schema: &Value) -> Vec<String> {
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
fn inspector_strict_rules(schema: &Value) -> Vec<String> {
    const CONSTRAINING: &[&str] = &[
        "type",
        "enum",
        "const",
        "multipleOf",
        "maximum",
        "exclusiveMaximum",
        "minimum",
        "exclusiveMinimum",
        "maxLength",
        "minLength",
        "pattern",
        "format",
        "contentMediaType",
        "contentEncoding",
        "contentSchema",
        "maxItems",
        "minItems",
        "uniqueItems",
        "maxContains",
        "minContains",
        "maxProperties",
        "minProperties",
        "required",
        "dependentRequired",
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        "items",
        "prefixItems",
        "contains",
        "additionalItems",
        "unevaluatedItems",
        "properties",
        "patternProperties",
        "additionalProperties",
        "unevaluatedProperties",
        "propertyNames",
        "dependentSchemas",
        "dependencies",
        "$ref",
        "$dynamicRef",
        "$recursiveRef",
    ];
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

fn assert_rules(rules: &str, tool: &str, problems: Vec<String>) {
    assert!(
        problems.is_empty(),
        "{tool} breaks the {rules} rules:\n{}",
        problems.join("\n")
    );
}

fn as_value(map: &Map<String, Value>) -> Value {
    Value::Object(map.clone())
}

#[tokio::test]
async fn the_portable_profile_meets_every_providers_rules() {
    let tools = listed(SchemaProfile::default()).await;
    assert_eq!(tools.len(), 2);
    for tool in &tools {
        let input = as_value(&tool.input_schema);
        assert_rules("OpenAI function calling", &tool.name, openai_rules(&input));
        assert_rules("Anthropic tool use", &tool.name, anthropic_rules(&input));
        assert_rules(
            "Gemini function declaration",
            &tool.name,
            gemini_rules(&input),
        );
        assert_rules(
            "MCP Inspector --strict",
            &tool.name,
            inspector_strict_rules(&input),
        );
        let output = as_value(tool.output_schema.as_ref().expect("an outputSchema"));
        assert_rules(
            "MCP Inspector --strict (output)",
            &tool.name,
            inspector_strict_rules(&output),
        );
    }
}

#[tokio::test]
async fn the_portable_profile_keeps_descriptions_defaults_bounds_and_enums() {
    let tools = listed(SchemaProfile::Portable).await;
    let find = tools.iter().find(|t| t.name == "find_records").unwrap();
    let props = &find.input_schema["properties"];
    assert_eq!(find.input_schema["required"], json!(["query"]));
    assert_eq!(
        props["agent"],
        json!({"type": "string", "enum": ["claude_code", "codex"],
               "description": "Only records of this agent (`claude_code`: Claude Code; `codex`: Codex CLI)."})
    );
    assert_eq!(
        props["min_bytes"],
        json!({"type": "integer", "minimum": 1, "maximum": 4096,
               "description": "Skip records shorter than this many bytes."})
    );
    assert_eq!(props["limit"]["default"], 10);
    assert_eq!(props["limit"]["maximum"], 50);
    assert_eq!(props["labels"]["items"], json!({"type": "string"}));
    assert_eq!(props["window"]["type"], "object");
    assert_eq!(props["window"]["required"], json!(["since"]));
    assert_eq!(
        props["window"]["properties"]["until"],
        json!({"type": "string", "description": "End of the window (RFC 3339); omit for now."})
    );
    assert_eq!(props["cursor"]["type"], "string");
    let variants = props["detail"]["anyOf"]
        .as_array()
        .expect("one branch per variant");
    assert_eq!(variants.len(), 2);
    assert_eq!(
        variants[1]["properties"]["detail_level"]["enum"],
        json!(["preview"])
    );
    assert_eq!(variants[1]["properties"]["lines"]["maximum"], 20);
    assert_eq!(props["detail"]["default"], json!({"detail_level": "ids"}));
}

#[tokio::test]
async fn the_openai_strict_profile_meets_strict_mode_rules() {
    let tools = listed(SchemaProfile::OpenAiStrict).await;
    for tool in &tools {
        let input = as_value(&tool.input_schema);
        assert_rules(
            "OpenAI strict mode",
            &tool.name,
            openai_strict_rules(&input),
        );
        assert_rules(
            "MCP Inspector --strict",
            &tool.name,
            inspector_strict_rules(&input),
        );
    }
    let find = tools.iter().find(|t| t.name == "find_records").unwrap();
    let props = &find.input_schema["properties"];
    assert_eq!(props["agent"]["anyOf"][1], json!({"type": "null"}));
    assert_eq!(
        props["window"]["anyOf"][0]["properties"]["until"]["anyOf"][1],
        json!({"type": "null"})
    );
    assert_eq!(props["limit"]["type"], "integer");
    assert!(
        props["limit"]["description"]
            .as_str()
            .unwrap()
            .ends_with("Default: 10."),
        "{}",
        props["limit"]
    );
}

#[tokio::test]
async fn the_json_schema_profile_keeps_defs_and_refs_and_passes_inspector_strict() {
    let tools = listed(SchemaProfile::JsonSchema).await;
    let find = tools.iter().find(|t| t.name == "find_records").unwrap();
    let input = as_value(&find.input_schema);
    assert!(input["$defs"].is_object(), "{input:#}");
    assert!(input.to_string().contains("\"$ref\""));
    assert_rules(
        "MCP Inspector --strict",
        &find.name,
        inspector_strict_rules(&input),
    );
    assert_rules("Anthropic tool use", &find.name, anthropic_rules(&input));
}

/// What each profile's schema allows, the tool accepts: left out, given, and (strict) sent as
/// null or as the stated default.
#[tokio::test]
async fn calls_written_from_each_profile_are_accepted() {
    let client = TestClient::in_process(&server(SchemaProfile::Portable)).await;
    let answer = client.call("find_records", json!({"query": "x"})).await;
    let record = &answer.expect_ok()[0];
    assert_eq!(record["detail"], "Ids");
    assert_eq!(record["labels"], json!([]));

    let all = json!({
        "query": "x", "agent": "codex", "min_bytes": 4096,
        "window": {"since": "2025-01-01T00:00:00Z"}, "labels": ["a"],
        "detail": {"detail_level": "preview"}, "limit": 50
    });
    let answer = client.call("find_records", all).await;
    let record = &answer.expect_ok()[0];
    assert_eq!(record["agent"], "codex");
    assert_eq!(record["min_bytes"], 4096);
    assert_eq!(record["detail"], "Preview { lines: 3 }");

    let too_big = client
        .call("find_records", json!({"query": "x", "min_bytes": 4097}))
        .await;
    assert_eq!(too_big.error_code(), Some("invalid_parameter"));

    let strict = TestClient::in_process(&server(SchemaProfile::OpenAiStrict)).await;
    let nulls = json!({
        "query": "x", "agent": null, "min_bytes": null,
        "window": {"since": "2025-01-01T00:00:00Z", "until": null}, "labels": [],
        "detail": {"detail_level": "preview", "lines": 3}, "limit": 10, "cursor": null
    });
    let answer = strict.call("find_records", nulls).await;
    assert_eq!(answer.expect_ok()[0]["detail"], "Preview { lines: 3 }");
    let answer = strict
        .call("count_records", json!({"agent": "claude_code"}))
        .await;
    assert_eq!(answer.expect_ok(), &json!(1));
}

#[test]
fn a_recursive_type_fails_the_portable_build_with_a_reason() {
    let schema = json!({
        "type": "object",
        "properties": {"tree": {"$ref": "#/$defs/Node"}},
        "$defs": {"Node": {"type": "object", "properties": {"children": {
            "type": "array", "items": {"$ref": "#/$defs/Node"}}}}}
    });
    let err =
        mcp_tool_core::schema::input_schema(SchemaProfile::Portable, schema.as_object().unwrap())
            .unwrap_err();
    assert!(
        err.contains("#/$defs/Node") && err.contains("contains itself"),
        "{err}"
    );
    assert!(
        mcp_tool_core::schema::input_schema(SchemaProfile::JsonSchema, schema.as_object().unwrap())
            .is_ok()
    );
}

#[test]
fn output_spellings_are_equivalent_rewrites() {
    let schema = json!({
        "type": "object",
        "properties": {
            "n": {"type": ["integer", "null"], "format": "uint32", "minimum": 0, "description": "A count."},
            "details": {"description": "Anything."},
            "stamp": {"type": "string", "format": "date-time"}
        }
    });
    let out = Value::Object(mcp_tool_core::schema::output_schema(
        schema.as_object().unwrap(),
    ));
    assert_eq!(
        out["properties"]["n"],
        json!({"description": "A count.", "anyOf": [
            {"type": "integer", "minimum": 0, "maximum": 4294967295u32}, {"type": "null"}]})
    );
    assert_eq!(
        out["properties"]["details"]["anyOf"]
            .as_array()
            .unwrap()
            .len(),
        6
    );
    assert_eq!(out["properties"]["stamp"]["format"], "date-time");
    assert!(inspector_strict_rules(&out).is_empty(), "{out:#}");
}
