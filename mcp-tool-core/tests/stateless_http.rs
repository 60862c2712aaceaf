//! `stateless_http(true)`: replicas behind a load balancer without sticky sessions. Every POST
//! stands alone (no session, no `initialize` needed first), is answered with plain JSON, and
//! a cursor one replica made is continued by another that has the same signing keys.

use mcp_tool::ToolServer;
use mcp_tool::prelude::*;
use mcp_tool::seal::SigningKeys;
use serde_json::{Value, json};
use std::net::SocketAddr;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const KEYS: &str = "r1:the-replicas-share-this-secret-0123456789";

/// Arguments of `list_letters`.
#[tool_args]
pub struct ListLettersArgs {
    /// Letters per page.
    #[arg(default = 5, max = 26)]
    pub limit: u32,
    /// `next_cursor` from the previous page; omit for the first page.
    pub cursor: Option<Cursor>,
}

/// List the letters a to z in order.
#[mcp_tool(family = "stateless_http_test", size_hint = "2KB", read_only)]
pub async fn list_letters(args: ListLettersArgs) -> ToolResult<Page<String>> {
    let all: Vec<String> = ('a'..='z').map(String::from).collect();
    let offset: usize = args
        .cursor
        .as_ref()
        .map(Cursor::position)
        .transpose()?
        .unwrap_or(0);
    Ok(Page::from_offset(all, offset, args.limit as usize))
}

async fn replica(stateless: bool) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = ToolServer::builder()
        .families(["stateless_http_test"])
        .signing_keys(SigningKeys::parse(KEYS).unwrap())
        .stateless_http(stateless)
        .build()
        .unwrap();
    tokio::spawn(async move { server.serve_http_on(listener).await });
    addr
}

/// One request on a fresh connection: (status line and headers, body).
async fn exchange(addr: SocketAddr, method: &str, body: &str) -> (String, String) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "{method} /mcp HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n\
         MCP-Protocol-Version: 2025-06-18\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    tokio::time::timeout(
        std::time::Duration::from_secs(10),
        stream.read_to_end(&mut response),
    )
    .await
    .expect("the server closes the response")
    .unwrap();
    let text = String::from_utf8_lossy(&response).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    (head.to_ascii_lowercase(), body.to_owned())
}

fn call(cursor: Option<&str>) -> String {
    let mut arguments = json!({"limit": 10});
    if let Some(c) = cursor {
        arguments["cursor"] = json!(c);
    }
    json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
           "params": {"name": "list_letters", "arguments": arguments}})
    .to_string()
}

#[tokio::test]
async fn each_post_stands_alone_and_any_replica_continues_a_cursor() {
    let (a, b, c) = (
        replica(true).await,
        replica(true).await,
        replica(true).await,
    );
    let mut letters = Vec::new();
    let mut cursor: Option<String> = None;
    for addr in [a, b, c] {
        let (head, body) = exchange(addr, "POST", &call(cursor.as_deref())).await;
        assert!(head.starts_with("http/1.1 200"), "{head}");
        assert!(head.contains("content-type: application/json"), "{head}");
        assert!(!head.contains("mcp-session-id"), "{head}");
        let answer: Value = serde_json::from_str(&body).unwrap();
        let envelope = &answer["result"]["structuredContent"];
        assert_eq!(envelope["status"], "ok", "{body}");
        letters.extend(
            envelope["data"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| l.as_str().unwrap().to_owned()),
        );
        cursor = envelope["pagination"]["next_cursor"]
            .as_str()
            .map(str::to_owned);
    }
    assert_eq!(letters.concat(), "abcdefghijklmnopqrstuvwxyz");
    assert_eq!(cursor, None);

    // There is no session to hold a stream open for, or to delete.
    let (head, _) = exchange(a, "GET", "").await;
    assert!(head.starts_with("http/1.1 405"), "{head}");
}

#[tokio::test]
async fn with_sessions_a_call_without_one_is_refused() {
    // The default: why replicas without sticky sessions need `stateless_http`.
    let (head, _) = exchange(replica(false).await, "POST", &call(None)).await;
    assert!(!head.starts_with("http/1.1 200"), "{head}");
}
