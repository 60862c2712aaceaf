//! Opaque, versioned pagination cursors bound to the query that made them.
//!
//! A cursor is `base64url(json{v, t, f, p, c})`: format version, tool name, fingerprint of the
//! query arguments, the tool's own position, and a checksum over the rest. The tool only ever
//! sees the position; binding and checking are the runtime's job, so a tool cannot forget them.

use crate::error::ToolError;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use std::borrow::Cow;

const VERSION: u64 = 1;

/// Arguments that do not change which items a query returns, only how many per page.
const NOT_PART_OF_QUERY: [&str; 2] = ["cursor", "limit"];

/// A pagination cursor received as a tool argument (`cursor: Option<Cursor>`).
///
/// Its position is whatever the tool put in [`crate::Page::with_next`]; read it back with
/// [`Cursor::position`]. By the time a tool sees a `Cursor`, the runtime has checked that it is
/// intact, of this format version, made by this tool, and made for the same query arguments.
/// A cursor that fails any of those checks never reaches the tool: the call answers
/// `invalid_cursor`. See [`Page`](crate::Page) for a whole paginated tool.
///
/// ```
/// use mcp_tool_core::prelude::*;
///
/// /// Where the next page starts: after the last item's (timestamp, id), a keyset position
/// /// the tool gave to `Page::with_next((timestamp, id))`.
/// fn resume_after(cursor: Option<&Cursor>) -> ToolResult<Option<(i64, String)>> {
///     cursor.map(Cursor::position).transpose()
/// }
///
/// assert_eq!(resume_after(None).unwrap(), None);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Cursor {
    position: Value,
}

impl Cursor {
    /// Decodes the tool's position (an offset, a keyset tuple, a struct).
    pub fn position<T: DeserializeOwned>(&self) -> Result<T, ToolError> {
        serde_json::from_value(self.position.clone()).map_err(|e| {
            ToolError::invalid_cursor(format!(
                "The cursor does not hold a position this tool understands: {e}."
            ))
        })
    }

    /// The raw JSON position.
    pub fn raw_position(&self) -> &Value {
        &self.position
    }
}

impl<'de> Deserialize<'de> for Cursor {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = Cow::<str>::deserialize(deserializer)?;
        let decoded = decode(&text).map_err(|e| serde::de::Error::custom(e.message))?;
        Ok(Cursor {
            position: decoded.position,
        })
    }
}

impl JsonSchema for Cursor {
    fn schema_name() -> Cow<'static, str> {
        "Cursor".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string" })
    }
}

#[derive(Serialize, Deserialize)]
struct Wire {
    v: u64,
    t: String,
    f: String,
    p: Value,
    c: String,
}

/// A cursor string taken apart and verified for integrity (not yet for its query).
#[derive(Debug)]
pub(crate) struct Decoded {
    pub tool: String,
    pub fingerprint: String,
    pub position: Value,
}

fn checksum(tool: &str, fingerprint: &str, position: &Value) -> String {
    let mut hasher = Sha256::new();
    hasher.update(VERSION.to_le_bytes());
    hasher.update(tool.as_bytes());
    hasher.update([0]);
    hasher.update(fingerprint.as_bytes());
    hasher.update([0]);
    hasher.update(position.to_string().as_bytes());
    hex_prefix(&hasher.finalize(), 8)
}

fn hex_prefix(bytes: &[u8], n: usize) -> String {
    bytes.iter().take(n).map(|b| format!("{b:02x}")).collect()
}

pub(crate) fn encode(tool: &str, fingerprint: &str, position: Value) -> String {
    let wire = Wire {
        v: VERSION,
        t: tool.to_owned(),
        f: fingerprint.to_owned(),
        c: checksum(tool, fingerprint, &position),
        p: position,
    };
    URL_SAFE_NO_PAD.encode(serde_json::to_vec(&wire).expect("a JSON value always serializes"))
}

pub(crate) fn decode(text: &str) -> Result<Decoded, ToolError> {
    let mangled = || {
        ToolError::invalid_cursor(
            "The cursor is not one this server issued (it may have been shortened or edited). \
             Pass `next_cursor` exactly as it was returned.",
        )
    };
    let bytes = URL_SAFE_NO_PAD.decode(text.trim()).map_err(|_| mangled())?;
    let wire: Wire = serde_json::from_slice(&bytes).map_err(|_| mangled())?;
    if wire.v != VERSION {
        return Err(ToolError::invalid_cursor(format!(
            "The cursor has format version {}, this server reads version {VERSION}.",
            wire.v
        )));
    }
    if checksum(&wire.t, &wire.f, &wire.p) != wire.c {
        return Err(mangled());
    }
    Ok(Decoded {
        tool: wire.t,
        fingerprint: wire.f,
        position: wire.p,
    })
}

