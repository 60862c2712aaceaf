//! The `agtrace` command line: `serve`, `call`, `index`, `tools`, `demo`, `gen-corpus`.
//!
//! stdout carries only the command's output (for `serve`: only MCP messages); logs and
//! progress go to stderr.

mod auth;
mod call;
mod catalog;
#[cfg(feature = "dev")]
mod demo;
mod gen_corpus;
mod index;
mod log_roots;
mod malloc;
mod output;
mod serve;

use agtrace_tools::config::Config;
use agtrace_tools::index::IndexStats;
use agtrace_tools::store::TraceStore;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "agtrace",
    version,
    about = "MCP tools over the session logs of Claude Code, Codex CLI, Gemini CLI, Qwen Code, GitHub Copilot CLI and OpenCode"
)]
struct Cli {
    #[command(flatten)]
    roots: Roots,
    #[command(subcommand)]
    command: Command,
}

/// Where the logs and the index are, and how much of the logs stays parsed; each flag falls back
/// to its environment variable, then to its default. Given before the subcommand (for every
/// one) or after it (only the subcommands that read the logs or the index list them).
#[derive(Args, Clone, Default)]
pub struct Roots {
    #[command(flatten)]
    logs: log_roots::LogRoots,
    /// Where the index lives [default: the platform data dir, e.g. ~/.local/share/agtrace]
    #[arg(long, env = "AGTRACE_DATA_DIR")]
    data_dir: Option<PathBuf>,
    /// Megabytes of session logs kept parsed between tool calls; 0 turns the cache off [default: 128]
    #[arg(long, env = "AGTRACE_SESSION_CACHE_MB", value_name = "MB")]
    session_cache_mb: Option<u64>,
    /// Index and answer API keys, tokens and private keys found in the logs as they are
    /// instead of masked (also AGTRACE_SHOW_SECRETS=1); the index is rebuilt when this changes
    #[arg(long)]
    show_secrets: bool,
    /// Keep a compressed copy of every indexed log in the data dir, so sessions whose log the
    /// agent deletes still answer, marked archived (also AGTRACE_ARCHIVE=1; off by default)
    #[arg(long)]
    archive: bool,
}

impl Roots {
    /// These roots with `after`'s (given after the subcommand) taking precedence.
    pub fn then(&self, after: &Roots) -> Roots {
        let mut logs = self.logs.clone();
        logs.extend(&after.logs);
        Roots {
            logs,
            data_dir: after.data_dir.clone().or_else(|| self.data_dir.clone()),
            session_cache_mb: after.session_cache_mb.or(self.session_cache_mb),
            show_secrets: self.show_secrets || after.show_secrets,
            archive: self.archive || after.archive,
        }
    }

    pub fn config(&self) -> Config {
        let mut config = Config::from_env();
        self.logs.apply(&mut config);
        if let Some(d) = &self.data_dir {
            config.data_dir = d.clone();
        }
        // Config::from_env has read AGTRACE_SHOW_SECRETS; the flag can only turn masking off.
        config.show_secrets |= self.show_secrets;
        config.archive |= self.archive;
        if let Some(mb) = self.session_cache_mb {
            config.session_cache_bytes = mb.saturating_mul(1 << 20);
        }
        config
    }
}

#[derive(Subcommand)]
enum Command {
    /// Serve the tools over MCP (stdio, or streamable HTTP at /mcp), indexing in the
    /// background and keeping the index fresh as the logs change.
    Serve(Box<serve::ServeArgs>),
    /// Run one tool without MCP and print its envelope JSON (exit code 0 even for tool errors).
    Call(call::CallArgs),
    /// Bring the index up to date, with a progress bar on stderr.
    Index(IndexArgs),
    /// Print the tool catalog with each tool's tokens: input side (name, description, input
    /// schema) and output schema counted apart.
    Tools(catalog::ToolsArgs),
    /// A scripted MCP session over the bundled sample logs, printed step by step (in a
    /// checkout, built with `--features dev`)
    Demo,
    /// Write a deterministic synthetic log tree (all three providers) for tests and benchmarks.
    GenCorpus(gen_corpus::GenCorpusArgs),
}

