//! `conformance_server`: the tool set of the MCP conformance suite's "everything server"
//! (`@modelcontextprotocol/conformance`), written with `#[mcp_tool]`.
//!
//! The suite fixes the tool names and what each returns; `scripts/conformance.sh` runs the
//! suite against this server. Tools that must answer with exact content blocks return
//! `ToolResult<Content>`; the rest use the envelope like any other tool.
//!
//! Run: `cargo run -p mcp-tool-examples --bin conformance_server -- --listen 127.0.0.1:3000`
//! (streamable HTTP at `/mcp`).

use mcp_tool::content::Role;
use mcp_tool::prelude::*;
use mcp_tool::tasks::TaskSettings;
use mcp_tool::{ClientCapability, Elicitation, SamplingRequest, SchemaProfile, ToolServer};
use serde_json::json;
use std::time::Duration;

/// A 1x1 red PNG.
pub const RED_PIXEL_PNG: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";

/// A valid WAV file: 8 kHz, 16-bit mono, `samples` samples of silence.
pub fn silent_wav(samples: u32) -> Vec<u8> {
    let data_len = samples * 2;
    let mut wav = Vec::with_capacity(44 + data_len as usize);
    wav.extend_from_slice(b"RIFF");
    wav.extend_from_slice(&(36 + data_len).to_le_bytes());
    wav.extend_from_slice(b"WAVEfmt ");
    wav.extend_from_slice(&16u32.to_le_bytes()); // fmt chunk size
    wav.extend_from_slice(&1u16.to_le_bytes()); // PCM
    wav.extend_from_slice(&1u16.to_le_bytes()); // mono
    wav.extend_from_slice(&8000u32.to_le_bytes()); // sample rate
    wav.extend_from_slice(&16000u32.to_le_bytes()); // byte rate
    wav.extend_from_slice(&2u16.to_le_bytes()); // block align
    wav.extend_from_slice(&16u16.to_le_bytes()); // bits per sample
    wav.extend_from_slice(b"data");
    wav.extend_from_slice(&data_len.to_le_bytes());
    wav.resize(44 + data_len as usize, 0);
    wav
}

/// Return a fixed sentence as plain text content.
#[mcp_tool(family = "conformance", size_hint = "1KB", read_only)]
pub async fn test_simple_text() -> ToolResult<Content> {
    Ok(Content::new().text("This is a simple text response for testing."))
}

/// Return a 1x1 red PNG as image content.
#[mcp_tool(family = "conformance", size_hint = "1KB", read_only)]
pub async fn test_image_content() -> ToolResult<Content> {
    Ok(Content::new().image(RED_PIXEL_PNG, "image/png"))
}

/// Return a short silent WAV clip as audio content.
#[mcp_tool(family = "conformance", size_hint = "2KB", read_only)]
pub async fn test_audio_content() -> ToolResult<Content> {
    Ok(Content::new().audio_bytes(&silent_wav(80), "audio/wav"))
}

/// Return a text document embedded as a resource.
#[mcp_tool(family = "conformance", size_hint = "1KB", read_only)]
pub async fn test_embedded_resource() -> ToolResult<Content> {
    Ok(Content::new().embedded_text(
        "test://embedded-resource",
        "text/plain",
        "This is an embedded resource content.",
    ))
}

/// Return text, an image and an embedded JSON resource in one answer, annotated for audience
/// and priority.
#[mcp_tool(family = "conformance", size_hint = "2KB", read_only)]
pub async fn test_multiple_content_types() -> ToolResult<Content> {
    Ok(Content::new()
        .text("Multiple content types test:")
        .for_audience(&[Role::User, Role::Assistant])
        .image(RED_PIXEL_PNG, "image/png")
        .for_audience(&[Role::User])
        .with_priority(0.5)
        .embedded_text(
            "test://mixed-content-resource",
            "application/json",
            r#"{"test":"data","value":123}"#,
        )
        .with_priority(1.0))
}

