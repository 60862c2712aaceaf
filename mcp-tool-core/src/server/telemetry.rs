//! One `tracing` span per tool call, and, with the `otel` feature, its export to
//! OpenTelemetry as a child of the client's trace.
//!
//! The span is named [`CALL_SPAN`] (`tools/call`), at level `INFO`, with the fields
//!
//! | field | value |
//! | --- | --- |
//! | `tool` | the tool's wire name |
//! | `duration_ms` | wall time of the call, from arguments to finished answer |
//! | `bytes` | bytes of the answer (its JSON text) |
//! | `outcome` | `ok`, or the error code (`invalid_parameter`, `timeout`, `cancelled`, ...) |
//! | `traceparent`, `tracestate` | the W3C trace context the client sent in the request's `_meta` |
//!
//! A subscriber that does not want `INFO` spans of this crate pays for none of it but a
//! clock read. With `otel`, `otel::layer` exports the spans over OTLP, each the child of
//! the span the client's `traceparent` names.

use crate::envelope::Envelope;
use serde_json::{Map, Value};
use std::time::Duration;
use tracing::Span;
use tracing::field::Empty;

/// The name of the span around each tool call.
pub const CALL_SPAN: &str = "tools/call";

/// A W3C trace context (`traceparent`, `tracestate`), as an MCP client passes it in a
/// request's `_meta`. Invalid values are dropped, as the W3C spec asks, so a span never
/// claims a parent that does not exist.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TraceContext {
    traceparent: Option<String>,
    tracestate: Option<String>,
}

impl TraceContext {
    /// The trace context in a request's `_meta` (its `traceparent` and `tracestate` keys).
    pub fn from_meta(meta: &Map<String, Value>) -> Self {
        let text = |key: &str| meta.get(key).and_then(Value::as_str);
        Self::new(text("traceparent"), text("tracestate"))
    }

    /// A trace context from header values: `traceparent` must be valid
    /// (`00-<32 hex>-<16 hex>-<2 hex>`, ids not all zero), or both are dropped.
    pub fn new(traceparent: Option<&str>, tracestate: Option<&str>) -> Self {
        let Some(parent) = traceparent.map(str::trim).filter(|p| valid_traceparent(p)) else {
            if let Some(bad) = traceparent {
                tracing::debug!(traceparent = bad, "an invalid traceparent was ignored");
            }
            return Self::default();
        };
        let state = tracestate.map(str::trim).filter(|s| {
            !s.is_empty() && s.len() <= 512 && s.bytes().all(|b| (0x20..0x7f).contains(&b))
        });
        Self {
            traceparent: Some(parent.to_owned()),
            tracestate: state.map(str::to_owned),
        }
    }

    /// The validated `traceparent`, if the client sent one.
    pub fn traceparent(&self) -> Option<&str> {
        self.traceparent.as_deref()
    }

    /// The `tracestate` sent with a valid `traceparent`.
    pub fn tracestate(&self) -> Option<&str> {
        self.tracestate.as_deref()
    }
}

/// `version-traceid-parentid-flags` of W3C Trace Context level 1: lower-case hex, version
/// not `ff`, ids not all zeros; a later version may append fields after a `-`.
fn valid_traceparent(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.len() < 55 || (bytes.len() > 55 && bytes[55] != b'-') {
        return false;
    }
    let hex = |range: std::ops::Range<usize>| {
        bytes[range]
            .iter()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    };
    let zero = |range: std::ops::Range<usize>| bytes[range].iter().all(|&b| b == b'0');
    let version_ok =
        hex(0..2) && &bytes[0..2] != b"ff" && (bytes.len() == 55 || &bytes[0..2] != b"00");
    version_ok
        && bytes[2] == b'-'
        && bytes[35] == b'-'
        && bytes[52] == b'-'
        && hex(3..35)
        && !zero(3..35)
        && hex(36..52)
        && !zero(36..52)
        && hex(53..55)
}

/// The span for one call of `tool`; [`finish`] records how it ended.
pub(crate) fn call_span(tool: &'static str, trace: &TraceContext) -> Span {
    let span = tracing::info_span!(
        CALL_SPAN,
        tool,
        duration_ms = Empty,
        bytes = Empty,
        outcome = Empty,
        traceparent = trace.traceparent(),
        tracestate = trace.tracestate(),
        otel.name = Empty,
        otel.kind = "server",
        otel.status_code = Empty,
    );
    #[cfg(feature = "otel")]
    if !span.is_disabled() {
        otel::adopt_parent(&span, tool, trace);
    }
    span
}

/// Records the call's duration, answer size and outcome on its span.
pub(crate) fn finish(span: &Span, elapsed: Duration, answer: &Envelope) {
    if span.is_disabled() {
        return;
    }
    span.record("duration_ms", elapsed.as_secs_f64() * 1000.0);
    span.record("bytes", answer.bytes() as u64);
    let outcome = if answer.is_error {
        answer.value["error"]["code"].as_str().unwrap_or("error")
    } else {
        "ok"
    };
    span.record("outcome", outcome);
    if answer.is_error {
        span.record("otel.status_code", "ERROR");
    }
}

