//! Opaque, versioned pagination cursors bound to the query that made them.
//!
//! A cursor is a token sealed with the server's signing keys ([`crate::seal`], purpose
//! `"cursor"`) around `json{v, t, f, p}`: format version, tool name, fingerprint of the query
//! arguments, and the tool's own position. The seal makes a cursor unforgeable (a client
//! cannot move it to a position of its choosing) and lets any replica configured with the
//! same keys continue what another began. The tool only ever sees the position; binding and
//! checking are the runtime's job, so a tool cannot forget them.

use crate::error::ToolError;
use crate::seal::{self, SealError, SigningKeys};
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use std::borrow::Cow;

/// What the cursor's seal is for: a token sealed for anything else is not a cursor.
const PURPOSE: &str = "cursor";

/// 1: unsealed, with a checksum; 2: sealed.
const VERSION: u64 = 2;

/// Arguments that do not change which items a query returns, only how many per page.
const NOT_PART_OF_QUERY: [&str; 2] = ["cursor", "limit"];

/// A pagination cursor received as a tool argument (`cursor: Option<Cursor>`).
///
/// Its position is whatever the tool put in [`crate::Page::with_next`]; read it back with
/// [`Cursor::position`]. By the time a tool sees a `Cursor`, the runtime has checked that it is
/// sealed with one of the server's keys and unaltered, of this format version, made by this
/// tool, and made for the same query arguments. A cursor that fails any of those checks never
/// reaches the tool: the call answers `invalid_cursor`. See [`Page`](crate::Page) for a whole paginated tool.
///
/// ```
/// use mcp_tool::prelude::*;
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
        // The runtime opened this cursor with the server's keys before the tool's arguments
        // were deserialized (`verify`); here only the position is read back out.
        let text = Cow::<str>::deserialize(deserializer)?;
        let wire = seal::payload_unverified(&text)
            .ok()
            .and_then(|payload| serde_json::from_slice::<Wire>(&payload).ok())
            .ok_or_else(|| serde::de::Error::custom(mangled().message))?;
        Ok(Cursor { position: wire.p })
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
}

/// A cursor opened and verified for integrity (not yet for its query).
#[derive(Debug)]
pub(crate) struct Decoded {
    pub tool: String,
    pub fingerprint: String,
}

fn hex_prefix(bytes: &[u8], n: usize) -> String {
    bytes.iter().take(n).map(|b| format!("{b:02x}")).collect()
}

fn mangled() -> ToolError {
    ToolError::invalid_cursor(
        "The cursor is not one this server issued (it may have been shortened or edited). \
         Pass `next_cursor` exactly as it was returned.",
    )
}

/// Seals a position for the next call of `tool` with the same query.
pub(crate) fn encode(keys: &SigningKeys, tool: &str, fingerprint: &str, position: Value) -> String {
    let wire = Wire {
        v: VERSION,
        t: tool.to_owned(),
        f: fingerprint.to_owned(),
        p: position,
    };
    keys.seal(
        PURPOSE,
        &serde_json::to_vec(&wire).expect("a JSON value always serializes"),
    )
}

/// Opens a cursor with the server's keys.
pub(crate) fn decode(keys: &SigningKeys, text: &str) -> Result<Decoded, ToolError> {
    let payload = keys.open(PURPOSE, text).map_err(|e| match e {
        SealError::UnknownKey { id } => ToolError::invalid_cursor(format!(
            "The cursor was sealed with key `{id}`, which this server does not accept: it \
             comes from another server, or from before the server's keys changed."
        ))
        .with_detail("reason", "unknown_key"),
        SealError::Forged => mangled().with_detail("reason", "seal_mismatch"),
        SealError::Malformed => mangled().with_detail("reason", "malformed"),
    })?;
    let wire: Wire = serde_json::from_slice(&payload)
        .map_err(|_| mangled().with_detail("reason", "malformed"))?;
    if wire.v != VERSION {
        return Err(ToolError::invalid_cursor(format!(
            "The cursor has format version {}, this server reads version {VERSION}.",
            wire.v
        )));
    }
    Ok(Decoded {
        tool: wire.t,
        fingerprint: wire.f,
    })
}