/// Send three info log messages about 50 ms apart, then confirm in text.
#[mcp_tool(family = "conformance", size_hint = "1KB", read_only)]
pub async fn test_tool_with_logging(ctx: &ToolContext) -> ToolResult<Content> {
    ctx.info("Tool execution started").await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    ctx.info("Tool processing data").await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    ctx.info("Tool execution completed").await;
    Ok(Content::new().text("Tool with logging executed successfully"))
}

/// Report progress 0, 50 and 100 of 100 about 50 ms apart (when the caller sent a progress
/// token), then confirm in text.
#[mcp_tool(family = "conformance", size_hint = "1KB", read_only)]
pub async fn test_tool_with_progress(ctx: &ToolContext) -> ToolResult<Content> {
    for (i, step) in [0.0, 50.0, 100.0].into_iter().enumerate() {
        if i > 0 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        ctx.progress(step, Some(100.0), None).await;
    }
    Ok(Content::new().text("Tool with progress executed successfully"))
}

/// Always fail with a tool error, to test how clients show one.
#[mcp_tool(family = "conformance", size_hint = "1KB", read_only)]
pub async fn test_error_handling() -> ToolResult<Content> {
    Err(ToolError::new(
        "intentional_error",
        "This tool intentionally returns an error for testing",
    ))
}

/// What `test_sampling` asks the client's model.
#[tool_args]
pub struct SamplingArgs {
    /// The prompt to send to the client's model.
    pub prompt: String,
}

/// Ask the client's model to answer `prompt` (sampling) and return its answer as text.
#[mcp_tool(family = "conformance", size_hint = "4KB", read_only, open_world)]
pub async fn test_sampling(ctx: &ToolContext, args: SamplingArgs) -> ToolResult<Content> {
    let answer = ctx
        .sample(SamplingRequest::user(args.prompt).max_tokens(100))
        .await?;
    Ok(Content::new().text(format!("LLM response: {}", answer.text())))
}

/// What `test_elicitation` shows the user above its form.
#[tool_args]
pub struct ElicitationArgs {
    /// The message shown to the user with the form.
    pub message: String,
}

/// The form `test_elicitation` shows.
#[tool_args]
pub struct UserInfo {
    /// User's response
    pub username: String,
    /// User's email address
    pub email: String,
}

/// Ask the user for a username and an email (elicitation) and return what they did.
#[mcp_tool(family = "conformance", size_hint = "2KB", read_only, open_world)]
pub async fn test_elicitation(ctx: &ToolContext, args: ElicitationArgs) -> ToolResult<Content> {
    let answer = ctx.elicit::<UserInfo>(args.message).await?;
    let action = answer.action();
    let content = answer
        .accepted()
        .map(|u| json!({"username": u.username, "email": u.email}));
    Ok(Content::new().text(format!(
        "User response: action={action}, content={}",
        content.unwrap_or(json!({}))
    )))
}

/// Standing of an account (variants without doc comments: a plain `enum` list).
#[tool_args(allow(
    missing_description = "the suite expects an untitled enum, which variant docs would turn into titled choices"
))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
// Variant docs would reach the schema as titles, which the suite checks are absent.
#[allow(missing_docs)]
pub enum AccountStatus {
    Active,
    Inactive,
    Pending,
}

/// The SEP-1034 form: a default for every primitive type, declared with `#[arg(default)]`.
#[tool_args]
pub struct ProfileForm {
    /// Full name.
    #[arg(default = "John Doe")]
    pub name: String,
    /// Age in years.
    #[arg(default = 30)]
    pub age: i64,
    /// Test score.
    #[arg(default = 95.5)]
    pub score: f64,
    /// Account status.
    #[arg(default = AccountStatus::Active)]
    pub status: AccountStatus,
    /// Whether the email address is verified.
    #[arg(default = true)]
    pub verified: bool,
}

