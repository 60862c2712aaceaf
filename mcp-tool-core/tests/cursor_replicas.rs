//! Cursors across replicas: a cursor one server made is continued by another server given the
//! same signing keys, and refused (`invalid_cursor`) by a server with other keys, when
//! altered, or when made up by the client.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use mcp_tool::prelude::*;
use mcp_tool::seal::SigningKeys;
use mcp_tool::{Envelope, ToolServer};
use serde_json::{Value, json};

const KEYS: &str = "2026-11:shared-secret-of-the-replicas-0123456789";

/// Arguments of `list_numbers`.
#[tool_args]
pub struct ListNumbersArgs {
    /// Only numbers divisible by this.
    #[arg(default = 1, min = 1, max = 10)]
    pub divisor: u32,
    /// Numbers per page.
    #[arg(default = 10, max = 50)]
    pub limit: u32,
    /// `next_cursor` from the previous page; omit for the first page.
    pub cursor: Option<Cursor>,
}

/// List the numbers 0 to 99 that a divisor divides, in order.
#[mcp_tool(family = "cursor_replicas_test", size_hint = "5KB", read_only)]
pub async fn list_numbers(args: ListNumbersArgs) -> ToolResult<Page<u32>> {
    let all: Vec<u32> = (0..100).filter(|n| n % args.divisor == 0).collect();
    let offset: usize = args
        .cursor
        .as_ref()
        .map(Cursor::position)
        .transpose()?
        .unwrap_or(0);
    Ok(Page::from_offset(all, offset, args.limit as usize))
}

fn server(keys: Option<&str>) -> ToolServer {
    let builder = ToolServer::builder().families(["cursor_replicas_test"]);
    match keys {
        Some(spec) => builder.signing_keys(SigningKeys::parse(spec).unwrap()),
        None => builder,
    }
    .build()
    .unwrap()
}

async fn call(server: &ToolServer, args: Value) -> Envelope {
    server.call("list_numbers", args).await.unwrap()
}

fn numbers(answer: &Envelope) -> Vec<u64> {
    assert!(!answer.is_error, "{}", answer.text);
    answer.value["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect()
}

fn next_cursor(answer: &Envelope) -> String {
    answer.value["pagination"]["next_cursor"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn error_of(answer: &Envelope) -> (&str, &str) {
    assert!(answer.is_error, "{}", answer.text);
    let error = &answer.value["error"];
    (
        error["code"].as_str().unwrap(),
        error["details"]["reason"].as_str().unwrap_or(""),
    )
}

#[tokio::test]
async fn replicas_with_the_same_keys_continue_each_others_pages() {
    let (a, b, c) = (server(Some(KEYS)), server(Some(KEYS)), server(Some(KEYS)));
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    // Each page from the next replica in turn, as a load balancer without sticky sessions does.
    for replica in [&a, &b, &c].into_iter().cycle() {
        let mut args = json!({"divisor": 3});
        if let Some(text) = &cursor {
            args["cursor"] = json!(text);
        }
        let answer = call(replica, args).await;
        seen.extend(numbers(&answer));
        match answer.value["pagination"]["next_cursor"].as_str() {
            Some(text) => cursor = Some(text.to_owned()),
            None => break,
        }
    }
    let expected: Vec<u64> = (0..100).filter(|n| n % 3 == 0).collect();
    assert_eq!(seen, expected);
}

#[tokio::test]
async fn a_server_with_other_keys_refuses_the_cursor() {
    let first = call(&server(Some(KEYS)), json!({})).await;
    let cursor = next_cursor(&first);

    let default_keys = call(&server(None), json!({"cursor": cursor})).await;
    assert_eq!(error_of(&default_keys), ("invalid_cursor", "unknown_key"));

    let same_id_other_secret = server(Some("2026-11:another-secret-entirely-0123456789abcdef"));
    let answer = call(&same_id_other_secret, json!({"cursor": cursor})).await;
    assert_eq!(error_of(&answer), ("invalid_cursor", "seal_mismatch"));

    // After a rotation that keeps the old key, the cursor still works.
    let rotated = server(Some(&format!(
        "2026-12:the-new-secret-of-the-replicas-9876543210,{KEYS}"
    )));
    assert_eq!(
        numbers(&call(&rotated, json!({"cursor": cursor})).await),
        (10..20).collect::<Vec<u64>>()
    );
}

#[tokio::test]
async fn an_altered_or_made_up_cursor_is_refused() {
    let replica = server(Some(KEYS));
    let cursor = next_cursor(&call(&replica, json!({})).await);

    // The client reads the position and moves it: the seal no longer matches.
    let raw = URL_SAFE_NO_PAD.decode(&cursor).unwrap();
    let at = raw.windows(4).position(|w| w == b"\"p\":").unwrap() + 4;
    let mut moved = raw.clone();
    moved[at] = b'9';
    let answer = call(&replica, json!({"cursor": URL_SAFE_NO_PAD.encode(moved)})).await;
    assert_eq!(error_of(&answer), ("invalid_cursor", "seal_mismatch"));

    // Cut short, or not a cursor at all.
    let answer = call(&replica, json!({"cursor": &cursor[..cursor.len() - 4]})).await;
    assert_eq!(error_of(&answer).0, "invalid_cursor");
    let answer = call(&replica, json!({"cursor": "eyJwIjo1MH0"})).await;
    assert_eq!(error_of(&answer), ("invalid_cursor", "malformed"));

    // And the cursor stays bound to its query, on every replica.
    let answer = call(&server(Some(KEYS)), json!({"divisor": 2, "cursor": cursor})).await;
    assert_eq!(error_of(&answer).0, "invalid_cursor");
    assert!(
        answer.value["error"]["message"]
            .as_str()
            .unwrap()
            .contains("other arguments"),
        "{}",
        answer.text
    );
}
