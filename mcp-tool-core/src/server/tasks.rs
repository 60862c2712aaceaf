//! Long tool calls as tasks: the `io.modelcontextprotocol/tasks` extension (SEP-2663) of the
//! 2026-07-28 revision.
//!
//! A server built with [`ToolServerBuilder::tasks`] advertises the extension (in
//! `server/discover`, never in a 2025 `initialize`). A tool decides in its own code whether a
//! call may become a task, with [`ToolContext::run_as_task`] (or
//! [`require_task`](ToolContext::require_task)): when the request declared the extension, the
//! call is answered at once with a task handle (`resultType: "task"`), and the tool runs again
//! from the start inside the task. The client polls `tasks/get` (the result is inlined there
//! once done), answers the tool's questions with `tasks/update`, and stops it with
//! `tasks/cancel`, which fires the tool's [`cancel_token`](ToolContext::cancel_token).
//! Without the extension (or in a 2025 session, or a direct call) the same call runs in-line.
//!
//! ```
//! use mcp_tool::prelude::*;
//!
//! /// Rebuild the search index of every project; takes minutes.
//! #[mcp_tool(name = "rebuild_index", family = "docs", size_hint = "1KB", idempotent)]
//! pub async fn rebuild_index(ctx: &ToolContext) -> ToolResult<u32> {
//!     ctx.run_as_task()?; // a client that follows tasks gets a handle now
//!     let mut rebuilt = 0;
//!     for _project in 0..3 {
//!         ctx.cancel_token().check()?;
//!         rebuilt += 1;
//!     }
//!     Ok(rebuilt)
//! }
//! ```
//!
//! Questions asked before `run_as_task` go out as `input_required` rounds of the call itself;
//! questions asked inside the task make it `input_required` on `tasks/get`. A task is kept for
//! [`TaskSettings::ttl`] after it was created (its work is cancelled when that runs out) and at
//! most [`TaskSettings::max_tasks`] are kept at once.

use super::handler::call_result;
use super::input_required::{InputRound, missing_capability_error};
use super::task_store::{Outcome, TaskStore};
use super::{ToolServer, ToolServerBuilder};
use crate::context::{ClientBudget, LevelFilter, ToolContext};
use crate::error::ToolError;
use rmcp::ErrorData as McpError;
use rmcp::model::{ClientCapabilities, CreateTaskResult, JsonObject};
use serde_json::{Map, Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// Error codes of task calls.
pub mod codes {
    /// The call goes on as a task: return the error of
    /// [`run_as_task`](crate::ToolContext::run_as_task) with `?`; the client gets a task handle.
    pub const TASK_STARTED: &str = "task_started";
    /// The tool runs only as a task and this client cannot follow one (a 2025 session).
    pub const TASK_REQUIRED: &str = "task_required";
    /// Every task slot of the server holds a running task; retry later.
    pub const TOO_MANY_TASKS: &str = "too_many_tasks";
}

/// How long tasks are kept and how many; see [`ToolServerBuilder::tasks`].
#[derive(Debug, Clone)]
pub struct TaskSettings {
    pub(crate) ttl: Duration,
    pub(crate) max_tasks: usize,
    pub(crate) poll_interval: Duration,
}

impl Default for TaskSettings {
    fn default() -> Self {
        Self {
            ttl: Duration::from_secs(15 * 60),
            max_tasks: 256,
            poll_interval: Duration::from_secs(1),
        }
    }
}

impl TaskSettings {
    /// How long a task is kept after it was created (`ttlMs`), running and then finished: a
    /// task still running then is cancelled. Default 15 minutes.
    pub fn ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl;
        self
    }

    /// How many tasks are kept at once, running or finished: a new task replaces the oldest
    /// finished one; when all run, the call is refused (`too_many_tasks`, retryable).
    /// Default 256.
    pub fn max_tasks(mut self, max_tasks: usize) -> Self {
        self.max_tasks = max_tasks.max(1);
        self
    }

    /// How often clients are told to poll `tasks/get` (`pollIntervalMs`). Default 1 s.
    pub fn poll_interval(mut self, interval: Duration) -> Self {
        self.poll_interval = interval;
        self
    }
}

