//! One incoming message, checked before rmcp sees it, so that every message gets an answer.
//!
//! rmcp drops what it cannot decode: a line that is not JSON gets no answer at all, and a
//! well-formed `tools/call` whose params do not fit (`"arguments": "a string"`) is taken for
//! an unknown method (-32601). Both transports run each message through [`check`] first; what
//! it refuses is answered here with a JSON-RPC error, `"id": null` when the id is unknown, or,
//! for a notification (which must never be answered), logged on stderr.

use rmcp::model::{
    CallToolRequestParams, CancelledNotificationParam, ClientJsonRpcMessage, ClientNotification,
    ClientRequest, ErrorCode, InitializeRequestParams, JsonRpcMessage, PaginatedRequestParams,
    ProgressNotificationParam, SetLevelRequestParams,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::dispatch::json_kind;

/// Why a message is not passed on, and to whom the answer goes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Refusal {
    /// The request's id, `null` when it is unknown or unusable.
    pub id: Value,
    /// `-32700`, `-32600`, `-32601` (a method 2026-07-28 removed) or `-32602`.
    pub code: i32,
    /// What was wrong, in words a client's log or a model can act on.
    pub message: String,
    /// It was a notification: log it, never answer it (over HTTP, the status says it).
    pub notification: bool,
}

impl Refusal {
    fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            id: Value::Null,
            code: code.0,
            message: message.into(),
            notification: false,
        }
    }

    /// An invalid request with an unknown id (e.g. a body that did not arrive in time).
    pub fn invalid_request(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::INVALID_REQUEST, message)
    }

    /// The answer to a message larger than `max` bytes.
    pub fn too_large(max: usize) -> Self {
        Self::invalid_request(format!(
            "the message is larger than the limit of {max} bytes (max_message_bytes) \
             and was dropped"
        ))
    }

    /// The JSON-RPC error response, as one line of JSON.
    pub fn answer(&self) -> Vec<u8> {
        // A struct, not `json!`, to keep the usual field order (`jsonrpc` first).
        #[derive(Serialize)]
        struct Answer<'a> {
            jsonrpc: &'static str,
            id: &'a Value,
            error: Error<'a>,
        }
        #[derive(Serialize)]
        struct Error<'a> {
            code: i32,
            message: &'a str,
        }
        let answer = Answer {
            jsonrpc: "2.0",
            id: &self.id,
            error: Error {
                code: self.code,
                message: &self.message,
            },
        };
        serde_json::to_vec(&answer).expect("strings and JSON values always serialize")
    }

    /// Leaves a line on stderr for a refusal that is not answered (a notification's).
    pub fn log(&self) {
        if self.notification {
            tracing::warn!(
                code = self.code,
                "ignored a bad notification: {}",
                self.message
            );
        } else {
            tracing::debug!(code = self.code, id = %self.id, "refused a message: {}", self.message);
        }
    }
}

/// Checks one message (a line on stdio, a body over HTTP), already within the size limit:
/// the message for rmcp, or what to answer instead.
pub(crate) fn check(bytes: &[u8]) -> Result<ClientJsonRpcMessage, Refusal> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    // The common case, a good message, costs one parse; a bad one is parsed again below to
    // say what is wrong with it.
    match serde_json::from_slice::<ClientJsonRpcMessage>(bytes) {
        Ok(message) => match removed_method(&message).or_else(|| params_problem(&message)) {
            Some(refusal) => Err(refusal),
            None => Ok(message),
        },
        Err(decode) => Err(diagnose(bytes, decode)),
    }
}