/// `agtrace index`'s flags: the roots only.
#[derive(Args)]
struct IndexArgs {
    #[command(flatten)]
    roots: Roots,
}

/// A command's failure: printed on stderr, exit code 1 (2 for bad usage; 141, silent, for
/// a closed stdout).
pub struct Failure {
    pub message: String,
    pub code: u8,
}

impl Failure {
    pub fn usage(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            code: 2,
        }
    }

    /// stdout's reader went away (`| head`): nothing to say, and nobody to say it to.
    pub fn output_closed() -> Self {
        Self {
            message: String::new(),
            code: output::CLOSED_STATUS,
        }
    }
}

impl<E: std::fmt::Display> From<E> for Failure {
    fn from(e: E) -> Self {
        Self {
            message: e.to_string(),
            code: 1,
        }
    }
}

/// Opens the store for `config`: checks that the index stays out of the log roots.
pub fn open_store(config: Config) -> Result<TraceStore, Failure> {
    config.validate()?;
    Ok(TraceStore::open(config)?)
}

/// Brings the index up to date off the async workers (SQLite and file reads block), logging
/// the notes (missing roots) and the skipped files per reason on stderr.
pub async fn refresh(store: &TraceStore) -> Result<IndexStats, Failure> {
    let store = store.clone();
    let stats = tokio::task::spawn_blocking(move || store.refresh()).await??;
    for note in &stats.notes {
        tracing::info!("{note}");
    }
    let skips = agtrace_tools::index::SkipSummary::of(&stats.skipped, 0);
    if skips.total() > 0 {
        tracing::info!(
            not_indexed = skips.total(),
            reasons = %skips.counts_text(),
            "log files not indexed (`agtrace index` names them)"
        );
    }
    tracing::info!(
        parsed = stats.files_parsed,
        skipped = stats.files_skipped,
        ms = stats.elapsed_ms,
        "index ready"
    );
    Ok(stats)
}

/// How long the process waits, once its command is done, for blocking work still running
/// (cancelled store calls stop within milliseconds; a read of stdin or an index write may not).
const SHUTDOWN_GRACE: std::time::Duration = std::time::Duration::from_millis(300);

fn main() -> ExitCode {
    // Before any thread starts: logs are mapped, with a SIGBUS guard for one cut short meanwhile.
    agtrace_tools::store::map_logs();
    let cli = Cli::parse();
    // Still on the one thread: parsing the arguments starts none.
    malloc::tune(matches!(cli.command, Command::Index(_)));
    init_logging();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            output::errln!("agtrace: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let outcome = runtime.block_on(async {
        match cli.command {
            Command::Serve(args) => serve::run(&cli.roots.then(&args.roots), *args).await,
            Command::Call(args) => call::run(&cli.roots.then(&args.roots), args).await,
            Command::Index(args) => index::run(&cli.roots.then(&args.roots)).await,
            Command::Tools(args) => catalog::run(&cli.roots.then(&args.roots), args).await,
            #[cfg(feature = "dev")]
            Command::Demo => demo::run().await,
            #[cfg(not(feature = "dev"))]
            Command::Demo => Err(Failure::usage(
                "`agtrace demo` is for a checkout of the repository, built with the `dev` \
                 feature: cargo run -p agtrace-tools --features dev -- demo",
            )),
            Command::GenCorpus(args) => gen_corpus::run(args),
        }
    });
    // Dropping the runtime would wait for every blocking thread: a read of stdin that never
    // returns, or a store call that cannot be interrupted, would keep the process alive.
    runtime.shutdown_timeout(SHUTDOWN_GRACE);
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            if !failure.message.is_empty() {
                output::errln!("agtrace: {}", failure.message);
            }
            ExitCode::from(failure.code)
        }
    }
}

fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("AGTRACE_LOG")
        // notify's inotify backend warns (its one warning) when a watch it meant to drop was
        // gone already: with a watch per folder (`fresh/watch.rs`), that is every folder of a
        // tree deleted at once after the first. Nothing is lost; the refresh sees the removal.
        .unwrap_or_else(|_| "warn,notify::inotify=error".into());
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(filter)
        .init();
}
