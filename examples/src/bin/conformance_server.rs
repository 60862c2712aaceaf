//! `conformance_server`: the MCP conformance suite's tool set over streamable HTTP.
//!
//! `conformance_server --listen 127.0.0.1:3000` serves `http://127.0.0.1:3000/mcp`.
//! Logs go to stderr (`RUST_LOG=info` for more).

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
    let addr = match args.as_slice() {
        [flag, addr] if flag == "--listen" => match addr.parse::<SocketAddr>() {
            Ok(addr) => addr,
            Err(e) => fail(&format!(
                "`{addr}` is not an address like 127.0.0.1:3000: {e}"
            )),
        },
        _ => fail("usage: conformance_server --listen ADDR"),
    };
    let server = mcp_tool_examples::conformance::server();
    if let Err(e) = server.serve_http(addr).await {
        fail(&e.to_string());
    }
}

fn fail(message: &str) -> ! {
    eprintln!("conformance_server: {message}");
    std::process::exit(2);
}
