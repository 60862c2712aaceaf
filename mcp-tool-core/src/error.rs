//! Structured tool errors: what a model reads when a call goes wrong.

use serde::Serialize;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::fmt;

/// The result type every `#[mcp_tool]` function returns.
pub type ToolResult<T> = Result<T, ToolError>;

/// A tool error as it appears on the wire under `error` in the envelope.
///
/// `code` is a stable snake_case identifier a model (or a script) can branch on; the built-in
/// codes have constructors, and tools add their own with [`ToolError::new`].
///
/// ```
/// use mcp_tool::prelude::*;
///
/// fn find_session(prefix: &str, matches: &[&str]) -> ToolResult<String> {
///     match matches {
///         [one] => Ok(one.to_string()),
///         [] => Err(ToolError::not_found(format!("No session starts with '{prefix}'."))),
///         many => Err(ToolError::new(
///             "ambiguous_session_prefix",
///             format!("Session prefix '{prefix}' matches {} sessions. Give more characters.", many.len()),
///         )
///         .with_detail("prefix", prefix)
///         .with_detail("matches", many)),
///     }
/// }
///
/// let error = find_session("fb3", &["fb3c", "fb3a"]).unwrap_err();
/// assert_eq!(error.code(), "ambiguous_session_prefix");
/// assert!(!error.retryable);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolError {
    /// Stable snake_case identifier (see [`codes`] for the built-in ones).
    pub code: Cow<'static, str>,
    /// A sentence for the model: what went wrong and what to do instead.
    pub message: String,
    /// Facts the model can act on (the bad path, the allowed values, the candidates).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<Value>,
    /// Whether the same call may succeed later unchanged.
    pub retryable: bool,
}

/// The built-in error codes.
///
/// Client requests (sampling, elicitation) have their own:
/// [`client_requests::codes`](crate::client_requests::codes).
pub mod codes {
    /// An argument is missing, mistyped or out of range; `details.path` names it.
    pub const INVALID_PARAMETER: &str = "invalid_parameter";
    /// A `cursor` is mangled, from another tool or another query; start over without it.
    pub const INVALID_CURSOR: &str = "invalid_cursor";
    /// What the arguments name does not exist.
    pub const NOT_FOUND: &str = "not_found";
    /// The tool failed (a bug, a panic, an unexpected I/O error); not the caller's fault.
    pub const INTERNAL: &str = "internal";
    /// The call ran past the server's timeout; retryable.
    pub const TIMEOUT: &str = "timeout";
    /// The client cancelled the request.
    pub const CANCELLED: &str = "cancelled";
}

impl ToolError {
    /// An error with a tool-specific code, e.g. `ToolError::new("ambiguous_session_prefix", ...)`.
    pub fn new(code: impl Into<Cow<'static, str>>, message: impl Into<String>) -> Self {
        Self {
            code: code.into(),
            message: message.into(),
            details: None,
            retryable: false,
        }
    }

    /// A bad argument: `path` is the JSON path of the offending field (`limit`, `filter.kind`).
    pub fn invalid_parameter(path: impl Into<String>, message: impl Into<String>) -> Self {
        let path = path.into();
        Self::new(codes::INVALID_PARAMETER, message).with_detail("path", Value::String(path))
    }

    /// A cursor that cannot be used; `details.hint` tells the model how to start over.
    pub fn invalid_cursor(message: impl Into<String>) -> Self {
        Self::new(codes::INVALID_CURSOR, message).with_detail(
            "hint",
            Value::String(
                "Call the tool again without `cursor` (with the same other arguments) to start over."
                    .into(),
            ),
        )
    }

    /// What the arguments name does not exist (`not_found`).
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(codes::NOT_FOUND, message)
    }

    /// The tool itself failed (`internal`); say what, not how to fix the arguments.
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(codes::INTERNAL, message)
    }

    /// The work took too long (`timeout`, retryable).
    pub fn timeout(message: impl Into<String>) -> Self {
        Self::new(codes::TIMEOUT, message).retryable(true)
    }

    /// The client cancelled the request (`cancelled`); see [`ToolContext::is_cancelled`](crate::ToolContext::is_cancelled).
    pub fn cancelled() -> Self {
        Self::new(codes::CANCELLED, "The request was cancelled by the client.")
    }

    /// Sets `details` to a JSON object (or any serializable value).
    pub fn with_details(mut self, details: impl Serialize) -> Self {
        self.details = Some(serde_json::to_value(details).unwrap_or(Value::Null));
        self
    }

    /// Adds one key to the `details` object, creating it if needed.
    pub fn with_detail(mut self, key: &str, value: impl Serialize) -> Self {
        let value = serde_json::to_value(value).unwrap_or(Value::Null);
        match &mut self.details {
            Some(Value::Object(map)) => {
                map.insert(key.to_owned(), value);
            }
            _ => {
                let mut map = Map::new();
                map.insert(key.to_owned(), value);
                self.details = Some(Value::Object(map));
            }
        }
        self
    }

    /// Marks the error as worth retrying unchanged (timeouts, busy resources).
    pub fn retryable(mut self, retryable: bool) -> Self {
        self.retryable = retryable;
        self
    }

    /// The error code.
    pub fn code(&self) -> &str {
        &self.code
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}] {}", self.code, self.message)
    }
}

impl std::error::Error for ToolError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn details_accumulate_into_one_object() {
        let e = ToolError::invalid_parameter("limit", "too big").with_detail("maximum", 50);
        assert_eq!(e.code(), "invalid_parameter");
        assert_eq!(
            e.details,
            Some(serde_json::json!({"path": "limit", "maximum": 50}))
        );
        assert!(!e.retryable);
    }

    #[test]
    fn serializes_as_the_wire_error() {
        let e = ToolError::new("ambiguous_session_prefix", "two sessions").retryable(false);
        let v = serde_json::to_value(&e).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"code": "ambiguous_session_prefix", "message": "two sessions", "retryable": false})
        );
        assert!(ToolError::timeout("slow").retryable);
        assert_eq!(e.to_string(), "[ambiguous_session_prefix] two sessions");
    }
}