/// Ask the user for a profile whose fields all have defaults (SEP-1034) and return the answer.
#[mcp_tool(family = "conformance", size_hint = "2KB", read_only, open_world)]
pub async fn test_elicitation_sep1034_defaults(ctx: &ToolContext) -> ToolResult<Content> {
    let answer = ctx
        .elicit::<ProfileForm>("Please review and update the form fields with defaults")
        .await?;
    let action = answer.action();
    let content = answer.accepted().map(|p| {
        let status = match p.status {
            AccountStatus::Active => "active",
            AccountStatus::Inactive => "inactive",
            AccountStatus::Pending => "pending",
        };
        json!({"name": p.name, "age": p.age, "score": p.score, "status": status, "verified": p.verified})
    });
    Ok(Content::new().text(format!(
        "Elicitation completed: action={action}, content={}",
        content.unwrap_or(json!({}))
    )))
}

/// Ask the user to pick from the five kinds of choice lists of SEP-1330 (untitled and titled
/// single select, legacy `enumNames`, untitled and titled multi-select) and return the answer.
#[mcp_tool(family = "conformance", size_hint = "2KB", read_only, open_world)]
pub async fn test_elicitation_sep1330_enums(ctx: &ToolContext) -> ToolResult<Content> {
    // Legacy `enumNames` cannot come from a Rust type, so this form is written as a schema.
    let schema = json!({
        "type": "object",
        "properties": {
            "untitledSingle": {
                "type": "string", "description": "Pick one option",
                "enum": ["option1", "option2", "option3"]
            },
            "titledSingle": {
                "type": "string", "description": "Pick one titled option",
                "oneOf": [
                    {"const": "value1", "title": "First Option"},
                    {"const": "value2", "title": "Second Option"},
                    {"const": "value3", "title": "Third Option"}
                ]
            },
            "legacyEnum": {
                "type": "string", "description": "Pick one (legacy titles)",
                "enum": ["opt1", "opt2", "opt3"],
                "enumNames": ["Option One", "Option Two", "Option Three"]
            },
            "untitledMulti": {
                "type": "array", "description": "Pick any options",
                "items": {"type": "string", "enum": ["option1", "option2", "option3"]}
            },
            "titledMulti": {
                "type": "array", "description": "Pick any titled options",
                "items": {"anyOf": [
                    {"const": "value1", "title": "First Choice"},
                    {"const": "value2", "title": "Second Choice"},
                    {"const": "value3", "title": "Third Choice"}
                ]}
            }
        }
    });
    let answer = ctx
        .elicit_with_schema("Please choose from the enum fields", schema)
        .await?;
    Ok(Content::new().text(elicitation_summary(answer)))
}

fn elicitation_summary(answer: Elicitation<serde_json::Map<String, serde_json::Value>>) -> String {
    let action = answer.action();
    let content = answer.accepted().unwrap_or_default();
    format!(
        "Elicitation completed: action={action}, content={}",
        serde_json::Value::Object(content)
    )
}

/// A postal address.
#[tool_args]
#[schemars(rename = "address", extend("$anchor" = "addressDef"))]
pub struct Address {
    /// Street and number.
    pub street: Option<String>,
    /// City name.
    pub city: Option<String>,
}

/// How the person wants to be contacted.
#[tool_args]
#[derive(Debug, Clone, Copy)]
pub enum ContactMethod {
    /// By phone: `phone` is required.
    Phone,
    /// By email: `email` is required.
    Email,
}