/// Fingerprint of the query a call makes: its declared arguments with schema defaults filled
/// in, nulls dropped, and the page-shaping arguments (`cursor`, `limit`) left out. Equal queries
/// written differently (an omitted default, an explicit `null`, an ignored unknown argument)
/// get the same fingerprint.
pub(crate) fn fingerprint(
    arguments: &Map<String, Value>,
    defaults: &Map<String, Value>,
    declared: &[String],
) -> String {
    let mut query: Map<String, Value> = defaults.clone();
    for (key, value) in arguments
        .iter()
        .filter(|(k, _)| declared.iter().any(|d| d == *k))
    {
        if !value.is_null() {
            query.insert(key.clone(), value.clone());
        } else {
            query.remove(key);
        }
    }
    for key in NOT_PART_OF_QUERY {
        query.remove(key);
    }
    let digest = Sha256::digest(Value::Object(query).to_string().as_bytes());
    hex_prefix(&digest, 8)
}

/// Checks a cursor argument against the call it arrived with.
pub(crate) fn verify(text: &str, tool: &str, fingerprint: &str) -> Result<(), ToolError> {
    let decoded = decode(text)?;
    if decoded.tool != tool {
        return Err(ToolError::invalid_cursor(format!(
            "This cursor was made by `{}`, not `{tool}`.",
            decoded.tool
        )));
    }
    if decoded.fingerprint != fingerprint {
        return Err(ToolError::invalid_cursor(
            "This cursor was made for a query with other arguments. Repeat the original arguments \
             with the cursor, or drop the cursor to start a new query.",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn declared() -> Vec<String> {
        ["query", "limit", "cursor", "provider", "order"]
            .map(String::from)
            .to_vec()
    }

    fn obj(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap()
    }

    #[test]
    fn round_trips_and_verifies() {
        let f = fingerprint(&obj(json!({"query": "x"})), &Map::new(), &declared());
        let c = encode("search", &f, json!({"offset": 20}));
        verify(&c, "search", &f).unwrap();
        let cursor: Cursor = serde_json::from_value(Value::String(c)).unwrap();
        #[derive(Deserialize)]
        struct P {
            offset: u64,
        }
        assert_eq!(cursor.position::<P>().unwrap().offset, 20);
    }

    #[test]
    fn fingerprint_ignores_page_shape_nulls_and_explicit_defaults() {
        let defaults = obj(json!({"order": "newest"}));
        let a = fingerprint(
            &obj(json!({"query": "x", "limit": 5})),
            &defaults,
            &declared(),
        );
        let b = fingerprint(
            &obj(
                json!({"query": "x", "limit": 50, "cursor": "abc", "provider": null, "order": "newest", "unknown": 1}),
            ),
            &defaults,
            &declared(),
        );
        assert_eq!(a, b);
        let c = fingerprint(&obj(json!({"query": "y"})), &defaults, &declared());
        assert_ne!(a, c);
    }

    #[test]
    fn mangled_cursor_is_invalid_cursor() {
        let f = fingerprint(&Map::new(), &Map::new(), &declared());
        let c = encode("t", &f, json!(10));
        let mut chars: Vec<char> = c.chars().collect();
        let mid = chars.len() / 2;
        chars[mid] = if chars[mid] == 'A' { 'B' } else { 'A' };
        let bad: String = chars.into_iter().collect();
        assert_eq!(verify(&bad, "t", &f).unwrap_err().code(), "invalid_cursor");
        assert_eq!(
            verify(&c[..c.len() - 3], "t", &f).unwrap_err().code(),
            "invalid_cursor"
        );
        assert_eq!(
            verify("not base64 at all!", "t", &f).unwrap_err().code(),
            "invalid_cursor"
        );
    }

    #[test]
    fn cursor_from_another_query_or_tool_is_rejected() {
        let f1 = fingerprint(&obj(json!({"query": "a"})), &Map::new(), &declared());
        let f2 = fingerprint(&obj(json!({"query": "b"})), &Map::new(), &declared());
        let c = encode("t", &f1, json!(10));
        let e = verify(&c, "t", &f2).unwrap_err();
        assert!(e.message.contains("other arguments"), "{}", e.message);
        let e = verify(&c, "u", &f1).unwrap_err();
        assert!(e.message.contains("made by `t`"), "{}", e.message);
    }
}
