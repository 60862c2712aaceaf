//! The schema profiles against each target's published rules: every input schema of the
//! default (portable) profile is checked against OpenAI function calling, Anthropic tool use,
//! Gemini function declarations and MCP Inspector `--strict`; the `OpenAiStrict` profile
//! against OpenAI's strict-mode rules. The tools here cover every shape an argument struct can
//! take, and calls written the way each profile's schema says are accepted.

use mcp_tool::prelude::*;
use mcp_tool::testing::TestClient;
use mcp_tool::{SchemaProfile, ToolServer, provider_rules};
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
        assert_rules(
            "OpenAI function calling",
            &tool.name,
            provider_rules::openai(&input),
        );
        assert_rules(
            "Anthropic tool use",
            &tool.name,
            provider_rules::anthropic(&input),
        );
        assert_rules(
            "Gemini function declaration",
            &tool.name,
            provider_rules::gemini(&input),
        );
        assert_rules(
            "MCP Inspector --strict",
            &tool.name,
            provider_rules::inspector_strict(&input),
        );
        let output = as_value(tool.output_schema.as_ref().expect("an outputSchema"));
        assert_rules(
            "MCP Inspector --strict (output)",
            &tool.name,
            provider_rules::inspector_strict(&output),
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
            provider_rules::openai_strict(&input),
        );
        assert_rules(
            "MCP Inspector --strict",
            &tool.name,
            provider_rules::inspector_strict(&input),
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
        provider_rules::inspector_strict(&input),
    );
    assert_rules(
        "Anthropic tool use",
        &find.name,
        provider_rules::anthropic(&input),
    );
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
    let err = mcp_tool::schema::input_schema(SchemaProfile::Portable, schema.as_object().unwrap())
        .unwrap_err();
    assert!(
        err.contains("#/$defs/Node") && err.contains("contains itself"),
        "{err}"
    );
    assert!(
        mcp_tool::schema::input_schema(SchemaProfile::JsonSchema, schema.as_object().unwrap())
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
    let out = Value::Object(mcp_tool::schema::output_schema(schema.as_object().unwrap()));
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
    assert!(provider_rules::inspector_strict(&out).is_empty(), "{out:#}");
}
