//! `hello_tools`: the task-board example server.
//!
//! `hello_tools` speaks MCP on stdin/stdout; `hello_tools --http 127.0.0.1:8080` serves
//! streamable HTTP at `/mcp` instead. Logs go to stderr (`RUST_LOG=info` for more).
//!
//! Replicas behind a load balancer (`scripts/replicas/`, `docs/replicas.md`): `--stateless`
//! serves HTTP without sessions, and `HELLO_TOOLS_SIGNING_KEYS=id:secret[,id:secret...]` gives
//! every replica the same cursor keys (an environment variable, not a flag: other users can
//! read a process's arguments).

use mcp_tool::seal::SigningKeys;
use std::net::SocketAddr;

const USAGE: &str = "usage: hello_tools [--http ADDR [--stateless]]";
const KEYS_VAR: &str = "HELLO_TOOLS_SIGNING_KEYS";

#[tokio::main]
async fn main() {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()),
        )
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut builder = mcp_tool_examples::hello::builder();
    if let Some(spec) = std::env::var(KEYS_VAR)
        .ok()
        .filter(|v| !v.trim().is_empty())
    {
        match SigningKeys::parse(&spec) {
            Ok(keys) => builder = builder.signing_keys(keys),
            Err(e) => fail(&format!("{KEYS_VAR}: {e}")),
        }
    }
    let (http, stateless) = match args.as_slice() {
        [] => (None, false),
        [flag, addr] if flag == "--http" => (Some(addr), false),
        [flag, addr, s] | [s, flag, addr] if flag == "--http" && s == "--stateless" => {
            (Some(addr), true)
        }
        _ => fail(USAGE),
    };
    let server = builder
        .stateless_http(stateless)
        .build()
        .unwrap_or_else(|e| fail(&e.to_string()));
    let served = match http {
        None => server.serve_stdio().await,
        Some(addr) => match addr.parse::<SocketAddr>() {
            Ok(addr) => server.serve_http(addr).await,
            Err(e) => fail(&format!(
                "`{addr}` is not an address like 127.0.0.1:8080: {e}"
            )),
        },
    };
    if let Err(e) = served {
        fail(&e.to_string());
    }
}

fn fail(message: &str) -> ! {
    eprintln!("hello_tools: {message}");
    std::process::exit(2);
}
