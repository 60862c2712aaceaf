//! What the `tools/call` span costs a call: the same direct call (no transport) with no
//! subscriber, with a subscriber that keeps `INFO` spans, and with one that turns them off.
//! See docs/observability.md for the numbers and how they compare with the code before the span.

use criterion::{Criterion, criterion_group, criterion_main};
use mcp_tool::ToolServer;
use mcp_tool::prelude::*;
use serde_json::json;
use tracing_subscriber::filter::LevelFilter;
use tracing_subscriber::layer::SubscriberExt;

#[tool_args]
pub struct GetEchoArgs {
    /// Words to send back.
    pub words: String,
}

/// Send the words back.
#[mcp_tool(family = "span_bench", size_hint = "1KB", read_only)]
pub async fn get_echo(args: GetEchoArgs) -> ToolResult<String> {
    Ok(args.words)
}

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let server = ToolServer::builder()
        .families(["span_bench"])
        .check_answers(false)
        .build()
        .unwrap();
    let call = || async {
        let answer = server
            .call("get_echo", json!({"words": "hello, bench"}))
            .await
            .unwrap();
        assert!(!answer.is_error);
        answer
    };
    let mut group = c.benchmark_group("direct_call");
    group.bench_function("no_subscriber", |b| b.to_async(&rt).iter(call));
    {
        // A registry records every span it is shown: the cost of a span that is kept.
        let _kept = tracing::subscriber::set_default(
            tracing_subscriber::registry().with(LevelFilter::INFO),
        );
        group.bench_function("info_spans_kept", |b| b.to_async(&rt).iter(call));
    }
    {
        let _off = tracing::subscriber::set_default(
            tracing_subscriber::registry().with(LevelFilter::WARN),
        );
        group.bench_function("info_spans_off", |b| b.to_async(&rt).iter(call));
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
