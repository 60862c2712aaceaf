//! `hello_tools`: a small task-board MCP server, showing every feature of mcp-tool.
//!
//! - state injection (`&Board`), a paginated list with a cursor (`list_tasks`), an enum filter
//!   (`TaskStatus`), a tool error with a custom code (`task_not_found`), progress and client
//!   logging (`archive_done_tasks`).
//!
//! Run: `cargo run -p mcp-tool-examples --bin hello_tools` (speaks MCP on stdin/stdout).

use mcp_tool::prelude::*;
use mcp_tool::{ToolServer, ToolServerBuilder};
use std::sync::Mutex;

/// Where a task stands.
#[tool_args]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskStatus {
    /// Not started.
    Todo,
    /// In progress.
    Doing,
    /// Finished; archived by `archive_done_tasks`.
    Done,
}

/// One task on the board.
#[tool_output]
#[derive(Debug, Clone)]
pub struct Task {
    /// Stable id, used by `get_task`.
    pub task_id: u32,
    /// What the task is, in a few words.
    pub title: String,
    /// Where the task stands.
    pub status: TaskStatus,
}

/// The server's state: tasks in memory, shared by every call.
pub struct Board {
    tasks: Mutex<Vec<Task>>,
    archived: Mutex<Vec<Task>>,
}

impl Board {
    /// A board with a few tasks so a fresh server has something to show.
    pub fn seeded() -> Self {
        let titles = [
            ("Write the README quick start", TaskStatus::Done),
            ("Add the HTTP transport test", TaskStatus::Doing),
            ("Benchmark against plain rmcp", TaskStatus::Todo),
            ("Document every design lint", TaskStatus::Todo),
            ("Ship hello_tools", TaskStatus::Done),
            ("Review cursor binding", TaskStatus::Doing),
            ("Register the server in Claude Code", TaskStatus::Todo),
        ];
        let tasks = titles
            .iter()
            .enumerate()
            .map(|(i, (t, s))| Task {
                task_id: i as u32 + 1,
                title: (*t).to_owned(),
                status: *s,
            })
            .collect();
        Self {
            tasks: Mutex::new(tasks),
            archived: Mutex::new(Vec::new()),
        }
    }
}

/// Which tasks `list_tasks` returns, and how many per page.
#[tool_args]
pub struct ListTasksArgs {
    /// Only tasks with this status; omit for all.
    pub status: Option<TaskStatus>,
    /// Tasks per page.
    #[arg(default = 3, min = 1, max = 50)]
    pub limit: u32,
    /// `next_cursor` from the previous page; omit for the first page.
    pub cursor: Option<Cursor>,
}

/// List the tasks on the board, oldest first, optionally only those with one status.
/// Use `get_task` for one task by id.
#[mcp_tool(family = "board", size_hint = "4KB", read_only)]
pub async fn list_tasks(board: &Board, args: ListTasksArgs) -> ToolResult<Page<Task>> {
    let offset: usize = match &args.cursor {
        Some(c) => c.position()?,
        None => 0,
    };
    let tasks: Vec<Task> = board
        .tasks
        .lock()
        .expect("board lock")
        .iter()
        .filter(|t| args.status.is_none_or(|s| t.status == s))
        .cloned()
        .collect();
    Ok(Page::from_offset(tasks, offset, args.limit as usize))
}

/// The task `get_task` shows.
#[tool_args]
pub struct GetTaskArgs {
    /// The task's id, as listed by `list_tasks`.
    #[arg(min = 1)]
    pub task_id: u32,
}

/// Get one task by its id.
#[mcp_tool(family = "board", size_hint = "1KB", read_only)]
pub async fn get_task(board: &Board, args: GetTaskArgs) -> ToolResult<Task> {
    let tasks = board.tasks.lock().expect("board lock");
    tasks
        .iter()
        .find(|t| t.task_id == args.task_id)
        .cloned()
        .ok_or_else(|| {
            ToolError::new(
                "task_not_found",
                format!("No task has id {}.", args.task_id),
            )
            .with_detail("task_id", args.task_id)
            .with_detail(
                "known_ids",
                tasks.iter().map(|t| t.task_id).collect::<Vec<_>>(),
            )
        })
}

/// The task `add_task` puts on the board.
#[tool_args]
pub struct AddTaskArgs {
    /// What the task is, in a few words.
    pub title: String,
    /// Where the task starts.
    #[arg(default = TaskStatus::Todo)]
    pub status: TaskStatus,
}

/// Add a task to the board and return it with its new id.
#[mcp_tool(family = "board", size_hint = "1KB")]
pub async fn add_task(board: &Board, args: AddTaskArgs) -> ToolResult<Task> {
    let title = args.title.trim();
    if title.is_empty() {
        return Err(ToolError::invalid_parameter(
            "title",
            "`title` must not be empty.",
        ));
    }
    let mut tasks = board.tasks.lock().expect("board lock");
    let task_id = tasks.iter().map(|t| t.task_id).max().unwrap_or(0) + 1;
    let task = Task {
        task_id,
        title: title.to_owned(),
        status: args.status,
    };
    tasks.push(task.clone());
    Ok(task)
}

/// How many tasks were archived.
#[tool_output]
#[derive(Debug)]
pub struct ArchiveReport {
    /// Tasks moved to the archive by this call.
    pub archived: usize,
    /// Tasks still on the board.
    pub remaining: usize,
}

/// Move every `done` task off the board into the archive, reporting progress as it goes.
#[mcp_tool(family = "board", size_hint = "1KB", destructive, idempotent)]
pub async fn archive_done_tasks(board: &Board, ctx: &ToolContext) -> ToolResult<ArchiveReport> {
    let done: Vec<Task> = {
        let mut tasks = board.tasks.lock().expect("board lock");
        let (done, keep): (Vec<Task>, Vec<Task>) =
            tasks.drain(..).partition(|t| t.status == TaskStatus::Done);
        *tasks = keep;
        done
    };
    let total = done.len();
    for (i, task) in done.into_iter().enumerate() {
        if ctx.is_cancelled() {
            return Err(ToolError::cancelled());
        }
        ctx.info(format!("archiving task {}: {}", task.task_id, task.title))
            .await;
        ctx.progress((i + 1) as f64, Some(total as f64), Some(&task.title))
            .await;
        board.archived.lock().expect("archive lock").push(task);
    }
    let remaining = board.tasks.lock().expect("board lock").len();
    Ok(ArchiveReport {
        archived: total,
        remaining,
    })
}

/// The server `hello_tools` serves; tests build the same one in-process.
pub fn server() -> ToolServer {
    builder().build().unwrap_or_else(|e| panic!("{e}"))
}

/// [`server`]'s builder, for settings of the binary's own (signing keys, stateless HTTP).
pub fn builder() -> ToolServerBuilder {
    ToolServer::builder()
        .name("hello_tools")
        .version(env!("CARGO_PKG_VERSION"))
        .instructions("A task board. `list_tasks` pages through tasks; `get_task` shows one; `add_task` adds one; `archive_done_tasks` clears finished ones.")
        .state(Board::seeded())
        .families(["board"])
        // The crate also links the conformance tools, which their own server serves.
        .exclude_families(["conformance"])
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_example_raises_no_design_warnings() {
        let server = super::server();
        assert_eq!(server.lint_warnings(), &[]);
    }

    #[test]
    fn every_tool_the_crate_links_is_served_or_excluded() {
        assert_eq!(super::server().unserved_tools(), &[]);
    }
}
