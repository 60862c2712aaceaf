//! Each tool call is one `tools/call` span whose fields say which tool, how long, how large
//! the answer and how it ended, with the W3C trace context the caller passed.

use mcp_tool::ToolServer;
use mcp_tool::prelude::*;
use mcp_tool::telemetry::{CALL_SPAN, TraceContext};
use serde_json::json;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Subscriber, subscriber};
use tracing_subscriber::Layer;
use tracing_subscriber::layer::{Context, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;

#[tool_args]
pub struct GetEchoArgs {
    /// Words to send back.
    pub words: String,
}

/// Send the words back.
#[mcp_tool(family = "span_test", size_hint = "1KB", read_only)]
pub async fn get_echo(args: GetEchoArgs) -> ToolResult<String> {
    Ok(args.words)
}

/// Wait far longer than the server allows.
#[mcp_tool(family = "span_test", size_hint = "1KB", read_only)]
pub async fn wait_too_long() -> ToolResult<u32> {
    tokio::time::sleep(Duration::from_secs(30)).await;
    Ok(0)
}

/// The fields of a closed span, as text.
type Fields = BTreeMap<String, String>;

/// Keeps the fields of every closed `tools/call` span.
#[derive(Clone, Default)]
struct Spans(Arc<Mutex<Vec<Fields>>>);

struct Collect<'a>(&'a mut Fields);

impl Visit for Collect<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
}

impl<S: Subscriber + for<'a> LookupSpan<'a>> Layer<S> for Spans {
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        let mut fields = Fields::new();
        attrs.record(&mut Collect(&mut fields));
        ctx.span(id).unwrap().extensions_mut().insert(fields);
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, ctx: Context<'_, S>) {
        let span = ctx.span(id).unwrap();
        let mut extensions = span.extensions_mut();
        values.record(&mut Collect(extensions.get_mut::<Fields>().unwrap()));
    }

    fn on_close(&self, id: Id, ctx: Context<'_, S>) {
        let span = ctx.span(&id).unwrap();
        if span.name() == CALL_SPAN {
            let fields = span.extensions_mut().remove::<Fields>().unwrap();
            self.0.lock().unwrap().push(fields);
        }
    }
}

/// Runs `calls` with the spans captured, and returns the fields of each call's span.
async fn spans_of<F: Future<Output = ()>>(calls: impl FnOnce() -> F) -> Vec<Fields> {
    let spans = Spans::default();
    let _guard = subscriber::set_default(tracing_subscriber::registry().with(spans.clone()));
    calls().await;
    spans.0.lock().unwrap().clone()
}

fn server() -> ToolServer {
    ToolServer::builder()
        .families(["span_test"])
        .timeout(Duration::from_millis(200))
        .build()
        .unwrap()
}

fn millis(fields: &Fields) -> f64 {
    fields["duration_ms"].parse().unwrap()
}

#[tokio::test]
async fn an_ok_call_records_its_tool_size_duration_and_outcome() {
    let server = server();
    let mut bytes = 0;
    let spans = spans_of(|| async {
        let answer = server
            .call("get_echo", json!({"words": "hello"}))
            .await
            .unwrap();
        assert!(!answer.is_error);
        bytes = answer.bytes();
    })
    .await;
    assert_eq!(spans.len(), 1, "{spans:?}");
    let span = &spans[0];
    assert_eq!(span["tool"], "get_echo");
    assert_eq!(span["outcome"], "ok");
    assert_eq!(span["bytes"], bytes.to_string());
    assert!(millis(span) >= 0.0 && millis(span) < 5_000.0, "{span:?}");
    assert!(!span.contains_key("traceparent"), "{span:?}");
}

#[tokio::test]
async fn an_error_call_records_its_error_code() {
    let server = server();
    let spans = spans_of(|| async {
        let bad = server.call("get_echo", json!({"words": 3})).await.unwrap();
        assert!(bad.is_error);
        let late = server.call("wait_too_long", json!({})).await.unwrap();
        assert!(late.is_error);
    })
    .await;
    assert_eq!(spans.len(), 2, "{spans:?}");
    assert_eq!(spans[0]["tool"], "get_echo");
    assert_eq!(spans[0]["outcome"], "invalid_parameter");
    assert_eq!(spans[1]["tool"], "wait_too_long");
    assert_eq!(spans[1]["outcome"], "timeout");
    assert!(millis(&spans[1]) >= 200.0, "{:?}", spans[1]);
}

#[tokio::test]
async fn a_call_with_a_traceparent_records_the_trace_context() {
    const PARENT: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    let server = server();
    let meta = json!({"traceparent": PARENT, "tracestate": "vendor=abc", "progressToken": 7});
    let trace = TraceContext::from_meta(meta.as_object().unwrap());
    let spans = spans_of(|| async {
        let answer = server
            .call_traced("get_echo", json!({"words": "hi"}), &trace)
            .await
            .unwrap();
        assert!(!answer.is_error);
        let invalid = TraceContext::new(Some("00-nonsense"), Some("vendor=abc"));
        server
            .call_traced("get_echo", json!({"words": "hi"}), &invalid)
            .await
            .unwrap();
    })
    .await;
    assert_eq!(spans.len(), 2, "{spans:?}");
    assert_eq!(spans[0]["traceparent"], PARENT);
    assert_eq!(spans[0]["tracestate"], "vendor=abc");
    assert_eq!(spans[0]["outcome"], "ok");
    assert!(!spans[1].contains_key("traceparent"), "{:?}", spans[1]);
    assert!(!spans[1].contains_key("tracestate"), "{:?}", spans[1]);
}

#[tokio::test]
async fn a_traceparent_in_the_request_meta_reaches_the_span_over_mcp() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    const PARENT: &str = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    let server = server();
    let spans = spans_of(|| async {
        let (client, server_io) = tokio::io::duplex(1 << 16);
        let (server_read, server_write) = tokio::io::split(server_io);
        let serving = server.clone();
        tokio::spawn(async move { serving.serve_io(server_read, server_write).await });
        let (client_read, mut client_write) = tokio::io::split(client);
        let mut lines = BufReader::new(client_read).lines();
        let messages = [
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "span-test", "version": "1"}}}),
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
                "name": "get_echo", "arguments": {"words": "hi"},
                "_meta": {"traceparent": PARENT}}}),
        ];
        for m in &messages {
            client_write
                .write_all(format!("{m}\n").as_bytes())
                .await
                .unwrap();
        }
        // The answer to the call (id 2) closes the span.
        loop {
            let line = lines.next_line().await.unwrap().unwrap();
            let answer: serde_json::Value = serde_json::from_str(&line).unwrap();
            if answer["id"] == 2 {
                assert_eq!(answer["result"]["isError"], false, "{answer}");
                break;
            }
        }
    })
    .await;
    assert_eq!(spans.len(), 1, "{spans:?}");
    assert_eq!(spans[0]["traceparent"], PARENT);
    assert_eq!(spans[0]["tool"], "get_echo");
}
