//! `ToolContext`: what a tool can do besides returning its answer.

use crate::registry::ToolDef;
use crate::server::input_required::InputRound;
use crate::server::tasks::TaskLink;
use rmcp::model::{
    LoggingLevel, LoggingMessageNotificationParam, ProgressNotificationParam, ProgressToken,
};
use rmcp::{Peer, RoleServer};
use serde_json::Value;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex};
use tokio_util::sync::CancellationToken;

/// Severity of a log message sent to the client, lowest first (RFC 5424 order, as in MCP).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum LogLevel {
    /// Detail for debugging.
    Debug,
    /// Progress a person may want to follow.
    Info,
    /// Normal but significant.
    Notice,
    /// Something to look at; the call goes on.
    Warning,
    /// A failure.
    Error,
    /// A component is failing.
    Critical,
    /// Act now.
    Alert,
    /// The system is unusable.
    Emergency,
}

impl LogLevel {
    pub(crate) fn from_rmcp(level: LoggingLevel) -> Self {
        match level {
            LoggingLevel::Debug => Self::Debug,
            LoggingLevel::Info => Self::Info,
            LoggingLevel::Notice => Self::Notice,
            LoggingLevel::Warning => Self::Warning,
            LoggingLevel::Error => Self::Error,
            LoggingLevel::Critical => Self::Critical,
            LoggingLevel::Alert => Self::Alert,
            LoggingLevel::Emergency => Self::Emergency,
        }
    }

    pub(crate) fn to_rmcp(self) -> LoggingLevel {
        match self {
            Self::Debug => LoggingLevel::Debug,
            Self::Info => LoggingLevel::Info,
            Self::Notice => LoggingLevel::Notice,
            Self::Warning => LoggingLevel::Warning,
            Self::Error => LoggingLevel::Error,
            Self::Critical => LoggingLevel::Critical,
            Self::Alert => LoggingLevel::Alert,
            Self::Emergency => LoggingLevel::Emergency,
        }
    }
}

/// The minimum level a client asked for with `logging/setLevel`, shared by one session's calls.
#[derive(Debug, Clone, Default)]
pub(crate) struct LevelFilter(Arc<AtomicU8>);

impl LevelFilter {
    pub fn set(&self, level: LogLevel) {
        self.0.store(level as u8, Ordering::Relaxed);
    }

    /// A filter that lets nothing through: a 2026-07-28 request that sets no `logLevel` in its
    /// `_meta` gets no log messages.
    pub fn off() -> Self {
        Self(Arc::new(AtomicU8::new(u8::MAX)))
    }

    /// A filter at `level`, for one request.
    pub fn at(level: LogLevel) -> Self {
        let filter = Self::default();
        filter.set(level);
        filter
    }

    fn allows(&self, level: LogLevel) -> bool {
        level as u8 >= self.0.load(Ordering::Relaxed)
    }
}

/// Whether a tool call is cancelled, as a cheap clonable handle that blocking code can poll.
///
/// A call is cancelled when the client sends `notifications/cancelled` for it, when its
/// session ends (the client hung up, stdin closed), and when the call is over for any other
/// reason (answered, timed out): work it left behind has nobody to answer. The framework drops
/// a cancelled call's future at once and answers `cancelled`; work that runs outside that
/// future (a `spawn_blocking` closure, a thread, an SQLite query) should poll
/// [`is_cancelled`](Self::is_cancelled) every few milliseconds of work and give up, so that
/// its CPU and its thread are freed and the server can exit.
///
/// ```
/// use mcp_tool::prelude::*;
///
/// /// Count the lines of a large text that contain a word.
/// #[mcp_tool(name = "count_lines", family = "docs", size_hint = "1KB", read_only)]
/// pub async fn count_lines(ctx: &ToolContext) -> ToolResult<u64> {
///     let cancel = ctx.cancel_token();
///     let text = "a line with a word\n".repeat(10_000);
///     let counted = tokio::task::spawn_blocking(move || {
///         let mut n = 0;
///         for (i, line) in text.lines().enumerate() {
///             if i % 1024 == 0 {
///                 cancel.check()?;
///             }
///             n += u64::from(line.contains("word"));
///         }
///         Ok(n)
///     });
///     counted.await.map_err(|e| ToolError::internal(e.to_string()))?
/// }
/// ```
#[derive(Debug, Clone, Default)]
pub struct CancelToken(CancellationToken);

impl CancelToken {
    /// A token nothing has cancelled yet; [`cancel`](Self::cancel) cancels it.
    pub fn new() -> Self {
        Self::default()
    }

    /// True once the call is cancelled. Cheap (an atomic load): poll it in loops.
    pub fn is_cancelled(&self) -> bool {
        self.0.is_cancelled()
    }

