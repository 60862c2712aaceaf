//! `agtrace serve`: index what changed, then serve over stdio or streamable HTTP.

use super::{Failure, Roots, open_store, refresh};
use agtrace_tools::store::TraceStore;
use std::net::SocketAddr;
use std::time::Duration;

#[derive(clap::Args)]
pub struct ServeArgs {
    /// Serve streamable HTTP at http://ADDR/mcp instead of stdio, e.g. 127.0.0.1:8765.
    #[arg(long, value_name = "ADDR")]
    http: Option<SocketAddr>,
    /// Seconds between background re-indexes, so sessions still being written show up.
    #[arg(long, default_value_t = 30)]
    refresh_secs: u64,
}

pub async fn run(roots: &Roots, args: ServeArgs) -> Result<(), Failure> {
    let store = open_store(roots.config())?;
    refresh(&store).await?;
    let server = agtrace_tools::server::build(store.clone())?;
    if args.refresh_secs > 0 {
        tokio::spawn(keep_fresh(store, Duration::from_secs(args.refresh_secs)));
    }
    match args.http {
        Some(addr) => server.serve_http(addr).await?,
        None => server.serve_stdio().await?,
    }
    Ok(())
}

/// Re-indexes in the background; an unchanged tree costs a stat per file.
async fn keep_fresh(store: TraceStore, every: Duration) {
    let mut ticker = tokio::time::interval(every);
    ticker.tick().await;
    loop {
        ticker.tick().await;
        if let Err(e) = refresh(&store).await {
            tracing::warn!("background re-index failed: {}", e.message);
        }
    }
}