/// Arguments whose schema uses `$defs`/`$ref`/`$anchor`, `additionalProperties: false`, and
/// the composition and conditional keywords of SEP-2106: a phone or an email is required, and
/// the one `contactMethod` names.
#[tool_args(allow(
    false_strictness = "the conformance suite checks that `additionalProperties: false` survives tools/list",
    hidden_coupling = "the conformance suite checks that if/then/else survive tools/list: the coupling is in the schema"
))]
#[serde(deny_unknown_fields)]
#[schemars(extend(
    "allOf" = [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
    "if" = {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
    "then" = {"required": ["phone"]},
    "else" = {"required": ["email"]}
))]
pub struct SchemaFeaturesArgs {
    /// A person's name.
    pub name: Option<String>,
    /// Where the person lives.
    pub address: Option<Address>,
    /// How the person wants to be contacted.
    #[serde(rename = "contactMethod")]
    pub contact_method: Option<ContactMethod>,
    /// Phone number.
    pub phone: Option<String>,
    /// Email address.
    pub email: Option<String>,
}

/// Echo a name and address, to show that JSON Schema 2020-12 input schemas (`$schema`,
/// `$defs`, `$ref`, `additionalProperties`) reach the client intact.
#[mcp_tool(
    family = "conformance",
    size_hint = "1KB",
    read_only,
    allow(tool_name = "name fixed by the MCP conformance suite")
)]
pub async fn json_schema_2020_12_tool(args: SchemaFeaturesArgs) -> ToolResult<Content> {
    let address = args
        .address
        .map(|a| json!({"street": a.street, "city": a.city}));
    Ok(Content::new().text(json!({"name": args.name, "address": address}).to_string()))
}

// The 2026-07-28 revision's tools (SEP-2322 `input_required` rounds, SEP-2575 stateless
// diagnostics). They ask through the same `ToolContext` methods as the tools above; in that
// revision each question the client has not answered ends the round, under the key the suite
// expects (`ctx.ask(key)`).

/// The one-field form `{name: string}` several input-required tools show.
fn name_form(field: &str) -> serde_json::Value {
    json!({
        "type": "object",
        "properties": {field: {"type": "string"}},
        "required": [field]
    })
}

/// The accepted content's `field` as text, or the user's action when they did not accept.
fn field_or_action(
    answer: Elicitation<serde_json::Map<String, serde_json::Value>>,
    field: &str,
) -> String {
    let action = answer.action();
    answer
        .accepted()
        .and_then(|content| {
            content
                .get(field)
                .and_then(|v| v.as_str())
                .map(str::to_owned)
        })
        .unwrap_or_else(|| format!("({action})"))
}

/// Ask the user's name in a form (key `user_name`) and greet them.
#[mcp_tool(family = "conformance", size_hint = "1KB", read_only, open_world)]
pub async fn test_input_required_result_elicitation(ctx: &ToolContext) -> ToolResult<Content> {
    let answer = ctx
        .ask("user_name")
        .elicit_with_schema("What is your name?", name_form("name"))
        .await?;
    Ok(Content::new().text(format!("Hello, {}!", field_or_action(answer, "name"))))
}

/// Ask the client's model for the capital of France (key `capital_question`) and return its
/// answer.
#[mcp_tool(family = "conformance", size_hint = "2KB", read_only, open_world)]
pub async fn test_input_required_result_sampling(ctx: &ToolContext) -> ToolResult<Content> {
    let answer = ctx
        .ask("capital_question")
        .sample(SamplingRequest::user("What is the capital of France?").max_tokens(100))
        .await?;
    Ok(Content::new().text(format!("LLM response: {}", answer.text())))
}

/// List the client's roots (key `client_roots`) and name them.
#[mcp_tool(family = "conformance", size_hint = "2KB", read_only, open_world)]
pub async fn test_input_required_result_list_roots(ctx: &ToolContext) -> ToolResult<Content> {
    let roots = ctx.ask("client_roots").list_roots().await?;
    // Roots are deprecated by SEP-2577 for the revision after 2026-07-28; this one still has them.
    #[allow(deprecated)]
    let uris: Vec<&str> = roots.iter().map(|r| r.uri.as_str()).collect();
    Ok(Content::new().text(format!("Client roots: {}", uris.join(", "))))
}

