//! `ToolServer`: the registered tools, validated, ready to serve over any rmcp transport.

#[cfg(feature = "answer-check")]
pub(crate) mod answer_check;
#[cfg(feature = "auth")]
pub mod auth;
mod build;
#[cfg(feature = "http")]
mod connection_slots;
pub(crate) mod dispatch;
mod eras;
mod families;
mod framing;
mod handler;
mod heard;
#[cfg(feature = "http")]
mod host_origin;
#[cfg(feature = "http")]
mod http_compat;
#[cfg(feature = "http")]
mod http_guard;
#[cfg(feature = "http")]
mod http_serve;
pub(crate) mod input_required;
mod session_transport;
mod signing;
#[cfg(feature = "http")]
mod stateless_http;
#[cfg(unix)]
mod stdio_pipes;
mod task_store;
pub mod tasks;
pub mod telemetry;
pub(crate) mod transport;
mod wire;

pub use build::{BuildError, LintWarning, SIZE_HINT_META, ToolServerBuilder};
pub use families::UnservedTool;
pub(crate) use handler::Handler;

use crate::registry::ToolDef;
use crate::state::States;
use rmcp::model::{ServerConfig, Tool};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

/// A validated set of tools with their states. Cheap to clone; clones share everything.
///
/// Made by [`ToolServer::builder`], then served with [`serve_stdio`](Self::serve_stdio),
/// `serve_http` (feature `http`) or any rmcp transport ([`serve`](Self::serve)), or called
/// directly with [`call`](Self::call).
///
/// ```no_run
/// use mcp_tool::ToolServer;
///
/// #[tokio::main]
/// async fn main() {
///     let server = ToolServer::builder()
///         .name("notes")
///         .version(env!("CARGO_PKG_VERSION"))
///         .families(["notes"])
///         .build()
///         .unwrap_or_else(|e| panic!("{e}"));
///     // stdout carries the protocol: log to stderr.
///     if let Err(e) = server.serve_stdio().await {
///         eprintln!("notes: {e}");
///     }
/// }
/// ```
#[derive(Clone)]
pub struct ToolServer {
    inner: Arc<Inner>,
}

struct Inner {
    tools: Vec<Prepared>,
    by_name: HashMap<&'static str, usize>,
    states: Arc<States>,
    config: ServerConfig,
    tools_page_size: usize,
    timeout: Option<Duration>,
    /// Computed (and logged) once, on first use; see [`ToolServer::lint_warnings`].
    lint_warnings: std::sync::OnceLock<Vec<LintWarning>>,
    unserved: Vec<UnservedTool>,
    client_limits: crate::client_limits::ClientLimits,
    #[cfg(feature = "http")]
    http: http_guard::HttpSettings,
    /// The `Host` and `Origin` values HTTP requests may carry, read from `http`.
    #[cfg(feature = "http")]
    admission: Arc<host_origin::Admission>,
    max_message_bytes: usize,
    signing_keys: crate::seal::SigningKeys,
    #[cfg(feature = "http")]
    stateless_http: bool,
    list_caching: eras::ListCaching,
    tasks: Option<task_store::TaskStore>,
}

/// A tool with everything computed once, so calls do no schema work: what can fail at build
/// time, the listed tool (its output schema above all) on first use or on the thread
/// [`ToolServerBuilder::build`] starts for it, so that `initialize` need not wait for it.
pub(crate) struct Prepared {
    pub def: &'static ToolDef,
    tool: std::sync::OnceLock<Tool>,
    /// The input schema as listed.
    input: Arc<Map<String, Value>>,
    /// Defaults from the input schema, for cursor fingerprints.
    pub defaults: Map<String, Value>,
    /// Names of the declared parameters, to warn about arguments that will be ignored.
    pub parameters: Vec<String>,
    /// The compiled `outputSchema`, when the server checks its answers.
    #[cfg(feature = "answer-check")]
    pub answer_check: Option<answer_check::AnswerCheck>,
}

impl Prepared {
    /// The tool as `tools/list` shows it.
    pub fn tool(&self) -> &Tool {
        self.tool
            .get_or_init(|| build::finish(self.def, self.input.clone()))
    }
}