/// Drops a blank `cursor` argument (`""`, or only whitespace): it asks for the first page,
/// as an omitted one does. Clients that make every parameter required (OpenAI's strict
/// function calling, Agents SDK tools) have the model fill an optional cursor with `""`.
/// Done before the fingerprint and the checks, and before the tool's arguments are
/// deserialized: no tool sees a blank cursor, none needs to handle it.
pub(crate) fn drop_blank(arguments: &mut Map<String, Value>) {
    if let Some(Value::String(text)) = arguments.get("cursor")
        && text.trim().is_empty()
    {
        arguments.remove("cursor");
    }
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
pub(crate) fn verify(
    keys: &SigningKeys,
    text: &str,
    tool: &str,
    fingerprint: &str,
) -> Result<(), ToolError> {
    let decoded = decode(keys, text)?;
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
    use base64::Engine;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use serde_json::json;

    const SECRET_A: &str = "replica-secret-aaaaaaaaaaaaaaaaaaaaaaaaa";
    const SECRET_B: &str = "replica-secret-bbbbbbbbbbbbbbbbbbbbbbbbb";

    fn keys(spec: &str) -> SigningKeys {
        SigningKeys::parse(spec).unwrap()
    }

    fn declared() -> Vec<String> {
        ["query", "limit", "cursor", "provider", "order"]
            .map(String::from)
            .to_vec()
    }

    fn obj(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap()
    }

    fn reason(e: &ToolError) -> &str {
        e.details.as_ref().unwrap()["reason"].as_str().unwrap()
    }

    #[test]
    fn round_trips_and_verifies() {
        let k = keys(&format!("a:{SECRET_A}"));
        let f = fingerprint(&obj(json!({"query": "x"})), &Map::new(), &declared());
        let c = encode(&k, "search", &f, json!({"offset": 20}));
        verify(&k, &c, "search", &f).unwrap();
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
    fn a_blank_cursor_is_no_cursor_and_any_other_stays() {
        for blank in ["", " ", "\t\n "] {
            let mut arguments = obj(json!({"query": "x", "cursor": blank}));
            drop_blank(&mut arguments);
            assert_eq!(arguments, obj(json!({"query": "x"})), "{blank:?}");
        }
        for kept in [json!("x"), json!(" x "), json!(null), json!(0)] {
            let mut arguments = obj(json!({"cursor": kept.clone()}));
            drop_blank(&mut arguments);
            assert_eq!(arguments, obj(json!({"cursor": kept})));
        }
    }

    #[test]
    fn mangled_cursor_is_invalid_cursor() {
        let k = keys(&format!("a:{SECRET_A}"));
        let f = fingerprint(&Map::new(), &Map::new(), &declared());
        let c = encode(&k, "t", &f, json!(10));
        let mut chars: Vec<char> = c.chars().collect();
        let mid = chars.len() / 2;
        chars[mid] = if chars[mid] == 'A' { 'B' } else { 'A' };
        let bad: String = chars.into_iter().collect();
        assert_eq!(
            verify(&k, &bad, "t", &f).unwrap_err().code(),
            "invalid_cursor"
        );
        assert_eq!(
            verify(&k, &c[..c.len() - 3], "t", &f).unwrap_err().code(),
            "invalid_cursor"
        );
        let e = verify(&k, "not base64 at all!", "t", &f).unwrap_err();
        assert_eq!((e.code(), reason(&e)), ("invalid_cursor", "malformed"));
    }

    #[test]
    fn a_cursor_opens_on_every_replica_with_the_same_keys_and_no_other() {
        let f = fingerprint(&obj(json!({"query": "a"})), &Map::new(), &declared());
        let replica_1 = keys(&format!("k1:{SECRET_A}"));
        let replica_2 = keys(&format!("k1:{SECRET_A}"));
        let c = encode(&replica_1, "t", &f, json!(10));
        verify(&replica_2, &c, "t", &f).unwrap();

        // Same key id, another secret: the seal does not match.
        let e = verify(&keys(&format!("k1:{SECRET_B}")), &c, "t", &f).unwrap_err();
        assert_eq!((e.code(), reason(&e)), ("invalid_cursor", "seal_mismatch"));
        // Another key id: named in the message.
        let e = verify(&keys(&format!("k2:{SECRET_A}")), &c, "t", &f).unwrap_err();
        assert_eq!((e.code(), reason(&e)), ("invalid_cursor", "unknown_key"));
        assert!(e.message.contains("`k1`"), "{}", e.message);
        // A process that was given no keys has its own random one.
        let e = verify(&SigningKeys::process_default(), &c, "t", &f).unwrap_err();
        assert_eq!(e.code(), "invalid_cursor");
    }

    #[test]
    fn a_client_cannot_move_a_cursor_to_a_position_of_its_choosing() {
        let k = keys(&format!("a:{SECRET_A}"));
        let f = fingerprint(&obj(json!({"query": "a"})), &Map::new(), &declared());
        let c = encode(&k, "t", &f, json!({"offset": 20}));
        // The payload is readable; rewriting the position inside it breaks the seal.
        let raw = URL_SAFE_NO_PAD.decode(&c).unwrap();
        let text = String::from_utf8_lossy(&raw).into_owned();
        assert!(text.contains(r#""offset":20"#), "{text}");
        let moved = raw
            .windows(2)
            .position(|w| w == b"20")
            .map(|at| {
                let mut m = raw.clone();
                m[at] = b'9';
                m
            })
            .unwrap();
        let e = verify(&k, &URL_SAFE_NO_PAD.encode(moved), "t", &f).unwrap_err();
        assert_eq!((e.code(), reason(&e)), ("invalid_cursor", "seal_mismatch"));

        // A cursor in the old unsealed format, made by hand, is refused too.
        let old = URL_SAFE_NO_PAD.encode(
            json!({"v": 1, "t": "t", "f": f, "p": {"offset": 9999}, "c": "0000000000000000"})
                .to_string(),
        );
        let e = verify(&k, &old, "t", &f).unwrap_err();
        assert_eq!(e.code(), "invalid_cursor");
        // So is a token sealed with the right key for another purpose.
        let other = k.seal(
            "state",
            &serde_json::to_vec(&json!({"v": 2, "t": "t", "f": f, "p": 1})).unwrap(),
        );
        assert_eq!(
            reason(&verify(&k, &other, "t", &f).unwrap_err()),
            "seal_mismatch"
        );
    }

    #[test]
    fn rotated_keys_still_open_cursors_sealed_with_the_old_key() {
        let f = fingerprint(&Map::new(), &Map::new(), &declared());
        let before = keys(&format!("old:{SECRET_A}"));
        let during = keys(&format!("new:{SECRET_B},old:{SECRET_A}"));
        let after = keys(&format!("new:{SECRET_B}"));
        let old_cursor = encode(&before, "t", &f, json!(1));
        verify(&during, &old_cursor, "t", &f).unwrap();
        let new_cursor = encode(&during, "t", &f, json!(2));
        verify(&after, &new_cursor, "t", &f).unwrap();
        let e = verify(&after, &old_cursor, "t", &f).unwrap_err();
        assert_eq!(reason(&e), "unknown_key");
    }

    #[test]
    fn cursor_from_another_query_or_tool_is_rejected() {
        let k = keys(&format!("a:{SECRET_A}"));
        let f1 = fingerprint(&obj(json!({"query": "a"})), &Map::new(), &declared());
        let f2 = fingerprint(&obj(json!({"query": "b"})), &Map::new(), &declared());
        let c = encode(&k, "t", &f1, json!(10));
        let e = verify(&k, &c, "t", &f2).unwrap_err();
        assert!(e.message.contains("other arguments"), "{}", e.message);
        let e = verify(&k, &c, "u", &f1).unwrap_err();
        assert!(e.message.contains("made by `t`"), "{}", e.message);
    }
}
