//! Multi-round `tools/call` for the 2026-07-28 revision (SEP-2322): what a tool asks the
//! client through its [`ToolContext`](crate::ToolContext) becomes an `input_required` result.
//!
//! That revision has no server-to-client requests. A call whose tool asks for a model
//! completion, a form, or the client's roots is answered with `resultType: "input_required"`,
//! the questions in `inputRequests` and the answers so far in `requestState`; the client asks
//! its user or model and calls again with `inputResponses` and the state. The tool is run again
//! from the start, and each question it asks is answered from what the client sent, until it
//! asks nothing new and finishes.
//!
//! The state is sealed with the server's signing keys (see [`crate::seal`]) and bound to the
//! tool and its arguments: a state that was altered, made up, or taken from another call is
//! refused with `-32602` and `data.code = "invalid_request_state"`, never trusted. Replicas
//! configured with the same keys accept each other's states, so the rounds of one call may
//! reach different replicas.

use crate::client_requests::ClientCapability;
use crate::seal::{SealError, SigningKeys};
use rmcp::ErrorData as McpError;
use rmcp::model::{ClientCapabilities, InputRequest, InputRequests, InputResponses};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The seal purpose of a `requestState`, per tool: a state made for one tool never opens for
/// another.
fn purpose(tool: &str) -> String {
    format!("mcp-tool/input-required/v1/{tool}")
}

/// What a sealed `requestState` holds.
#[derive(Serialize, Deserialize)]
struct SavedState {
    /// SHA-256 of the call's arguments, so the state cannot be replayed with other arguments.
    args: String,
    /// Every answer the client has given in the earlier rounds, by question key.
    answers: Map<String, Value>,
}

/// One round of a 2026-07-28 call: the client's answers so far, and the questions the tool
/// asked that they do not cover.
pub(crate) struct InputRound {
    answers: Map<String, Value>,
    capabilities: ClientCapabilities,
    asked: Mutex<BTreeMap<String, InputRequest>>,
    missing: Mutex<Option<ClientCapability>>,
    next_key: AtomicUsize,
}

impl InputRound {
    /// The round for a call with these arguments: the sealed answers of earlier rounds (from
    /// `request_state`) merged with the new ones (`input_responses`), which win.
    pub fn open(
        keys: &SigningKeys,
        tool: &str,
        args: &Map<String, Value>,
        capabilities: ClientCapabilities,
        request_state: Option<&str>,
        input_responses: Option<InputResponses>,
    ) -> Result<Self, McpError> {
        let mut answers = match request_state {
            None => Map::new(),
            Some(token) => {
                let refuse = |reason: String| {
                    McpError::invalid_params(
                        format!(
                            "requestState was refused: {reason}. Send requestState exactly as \
                             the server returned it, with the same tool and arguments, or call \
                             again without it to start over."
                        ),
                        Some(json!({"code": "invalid_request_state", "reason": reason})),
                    )
                };
                let payload = keys
                    .open(&purpose(tool), token)
                    .map_err(|e: SealError| refuse(e.to_string()))?;
                let saved: SavedState = serde_json::from_slice(&payload)
                    .map_err(|e| refuse(format!("its content does not decode: {e}")))?;
                if saved.args != digest(args) {
                    return Err(refuse(
                        "it was made for a call with other arguments".to_owned(),
                    ));
                }
                saved.answers
            }
        };
        answers.extend(input_responses.unwrap_or_default());
        Ok(Self {
            answers,
            capabilities,
            asked: Mutex::default(),
            missing: Mutex::default(),
            next_key: AtomicUsize::new(0),
        })
    }

    /// A round inside a task: the answers the client gave so far, nothing sealed.
    pub fn resume(capabilities: ClientCapabilities, answers: Map<String, Value>) -> Self {
        Self {
            answers,
            capabilities,
            asked: Mutex::default(),
            missing: Mutex::default(),
            next_key: AtomicUsize::new(0),
        }
    }

    /// Every answer this round holds: the earlier rounds' and this request's.
    pub fn answers(&self) -> &Map<String, Value> {
        &self.answers
    }

    /// The client capabilities this request declared in its `_meta`.
    pub fn capabilities(&self) -> &ClientCapabilities {
        &self.capabilities
    }

    /// The key of the next question: the one given, or the next in call order (a tool that
    /// asks the same questions in the same order gets the same keys in every round).
    pub fn key(&self, given: Option<&str>, kind: &str) -> String {
        let n = self.next_key.fetch_add(1, Ordering::Relaxed);
        match given {
            Some(key) => key.to_owned(),
            None => format!("{kind}-{n}"),
        }
    }