/// Ask for a confirmation (key `confirm`); the sealed request state carries the round.
#[mcp_tool(family = "conformance", size_hint = "1KB", read_only, open_world)]
pub async fn test_input_required_result_request_state(ctx: &ToolContext) -> ToolResult<Content> {
    let form = json!({
        "type": "object",
        "properties": {"ok": {"type": "boolean"}},
        "required": ["ok"]
    });
    let answer = ctx
        .ask("confirm")
        .elicit_with_schema("Please confirm", form)
        .await?;
    let ok = answer
        .accepted()
        .and_then(|content| content.get("ok").and_then(|v| v.as_bool()));
    // Reaching this line means the request state opened: its seal and binding held.
    Ok(Content::new().text(format!("state-ok: confirmed={ok:?}")))
}

/// Ask for a name, a model's greeting and the client's roots in one round.
#[mcp_tool(family = "conformance", size_hint = "2KB", read_only, open_world)]
pub async fn test_input_required_result_multiple_inputs(ctx: &ToolContext) -> ToolResult<Content> {
    let (name, greeting, roots) = tokio::join!(
        ctx.ask("user_name")
            .elicit_with_schema("What is your name?", name_form("name")),
        ctx.ask("greeting")
            .sample(SamplingRequest::user("Generate a greeting").max_tokens(50)),
        ctx.ask("client_roots").list_roots(),
    );
    let (name, greeting, roots) = (name?, greeting?, roots?);
    Ok(Content::new().text(format!(
        "{} {} ({} roots)",
        greeting.text(),
        field_or_action(name, "name"),
        roots.len()
    )))
}

/// Ask a name, then, in a second round, a favorite color.
#[mcp_tool(family = "conformance", size_hint = "1KB", read_only, open_world)]
pub async fn test_input_required_result_multi_round(ctx: &ToolContext) -> ToolResult<Content> {
    let name = ctx
        .ask("step1")
        .elicit_with_schema("Step 1: What is your name?", name_form("name"))
        .await?;
    let color = ctx
        .ask("step2")
        .elicit_with_schema("Step 2: What is your favorite color?", name_form("color"))
        .await?;
    Ok(Content::new().text(format!(
        "{} likes {}",
        field_or_action(name, "name"),
        field_or_action(color, "color")
    )))
}