impl ToolServerBuilder {
    /// Runs tool calls as tasks for 2026-07-28 clients that declare the tasks extension, when
    /// the tool asks for it ([`ToolContext::run_as_task`]); see [`crate::tasks`]. Off by
    /// default: the extension is not advertised and such calls run in-line.
    ///
    /// ```
    /// use mcp_tool::{ToolServer, tasks::TaskSettings};
    /// use std::time::Duration;
    ///
    /// let server = ToolServer::builder()
    ///     .tasks(TaskSettings::default().ttl(Duration::from_secs(3600)).max_tasks(64))
    ///     .build()
    ///     .unwrap();
    /// # let _ = server;
    /// ```
    pub fn tasks(mut self, settings: TaskSettings) -> Self {
        self.tasks = Some(settings);
        self
    }
}

/// What a call's tool may do about tasks.
#[derive(Clone, Default)]
pub(crate) enum TaskLink {
    /// No tasks here (a direct call, a server without tasks): everything runs in-line.
    #[default]
    Absent,
    /// The client follows tasks: the tool may turn the call into one.
    Offered(Arc<Switch>),
    /// The server runs tasks, the client does not follow them.
    Declined(Arc<Switch>),
    /// The call runs inside task `id`.
    Inside { id: Arc<str>, store: TaskStore },
}

/// What the tool asked for, read by the handler after the in-line run.
#[derive(Default)]
pub(crate) struct Switch(AtomicU8);

const WANTED: u8 = 1;
const REQUIRED: u8 = 2;

impl Switch {
    pub fn wanted(&self) -> bool {
        self.0.load(Ordering::Relaxed) == WANTED
    }

    pub fn required(&self) -> bool {
        self.0.load(Ordering::Relaxed) == REQUIRED
    }
}

impl ToolContext {
    /// Lets this call go on as a task, when the client follows tasks (2026-07-28 with the
    /// tasks extension, on a server with [`ToolServerBuilder::tasks`]): then returns
    /// `Err(task_started)`, to return with `?`, and the client gets a task handle at once
    /// while the tool runs again from the start inside the task, where this returns `Ok`.
    /// Elsewhere it returns `Ok` and the call goes on in-line. Call it first, or right after
    /// the questions that should be answered before the task starts: work before it is done
    /// twice.
    pub fn run_as_task(&self) -> Result<(), ToolError> {
        match self.task_link() {
            TaskLink::Offered(switch) => {
                switch.0.store(WANTED, Ordering::Relaxed);
                Err(ToolError::new(
                    codes::TASK_STARTED,
                    "This call goes on as a task: return this error with `?`.",
                ))
            }
            TaskLink::Absent | TaskLink::Declined(_) | TaskLink::Inside { .. } => Ok(()),
        }
    }

    /// Like [`run_as_task`](Self::run_as_task), for a tool that cannot answer in-line: a
    /// 2026-07-28 client without the tasks extension gets `-32021` naming it, a 2025 session
    /// the tool error `task_required`. Direct calls run in-line.
    pub fn require_task(&self) -> Result<(), ToolError> {
        match self.task_link() {
            TaskLink::Declined(switch) => {
                switch.0.store(REQUIRED, Ordering::Relaxed);
                Err(ToolError::new(
                    codes::TASK_REQUIRED,
                    format!(
                        "`{}` runs only as a task, and this client does not follow tasks \
                         (MCP 2026-07-28 with the io.modelcontextprotocol/tasks extension).",
                        self.tool_name()
                    ),
                ))
            }
            _ => self.run_as_task(),
        }
    }

    /// The id of the task this call runs in, if it runs in one.
    pub fn task_id(&self) -> Option<&str> {
        match self.task_link() {
            TaskLink::Inside { id, .. } => Some(id),
            _ => None,
        }
    }
}

/// The `-32021` error for a tool that runs only as a task, from a client without the extension.
pub(crate) fn task_required_error() -> McpError {
    let mut error = McpError::missing_required_client_capability(
        ClientCapabilities::builder().enable_tasks().build(),
    );
    error.message = "this tool runs only as a task: declare the io.modelcontextprotocol/tasks \
                     extension in the request's _meta clientCapabilities"
        .into();
    error
}

