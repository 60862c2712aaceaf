//! Every message gets an answer, over stdio and over streamable HTTP: what is not JSON a
//! parse error (`-32700`, `"id": null`), what is not a JSON-RPC message an invalid request
//! (`-32600`), params that do not fit the method invalid params (`-32602`); a bad notification
//! a log line, never an answer. The session survives each: the next request is answered.
//!
//! stdio is driven through `serve_io` on an in-memory pipe, the code `serve_stdio` runs on
//! the process's stdin and stdout; HTTP on raw connections, to send what no client library
//! would.

use mcp_tool::{ToolServer, ToolServerBuilder};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader, DuplexStream};
use tokio::io::{Lines, ReadHalf, WriteHalf};
use tokio::net::TcpStream;

/// The longest any answer may take: they all come at once, this only stops a hang.
const ANSWER_WITHIN: Duration = Duration::from_secs(10);

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
const PING: &str = r#"{"jsonrpc":"2.0","id":99,"method":"ping"}"#;

fn server(configure: impl FnOnce(ToolServerBuilder) -> ToolServerBuilder) -> ToolServer {
    let builder = ToolServer::builder()
        .name("bad-messages")
        .version("0.0.0")
        .with_definitions(Vec::new());
    configure(builder).build().unwrap()
}

/// An error answer as expected: its code, its id, and words its message contains.
struct Expected {
    code: i64,
    id: Value,
    says: &'static str,
}

fn assert_error(answer: &Value, expected: &Expected, case: &str) {
    assert_eq!(answer["jsonrpc"], "2.0", "{case}: {answer}");
    assert_eq!(answer["error"]["code"], expected.code, "{case}: {answer}");
    // `"id": null` must be there, not left out.
    assert_eq!(answer.get("id"), Some(&expected.id), "{case}: {answer}");
    let message = answer["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains(expected.says), "{case}: {answer}");
}

// ---------------------------------------------------------------------------------------
// stdio

struct Stdio {
    write: WriteHalf<DuplexStream>,
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
}

impl Stdio {
    async fn start(configure: impl FnOnce(ToolServerBuilder) -> ToolServerBuilder) -> Self {
        let (client, server_end) = tokio::io::duplex(64 * 1024);
        let server = server(configure);
        let (read, write) = tokio::io::split(server_end);
        tokio::spawn(async move { server.serve_io(read, write).await });
        let (read, write) = tokio::io::split(client);
        let mut stdio = Self {
            write,
            lines: BufReader::new(read).lines(),
        };
        stdio.send(INITIALIZE.as_bytes()).await;
        let initialized = stdio.next().await;
        assert!(
            initialized["result"]["serverInfo"].is_object(),
            "{initialized}"
        );
        stdio.send(INITIALIZED.as_bytes()).await;
        stdio
    }

    async fn send(&mut self, line: &[u8]) {
        self.write.write_all(line).await.unwrap();
        self.write.write_all(b"\n").await.unwrap();
    }

    async fn next(&mut self) -> Value {
        let line = tokio::time::timeout(ANSWER_WITHIN, self.lines.next_line())
            .await
            .expect("an answer, not silence")
            .unwrap()
            .expect("a line, not the end of the output");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
    }

    /// Sends `line` and then a ping: the answers up to the ping's, which must come.
    async fn answers_to(&mut self, line: &[u8], expected: usize) -> Vec<Value> {
        self.send(line).await;
        self.send(PING.as_bytes()).await;
        let mut answers = Vec::new();
        let mut pong = false;
        while !pong || answers.len() < expected {
            let answer = self.next().await;
            if answer["id"] == 99 {
                assert_eq!(answer["result"], json!({}), "{answer}");
                pong = true;
            } else {
                answers.push(answer);
            }
        }
        answers
    }
}

async fn over_stdio(case: &str, line: &[u8], expected: &Expected) {
    let mut stdio = Stdio::start(|b| b).await;
    let started = Instant::now();
    let answers = stdio.answers_to(line, 1).await;
    assert_eq!(answers.len(), 1, "{case} over stdio: {answers:?}");
    assert_error(&answers[0], expected, &format!("{case} over stdio"));
    assert!(
        started.elapsed() < ANSWER_WITHIN,
        "{case}: {:?}",
        started.elapsed()
    );
}

// ---------------------------------------------------------------------------------------
// HTTP

async fn serve_http(configure: impl FnOnce(ToolServerBuilder) -> ToolServerBuilder) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = server(configure);
    tokio::spawn(async move { server.serve_http_on(listener).await });
    addr
}

