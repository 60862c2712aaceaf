//! `hello_tools`: the task-board example server.
//!
//! `hello_tools` speaks MCP on stdin/stdout; `hello_tools --http 127.0.0.1:8080` serves
//! streamable HTTP at `/mcp` instead. Logs go to stderr (`RUST_LOG=info` for more).

use std::net::SocketAddr;

#[tokio::main]
async fn main() {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()),
        )
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let server = mcp_tool_examples::hello::server();
    let served = match args.as_slice() {
        [] => server.serve_stdio().await,
        [flag, addr] if flag == "--http" => match addr.parse::<SocketAddr>() {
            Ok(addr) => server.serve_http(addr).await,
            Err(e) => fail(&format!(
                "`{addr}` is not an address like 127.0.0.1:8080: {e}"
            )),
        },
        _ => fail("usage: hello_tools [--http ADDR]"),
    };
    if let Err(e) = served {
        fail(&e.to_string());
    }
}

fn fail(message: &str) -> ! {
    eprintln!("hello_tools: {message}");
    std::process::exit(2);
}
