//! `agtrace serve`: index what changed, then serve over stdio or streamable HTTP.

mod replicas;

use super::auth::{AuthArgs, check_exposure};
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
    /// Replicas behind a load balancer: the cursor keys and stateless HTTP (docs/replicas.md).
    #[command(flatten)]
    replicas: replicas::ReplicaArgs,
    #[command(flatten)]
    auth: AuthArgs,
}

pub async fn run(roots: &Roots, args: ServeArgs) -> Result<(), Failure> {
    let replicas = args.replicas.check()?;
    let auth = args.auth.resolve()?;
    match (args.http, &auth) {
        (Some(addr), auth) => check_exposure(addr, auth.as_ref())?,
        (None, Some(_)) => {
            tracing::warn!("authentication applies to --http only; stdio ignores it")
        }
        (None, None) => {}
    }
    let store = open_store(roots.config())?;
    refresh(&store).await?;
    let mut builder = replicas.apply(agtrace_tools::server::builder(store.clone()));
    if let Some(auth) = auth {
        builder = builder.http_auth(auth);
    }
    let server = builder.build()?;
    if args.refresh_secs > 0 {
        tokio::spawn(keep_fresh(store, Duration::from_secs(args.refresh_secs)));
    }
    let served = async {
        match args.http {
            Some(addr) => server.serve_http(addr).await,
            None => server.serve_stdio().await,
        }
    };
    tokio::select! {
        served = served => served?,
        signal = stop_signal() => tracing::info!("{signal}: stopping"),
    }
    // Calls still in flight are cancelled as the runtime drops them; `main` then waits at
    // most `SHUTDOWN_GRACE` for blocking work that does not stop by itself.
    Ok(())
}

/// SIGINT (Ctrl-C) or SIGTERM, as the name of the signal; never resolves when no handler
/// could be installed (the server then stops only when its input ends).
async fn stop_signal() -> &'static str {
    let interrupt = async {
        match tokio::signal::ctrl_c().await {
            Ok(()) => "SIGINT",
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(unix)]
    let terminate = async {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                term.recv().await;
                "SIGTERM"
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<&'static str>();
    tokio::select! {
        name = interrupt => name,
        name = terminate => name,
    }
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