/// A response: status, headers (lowercase) and the JSON-RPC message in the body, if any.
struct Response {
    status: u16,
    head: String,
    message: Option<Value>,
}

fn head(addr: SocketAddr, session: Option<&str>, length: usize) -> String {
    let mut head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n\
         MCP-Protocol-Version: 2025-06-18\r\nContent-Length: {length}\r\n"
    );
    if let Some(session) = session {
        head.push_str(&format!("Mcp-Session-Id: {session}\r\n"));
    }
    head.push_str("\r\n");
    head
}

async fn post(addr: SocketAddr, session: Option<&str>, body: &[u8]) -> Response {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream
        .write_all(head(addr, session, body.len()).as_bytes())
        .await
        .unwrap();
    stream.write_all(body).await.unwrap();
    let mut raw = Vec::new();
    tokio::time::timeout(ANSWER_WITHIN, stream.read_to_end(&mut raw))
        .await
        .expect("an answer, not silence")
        .unwrap();
    parse_response(&raw)
}

fn parse_response(raw: &[u8]) -> Response {
    let text = String::from_utf8_lossy(raw);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP response: {text}"));
    // A JSON body, or SSE events whose `data:` lines carry one each.
    let message = body.lines().find_map(|line| {
        let json = line.strip_prefix("data:").unwrap_or(line).trim();
        serde_json::from_str::<Value>(json)
            .ok()
            .filter(|v| v.get("jsonrpc").is_some())
    });
    Response {
        status,
        head: head.to_ascii_lowercase(),
        message,
    }
}

async fn open_session(addr: SocketAddr) -> String {
    let response = post(addr, None, INITIALIZE.as_bytes()).await;
    assert_eq!(response.status, 200, "{}", response.head);
    let session = response
        .head
        .lines()
        .find_map(|l| l.strip_prefix("mcp-session-id:"))
        .map(|v| v.trim().to_owned())
        .unwrap_or_else(|| panic!("no session id: {}", response.head));
    let notified = post(addr, Some(&session), INITIALIZED.as_bytes()).await;
    assert_eq!(notified.status, 202, "{}", notified.head);
    session
}

async fn assert_pong(addr: SocketAddr, session: &str) {
    let pong = post(addr, Some(session), PING.as_bytes()).await;
    assert_eq!(pong.status, 200, "{}", pong.head);
    assert_eq!(pong.message.map(|m| m["result"].clone()), Some(json!({})));
}

async fn over_http(case: &str, body: &[u8], status: u16, expected: &Expected) {
    let addr = serve_http(|b| b).await;
    let session = open_session(addr).await;
    let response = post(addr, Some(&session), body).await;
    assert_eq!(
        response.status, status,
        "{case} over HTTP: {}",
        response.head
    );
    let answer = response
        .message
        .unwrap_or_else(|| panic!("{case} over HTTP: no JSON-RPC answer: {}", response.head));
    assert_error(&answer, expected, &format!("{case} over HTTP"));
    assert_pong(addr, &session).await;
}

async fn over_both(case: &str, message: &[u8], http_status: u16, expected: Expected) {
    over_stdio(case, message, &expected).await;
    over_http(case, message, http_status, &expected).await;
}

fn parse_error(says: &'static str) -> Expected {
    Expected {
        code: -32700,
        id: Value::Null,
        says,
    }
}

// ---------------------------------------------------------------------------------------
// The cases

#[tokio::test]
async fn malformed_json_is_a_parse_error() {
    let message = br#"{"jsonrpc":"2.0","id":1,"method":"#;
    over_both(
        "malformed JSON",
        message,
        400,
        parse_error("not valid JSON"),
    )
    .await;
}

#[tokio::test]
async fn invalid_utf8_is_a_parse_error() {
    let message =
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\"\xff\xfe\"}}";
    let expected = parse_error("not UTF-8 (invalid byte at offset 55)");
    over_both("invalid UTF-8", message, 400, expected).await;
}