/// Everything a task needs from the request that made it.
pub(crate) struct TaskCall {
    pub tool: String,
    pub arguments: Map<String, Value>,
    pub client: Option<ClientBudget>,
    pub capabilities: ClientCapabilities,
    /// Answers given in the `input_required` rounds before the task started.
    pub answers: Map<String, Value>,
    /// The handler's session: its end cancels the task.
    pub session: CancellationToken,
    /// The caller's W3C trace context: each round of the task is a call span under it.
    pub trace: super::telemetry::TraceContext,
}

impl ToolServer {
    pub(crate) fn task_store(&self) -> Option<&TaskStore> {
        self.inner.tasks.as_ref()
    }

    /// Creates the task for `call` and starts its work; the handle, or a tool error when
    /// every slot is taken.
    pub(crate) fn start_task(&self, call: TaskCall) -> Result<CreateTaskResult, ToolError> {
        let store = self
            .task_store()
            .expect("tasks are offered only when on")
            .clone();
        let cancel = call.session.child_token();
        let task = store.create(cancel.clone()).map_err(|full| {
            ToolError::new(
                codes::TOO_MANY_TASKS,
                format!(
                    "The server already runs {} tasks, its limit. Try again when one is done.",
                    full.limit
                ),
            )
            .with_detail("limit", full.limit)
            .retryable(true)
        })?;
        let id: Arc<str> = task.task_id.as_str().into();
        let server = self.clone();
        let ttl = store.settings().ttl;
        tokio::spawn(async move {
            let work = server.run_task(&store, &id, call, cancel.clone());
            tokio::select! {
                () = work => {}
                // Past its ttl the store forgets the task: stop its work too.
                () = tokio::time::sleep(ttl) => cancel.cancel(),
            }
        });
        Ok(CreateTaskResult::new(task))
    }

    /// The rounds of a task: the tool runs, and runs again with the answers to the questions
    /// it asked, until it asks nothing new.
    async fn run_task(
        &self,
        store: &TaskStore,
        id: &Arc<str>,
        call: TaskCall,
        cancel: CancellationToken,
    ) {
        let Some(prepared) = self.prepared(&call.tool) else {
            return;
        };
        let mut answers = call.answers;
        loop {
            let round = Arc::new(InputRound::resume(
                call.capabilities.clone(),
                answers.clone(),
            ));
            let context = ToolContext::new(
                prepared.def,
                call.client.clone(),
                None,
                None,
                // Each round's own token: a round that ends cancels it, not the task.
                cancel.child_token(),
                LevelFilter::off(),
            )
            .with_input_round(Arc::clone(&round))
            .with_task(TaskLink::Inside {
                id: Arc::clone(id),
                store: store.clone(),
            });
            let envelope = self
                .run_traced(
                    prepared,
                    call.arguments.clone(),
                    context,
                    call.trace.clone(),
                )
                .await;
            if cancel.is_cancelled() {
                return store.finish(id, Outcome::Cancelled);
            }
            let questions = round.take_questions();
            if questions.is_empty() {
                let outcome = if let (true, Some(capability)) =
                    (envelope.is_error, round.missing_capability())
                {
                    Outcome::Failed(error_object(&missing_capability_error(capability)))
                } else if envelope.is_error && envelope.value["error"]["code"] == "internal" {
                    // The tool broke (a panic, a bug): a protocol-level failure, not an answer.
                    let error = &envelope.value["error"];
                    Outcome::Failed(error_object(&McpError::internal_error(
                        error["message"]
                            .as_str()
                            .unwrap_or("internal error")
                            .to_owned(),
                        Some(error.clone()),
                    )))
                } else {
                    Outcome::Completed(result_object(call_result(envelope)))
                };
                return store.finish(id, outcome);
            }
            let answered = store.ask(id, questions);
            tokio::select! {
                given = answered => match given {
                    Ok(given) => answers.extend(given),
                    Err(_) => return, // the task is gone (expired)
                },
                () = cancel.cancelled() => return store.finish(id, Outcome::Cancelled),
            }
        }
    }
}

fn error_object(error: &McpError) -> JsonObject {
    match serde_json::to_value(error) {
        Ok(Value::Object(map)) => map,
        _ => JsonObject::new(),
    }
}

fn result_object(result: rmcp::model::CallToolResult) -> JsonObject {
    match serde_json::to_value(result) {
        Ok(Value::Object(map)) => map,
        _ => json!({}).as_object().cloned().unwrap_or_default(),
    }
}
