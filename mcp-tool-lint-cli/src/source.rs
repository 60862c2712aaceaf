//! Where the tools come from: a saved `tools/list` result, a stdio server, or a streamable
//! HTTP server. Both live sources go through rmcp's client, which pages through `tools/list`.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use serde_json::{Value, json};
use tokio::io::AsyncReadExt;

use crate::catalog::Catalog;

/// How many trailing lines of a failed server's stderr are shown with the error.
const STDERR_TAIL_LINES: usize = 20;

/// Reads a saved catalog: a `tools/list` result (`{"tools": [..]}`), a whole JSON-RPC response
/// holding one (`{"result": {"tools": [..]}}`), or a bare array of tools. `-` is stdin.
pub fn from_file(path: &Path) -> Result<Catalog, String> {
    let text = if path == Path::new("-") {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
            .map_err(|e| format!("cannot read stdin: {e}"))?;
        s
    } else {
        std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read `{}`: {e}", path.display()))?
    };
    let value: Value = serde_json::from_str(&text)
        .map_err(|e| format!("`{}` is not JSON: {e}", path.display()))?;
    Catalog::from_json(value).map_err(|e| format!("`{}`: {e}", path.display()))
}

/// Spawns `command` as a stdio server, initializes, and lists all its tools. The server's
/// stderr is kept and shown only if the connection fails.
pub async fn from_command(
    command: &[String],
    timeout: Duration,
    probe: bool,
) -> Result<Catalog, String> {
    let (program, args) = command
        .split_first()
        .ok_or("no server command after `--`")?;
    let mut cmd = tokio::process::Command::new(program);
    cmd.args(args);
    let (transport, stderr) = TokioChildProcess::builder(cmd)
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start `{program}`: {e}"))?;
    let captured = Arc::new(Mutex::new(Vec::new()));
    if let Some(mut stderr) = stderr {
        let sink = Arc::clone(&captured);
        tokio::spawn(async move {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stderr.read(&mut buf).await {
                if n == 0 {
                    break;
                }
                sink.lock()
                    .expect("stderr buffer")
                    .extend_from_slice(&buf[..n]);
            }
        });
    }
    let what = format!("the server `{}`", command.join(" "));
    list(transport, &what, timeout, probe).await.map_err(|e| {
        // Give the reader of the stderr a moment to drain what the server wrote before dying.
        std::thread::sleep(Duration::from_millis(100));
        let bytes = captured.lock().expect("stderr buffer").clone();
        let text = String::from_utf8_lossy(&bytes);
        let tail: Vec<&str> = text.lines().rev().take(STDERR_TAIL_LINES).collect();
        if tail.is_empty() {
            e
        } else {
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            format!("{e}\nthe server's stderr ended with:\n{}", tail.join("\n"))
        }
    })
}

/// Connects to a streamable HTTP server at `url`, initializes, and lists all its tools.
pub async fn from_url(url: &str, timeout: Duration, probe: bool) -> Result<Catalog, String> {
    let transport = StreamableHttpClientTransport::from_uri(url.to_string());
    list(transport, &format!("the server at {url}"), timeout, probe).await
}

async fn list<T, E, A>(
    transport: T,
    what: &str,
    timeout: Duration,
    probe: bool,
) -> Result<Catalog, String>
where
    T: rmcp::transport::IntoTransport<rmcp::RoleClient, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    let session = async {
        let client = ()
            .serve(transport)
            .await
            .map_err(|e| format!("cannot initialize an MCP session with {what}: {e}"))?;
        let server = client
            .peer_info()
            .and_then(|info| info.server_info.clone())
            .map(|s| json!({"name": s.name, "version": s.version}));
        let tools = client
            .list_all_tools()
            .await
            .map_err(|e| format!("`tools/list` failed on {what}: {e}"))?;
        let tools = serde_json::to_value(tools)
            .map_err(|e| format!("cannot re-encode the tools of {what}: {e}"))?;
        let mut probes = BTreeMap::new();
        if probe {
            for tool in tools.as_array().into_iter().flatten() {
                let Some(args) = crate::probe::arguments(tool) else {
                    continue;
                };
                let name = crate::catalog::tool_name(tool).to_string();
                let params = CallToolRequestParams::new(name.clone()).with_arguments(args);
                // A refusal is a tool error or a JSON-RPC error; either way its text tells.
                let refusal = match client.call_tool(params).await {
                    Ok(result) => serde_json::to_string(&result.content).unwrap_or_default(),
                    Err(e) => e.to_string(),
                };
                probes.insert(name, crate::probe::rejected(&refusal));
            }
        }
        let _ = client.cancel().await;
        Ok::<_, String>((server, tools, probes))
    };
    let (server, tools, probes) =
        tokio::time::timeout(timeout, session).await.map_err(|_| {
            format!(
                "{what} did not answer `initialize` and `tools/list` within {} s (--timeout)",
                timeout.as_secs()
            )
        })??;
    let mut result = json!({ "tools": tools });
    if let Some(server) = server {
        result["serverInfo"] = server;
    }
    let mut catalog = Catalog::from_json(result)?;
    catalog.probes = probes;
    Ok(catalog)
}