#[tokio::test]
async fn nesting_100_000_deep_is_a_parse_error_without_a_stack_overflow() {
    let message = vec![b'['; 100_000];
    let expected = parse_error("recursion limit exceeded");
    over_both("100,000-deep nesting", &message, 400, expected).await;
}

#[tokio::test]
async fn a_50_mb_message_is_refused_and_the_next_line_is_read() {
    let mut message = br#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":""#.to_vec();
    message.resize(message.len() + 50 * 1024 * 1024, b'x');
    message.extend_from_slice(br#""}}"#);
    let expected = Expected {
        code: -32600,
        id: Value::Null,
        says: "larger than the limit of 4194304 bytes (max_message_bytes)",
    };
    over_both("50 MB message", &message, 413, expected).await;
}

#[tokio::test]
async fn a_batch_is_an_invalid_request() {
    let message =
        br#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]"#;
    let expected = Expected {
        code: -32600,
        id: Value::Null,
        says: "batches are not supported",
    };
    over_both("batch", message, 400, expected).await;
}

#[tokio::test]
async fn string_arguments_to_tools_call_are_invalid_params() {
    let message = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"anything","arguments":"a string"}}"#;
    let expected = Expected {
        code: -32602,
        id: json!(1),
        says: "invalid `tools/call` params: at `arguments`: invalid type: string \"a string\"",
    };
    over_both("string arguments", message, 200, expected).await;
}

#[tokio::test]
async fn a_request_without_a_method_is_an_invalid_request() {
    let message = br#"{"jsonrpc":"2.0","id":1,"params":{}}"#;
    let expected = Expected {
        code: -32600,
        id: json!(1),
        says: "no `method`",
    };
    over_both("missing method", message, 400, expected).await;
}

#[tokio::test]
async fn a_wrong_jsonrpc_version_is_an_invalid_request() {
    let message = br#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#;
    let expected = Expected {
        code: -32600,
        id: json!(1),
        says: "`jsonrpc` must be \"2.0\", found \"1.0\"",
    };
    over_both("jsonrpc 1.0", message, 400, expected).await;
}

#[tokio::test]
async fn an_unknown_method_stays_method_not_found() {
    let message = br#"{"jsonrpc":"2.0","id":1,"method":"no/such"}"#;
    let expected = Expected {
        code: -32601,
        id: json!(1),
        says: "no/such",
    };
    over_both("unknown method", message, 200, expected).await;
}

// ---------------------------------------------------------------------------------------
// Notifications, limits, the end of input

const BAD_NOTIFICATION: &str =
    r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":[]}}"#;

#[tokio::test]
async fn a_bad_notification_is_logged_and_not_answered_over_stdio() {
    let warnings = Warnings::capture();
    let mut stdio = Stdio::start(|b| b).await;
    let answers = stdio.answers_to(BAD_NOTIFICATION.as_bytes(), 0).await;
    assert_eq!(answers, Vec::<Value>::new());
    warnings.assert_logged("ignored a bad notification: invalid `notifications/cancelled` params");
}

#[tokio::test]
async fn a_bad_notification_is_logged_and_refused_with_400_over_http() {
    let warnings = Warnings::capture();
    let addr = serve_http(|b| b).await;
    let session = open_session(addr).await;
    let response = post(addr, Some(&session), BAD_NOTIFICATION.as_bytes()).await;
    assert_eq!(response.status, 400, "{}", response.head);
    let expected = Expected {
        code: -32602,
        id: Value::Null,
        says: "invalid `notifications/cancelled` params",
    };
    assert_error(&response.message.unwrap(), &expected, "bad notification");
    warnings.assert_logged("ignored a bad notification: invalid `notifications/cancelled` params");
    assert_pong(addr, &session).await;
}