    /// The client's answer to question `key`, if it gave one.
    pub fn answer(&self, key: &str) -> Option<&Value> {
        self.answers.get(key)
    }

    /// Records a question the client has not answered yet.
    pub fn ask(&self, key: String, request: InputRequest) {
        self.asked
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, request);
    }

    /// Records that the tool needed a capability the request did not declare.
    pub fn record_missing(&self, capability: ClientCapability) {
        *self.missing.lock().unwrap_or_else(|e| e.into_inner()) = Some(capability);
    }

    /// The capability the tool needed and the client did not declare, if any.
    pub fn missing_capability(&self) -> Option<ClientCapability> {
        *self.missing.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The questions asked this round that no answer covers; empty when the call is done.
    pub fn take_questions(&self) -> InputRequests {
        std::mem::take(&mut *self.asked.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// The sealed state that carries this round's answers to the next round.
    pub fn seal(&self, keys: &SigningKeys, tool: &str, args: &Map<String, Value>) -> String {
        let saved = SavedState {
            args: digest(args),
            answers: self.answers.clone(),
        };
        let payload = serde_json::to_vec(&saved).expect("JSON values always serialize");
        keys.seal(&purpose(tool), &payload)
    }
}

/// The `-32021` error for a capability the request did not declare (2026-07-28).
pub(crate) fn missing_capability_error(capability: ClientCapability) -> McpError {
    let required: ClientCapabilities =
        serde_json::from_value(json!({ capability.name(): {} })).unwrap_or_default();
    let mut error = McpError::missing_required_client_capability(required);
    error.message = format!(
        "this tool needs the client's `{}` capability, which the request's _meta does not declare",
        capability.name()
    )
    .into();
    error
}

fn digest(args: &Map<String, Value>) -> String {
    let bytes = serde_json::to_vec(args).expect("JSON values always serialize");
    Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(n: i64) -> Map<String, Value> {
        json!({"n": n}).as_object().cloned().unwrap()
    }

    fn round(keys: &SigningKeys, tool: &str, state: Option<&str>) -> Result<InputRound, McpError> {
        let responses = InputResponses::from([("k".to_owned(), json!({"action": "accept"}))]);
        InputRound::open(
            keys,
            tool,
            &args(1),
            ClientCapabilities::default(),
            state,
            Some(responses),
        )
    }

    #[test]
    fn a_sealed_state_carries_the_answers_to_the_next_round_and_nowhere_else() {
        let keys = SigningKeys::parse("k:0123456789abcdef0123456789abcdef").unwrap();
        let first = round(&keys, "tool_a", None).unwrap();
        let state = first.seal(&keys, "tool_a", &args(1));
        let second = InputRound::open(
            &keys,
            "tool_a",
            &args(1),
            ClientCapabilities::default(),
            Some(&state),
            None,
        )
        .unwrap();
        assert_eq!(second.answer("k"), Some(&json!({"action": "accept"})));

        let refused = |result: Result<InputRound, McpError>| {
            let error = result.err().expect("refused");
            assert_eq!(error.code, rmcp::model::ErrorCode::INVALID_PARAMS);
            error.data.unwrap()["reason"].as_str().unwrap().to_owned()
        };
        // Another tool, other arguments, an altered token, another server's key.
        assert!(refused(round(&keys, "tool_b", Some(&state))).contains("seal does not match"));
        let other_args = InputRound::open(
            &keys,
            "tool_a",
            &args(2),
            ClientCapabilities::default(),
            Some(&state),
            None,
        );
        assert!(refused(other_args).contains("other arguments"));
        let mut altered = state.clone().into_bytes();
        let mid = altered.len() / 2;
        altered[mid] = if altered[mid] == b'A' { b'B' } else { b'A' };
        let altered = String::from_utf8(altered).unwrap();
        assert!(!refused(round(&keys, "tool_a", Some(&altered))).is_empty());
        let stranger = SigningKeys::parse("k:another-secret-of-32-bytes-or-more!").unwrap();
        assert!(refused(round(&stranger, "tool_a", Some(&state))).contains("seal does not match"));
    }

    #[test]
    fn the_missing_capability_error_names_it_as_a_capabilities_object() {
        let error = missing_capability_error(ClientCapability::Sampling);
        assert_eq!(error.code.0, -32021);
        assert_eq!(
            error.data.unwrap()["requiredCapabilities"],
            json!({"sampling": {}})
        );
    }
}
