//! Tool calls as tasks (the tasks extension of 2026-07-28): a handle at once, the result later
//! on `tasks/get`, `tasks/cancel` firing the tool's cancel token, structured errors for
//! unknown ids, results that expire; in-line calls for clients without the extension.

use mcp_tool::ToolServer;
use mcp_tool::prelude::*;
use mcp_tool::tasks::TaskSettings;
use serde_json::{Value, json};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tokio::io::{
    AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf,
};

/// How long `wait_for_it` works.
#[tool_args]
pub struct WaitArgs {
    /// Milliseconds of work.
    #[arg(max = 600_000)]
    pub millis: u64,
}

/// Set when the task of `wait_for_it` saw its cancel token fire.
static SAW_CANCEL: AtomicBool = AtomicBool::new(false);

/// Wait the given milliseconds, as a task when the client follows tasks, and say how long.
#[mcp_tool(
    name = "wait_for_it",
    family = "tasks_test",
    size_hint = "1KB",
    read_only
)]
pub async fn wait_for_it(ctx: &ToolContext, args: WaitArgs) -> ToolResult<String> {
    ctx.run_as_task()?;
    ctx.progress(0.0, None, Some("waiting")).await;
    let cancel = ctx.cancel_token();
    // Work off the tool's future, as blocking work would: only the token tells it to stop.
    let watcher = std::thread::spawn(move || {
        let until = Instant::now() + Duration::from_millis(args.millis);
        while Instant::now() < until {
            if cancel.is_cancelled() {
                SAW_CANCEL.store(true, Ordering::SeqCst);
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    });
    tokio::task::spawn_blocking(move || watcher.join())
        .await
        .map_err(|e| ToolError::internal(e.to_string()))?
        .map_err(|_| ToolError::internal("the worker panicked"))?;
    Ok(format!("waited {} ms", args.millis))
}

fn server(settings: TaskSettings) -> ToolServer {
    ToolServer::builder()
        .families(["tasks_test"])
        .tasks(settings)
        .build()
        .unwrap()
}

struct Client {
    write: WriteHalf<DuplexStream>,
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
    next_id: u64,
}

impl Client {
    fn new(server: ToolServer) -> Self {
        let (client, server_io) = tokio::io::duplex(1 << 16);
        let (read, write) = tokio::io::split(server_io);
        tokio::spawn(async move { server.serve_io(read, write).await });
        let (read, write) = tokio::io::split(client);
        Self {
            write,
            lines: BufReader::new(read).lines(),
            next_id: 0,
        }
    }

    /// One 2026-07-28 request; the JSON-RPC answer.
    async fn request(&mut self, method: &str, mut params: Value, tasks: bool) -> Value {
        let mut capabilities = json!({});
        if tasks {
            capabilities["extensions"] = json!({"io.modelcontextprotocol/tasks": {}});
        }
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": capabilities,
        });
        self.next_id += 1;
        let id = self.next_id;
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.write
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
        loop {
            let line = tokio::time::timeout(Duration::from_secs(10), self.lines.next_line())
                .await
                .expect("an answer within 10 s")
                .unwrap()
                .expect("the server is still there");
            let answer: Value = serde_json::from_str(&line).unwrap();
            if answer["id"] == json!(id) {
                return answer;
            }
        }
    }

    async fn call(&mut self, millis: u64, tasks: bool) -> Value {
        let params = json!({"name": "wait_for_it", "arguments": {"millis": millis}});
        self.request("tools/call", params, tasks).await
    }

    async fn get(&mut self, task_id: &str) -> Value {
        self.request("tasks/get", json!({"taskId": task_id}), true)
            .await
    }

    /// Polls `tasks/get` until the task is over.
    async fn settled(&mut self, task_id: &str) -> Value {
        let start = Instant::now();
        loop {
            let answer = self.get(task_id).await;
            let status = answer["result"]["status"].as_str().unwrap_or("").to_owned();
            if ["completed", "failed", "cancelled"].contains(&status.as_str()) {
                return answer["result"].clone();
            }
            assert!(start.elapsed() < Duration::from_secs(10), "{answer}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_call_gets_a_handle_at_once_and_its_result_later() {
    let mut client = Client::new(server(TaskSettings::default()));
    let asked = Instant::now();
    let created = client.call(400, true).await["result"].clone();
    assert!(
        asked.elapsed() < Duration::from_millis(300),
        "the handle came after {:?}",
        asked.elapsed()
    );
    assert_eq!(created["resultType"], json!("task"), "{created}");
    assert_eq!(created["status"], json!("working"));
    assert_eq!(created["ttlMs"], json!(15 * 60 * 1000));
    let id = created["taskId"].as_str().unwrap().to_owned();

    let working = client.get(&id).await["result"].clone();
    assert_eq!(working["status"], json!("working"), "{working}");
    assert!(working.get("result").is_none());
    // The tool's progress message becomes the task's status message once the tool runs.
    let mut message = working["statusMessage"].clone();
    while message.is_null() && asked.elapsed() < Duration::from_millis(350) {
        tokio::time::sleep(Duration::from_millis(10)).await;
        message = client.get(&id).await["result"]["statusMessage"].clone();
    }
    assert_eq!(message, json!("waiting"));

    let done = client.settled(&id).await;
    assert_eq!(done["status"], json!("completed"), "{done}");
    assert_eq!(done["result"]["isError"], json!(false));
    assert_eq!(
        done["result"]["structuredContent"]["data"],
        json!("waited 400 ms")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_task_fires_the_tools_cancel_token_and_ends_cancelled() {
    let mut client = Client::new(server(TaskSettings::default()));
    let created = client.call(60_000, true).await["result"].clone();
    let id = created["taskId"].as_str().unwrap().to_owned();
    tokio::time::sleep(Duration::from_millis(50)).await;

    let ack = client
        .request("tasks/cancel", json!({"taskId": id}), true)
        .await;
    assert_eq!(ack["result"], json!({"resultType": "complete"}), "{ack}");
    let done = client.settled(&id).await;
    assert_eq!(done["status"], json!("cancelled"), "{done}");
    let start = Instant::now();
    while !SAW_CANCEL.load(Ordering::SeqCst) {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "the tool's work never saw the cancel token fire"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // Cancelling a finished task changes nothing.
    let again = client
        .request("tasks/cancel", json!({"taskId": id}), true)
        .await;
    assert_eq!(again["result"], json!({"resultType": "complete"}));
    assert_eq!(
        client.get(&id).await["result"]["status"],
        json!("cancelled")
    );
}

#[tokio::test]
async fn an_unknown_task_id_is_a_structured_invalid_params_error() {
    let mut client = Client::new(server(TaskSettings::default()));
    for method in ["tasks/get", "tasks/cancel"] {
        let answer = client
            .request(method, json!({"taskId": "no-such-task"}), true)
            .await;
        let error = &answer["error"];
        assert_eq!(error["code"], json!(-32602), "{answer}");
        assert_eq!(error["data"]["code"], json!("unknown_task"));
        assert_eq!(error["data"]["taskId"], json!("no-such-task"));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn results_expire_with_their_ttl() {
    let settings = TaskSettings::default().ttl(Duration::from_millis(600));
    let mut client = Client::new(server(settings));
    let created = client.call(10, true).await["result"].clone();
    assert_eq!(created["ttlMs"], json!(600));
    let id = created["taskId"].as_str().unwrap().to_owned();
    assert_eq!(client.settled(&id).await["status"], json!("completed"));
    tokio::time::sleep(Duration::from_millis(700)).await;
    let gone = client.get(&id).await;
    assert_eq!(gone["error"]["code"], json!(-32602), "{gone}");
}

#[tokio::test]
async fn a_client_without_the_extension_gets_the_answer_in_line() {
    let mut client = Client::new(server(TaskSettings::default()));
    let answer = client.call(10, false).await["result"].clone();
    assert_eq!(answer["resultType"], json!("complete"), "{answer}");
    assert!(answer.get("taskId").is_none());
    assert_eq!(answer["structuredContent"]["data"], json!("waited 10 ms"));
    // And it may not read tasks: -32021 names the extension.
    let refused = client
        .request("tasks/get", json!({"taskId": "x"}), false)
        .await;
    assert_eq!(refused["error"]["code"], json!(-32021), "{refused}");
}

#[tokio::test]
async fn the_extension_is_advertised_to_2026_clients_only_and_only_when_on() {
    let mut client = Client::new(server(TaskSettings::default()));
    let discovered = client.request("server/discover", json!({}), true).await;
    let extensions = &discovered["result"]["capabilities"]["extensions"];
    assert!(
        extensions.get("io.modelcontextprotocol/tasks").is_some(),
        "{discovered}"
    );

    let session = ToolServer::builder()
        .families(["tasks_test"])
        .tasks(TaskSettings::default())
        .build()
        .unwrap();
    let (client_io, server_io) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(server_io);
    tokio::spawn(async move { session.serve_io(read, write).await });
    let (read, mut write) = tokio::io::split(client_io);
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"}}});
    write
        .write_all(format!("{init}\n").as_bytes())
        .await
        .unwrap();
    let line = BufReader::new(read)
        .lines()
        .next_line()
        .await
        .unwrap()
        .unwrap();
    let initialized: Value = serde_json::from_str(&line).unwrap();
    let capabilities = &initialized["result"]["capabilities"];
    assert!(capabilities["tools"].is_object(), "{initialized}");
    assert!(capabilities.get("extensions").is_none(), "{initialized}");

    let off = ToolServer::builder()
        .families(["tasks_test"])
        .build()
        .unwrap();
    let mut client = Client::new(off);
    let discovered = client.request("server/discover", json!({}), true).await;
    assert!(
        discovered["result"]["capabilities"]
            .get("extensions")
            .is_none(),
        "{discovered}"
    );
    let in_line = client.call(10, true).await["result"].clone();
    assert_eq!(in_line["resultType"], json!("complete"), "{in_line}");
}