#[tokio::test]
async fn a_line_over_the_limit_is_answered_as_soon_as_it_crosses_it() {
    let mut stdio = Stdio::start(|b| b.max_message_bytes(1024)).await;
    // No newline yet: the answer must not wait for one.
    stdio.write.write_all(&[b'x'; 2000]).await.unwrap();
    let expected = Expected {
        code: -32600,
        id: Value::Null,
        says: "larger than the limit of 1024 bytes",
    };
    assert_error(&stdio.next().await, &expected, "over the limit");
    // The rest of that line is skipped, not taken for a message.
    stdio.write.write_all(&[b'y'; 3000]).await.unwrap();
    let answers = stdio.answers_to(b"", 0).await;
    assert_eq!(answers, Vec::<Value>::new());
    // A message just under the limit still passes.
    let padded = format!(
        r#"{{"jsonrpc":"2.0","id":5,"method":"no/such","params":{{"pad":"{}"}}}}"#,
        "z".repeat(900)
    );
    assert!(padded.len() < 1024);
    stdio.send(padded.as_bytes()).await;
    assert_eq!(stdio.next().await["id"], 5);
}

#[tokio::test]
async fn a_body_over_the_limit_gets_413_over_http() {
    let addr = serve_http(|b| b.max_message_bytes(1024)).await;
    let session = open_session(addr).await;
    let response = post(addr, Some(&session), &[b' '; 5000]).await;
    assert_eq!(response.status, 413, "{}", response.head);
    let expected = Expected {
        code: -32600,
        id: Value::Null,
        says: "larger than the limit of 1024 bytes",
    };
    assert_error(&response.message.unwrap(), &expected, "413");
    assert_pong(addr, &session).await;
}

#[tokio::test]
async fn refusals_and_answers_written_together_stay_whole_lines() {
    let mut stdio = Stdio::start(|b| b).await;
    // rmcp answers these from its own tasks while the transport writes the refusals.
    let mut burst = String::new();
    for id in 1..=300 {
        burst.push_str(&format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"no/such\"}}\nnot json {id}\n"
        ));
    }
    stdio.write.write_all(burst.as_bytes()).await.unwrap();
    let (mut answered, mut refused) = (Vec::new(), 0);
    for _ in 0..600 {
        let answer = stdio.next().await;
        match answer["error"]["code"].as_i64() {
            Some(-32601) => answered.push(answer["id"].as_i64().unwrap()),
            Some(-32700) => refused += 1,
            _ => panic!("{answer}"),
        }
    }
    answered.sort_unstable();
    assert_eq!(answered, (1..=300).collect::<Vec<_>>());
    assert_eq!(refused, 300);
}

#[tokio::test]
async fn a_bad_line_before_initialize_is_answered_and_the_handshake_still_works() {
    let (client, server_end) = tokio::io::duplex(64 * 1024);
    let (read, write) = tokio::io::split(server_end);
    tokio::spawn(async move { server(|b| b).serve_io(read, write).await });
    let (read, write) = tokio::io::split(client);
    let mut stdio = Stdio {
        write,
        lines: BufReader::new(read).lines(),
    };
    stdio.send(b"hello?").await;
    assert_error(
        &stdio.next().await,
        &parse_error("not valid JSON"),
        "first line",
    );
    stdio.send(INITIALIZE.as_bytes()).await;
    assert!(stdio.next().await["result"]["serverInfo"].is_object());
}

#[tokio::test]
async fn a_last_line_without_its_newline_is_answered() {
    let (client, server_end) = tokio::io::duplex(64 * 1024);
    let (read, write) = tokio::io::split(server_end);
    let serving = tokio::spawn(async move { server(|b| b).serve_io(read, write).await });
    let (read, mut write) = tokio::io::split(client);
    write
        .write_all(format!("{INITIALIZE}\n{INITIALIZED}\nnot json").as_bytes())
        .await
        .unwrap();
    write.shutdown().await.unwrap();
    drop(write);
    let mut output = String::new();
    tokio::time::timeout(
        ANSWER_WITHIN,
        BufReader::new(read).read_to_string(&mut output),
    )
    .await
    .expect("the server ends with its input")
    .unwrap();
    let last: Value = serde_json::from_str(output.lines().last().unwrap()).unwrap();
    assert_error(&last, &parse_error("not valid JSON"), "last line");
    serving.await.unwrap().unwrap();
}

// Log capture: `#[tokio::test]` runs everything on the test's thread, where the capturing
// subscriber is the default.
#[path = "support/warnings.rs"]
mod warnings;
use warnings::Warnings;