/// Why `bytes` is not a JSON-RPC message rmcp can decode.
fn diagnose(bytes: &[u8], decode: serde_json::Error) -> Refusal {
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            return Refusal::new(
                ErrorCode::PARSE_ERROR,
                format!(
                    "the message is not UTF-8 (invalid byte at offset {}); JSON-RPC messages \
                     are UTF-8 JSON",
                    e.valid_up_to()
                ),
            );
        }
    };
    // serde_json stops at 128 levels of nesting, so a hostile `[[[[...` costs no stack.
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(e) => {
            return Refusal::new(
                ErrorCode::PARSE_ERROR,
                format!("the message is not valid JSON: {e}"),
            );
        }
    };
    let object = match value {
        Value::Object(object) => object,
        Value::Array(items) if items.is_empty() => {
            return Refusal::new(ErrorCode::INVALID_REQUEST, "an empty JSON-RPC batch");
        }
        Value::Array(_) => {
            return Refusal::new(
                ErrorCode::INVALID_REQUEST,
                "JSON-RPC batches are not supported (MCP removed them in revision \
                 2025-06-18): send each message on its own",
            );
        }
        other => {
            return Refusal::new(
                ErrorCode::INVALID_REQUEST,
                format!("a JSON-RPC message is an object, not {}", json_kind(&other)),
            );
        }
    };
    let id = object.get("id").cloned();
    let method = object.get("method");
    let mut refusal = Refusal::new(ErrorCode::INVALID_REQUEST, "");
    refusal.notification = id.is_none() && method.is_some_and(Value::is_string);
    if let Some(id) = id.as_ref().filter(|id| is_usable_id(id)) {
        refusal.id = id.clone();
    }
    let params = object.get("params").filter(|params| !params.is_object());
    refusal.message = match (object.get("jsonrpc"), method, &id) {
        (version, _, _) if version != Some(&json!("2.0")) => format!(
            "`jsonrpc` must be \"2.0\", found {}",
            version.map_or("nothing".to_owned(), Value::to_string)
        ),
        (_, Some(method), _) if !method.is_string() => {
            format!("`method` must be a string, found {}", json_kind(method))
        }
        (_, _, Some(id)) if !is_usable_id(id) => {
            format!(
                "`id` must be a string or an integer, found {}",
                json_kind(id)
            )
        }
        (_, None, _) if !object.contains_key("result") && !object.contains_key("error") => {
            "the message has no `method` (a request or notification) and no `result` or \
             `error` (a response)"
                .to_owned()
        }
        (_, Some(Value::String(method)), _) if params.is_some() => {
            refusal.code = ErrorCode::INVALID_PARAMS.0;
            format!(
                "invalid `{method}` params: they must be an object, found {}",
                params.map_or("nothing", json_kind)
            )
        }
        _ => format!("the message is not a valid JSON-RPC message: {decode}"),
    };
    refusal
}

/// Methods the 2026-07-28 revision removed (the session lifecycle, and what needed a session).
const REMOVED_IN_2026: &[&str] = &[
    "initialize",
    "ping",
    "logging/setLevel",
    "resources/subscribe",
    "resources/unsubscribe",
];

/// A request that declares revision 2026-07-28 or later in its `_meta` and names a method that
/// revision removed: `-32601` (over HTTP, `404`), as that revision requires, rather than
/// whatever its older params would make of it.
fn removed_method(message: &ClientJsonRpcMessage) -> Option<Refusal> {
    use rmcp::model::GetMeta;
    let JsonRpcMessage::Request(request) = message else {
        return None;
    };
    let method = request.request.method();
    if !REMOVED_IN_2026.contains(&method) {
        return None;
    }
    // rmcp moves a request's `_meta` out of its params; a request it could not type may keep it.
    let custom_meta = match &request.request {
        ClientRequest::CustomRequest(custom) => custom
            .params
            .as_ref()
            .and_then(|p| p.get("_meta")?.get(PROTOCOL_VERSION_KEY)?.as_str())
            .map(str::to_owned),
        _ => None,
    };
    let version = request
        .request
        .get_meta()
        .protocol_version()
        .map(|v| v.as_str().to_owned())
        .or(custom_meta)?;
    if version.as_str() < rmcp::model::ProtocolVersion::V_2026_07_28.as_str() {
        return None;
    }
    let mut refusal = Refusal::new(
        ErrorCode::METHOD_NOT_FOUND,
        format!(
            "`{method}` does not exist in protocol revision {version}, which this request \
             declares in its _meta (revision 2026-07-28 removed it)"
        ),
    );
    refusal.id = serde_json::to_value(&request.id).unwrap_or(Value::Null);
    Some(refusal)
}

const PROTOCOL_VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";

/// A decoded message whose params rmcp could not type: -32602 for a request, a log line for a
/// notification. rmcp decodes these methods' params into types and, when that fails, takes the
/// message for a custom one (-32601 for a request), although the method exists.
fn params_problem(message: &ClientJsonRpcMessage) -> Option<Refusal> {
    let (method, params, id) = match message {
        JsonRpcMessage::Request(request) => match &request.request {
            ClientRequest::CustomRequest(custom) => (
                custom.method.as_str(),
                custom.params.clone(),
                Some(&request.id),
            ),
            _ => return None,
        },
        JsonRpcMessage::Notification(notification) => match &notification.notification {
            ClientNotification::CustomNotification(custom) => {
                (custom.method.as_str(), custom.params.clone(), None)
            }
            _ => return None,
        },
        _ => return None,
    };
    let problem = match method {
        "initialize" => type_error::<InitializeRequestParams>(params),
        "tools/call" => type_error::<CallToolRequestParams>(params),
        "tools/list" => type_error::<Option<PaginatedRequestParams>>(params),
        "logging/setLevel" => type_error::<SetLevelRequestParams>(params),
        "notifications/cancelled" => type_error::<CancelledNotificationParam>(params),
        "notifications/progress" => type_error::<ProgressNotificationParam>(params),
        _ => return None,
    };
    let mut refusal = Refusal::new(
        ErrorCode::INVALID_PARAMS,
        format!(
            "invalid `{method}` params: {}",
            problem.unwrap_or_else(|| "they do not fit the method".to_owned())
        ),
    );
    match id {
        Some(id) => refusal.id = serde_json::to_value(id).unwrap_or(Value::Null),
        None => refusal.notification = true,
    }
    Some(refusal)
}

