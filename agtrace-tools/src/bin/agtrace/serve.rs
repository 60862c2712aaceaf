//! `agtrace serve`: serve over stdio or streamable HTTP at once, indexing in the background.
//!
//! `initialize` and `tools/list` never wait for the index (the catalog is static), which is
//! opened at once and brought up to date on a thread of its own; every tool call waits until it
//! holds every change seen so far ([`agtrace_tools::fresh`]), a call about one session only
//! when that session's logs changed since they were indexed.

mod priority;
mod replicas;

use super::auth::{AuthArgs, check_exposure};
use super::{Failure, Roots};
use agtrace_tools::fresh::watch::LogWatch;
use agtrace_tools::fresh::{Freshness, WatchMode};
use agtrace_tools::store::TraceStore;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

/// How the served index notices new and appended logs.
#[derive(Clone, Copy, clap::ValueEnum)]
enum Watch {
    /// A file watcher on the log roots (inotify, FSEvents, ...), else `poll`.
    Auto,
    /// No watcher: every call re-scans the logs first (a stat per file), for file systems that
    /// send no change events (network mounts) or when no inotify watches are left.
    Poll,
}

#[derive(clap::Args)]
pub struct ServeArgs {
    #[command(flatten)]
    pub roots: super::Roots,
    /// Serve streamable HTTP at http://ADDR/mcp instead of stdio, e.g. 127.0.0.1:8765.
    #[arg(long, value_name = "ADDR")]
    http: Option<SocketAddr>,
    /// A host name or address (optionally `:port`) HTTP clients may name in `Host`, besides
    /// localhost and the address they connected to; repeatable, or comma-separated in the
    /// variable. Needed for a DNS name, or a proxy that forwards its own `Host`.
    #[arg(
        long = "allowed-host",
        value_name = "HOST",
        env = "AGTRACE_ALLOWED_HOSTS",
        value_delimiter = ','
    )]
    allowed_hosts: Vec<String>,
    /// Seconds between background re-scans of the logs, besides those the watcher triggers
    /// (a safety net for missed events; 0: none).
    #[arg(long, default_value_t = 30)]
    refresh_secs: u64,
    /// How changes to the logs are noticed while serving.
    #[arg(long, value_enum, env = "AGTRACE_WATCH", default_value = "auto")]
    watch: Watch,
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
    let gate = Freshness::new();
    let store = TraceStore::open_deferred(roots.config())?.with_freshness(gate.clone());
    let mut builder = replicas.apply(agtrace_tools::server::builder(store.clone()));
    if let Some(auth) = auth {
        builder = builder.http_auth(auth);
    }
    if args.http.is_none() && !args.allowed_hosts.is_empty() {
        tracing::warn!("--allowed-host applies to --http only; stdio ignores it");
    }
    builder = builder.allowed_hosts(args.allowed_hosts);
    let server = builder.build()?;
    let mode = match args.watch {
        Watch::Auto => WatchMode::Auto,
        Watch::Poll => WatchMode::Poll,
    };
    let mut watch = LogWatch::new(store.config(), mode);
    let rescan = (args.refresh_secs > 0).then(|| Duration::from_secs(args.refresh_secs));
    let watch_gate = gate.clone();
    let catalog = server.clone();
    let on_start = move || {
        priority::lower_this_thread();
        // The handshake first: `tools/list` waits for the listed tools, derived on a thread
        // `build()` started, and the first build (at once, from here) would take cores and
        // the allocator from it. Waiting for them costs the first build about a millisecond.
        catalog.tools().for_each(drop);
    };
    let refresher =
        gate.spawn_refresher(store, rescan, on_start, move || watch.update(&watch_gate))?;
    let served = async {
        match args.http {
            Some(addr) => server.serve_http(addr).await,
            None => server.serve_stdio().await,
        }
    };
    let outcome = tokio::select! {
        served = served => served.map_err(Failure::from),
        signal = stop_signal() => {
            tracing::info!("{signal}: stopping");
            Ok(())
        }
    };
    // An idle refresher ends at once (removing its barrier file); one in the middle of a
    // refresh is left to the process exit: the index is transactional.
    gate.stop();
    let deadline = Instant::now() + Duration::from_millis(200);
    while !refresher.is_finished() && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    outcome?;
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
