//! `ToolContext`: what a tool can do besides returning its answer.

use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam, ProgressNotificationParam, ProgressToken};
use rmcp::{Peer, RoleServer};
use serde_json::Value;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex};
use tokio_util::sync::CancellationToken;

/// Severity of a log message sent to the client, lowest first (RFC 5424 order, as in MCP).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum LogLevel {
    Debug,
    Info,
    Notice,
    Warning,
    Error,
    Critical,
    Alert,
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

    fn to_rmcp(self) -> LoggingLevel {
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

    fn allows(&self, level: LogLevel) -> bool {
        level as u8 >= self.0.load(Ordering::Relaxed)
    }
}

/// Warnings a tool added with [`ToolContext::add_warning`], collected after it returns.
#[derive(Debug, Clone, Default)]
pub(crate) struct PendingWarnings(Arc<Mutex<Vec<String>>>);

impl PendingWarnings {
    pub fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(|p| p.into_inner()))
    }
}

/// Injected into a tool that takes `&ToolContext`: progress, client logging, cancellation,
/// warnings for the envelope, and the client peer for requests such as sampling.
///
/// Outside an MCP session (a direct call from a CLI or a test) notifications go nowhere.
pub struct ToolContext {
    tool: &'static str,
    peer: Option<Peer<RoleServer>>,
    progress_token: Option<ProgressToken>,
    cancellation: CancellationToken,
    level: LevelFilter,
    warnings: PendingWarnings,
}

impl ToolContext {
    pub(crate) fn new(
        tool: &'static str,
        peer: Option<Peer<RoleServer>>,
        progress_token: Option<ProgressToken>,
        cancellation: CancellationToken,
        level: LevelFilter,
    ) -> Self {
        Self { tool, peer, progress_token, cancellation, level, warnings: PendingWarnings::default() }
    }

    /// A context with no client attached, for direct calls.
    pub(crate) fn detached(tool: &'static str) -> Self {
        Self::new(tool, None, None, CancellationToken::new(), LevelFilter::default())
    }

    /// The wire name of the running tool.
    pub fn tool_name(&self) -> &'static str {
        self.tool
    }

    /// Reports progress if the client asked for it (sent a progress token); otherwise a no-op.
    /// Returns whether a notification was sent.
    pub async fn progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) -> bool {
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

    pub async fn info(&self, message: impl Into<String>) -> bool {
        self.log(LogLevel::Info, Value::String(message.into())).await
    }

    pub async fn warning(&self, message: impl Into<String>) -> bool {
        self.log(LogLevel::Warning, Value::String(message.into())).await
    }

    /// True once the client cancelled this request; long tools should check it between steps.
    pub fn is_cancelled(&self) -> bool {
        self.cancellation.is_cancelled()
    }

    /// Resolves when the client cancels this request.
    pub async fn cancelled(&self) {
        self.cancellation.cancelled().await
    }

    /// Adds a sentence to the answer's `warnings` (e.g. "3 files could not be read").
    pub fn add_warning(&self, warning: impl Into<String>) {
        self.warnings.0.lock().unwrap_or_else(|p| p.into_inner()).push(warning.into());
    }

    /// A handle that outlives the context, which moves into the tool's future.
    pub(crate) fn pending_warnings(&self) -> PendingWarnings {
        self.warnings.clone()
    }

    pub(crate) fn cancellation(&self) -> &CancellationToken {
        &self.cancellation
    }

    /// The client connection, for requests this crate has no helper for yet.
    pub fn peer(&self) -> Option<&Peer<RoleServer>> {
        self.peer.as_ref()
    }
}
