//! Both protocol eras from one server: 2026-07-28 requests without `initialize` (stateless,
//! `_meta` on each request) and 2025 sessions, over streamable HTTP and over stdio; a tool's
//! elicitation as sealed `input_required` rounds; what is refused and how.

use mcp_tool::content::Content;
use mcp_tool::prelude::*;
use mcp_tool::{SamplingRequest, ToolServer};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// Ask the user's name in a form and greet them (`greeting` is how).
#[tool_args]
pub struct GreetArgs {
    /// The word to greet with, e.g. "Hello".
    pub greeting: String,
}

/// Ask the user's name (question key `who`) and greet them with the given word.
#[mcp_tool(
    name = "get_greeting",
    family = "stateless_test",
    size_hint = "1KB",
    read_only,
    open_world
)]
pub async fn get_greeting(ctx: &ToolContext, args: GreetArgs) -> ToolResult<Content> {
    let form =
        json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]});
    let answer = ctx
        .ask("who")
        .elicit_with_schema("Who are you?", form)
        .await?;
    let name = answer
        .accepted()
        .and_then(|c| c.get("name").and_then(Value::as_str).map(str::to_owned))
        .unwrap_or_else(|| "stranger".into());
    Ok(Content::new().text(format!("{}, {name}!", args.greeting)))
}

/// Ask the client's model for a haiku, without checking that the client can sample.
#[mcp_tool(
    name = "get_haiku",
    family = "stateless_test",
    size_hint = "1KB",
    read_only,
    open_world
)]
pub async fn get_haiku(ctx: &ToolContext) -> ToolResult<Content> {
    let answer = ctx.sample(SamplingRequest::user("A haiku, please")).await?;
    Ok(Content::new().text(answer.text()))
}

fn server() -> ToolServer {
    ToolServer::builder()
        .name("stateless-test")
        .version("0.0.0")
        .families(["stateless_test"])
        .build()
        .unwrap()
}

async fn serve_http() -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = server();
    tokio::spawn(async move { server.serve_http_on(listener).await });
    addr
}

/// The `_meta` of a 2026-07-28 request from a client that can elicit.
fn meta_2026() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}
    })
}

fn call_params(arguments: Value) -> Value {
    json!({"name": "get_greeting", "arguments": arguments, "_meta": meta_2026()})
}

/// One HTTP exchange on a fresh connection: status, headers (lower-cased) and the JSON-RPC
/// message in the body (plain JSON or the first SSE `data:` event that holds one).
struct Exchange {
    status: u16,
    headers: String,
    message: Value,
}

async fn post(addr: SocketAddr, extra_headers: &[(&str, &str)], body: &Value) -> Exchange {
    let body = body.to_string();
    let mut request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n",
        body.len()
    );
    for (name, value) in extra_headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(&body);
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut raw))
        .await
        .expect("the server answers within 10 s")
        .unwrap();
    let raw = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = raw.split_once("\r\n\r\n").expect("an HTTP response");
    let status = head[9..12].parse().unwrap();
    let headers = head.to_ascii_lowercase();
    let body = if headers.contains("transfer-encoding: chunked") {
        dechunk(body)
    } else {
        body.to_owned()
    };
    let message = body
        .lines()
        .map(|line| line.strip_prefix("data:").unwrap_or(line).trim())
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .find(|v| v.get("result").is_some() || v.get("error").is_some())
        .unwrap_or_else(|| panic!("no JSON-RPC answer in {body:?}"));
    Exchange {
        status,
        headers,
        message,
    }
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if size == 0 || rest.len() < size {
            break;
        }
        out.push_str(&rest[..size]);
        body = rest[size..].trim_start_matches("\r\n");
    }
    out
}

/// Headers a 2026-07-28 client sends with a request (SEP-2243).
fn headers_for<'a>(method: &'a str, name: Option<&'a str>) -> Vec<(&'a str, &'a str)> {
    let mut headers = vec![
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", method),
    ];
    if let Some(name) = name {
        headers.push(("Mcp-Name", name));
    }
    headers
}

