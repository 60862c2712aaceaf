//! One call, from raw arguments to a finished envelope. Shared by MCP and direct calls.

use super::telemetry::{self, TraceContext};
use super::{Prepared, ToolServer};
use crate::context::ToolContext;
use crate::cursor;
use crate::envelope::{self, Envelope};
use crate::error::ToolError;
use crate::registry::Invocation;
use futures::FutureExt;
use serde_json::{Map, Value};
use std::panic::AssertUnwindSafe;
use std::time::Instant;
use tracing::Instrument;

/// The tool name matched nothing this server serves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownTool {
    /// The name asked for.
    pub name: String,
    /// Every tool the server serves, in `tools/list` order.
    pub available: Vec<String>,
}

impl std::fmt::Display for UnknownTool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown tool `{}`; available: {}",
            self.name,
            self.available.join(", ")
        )
    }
}

impl std::error::Error for UnknownTool {}

impl ToolServer {
    /// Calls a tool without MCP (a CLI, a script, a test) and returns its envelope.
    /// `arguments` must be a JSON object or null; anything else is an `invalid_parameter` answer.
    ///
    /// # Errors
    ///
    /// [`UnknownTool`] when no served tool has this name. A tool error is not an `Err`: it is
    /// an envelope with [`Envelope::is_error`] set, exactly what an MCP client would get.
    pub async fn call(&self, name: &str, arguments: Value) -> Result<Envelope, UnknownTool> {
        self.call_traced(name, arguments, &TraceContext::default())
            .await
    }

    /// [`call`](Self::call) as part of the caller's trace: the call's span
    /// ([`telemetry`](crate::telemetry)) records `trace` and, with the `otel` feature, is
    /// exported as a child of the span it names.
    ///
    /// # Errors
    ///
    /// [`UnknownTool`], as for [`call`](Self::call).
    pub async fn call_traced(
        &self,
        name: &str,
        arguments: Value,
        trace: &TraceContext,
    ) -> Result<Envelope, UnknownTool> {
        let prepared = self.prepared(name).ok_or_else(|| self.unknown(name))?;
        let arguments = match arguments {
            Value::Object(map) => map,
            Value::Null => Map::new(),
            other => {
                let e = ToolError::invalid_parameter(
                    "$",
                    format!(
                        "Arguments must be a JSON object, got {}.",
                        json_kind(&other)
                    ),
                );
                return Ok(envelope::failure(&e));
            }
        };
        Ok(self
            .run_traced(
                prepared,
                arguments,
                ToolContext::detached(prepared.def),
                trace.clone(),
            )
            .await)
    }

    pub(crate) fn unknown(&self, name: &str) -> UnknownTool {
        UnknownTool {
            name: name.to_owned(),
            available: self
                .inner
                .tools
                .iter()
                .map(|p| p.def.name.to_owned())
                .collect(),
        }
    }

    /// One call inside its span ([`telemetry`]), which records how long it took, how large
    /// its answer is and how it ended.
    pub(crate) async fn run_traced(
        &self,
        prepared: &Prepared,
        arguments: Map<String, Value>,
        context: ToolContext,
        trace: TraceContext,
    ) -> Envelope {
        let span = telemetry::call_span(prepared.def.name, &trace);
        let started = Instant::now();
        let answer = self
            .answer(prepared, arguments, context)
            .instrument(span.clone())
            .await;
        telemetry::finish(&span, started.elapsed(), &answer);
        answer
    }

    async fn answer(
        &self,
        prepared: &Prepared,
        mut arguments: Map<String, Value>,
        context: ToolContext,
    ) -> Envelope {
        let def = prepared.def;
        if def.paginated {
            cursor::drop_blank(&mut arguments);
        }
        let mut warnings: Vec<String> = arguments
            .keys()
            .filter(|k| !prepared.parameters.iter().any(|p| p == *k))
            .map(|k| format!("Unknown argument `{k}` was ignored."))
            .collect();

        let fingerprint = def
            .paginated
            .then(|| cursor::fingerprint(&arguments, &prepared.defaults, &prepared.parameters));
        if let (Some(fp), Some(Value::String(text))) = (&fingerprint, arguments.get("cursor"))
            && let Err(e) = cursor::verify(self.signing_keys(), text, def.name, fp)
        {
            return envelope::failure(&e);
        }

        let cancellation = context.cancellation().clone();
        // However the call ends (answered, timed out, cancelled, its future dropped), work it
        // left running outside its future sees the token cancelled and stops.
        let _call_over = cancellation.clone().drop_guard();
        let notes = context.notes();
        // The budget the tool was given: its own `size_hint`, or the client's smaller limit.
        let budget = context.size_hint();
        let invocation = Invocation {
            arguments,
            states: self.inner.states.clone(),
            context,
        };
        let call = AssertUnwindSafe((def.call)(invocation)).catch_unwind();
        let outcome = tokio::select! {
            biased;
            _ = cancellation.cancelled() => Err(ToolError::cancelled()),
            result = with_timeout(self.inner.timeout, call) => result,
        };
        let noted = notes.take();
        warnings.extend(noted.warnings);
        let answer = match outcome {
            Ok(mut output) => {
                if output.hint.is_none() {
                    output.hint = noted.hint;
                }
                let next = output.page.as_ref().and_then(|p| p.next.clone());
                let next_cursor = match (next, &fingerprint) {
                    (Some(position), Some(fp)) => {
                        Some(cursor::encode(self.signing_keys(), def.name, fp, position))
                    }
                    _ => None,
                };
                envelope::success(output, next_cursor, warnings, budget)
            }
            Err(error) => envelope::failure(&error),
        };
        #[cfg(feature = "answer-check")]
        let answer = checked(prepared, answer);
        answer
    }
}

/// `answer`, or an `internal` error naming the path where it breaks its tool's
/// `outputSchema` when the server checks answers.
#[cfg(feature = "answer-check")]
fn checked(prepared: &super::Prepared, answer: envelope::Envelope) -> envelope::Envelope {
    let def = prepared.def;
    match prepared
        .answer_check
        .as_ref()
        .and_then(|c| c.mismatch(&answer.value))
    {
        None => answer,
        Some(mismatch) => {
            tracing::error!(tool = def.name, path = %mismatch.path, message = %mismatch.message,
                "an answer breaks its tool's outputSchema");
            envelope::failure(
                &ToolError::internal(format!(
                    "The answer of `{}` does not match its outputSchema at `{}`: {}. \
                     This is a bug in the tool, not in the call.",
                    def.name, mismatch.path, mismatch.message
                ))
                .with_detail("tool", def.name)
                .with_detail("path", mismatch.path),
            )
        }
    }
}

async fn with_timeout<F, T>(timeout: Option<std::time::Duration>, call: F) -> Result<T, ToolError>
where
    F: std::future::Future<Output = std::thread::Result<Result<T, ToolError>>>,
{
    let finished = match timeout {
        None => call.await,
        Some(limit) => match tokio::time::timeout(limit, call).await {
            Ok(done) => done,
            Err(_) => {
                return Err(ToolError::timeout(format!(
                    "The tool did not finish within {} ms.",
                    limit.as_millis()
                )));
            }
        },
    };
    finished.unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        tracing::error!(panic = %what, "a tool panicked");
        Err(ToolError::internal(
            "The tool failed unexpectedly (it panicked); the server is still running.",
        )
        .with_detail("panic", what))
    })
}

/// "a string", "an object", ...: what a JSON value is, for error messages.
pub(super) fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
