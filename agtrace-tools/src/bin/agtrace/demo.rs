//! `agtrace demo`: a scripted MCP session over the sample logs bundled in the repository.
//!
//! A real rmcp client talks to the real server in-process; each request is printed with an
//! excerpt of its answer and the answer's size. The index goes to a temporary folder that is
//! removed afterwards; the samples are only read.

use super::Failure;
use super::output::outln;
use agtrace_tools::config::Config;
use agtrace_tools::store::TraceStore;
use mcp_tool::testing::{Answer, TestClient};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// Lines of each answer shown; the rest is counted, not printed.
const EXCERPT_LINES: usize = 18;

pub async fn run() -> Result<(), Failure> {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    if !samples.is_dir() {
        return Err(Failure::from(format!(
            "the bundled samples are not at {} (the demo runs from a checkout of the repository)",
            samples.display()
        )));
    }
    let data = TempDir::new()?;
    let config = Config::for_tree(&samples, &data.0);
    outln!("agtrace demo: the sample logs in {}", samples.display())?;
    outln!("(index in a temporary folder; the logs are only read)\n")?;

    let store = TraceStore::open(config)?;
    let stats = super::refresh(&store).await?;
    outln!(
        "indexed {} files, {} events in {} ms\n",
        stats.files_seen,
        stats.events_added,
        stats.elapsed_ms
    )?;

    let server = agtrace_tools::server::build(store)?;
    let client = TestClient::in_process(&server).await;
    let tools = client.list_tools().await;
    outln!("== initialize, tools/list: {} tools", tools.len())?;
    for t in &tools {
        let first_line = t
            .description
            .as_deref()
            .unwrap_or("")
            .lines()
            .next()
            .unwrap_or("");
        outln!("   {:<24} {}", t.name, first_line)?;
    }

    let sessions = step(&client, "list_sessions", json!({"limit": 5})).await?;
    let session = pick_session(sessions.data()).ok_or("the samples list no session")?;
    // A unique prefix is enough to name a session.
    let prefix: String = session.chars().take(12).collect();
    step(
        &client,
        "get_session_summary",
        json!({"session_id": prefix}),
    )
    .await?;
    step(&client, "get_session_turns", json!({"session_id": session})).await?;
    step(
        &client,
        "get_turn_steps",
        json!({"session_id": session, "turn_index": 0}),
    )
    .await?;
    let hits = step(
        &client,
        "search_event_previews",
        json!({"query": "test", "limit": 3}),
    )
    .await?;
    if let Some(hit) = hits.data().as_array().and_then(|h| h.first()) {
        let args = json!({"session_id": hit["session_id"], "event_index": hit["event_index"]});
        step(&client, "get_event_details", args).await?;
    }
    step(&client, "analyze_session", json!({"session_id": session})).await?;
    step(
        &client,
        "get_session_summary",
        json!({"session_id": "zzzzzzzz-not-a-session"}),
    )
    .await?;
    client.close().await;
    outln!(
        "\nEvery answer above is the envelope a model receives: `status`, `data` or `error`, `pagination`, `meta`."
    )?;
    Ok(())
}

/// The session with the most tool calls (then turns) among those listed: the most to look at.
fn pick_session(rows: &Value) -> Option<String> {
    let count = |r: &Value, k: &str| r[k].as_u64().unwrap_or(0);
    rows.as_array()?
        .iter()
        .max_by_key(|r| (count(r, "tool_calls"), count(r, "turns")))
        .and_then(|r| r["session_id"].as_str().or_else(|| r["id"].as_str()))
        .map(str::to_owned)
}

async fn step(client: &TestClient, tool: &str, arguments: Value) -> Result<Answer, Failure> {
    outln!("\n== tools/call {tool} {arguments}")?;
    let answer = client
        .try_call(tool, arguments)
        .await
        .map_err(|e| format!("{tool}: {e}"))?;
    let status = answer.envelope["status"].as_str().unwrap_or("?");
    let pages = match answer.envelope["pagination"]["has_more"].as_bool() {
        Some(true) => ", more pages",
        Some(false) => ", last page",
        None => "",
    };
    outln!(
        "<- {status}: {} bytes, ~{} tokens{pages}",
        answer.bytes(),
        mcp_tool::estimate_tokens(answer.bytes())
    )?;
    let shown = if answer.is_ok() {
        answer.data()
    } else {
        answer.error()
    };
    print_excerpt(shown)?;
    if let Some(hint) = answer.envelope["hint"].as_str() {
        outln!("   hint: {hint}")?;
    }
    Ok(answer)
}

fn print_excerpt(value: &Value) -> Result<(), Failure> {
    let pretty = serde_json::to_string_pretty(value).unwrap_or_default();
    let lines: Vec<&str> = pretty.lines().collect();
    for line in lines.iter().take(EXCERPT_LINES) {
        let cut: String = line.chars().take(110).collect();
        let more = if cut.len() < line.len() { "…" } else { "" };
        outln!("   {cut}{more}")?;
    }
    if lines.len() > EXCERPT_LINES {
        outln!("   … ({} more lines)", lines.len() - EXCERPT_LINES)?;
    }
    Ok(())
}

/// A folder removed when the demo ends, however it ends.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> std::io::Result<Self> {
        let path = std::env::temp_dir().join(format!("agtrace-demo-{}", std::process::id()));
        std::fs::create_dir_all(&path)?;
        Ok(Self(path))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