#[tokio::test]
async fn a_2026_request_without_initialize_is_answered_with_caching_hints() {
    let addr = serve_http().await;
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta_2026()}});
    let answer = post(addr, &headers_for("tools/list", None), &list).await;
    assert_eq!(answer.status, 200, "{}", answer.message);
    assert!(
        !answer.headers.contains("mcp-session-id"),
        "stateless: no session"
    );
    let result = &answer.message["result"];
    let names: Vec<&str> = result["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["get_greeting", "get_haiku"]);
    assert_eq!(result["ttlMs"], json!(60_000));
    assert_eq!(result["cacheScope"], json!("private"));
}

#[tokio::test]
async fn an_elicitation_is_a_sealed_input_required_round_over_http() {
    let addr = serve_http().await;
    let headers = headers_for("tools/call", Some("get_greeting"));
    let first = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": call_params(json!({"greeting": "Hello"}))});
    let round1 = post(addr, &headers, &first).await;
    let result = &round1.message["result"];
    assert_eq!(result["resultType"], json!("input_required"), "{result}");
    assert_eq!(
        result["inputRequests"]["who"]["method"],
        json!("elicitation/create")
    );
    assert_eq!(
        result["inputRequests"]["who"]["params"]["message"],
        json!("Who are you?")
    );
    let state = result["requestState"].as_str().unwrap().to_owned();

    let mut second = first.clone();
    second["id"] = json!(2);
    second["params"]["inputResponses"] =
        json!({"who": {"action": "accept", "content": {"name": "Ada"}}});
    second["params"]["requestState"] = json!(state);
    let round2 = post(addr, &headers, &second).await;
    let result = &round2.message["result"];
    assert_eq!(
        result["content"][0]["text"],
        json!("Hello, Ada!"),
        "{result}"
    );
    assert_ne!(result["resultType"], json!("input_required"));

    // The state, altered by a client, is refused with a structured error.
    let mut tampered = second.clone();
    tampered["params"]["requestState"] = json!(format!("{state}x"));
    let refused = post(addr, &headers, &tampered).await;
    let error = &refused.message["error"];
    assert_eq!(error["code"], json!(-32602), "{}", refused.message);
    assert_eq!(error["data"]["code"], json!("invalid_request_state"));
    assert!(refused.message["result"].is_null());

    // Nor does it open for a call with other arguments.
    let mut replayed = second.clone();
    replayed["params"]["arguments"] = json!({"greeting": "Bye"});
    let refused = post(addr, &headers, &replayed).await;
    assert_eq!(
        refused.message["error"]["data"]["code"],
        json!("invalid_request_state")
    );
    assert!(
        refused.message["error"]["data"]["reason"]
            .as_str()
            .unwrap()
            .contains("other arguments"),
        "{}",
        refused.message
    );
}

#[tokio::test]
async fn a_capability_the_request_does_not_declare_is_32021_with_http_400() {
    let addr = serve_http().await;
    let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": "get_haiku", "arguments": {}, "_meta": meta_2026()}});
    let answer = post(addr, &headers_for("tools/call", Some("get_haiku")), &call).await;
    assert_eq!(answer.status, 400, "{}", answer.message);
    assert_eq!(answer.message["error"]["code"], json!(-32021));
    assert_eq!(
        answer.message["error"]["data"]["requiredCapabilities"],
        json!({"sampling": {}})
    );
}

#[tokio::test]
async fn mcp_method_and_mcp_name_headers_must_match_the_body() {
    let addr = serve_http().await;
    let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": call_params(json!({"greeting": "Hi"}))});
    for headers in [
        headers_for("tools/list", Some("get_greeting")),
        headers_for("tools/call", Some("get_haiku")),
    ] {
        let answer = post(addr, &headers, &call).await;
        assert_eq!(answer.status, 400, "{headers:?}: {}", answer.message);
        assert_eq!(
            answer.message["error"]["code"],
            json!(-32020),
            "{}",
            answer.message
        );
    }
}

