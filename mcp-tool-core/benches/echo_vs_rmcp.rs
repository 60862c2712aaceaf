//! Per-call cost of mcp-tool next to plain rmcp: the same trivial tool (echo of a 3-field
//! struct), served over an in-memory duplex and called by the same rmcp client, one run.
//!
//! `cargo bench -p mcp-tool-core --bench echo_vs_rmcp`; results in docs/benchmarks.md,
//! "Per-call overhead next to plain rmcp".

use criterion::{Criterion, criterion_group, criterion_main};
use mcp_tool::ToolServer;
use mcp_tool::prelude::*;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt, tool, tool_router};
use serde_json::json;

// ---- (a) mcp-tool -------------------------------------------------------------------------

#[tool_args]
pub struct FormatMessageArgs {
    /// The message to send back.
    pub message: String,
    /// A number to send back.
    pub priority: u32,
    /// Labels to send back.
    pub labels: Vec<String>,
}

#[tool_output]
pub struct Echoed {
    pub message: String,
    pub priority: u32,
    pub labels: Vec<String>,
}

/// Send the arguments back unchanged.
#[mcp_tool(
    name = "format_message",
    family = "bench",
    size_hint = "4KB",
    read_only
)]
pub async fn format_message(args: FormatMessageArgs) -> ToolResult<Echoed> {
    Ok(Echoed {
        message: args.message,
        priority: args.priority,
        labels: args.labels,
    })
}

// ---- (b) plain rmcp ---------------------------------------------------------------------

#[derive(serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
pub struct PlainArgs {
    pub message: String,
    pub priority: u32,
    pub labels: Vec<String>,
}

#[derive(Clone)]
pub struct PlainServer;

#[tool_router(server_handler)]
impl PlainServer {
    #[tool(description = "Send the arguments back unchanged.")]
    async fn format_message(&self, Parameters(args): Parameters<PlainArgs>) -> Json<PlainArgs> {
        Json(args)
    }
}

// ---- harness ----------------------------------------------------------------------------

async fn client_for_mcp_tool() -> RunningService<RoleClient, ()> {
    let server = ToolServer::builder()
        .name("bench")
        .version("0")
        .families(["bench"])
        .build()
        .unwrap();
    let (c, s) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move { server.serve(s).await });
    ().serve(c).await.unwrap()
}

async fn client_for_rmcp() -> RunningService<RoleClient, ()> {
    let (c, s) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        let running = PlainServer.serve(s).await.unwrap();
        let _ = running.waiting().await;
    });
    ().serve(c).await.unwrap()
}

fn request() -> CallToolRequestParams {
    let args = json!({"message": "hello, bench", "priority": 3, "labels": ["a", "b", "c"]});
    CallToolRequestParams::new("format_message").with_arguments(args.as_object().unwrap().clone())
}

fn bench(c: &mut Criterion) {
    // One thread for client and server: the bench measures the work of a call, not how the
    // scheduler happens to spread two tasks over two cores (which made runs swing by ±30%).
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let ours = rt.block_on(client_for_mcp_tool());
    let plain = rt.block_on(client_for_rmcp());
    // Both answer the same call successfully before anything is timed.
    for client in [&ours, &plain] {
        let r = rt.block_on(client.peer().call_tool(request())).unwrap();
        assert_eq!(r.is_error, Some(false));
    }
    let mut group = c.benchmark_group("echo_call");
    group.bench_function("mcp_tool", |b| {
        b.to_async(&rt)
            .iter(|| async { ours.peer().call_tool(request()).await.unwrap() })
    });
    group.bench_function("rmcp_tool_router", |b| {
        b.to_async(&rt)
            .iter(|| async { plain.peer().call_tool(request()).await.unwrap() })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