#[cfg(feature = "otel")]
pub mod otel {
    //! OTLP export of the call spans (feature `otel`).
    //!
    //! ```no_run
    //! use tracing_subscriber::layer::SubscriberExt;
    //! use tracing_subscriber::util::SubscriberInitExt;
    //!
    //! // OTEL_EXPORTER_OTLP_ENDPOINT (default http://localhost:4318) says where to.
    //! let (otel, _flush_on_exit) = mcp_tool::telemetry::otel::layer("notes").unwrap();
    //! tracing_subscriber::registry()
    //!     .with(otel)
    //!     .with(tracing_subscriber::fmt::layer().with_writer(std::io::stderr))
    //!     .init();
    //! ```

    use super::TraceContext;
    use opentelemetry::propagation::{Extractor, TextMapPropagator};
    use opentelemetry::trace::TracerProvider as _;
    use opentelemetry_sdk::Resource;
    use opentelemetry_sdk::propagation::TraceContextPropagator;
    use opentelemetry_sdk::trace::SdkTracerProvider;
    use tracing::Span;
    use tracing::subscriber::Subscriber;
    use tracing_opentelemetry::OpenTelemetrySpanExt;
    use tracing_subscriber::registry::LookupSpan;

    /// Flushes and stops the exporter when dropped: keep it alive until the process ends.
    #[must_use = "dropping the guard stops the export"]
    pub struct OtelGuard {
        provider: SdkTracerProvider,
    }

    impl Drop for OtelGuard {
        fn drop(&mut self) {
            if let Err(e) = self.provider.shutdown() {
                eprintln!("OpenTelemetry export did not shut down cleanly: {e}");
            }
        }
    }

    /// The exporter could not be set up.
    #[derive(Debug, thiserror::Error)]
    #[error("OpenTelemetry export could not start: {0}")]
    pub struct OtelError(String);

    /// A `tracing` layer that exports spans over OTLP/HTTP (protobuf) as `service_name`,
    /// configured by the standard `OTEL_EXPORTER_OTLP_*` variables, and the guard that
    /// flushes them at exit.
    ///
    /// # Errors
    ///
    /// The exporter could not be built (e.g. an invalid endpoint).
    pub fn layer<S>(
        service_name: &str,
    ) -> Result<(impl tracing_subscriber::Layer<S>, OtelGuard), OtelError>
    where
        S: Subscriber + for<'span> LookupSpan<'span>,
    {
        let exporter = opentelemetry_otlp::SpanExporter::builder()
            .with_http()
            .build()
            .map_err(|e| OtelError(e.to_string()))?;
        let provider = SdkTracerProvider::builder()
            .with_batch_exporter(exporter)
            .with_resource(
                Resource::builder()
                    .with_service_name(service_name.to_owned())
                    .build(),
            )
            .build();
        let layer = layer_with(&provider);
        Ok((layer, OtelGuard { provider }))
    }

    /// A layer over a provider built elsewhere (another exporter, a test's in-memory one).
    pub fn layer_with<S>(provider: &SdkTracerProvider) -> impl tracing_subscriber::Layer<S> + use<S>
    where
        S: Subscriber + for<'span> LookupSpan<'span>,
    {
        tracing_opentelemetry::layer().with_tracer(provider.tracer("mcp-tool-core"))
    }

    struct Carrier<'a>(&'a TraceContext);

    impl Extractor for Carrier<'_> {
        fn get(&self, key: &str) -> Option<&str> {
            match key {
                "traceparent" => self.0.traceparent(),
                "tracestate" => self.0.tracestate(),
                _ => None,
            }
        }

        fn keys(&self) -> Vec<&str> {
            vec!["traceparent", "tracestate"]
        }
    }

    /// Names the span as the MCP semantic conventions do, and makes it the child of the
    /// client's span when the call came with a `traceparent`.
    pub(super) fn adopt_parent(span: &Span, tool: &str, trace: &TraceContext) {
        span.record("otel.name", format!("{} {tool}", super::CALL_SPAN));
        if trace.traceparent().is_none() {
            return;
        }
        let parent = TraceContextPropagator::new().extract(&Carrier(trace));
        if let Err(e) = span.set_parent(parent) {
            tracing::debug!(error = %e, "the call's span could not adopt the client's trace");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PARENT: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    #[test]
    fn only_a_valid_traceparent_is_kept_and_tracestate_only_with_it() {
        let kept = TraceContext::new(Some(PARENT), Some("congo=t61rcWkgMzE"));
        assert_eq!(kept.traceparent(), Some(PARENT));
        assert_eq!(kept.tracestate(), Some("congo=t61rcWkgMzE"));
        for bad in [
            "",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
        ] {
            let dropped = TraceContext::new(Some(bad), Some("congo=t61rcWkgMzE"));
            assert_eq!(dropped, TraceContext::default(), "{bad}");
        }
        let future = format!("01{}-later", &PARENT[2..]);
        assert!(
            TraceContext::new(Some(&future), None)
                .traceparent()
                .is_some()
        );
    }

    #[test]
    fn the_trace_context_is_read_from_meta() {
        let meta = serde_json::json!({"traceparent": PARENT, "progressToken": 1});
        let trace = TraceContext::from_meta(meta.as_object().unwrap());
        assert_eq!(trace.traceparent(), Some(PARENT));
        assert_eq!(trace.tracestate(), None);
    }
}