#[tokio::test]
async fn the_session_era_still_works_and_its_handshake_is_not_found_in_2026() {
    let addr = serve_http().await;
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "old", "version": "1"}}});
    let answer = post(addr, &[], &initialize).await;
    assert_eq!(answer.status, 200);
    assert_eq!(
        answer.message["result"]["protocolVersion"],
        json!("2025-11-25")
    );
    assert!(
        answer.headers.contains("mcp-session-id"),
        "{}",
        answer.headers
    );

    let in_2026 = json!({"jsonrpc": "2.0", "id": 2, "method": "initialize",
        "params": {"_meta": meta_2026()}});
    let answer = post(addr, &headers_for("initialize", None), &in_2026).await;
    assert_eq!(answer.status, 404, "{}", answer.message);
    assert_eq!(answer.message["error"]["code"], json!(-32601));
    assert_eq!(answer.message["id"], json!(2));
}

/// A stdio server over an in-memory pipe: send lines, read answer lines.
struct Stdio {
    write: tokio::io::WriteHalf<tokio::io::DuplexStream>,
    lines: tokio::io::Lines<BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>>,
}

impl Stdio {
    fn start() -> Self {
        let (client, server_io) = tokio::io::duplex(1 << 16);
        let (read, write) = tokio::io::split(server_io);
        let server = server();
        tokio::spawn(async move { server.serve_io(read, write).await });
        let (read, write) = tokio::io::split(client);
        Self {
            write,
            lines: BufReader::new(read).lines(),
        }
    }

    async fn send(&mut self, message: Value) {
        let line = format!("{message}\n");
        self.write.write_all(line.as_bytes()).await.unwrap();
    }

    async fn answer(&mut self, id: i64) -> Value {
        loop {
            let line = tokio::time::timeout(Duration::from_secs(10), self.lines.next_line())
                .await
                .expect("an answer within 10 s")
                .unwrap()
                .expect("the server is still there");
            let message: Value = serde_json::from_str(&line).unwrap();
            if message["id"] == json!(id) {
                return message;
            }
        }
    }
}

#[tokio::test]
async fn over_stdio_a_2026_call_needs_no_initialize_and_runs_in_rounds() {
    let mut stdio = Stdio::start();
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": call_params(json!({"greeting": "Hey"}))});
    stdio.send(call.clone()).await;
    let round1 = stdio.answer(1).await;
    let result = &round1["result"];
    assert_eq!(result["resultType"], json!("input_required"), "{round1}");
    let state = result["requestState"].as_str().unwrap().to_owned();

    let mut retry = call.clone();
    retry["id"] = json!(2);
    retry["params"]["inputResponses"] = json!({"who": {"action": "decline"}});
    retry["params"]["requestState"] = json!(state);
    stdio.send(retry.clone()).await;
    let round2 = stdio.answer(2).await;
    assert_eq!(
        round2["result"]["content"][0]["text"],
        json!("Hey, stranger!"),
        "{round2}"
    );

    retry["id"] = json!(3);
    retry["params"]["requestState"] = json!("not-a-sealed-state");
    stdio.send(retry).await;
    let refused = stdio.answer(3).await;
    assert_eq!(refused["error"]["code"], json!(-32602), "{refused}");
    assert_eq!(
        refused["error"]["data"]["code"],
        json!("invalid_request_state")
    );
}

#[tokio::test]
async fn over_stdio_a_session_era_client_still_initializes_and_calls() {
    let mut stdio = Stdio::start();
    stdio
        .send(
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {"elicitation": {}},
            "clientInfo": {"name": "old", "version": "1"}}}),
        )
        .await;
    let initialized = stdio.answer(1).await;
    assert_eq!(
        initialized["result"]["protocolVersion"],
        json!("2025-06-18")
    );
    stdio
        .send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    stdio
        .send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}))
        .await;
    let list = stdio.answer(2).await;
    assert_eq!(list["result"]["tools"].as_array().unwrap().len(), 2);
    // In a session, the same tool's question is a request to the client, answered in-line.
    stdio
        .send(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
            "params": {"name": "get_greeting", "arguments": {"greeting": "Hi"}}}))
        .await;
    let line = stdio.lines.next_line().await.unwrap().unwrap();
    let request: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(request["method"], json!("elicitation/create"), "{request}");
    stdio
        .send(json!({"jsonrpc": "2.0", "id": request["id"],
            "result": {"action": "accept", "content": {"name": "Grace"}}}))
        .await;
    let done = stdio.answer(3).await;
    assert_eq!(
        done["result"]["content"][0]["text"],
        json!("Hi, Grace!"),
        "{done}"
    );
}