/// Ask for a confirmation; a request state that was altered is refused.
#[mcp_tool(family = "conformance", size_hint = "1KB", read_only, open_world)]
pub async fn test_input_required_result_tampered_state(ctx: &ToolContext) -> ToolResult<Content> {
    let form =
        json!({"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]});
    let answer = ctx
        .ask("confirm")
        .elicit_with_schema("Please confirm", form)
        .await?;
    Ok(Content::new().text(format!("Confirmation: {}", answer.action())))
}

/// Ask only what the client declared it can answer: a model completion and/or a form.
#[mcp_tool(family = "conformance", size_hint = "2KB", read_only, open_world)]
pub async fn test_input_required_result_capabilities(ctx: &ToolContext) -> ToolResult<Content> {
    let mut said = Vec::new();
    if ctx.client_supports(ClientCapability::Sampling) {
        let answer = ctx
            .ask("sampling")
            .sample(SamplingRequest::user("Say hello").max_tokens(20))
            .await?;
        said.push(answer.text());
    }
    if ctx.client_supports(ClientCapability::Elicitation) {
        let answer = ctx
            .ask("elicitation")
            .elicit_with_schema("What is your name?", name_form("name"))
            .await?;
        said.push(field_or_action(answer, "name"));
    }
    Ok(Content::new().text(format!("Answers: {}", said.join("; "))))
}

/// Ask the client's model without checking that the client can answer: a client that did not
/// declare `sampling` gets `-32021` (2026-07-28) or a `client_capability_missing` tool error.
#[mcp_tool(family = "conformance", size_hint = "2KB", read_only, open_world)]
pub async fn test_missing_capability(ctx: &ToolContext) -> ToolResult<Content> {
    let answer = ctx
        .sample(SamplingRequest::user("Say hello").max_tokens(20))
        .await?;
    Ok(Content::new().text(answer.text()))
}

/// Ask the user a question while the call runs: in the 2026-07-28 revision the question goes
/// out in the call's result, never as a request of its own on the response stream.
#[mcp_tool(family = "conformance", size_hint = "1KB", read_only, open_world)]
pub async fn test_streaming_elicitation(ctx: &ToolContext) -> ToolResult<Content> {
    ctx.progress(0.0, Some(1.0), Some("asking")).await;
    let answer = ctx
        .elicit_with_schema("What is your name?", name_form("name"))
        .await?;
    Ok(Content::new().text(format!("Hello, {}!", field_or_action(answer, "name"))))
}

/// Log three info messages (sent only when the request asked for logs), then confirm.
#[mcp_tool(family = "conformance", size_hint = "1KB", read_only)]
pub async fn test_logging_tool(ctx: &ToolContext) -> ToolResult<Content> {
    for message in ["started", "working", "done"] {
        ctx.info(message).await;
    }
    Ok(Content::new().text("Logging tool executed"))
}

/// What `echo_region` repeats; `region` is mirrored into the `Mcp-Param-Region` header.
#[tool_args]
pub struct RegionArgs {
    /// The region name, e.g. "us-west1"; 2026-07-28 clients also send it as the
    /// `Mcp-Param-Region` header, which a load balancer can route on.
    #[schemars(extend("x-mcp-header" = "Region"))]
    pub region: String,
}

/// Repeat the region it was given. Its `region` argument is mirrored into an HTTP header
/// (SEP-2243 `x-mcp-header`), which the server checks against the body.
#[mcp_tool(family = "conformance", size_hint = "1KB", read_only)]
pub async fn echo_region(args: RegionArgs) -> ToolResult<Content> {
    Ok(Content::new().text(format!("Region: {}", args.region)))
}

// The tasks extension's fixtures (SEP-2663 scenarios of suite 0.2): their names are the suite's.

/// Who `greet` greets.
#[tool_args]
pub struct GreetArgs {
    /// The name to greet, e.g. "World".
    pub name: String,
}

/// Greet someone at once; never a task.
#[mcp_tool(
    family = "conformance",
    size_hint = "1KB",
    read_only,
    allow(tool_name = "name fixed by the conformance suite")
)]
pub async fn greet(args: GreetArgs) -> ToolResult<Content> {
    Ok(Content::new().text(format!("Hello, {}!", args.name)))
}

/// How long `slow_compute` works, and what it calls the run.
#[tool_args]
pub struct SlowComputeArgs {
    /// Seconds of work; 0 answers at once.
    #[arg(max = 3600)]
    pub seconds: u32,
    /// A name for this run, repeated in the answer, e.g. "nightly".
    #[arg(allow(vague_name = "the suite fixes this argument name"))]
    pub label: String,
}

/// Work for the given seconds, as a task when the client follows tasks, and say so. A
/// cancelled task stops at once.
#[mcp_tool(
    family = "conformance",
    size_hint = "1KB",
    read_only,
    allow(tool_name = "name fixed by the conformance suite")
)]
pub async fn slow_compute(ctx: &ToolContext, args: SlowComputeArgs) -> ToolResult<Content> {
    ctx.run_as_task()?;
    ctx.progress(0.0, Some(1.0), Some("computing")).await;
    tokio::time::sleep(Duration::from_secs(args.seconds.into())).await;
    Ok(Content::new().text(format!("{}: computed in {} s", args.label, args.seconds)))
}

/// Fail with a tool error after a second; runs only as a task.
#[mcp_tool(
    family = "conformance",
    size_hint = "1KB",
    read_only,
    allow(tool_name = "name fixed by the conformance suite")
)]
pub async fn failing_job(ctx: &ToolContext) -> ToolResult<Content> {
    ctx.require_task()?;
    tokio::time::sleep(Duration::from_secs(1)).await;
    Err(ToolError::new(
        "job_failed",
        "The job failed, as this fixture always does.",
    ))
}