    /// `Err(ToolError::cancelled())` once the call is cancelled, for `?` in a loop.
    pub fn check(&self) -> Result<(), crate::ToolError> {
        if self.is_cancelled() {
            Err(crate::ToolError::cancelled())
        } else {
            Ok(())
        }
    }

    /// Resolves when the call is cancelled.
    pub async fn cancelled(&self) {
        self.0.cancelled().await
    }

    /// Cancels the call, and every clone of this token sees it: for a direct caller (a CLI, a
    /// test) that gives up on work it started.
    pub fn cancel(&self) {
        self.0.cancel()
    }
}

/// What a tool said about its answer through the context (warnings, a hint), collected by
/// the runtime after the tool returns: the context itself moves into the tool's future.
#[derive(Debug, Clone, Default)]
pub(crate) struct Notes(Arc<Mutex<NotesInner>>);

#[derive(Debug, Default)]
pub(crate) struct NotesInner {
    pub warnings: Vec<String>,
    pub hint: Option<String>,
}

impl Notes {
    fn with<R>(&self, f: impl FnOnce(&mut NotesInner) -> R) -> R {
        f(&mut self.0.lock().unwrap_or_else(|p| p.into_inner()))
    }

    pub fn take(&self) -> NotesInner {
        self.with(std::mem::take)
    }
}

/// Injected into a tool that takes `&ToolContext`: progress, client logging, cancellation,
/// warnings for the envelope, and the client peer for requests such as sampling.
///
/// Outside an MCP session (a direct call from a CLI or a test) notifications go nowhere.
///
/// **Cancellation.** A call is cancelled by the client (`notifications/cancelled`), by the end
/// of its session (the client hung up, stdin closed) and when it is over (answered or timed
/// out). The framework then drops the tool's future and answers `cancelled`, so an `async`
/// tool stops at its next `.await` with nothing to do. Work that outlives the future does not
/// stop by itself: hand it [`cancel_token`](Self::cancel_token) and poll the token (see
/// [`CancelToken`]), or a server cannot exit while that work runs.
///
/// ```
/// use mcp_tool::prelude::*;
///
/// /// Scan every file of the project into the search index and return how many were read.
/// #[mcp_tool(name = "scan_files", family = "docs", size_hint = "1KB", idempotent)]
/// pub async fn scan_files(ctx: &ToolContext) -> ToolResult<u32> {
///     let files = ["a.md", "b.md", "c.md"];
///     let mut read = 0;
///     for (i, file) in files.iter().enumerate() {
///         if ctx.is_cancelled() {
///             return Err(ToolError::cancelled());
///         }
///         ctx.progress(i as f64, Some(files.len() as f64), Some(file)).await;
///         read += 1;
///     }
///     if read < files.len() as u32 {
///         ctx.add_warning("Some files could not be read.");
///     }
///     ctx.set_hint("Search the scanned files with `search_files`.");
///     Ok(read)
/// }
/// ```
pub struct ToolContext {
    tool: &'static str,
    size_hint: usize,
    client: Option<ClientBudget>,
    peer: Option<Peer<RoleServer>>,
    progress_token: Option<ProgressToken>,
    cancellation: CancellationToken,
    level: LevelFilter,
    notes: Notes,
    /// The answers and questions of a 2026-07-28 call; `None` in earlier revisions.
    round: Option<Arc<InputRound>>,
    /// Whether this call may become, or runs in, a task.
    task: TaskLink,
}

/// The connected client and how much of an answer it keeps, when the server knows its limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ClientBudget {
    pub name: String,
    pub max_bytes: Option<usize>,
}

impl ToolContext {
    pub(crate) fn new(
        def: &'static ToolDef,
        client: Option<ClientBudget>,
        peer: Option<Peer<RoleServer>>,
        progress_token: Option<ProgressToken>,
        cancellation: CancellationToken,
        level: LevelFilter,
    ) -> Self {
        Self {
            tool: def.name,
            size_hint: def.size_hint,
            client,
            peer,
            progress_token,
            cancellation,
            level,
            notes: Notes::default(),
            round: None,
            task: TaskLink::Absent,
        }
    }

    /// What this call's tool may do about tasks.
    pub(crate) fn with_task(mut self, link: TaskLink) -> Self {
        self.task = link;
        self
    }

    pub(crate) fn task_link(&self) -> &TaskLink {
        &self.task
    }

    /// This call is a 2026-07-28 call: client requests go through `round`.
    pub(crate) fn with_input_round(mut self, round: Arc<InputRound>) -> Self {
        self.round = Some(round);
        self
    }

    pub(crate) fn input_round(&self) -> Option<&InputRound> {
        self.round.as_deref()
    }

    /// A context with no client attached, for direct calls.
    pub(crate) fn detached(def: &'static ToolDef) -> Self {
        Self::new(
            def,
            None,
            None,
            None,
            CancellationToken::new(),
            LevelFilter::default(),
        )
    }