impl std::fmt::Debug for ToolServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolServer")
            .field("name", &self.inner.config.server_info.name)
            .field(
                "tools",
                &self
                    .inner
                    .tools
                    .iter()
                    .map(|p| p.def.name)
                    .collect::<Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}

impl ToolServer {
    /// A builder with default settings; see [`ToolServerBuilder`].
    pub fn builder() -> ToolServerBuilder {
        ToolServerBuilder::default()
    }

    /// The tools this server lists, in `tools/list` order.
    pub fn tools(&self) -> impl Iterator<Item = &Tool> {
        self.inner.tools.iter().map(Prepared::tool)
    }

    /// The registry entries this server serves, in `tools/list` order.
    pub fn definitions(&self) -> impl Iterator<Item = &'static ToolDef> + '_ {
        self.inner.tools.iter().map(|p| p.def)
    }

    /// A state given to the builder, e.g. to inspect it in tests.
    pub fn state<T: Send + Sync + 'static>(&self) -> Option<&T> {
        self.inner.states.get::<T>()
    }

    /// Design-rule findings on the served schemas, each also logged as a warning once (to
    /// stderr when no `tracing` subscriber is installed).
    ///
    /// Found on the first call: at [`build`](ToolServerBuilder::build) in debug builds. Release
    /// builds run the rules only with the `release-lints` feature, by the first call of this
    /// method, which serving makes shortly after the session's first answers (the lints
    /// re-derive every schema, which would otherwise delay `initialize` and `tools/list`);
    /// without it this is empty and the binary does not carry the rules.
    pub fn lint_warnings(&self) -> &[LintWarning] {
        self.inner.lint_warnings.get_or_init(|| {
            self.inner
                .tools
                .iter()
                .flat_map(build::lint_schema)
                .collect()
        })
    }

    /// Derives the listed tools (output schemas, mostly) on a thread of its own, so that
    /// `build()` returns, and `initialize` answers, without waiting for them; a call that
    /// needs one first waits for it or derives it itself. Without a thread, on first use.
    fn finish_tools_in_background(&self) {
        if self.inner.tools.iter().all(|p| p.tool.get().is_some()) {
            return;
        }
        let server = self.clone();
        let _ = std::thread::Builder::new()
            .name("mcp-tool-catalog".into())
            .spawn(move || {
                for p in &server.inner.tools {
                    p.tool();
                }
            });
    }

    /// Runs the schema lints off the answer path, unless done already: after `delay`, on a
    /// blocking thread, so that a release server logs its findings without making the
    /// handshake wait for them.
    pub(crate) fn lint_later(&self, delay: Duration) {
        if !build::SCHEMA_LINTS || self.inner.lint_warnings.get().is_some() {
            return;
        }
        let server = self.clone();
        tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            let _ = tokio::task::spawn_blocking(move || {
                server.lint_warnings();
            })
            .await;
        });
    }

    /// Registered tools this server does not serve although nothing excluded them: their
    /// family is missing from [`ToolServerBuilder::families`] and from
    /// [`ToolServerBuilder::exclude_families`] (each such family is also logged as a warning
    /// at build). Usually a mistyped `family = ".."`; a server's test can assert it is empty:
    ///
    /// ```
    /// # let server = mcp_tool::ToolServer::builder().build().unwrap();
    /// assert_eq!(server.unserved_tools(), &[]);
    /// ```
    pub fn unserved_tools(&self) -> &[UnservedTool] {
        &self.inner.unserved
    }

    /// Every silenced lint with its reason, per tool, for review.
    pub fn exceptions(&self) -> Vec<(&'static str, crate::args::Exception)> {
        self.definitions()
            .flat_map(|d| (d.exceptions)().into_iter().map(move |e| (d.name, e)))
            .collect()
    }

    /// How much of an answer each known client keeps; see
    /// [`ToolServerBuilder::client_limit`].
    pub fn client_limits(&self) -> &crate::client_limits::ClientLimits {
        &self.inner.client_limits
    }

    pub(crate) fn prepared(&self, name: &str) -> Option<&Prepared> {
        self.inner.by_name.get(name).map(|&i| &self.inner.tools[i])
    }
}
