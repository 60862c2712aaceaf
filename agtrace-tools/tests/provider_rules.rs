//! Every agtrace tool, as listed, against each provider's published rules
//! (`mcp_tool::provider_rules`): its input schemas are accepted as they are by OpenAI
//! function calling, Anthropic tool use, Gemini function declarations and MCP Inspector
//! `--strict`, and its output schemas pass Inspector `--strict`.

mod tools_support;

use mcp_tool::provider_rules;
use serde_json::Value;
use tools_support::*;

type Rules = fn(&Value) -> Vec<String>;

#[tokio::test]
async fn every_tool_meets_every_providers_rules() {
    let s = samples().await;
    let tools = s.client.list_tools().await;
    assert_rows_cover(
        "listed tools",
        tools.iter().map(|t| t.name.as_ref()),
        tool_names(&s.server),
    );
    let rules: [(&str, Rules); 4] = [
        ("OpenAI", provider_rules::openai),
        ("Anthropic", provider_rules::anthropic),
        ("Gemini", provider_rules::gemini),
        ("MCP Inspector --strict", provider_rules::inspector_strict),
    ];
    let mut problems = Vec::new();
    for tool in &tools {
        let input = Value::Object((*tool.input_schema).clone());
        for (name, check) in &rules {
            problems.extend(
                check(&input)
                    .into_iter()
                    .map(|p| format!("{} input, {name}: {p}", tool.name)),
            );
        }
        let output = Value::Object((**tool.output_schema.as_ref().unwrap()).clone());
        problems.extend(
            provider_rules::inspector_strict(&output)
                .into_iter()
                .map(|p| format!("{} output, MCP Inspector --strict: {p}", tool.name)),
        );
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