/// Break (panic) inside a task: the task ends `failed` with a JSON-RPC error.
#[mcp_tool(
    family = "conformance",
    size_hint = "1KB",
    read_only,
    allow(tool_name = "name fixed by the conformance suite")
)]
pub async fn protocol_error_job(ctx: &ToolContext) -> ToolResult<Content> {
    ctx.run_as_task()?;
    panic!("protocol_error_job breaks on purpose");
}

/// Which file `confirm_delete` asks about.
#[tool_args]
pub struct ConfirmDeleteArgs {
    /// The file name to ask about, e.g. "notes.txt"; nothing is deleted.
    pub filename: String,
}

/// Ask the user, inside a task, to confirm deleting a file (key `confirm`); deletes nothing.
#[mcp_tool(family = "conformance", size_hint = "1KB", read_only, open_world)]
pub async fn confirm_delete(ctx: &ToolContext, args: ConfirmDeleteArgs) -> ToolResult<Content> {
    ctx.run_as_task()?;
    let form = json!({
        "type": "object",
        "properties": {"confirm": {"type": "boolean"}},
        "required": ["confirm"]
    });
    let answer = ctx
        .ask("confirm")
        .elicit_with_schema(format!("Delete {}?", args.filename), form)
        .await?;
    let yes = answer
        .accepted()
        .and_then(|c| c.get("confirm").and_then(|v| v.as_bool()))
        .unwrap_or(false);
    Ok(Content::new().text(format!(
        "{}: {}",
        args.filename,
        if yes { "confirmed" } else { "kept" }
    )))
}

/// Ask two questions at once inside a task (keys `first`, `second`) and repeat the names.
#[mcp_tool(
    family = "conformance",
    size_hint = "1KB",
    read_only,
    open_world,
    allow(tool_name = "name fixed by the conformance suite")
)]
pub async fn multi_input(ctx: &ToolContext) -> ToolResult<Content> {
    ctx.run_as_task()?;
    let (first, second) = tokio::join!(
        ctx.ask("first")
            .elicit_with_schema("First name?", name_form("name")),
        ctx.ask("second")
            .elicit_with_schema("Second name?", name_form("name")),
    );
    let (first, second) = (first?, second?);
    Ok(Content::new().text(format!(
        "{} and {}",
        field_or_action(first, "name"),
        field_or_action(second, "name")
    )))
}

/// Ask the user's name in the call (key `user_name`), then go on as a task that greets them.
#[mcp_tool(family = "conformance", size_hint = "1KB", read_only, open_world)]
pub async fn test_tool_with_task(ctx: &ToolContext) -> ToolResult<Content> {
    let answer = ctx
        .ask("user_name")
        .elicit_with_schema("What is your name?", name_form("name"))
        .await?;
    ctx.require_task()?;
    tokio::time::sleep(Duration::from_millis(200)).await;
    Ok(Content::new().text(format!("Hello, {}!", field_or_action(answer, "name"))))
}

/// The server `conformance_server` serves; tests build the same one in-process.
pub fn server() -> ToolServer {
    ToolServer::builder()
        .name("mcp-tool-conformance")
        .version(env!("CARGO_PKG_VERSION"))
        .families(["conformance"])
        // The crate also links the task-board tools, which `hello_tools` serves.
        .exclude_families(["board"])
        // The suite checks that `$schema`, `$defs` and `additionalProperties` reach the client.
        .schema_profile(SchemaProfile::JsonSchema)
        // Short-lived tasks: the suite polls them for seconds.
        .tasks(TaskSettings::default().ttl(Duration::from_secs(120)))
        .build()
        .unwrap_or_else(|e| panic!("{e}"))
}