    /// The wire name of the running tool.
    pub fn tool_name(&self) -> &'static str {
        self.tool
    }

    /// The budget of the whole answer in bytes, envelope included: the tool's `size_hint`, or
    /// less when the connected client keeps less of an answer (see
    /// [`client_limits`](crate::client_limits)). Page by this, and no client cuts the answer.
    pub fn size_hint(&self) -> usize {
        match self.client_max_bytes() {
            Some(limit) => limit.min(self.size_hint),
            None => self.size_hint,
        }
    }

    /// The tool's own `size_hint` in bytes, the one its description states, whatever the client.
    pub fn tool_size_hint(&self) -> usize {
        self.size_hint
    }

    /// The `clientInfo.name` the client sent at `initialize`; `None` outside an MCP session.
    pub fn client_name(&self) -> Option<&str> {
        self.client.as_ref().map(|c| c.name.as_str())
    }

    /// How much of an answer the connected client keeps, in bytes, when the server's
    /// [`ClientLimits`](crate::client_limits::ClientLimits) know it.
    pub fn client_max_bytes(&self) -> Option<usize> {
        self.client.as_ref().and_then(|c| c.max_bytes)
    }

    /// Reports progress if the client asked for it (sent a progress token); otherwise a no-op.
    /// Returns whether a notification was sent.
    /// Inside a task, the message becomes the task's `statusMessage` on `tasks/get`.
    pub async fn progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) -> bool {
        if let (TaskLink::Inside { id, store }, Some(message)) = (&self.task, message) {
            store.set_message(id, message);
        }
        let (Some(peer), Some(token)) = (&self.peer, &self.progress_token) else {
            return false;
        };
        let mut param = ProgressNotificationParam::new(token.clone(), progress);
        if let Some(total) = total {
            param = param.with_total(total);
        }
        if let Some(message) = message {
            param = param.with_message(message.to_owned());
        }
        peer.notify_progress(param).await.is_ok()
    }

    /// Sends a log message to the client, honoring the level it set with `logging/setLevel`.
    /// Returns whether a notification was sent.
    pub async fn log(&self, level: LogLevel, data: impl Into<Value>) -> bool {
        let Some(peer) = &self.peer else { return false };
        if !self.level.allows(level) {
            return false;
        }
        let mut param = LoggingMessageNotificationParam::new(level.to_rmcp(), data.into());
        param.logger = Some(self.tool.to_owned());
        #[allow(deprecated)] // logging is legacy in the 2026 spec, current in the ones we serve
        let sent = peer.notify_logging_message(param).await;
        sent.is_ok()
    }

    /// Sends a text log message at [`LogLevel::Info`]; see [`log`](Self::log).
    pub async fn info(&self, message: impl Into<String>) -> bool {
        self.log(LogLevel::Info, Value::String(message.into()))
            .await
    }

    /// Sends a text log message at [`LogLevel::Warning`]; see [`log`](Self::log). For a
    /// warning the model should read in the answer, use [`add_warning`](Self::add_warning).
    pub async fn warning(&self, message: impl Into<String>) -> bool {
        self.log(LogLevel::Warning, Value::String(message.into()))
            .await
    }

    /// True once this call is cancelled; long tools should check it between steps.
    /// See [`CancelToken`] for what cancels a call.
    pub fn is_cancelled(&self) -> bool {
        self.cancellation.is_cancelled()
    }

    /// Resolves when this call is cancelled.
    pub async fn cancelled(&self) {
        self.cancellation.cancelled().await
    }

    /// A handle on this call's cancellation for work that leaves the tool's future: a
    /// `spawn_blocking` closure, a thread, a database's interrupt callback.
    pub fn cancel_token(&self) -> CancelToken {
        CancelToken(self.cancellation.clone())
    }

    /// Adds a sentence to the answer's `warnings` (e.g. "3 files could not be read").
    pub fn add_warning(&self, warning: impl Into<String>) {
        let warning = warning.into();
        self.notes.with(|n| n.warnings.push(warning));
    }

    /// Sets the answer's `hint`: a sentence for the model about what to call next. A `Page`'s
    /// own hint wins over this one.
    pub fn set_hint(&self, hint: impl Into<String>) {
        let hint = hint.into();
        self.notes.with(|n| n.hint = Some(hint));
    }

    /// A handle that outlives the context, which moves into the tool's future.
    pub(crate) fn notes(&self) -> Notes {
        self.notes.clone()
    }

    pub(crate) fn cancellation(&self) -> &CancellationToken {
        &self.cancellation
    }

    /// The client connection, for requests this crate has no helper for yet. In the
    /// 2026-07-28 era it carries notifications only: rmcp refuses server-to-client requests
    /// there (use [`ask`](Self::ask) and the methods beside it).
    pub fn peer(&self) -> Option<&Peer<RoleServer>> {
        self.peer.as_ref()
    }
}