/// Where and why `params` do not decode as `T`, if they do not.
fn type_error<T: DeserializeOwned>(params: Option<Value>) -> Option<String> {
    let params = params.unwrap_or(Value::Null);
    let error = serde_path_to_error::deserialize::<_, T>(params).err()?;
    let path = error.path().to_string();
    Some(if path == "." {
        error.inner().to_string()
    } else {
        format!("at `{path}`: {}", error.inner())
    })
}

fn is_usable_id(id: &Value) -> bool {
    id.is_string() || id.is_i64() || id.is_u64()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(bytes: &[u8]) -> Refusal {
        check(bytes).expect_err("refused")
    }

    #[test]
    fn good_messages_pass() {
        for message in [
            r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"x","arguments":{}}}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"no/such"}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            r#"{"jsonrpc":"2.0","id":3,"result":{}}"#,
        ] {
            assert!(check(message.as_bytes()).is_ok(), "{message}");
        }
    }

    #[test]
    fn what_is_not_json_is_a_parse_error_with_a_null_id() {
        for (bytes, says) in [
            (&b"{\"jsonrpc\":"[..], "not valid JSON"),
            (
                &b"{\"a\":\"\xff\"}"[..],
                "not UTF-8 (invalid byte at offset 6)",
            ),
            (&[b'['; 100_000][..], "recursion limit exceeded"),
        ] {
            let refusal = refused(bytes);
            assert_eq!((refusal.code, &refusal.id), (-32700, &Value::Null));
            assert!(refusal.message.contains(says), "{}", refusal.message);
        }
    }

    #[test]
    fn a_bad_request_says_what_is_wrong_and_keeps_a_usable_id() {
        for (message, id, says) in [
            (
                r#"{"jsonrpc":"1.0","id":7,"method":"ping"}"#,
                json!(7),
                "`jsonrpc` must be \"2.0\", found \"1.0\"",
            ),
            (
                r#"{"jsonrpc":"2.0","id":"x","params":{}}"#,
                json!("x"),
                "has no `method`",
            ),
            (
                r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
                Value::Null,
                "`id` must be a string or an integer, found null",
            ),
            (
                r#"{"jsonrpc":"2.0","id":1,"method":3}"#,
                json!(1),
                "`method` must be a string",
            ),
            (
                r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
                Value::Null,
                "batches are not supported",
            ),
            ("[]", Value::Null, "empty JSON-RPC batch"),
            ("42", Value::Null, "an object, not a number"),
        ] {
            let refusal = refused(message.as_bytes());
            assert_eq!((refusal.code, &refusal.id), (-32600, &id), "{message}");
            assert!(
                refusal.message.contains(says),
                "{message}: {}",
                refusal.message
            );
            assert!(!refusal.notification, "{message}");
        }
    }

    #[test]
    fn params_that_do_not_fit_a_known_method_are_invalid_params() {
        let refusal = refused(
            br#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"x","arguments":"a string"}}"#,
        );
        assert_eq!((refusal.code, refusal.id), (-32602, json!(5)));
        assert!(
            refusal
                .message
                .starts_with("invalid `tools/call` params: at `arguments`: invalid type: string"),
            "{}",
            refusal.message
        );
        let refusal = refused(br#"{"jsonrpc":"2.0","id":6,"method":"tools/list","params":[1]}"#);
        assert_eq!((refusal.code, refusal.id), (-32602, json!(6)));
        assert!(
            refusal
                .message
                .contains("must be an object, found an array"),
            "{}",
            refusal.message
        );
    }

    #[test]
    fn a_bad_notification_is_refused_but_marked_for_the_log_only() {
        for message in [
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":"soon"}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":[]}}"#,
            r#"{"jsonrpc":"1.0","method":"notifications/initialized"}"#,
        ] {
            assert!(refused(message.as_bytes()).notification, "{message}");
        }
    }

    #[test]
    fn methods_removed_in_2026_are_not_found_only_for_requests_that_declare_it() {
        let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
        for method in ["initialize", "logging/setLevel", "ping"] {
            let message =
                format!(r#"{{"jsonrpc":"2.0","id":9,"method":"{method}","params":{{{meta}}}}}"#);
            let refusal = refused(message.as_bytes());
            assert_eq!((refusal.code, refusal.id), (-32601, json!(9)), "{method}");
            assert!(
                refusal.message.contains("2026-07-28"),
                "{}",
                refusal.message
            );
        }
        // The same methods in the session era pass (or fail on their own params).
        assert!(check(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#).is_ok());
        let old = br#"{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"info","_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25"}}}"#;
        assert!(check(old).is_ok());
    }

    #[test]
    fn the_answer_is_one_json_rpc_error_line() {
        let answer = String::from_utf8(Refusal::too_large(10).answer()).unwrap();
        assert_eq!(
            answer,
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"the message is larger than the limit of 10 bytes (max_message_bytes) and was dropped"}}"#
        );
    }
}
