// The shapes of `hello_tools`: injected state and context, a tool without arguments, an enum
// argument with a default, and a tool that returns a plain value.
use mcp_tool::prelude::*;
use std::sync::Mutex;

/// Where a task stands.
#[tool_args]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskStatus {
    /// Not started.
    Todo,
    /// Finished.
    Done,
}

/// One task on the board.
#[tool_output]
#[derive(Debug, Clone)]
pub struct Task {
    /// Stable id.
    pub task_id: u32,
    /// What the task is.
    pub title: String,
    /// Where it stands.
    pub status: TaskStatus,
}

/// The server's state, shared by every call.
pub struct Board {
    tasks: Mutex<Vec<Task>>,
}

#[tool_args]
pub struct AddTaskArgs {
    /// What the task is, in a few words.
    pub title: String,
    /// Where the task starts.
    #[arg(default = TaskStatus::Todo)]
    pub status: TaskStatus,
}

/// Add a task to the board and return it with its new id.
#[mcp_tool(name = "add_task", family = "board", size_hint = "1KB")]
pub async fn add_task(board: &Board, args: AddTaskArgs) -> ToolResult<Task> {
    let mut tasks = board.tasks.lock().expect("board lock");
    let task = Task { task_id: tasks.len() as u32 + 1, title: args.title, status: args.status };
    tasks.push(task.clone());
    Ok(task)
}

/// How many tasks were archived.
#[tool_output]
pub struct ArchiveReport {
    /// Tasks moved to the archive.
    pub archived: usize,
}

/// Move every `done` task off the board, reporting progress as it goes.
#[mcp_tool(name = "archive_done_tasks", family = "board", size_hint = "1KB", destructive, idempotent)]
pub async fn archive_done_tasks(board: &Board, ctx: &ToolContext) -> ToolResult<ArchiveReport> {
    if ctx.is_cancelled() {
        return Err(ToolError::cancelled());
    }
    let mut tasks = board.tasks.lock().expect("board lock");
    let before = tasks.len();
    tasks.retain(|t| t.status != TaskStatus::Done);
    Ok(ArchiveReport { archived: before - tasks.len() })
}

/// How many tasks are on the board.
#[tool_output]
pub struct BoardSize {
    /// Tasks on the board.
    pub tasks: usize,
}

/// Count the tasks on the board.
#[mcp_tool(name = "count_tasks", family = "board", size_hint = "1KB", read_only)]
pub async fn count_tasks(board: &Board) -> ToolResult<BoardSize> {
    Ok(BoardSize { tasks: board.tasks.lock().expect("board lock").len() })
}

/// Say whether the server is up.
#[mcp_tool(name = "check_health", family = "board", size_hint = "1KB", read_only)]
pub async fn check_health() -> Result<BoardSize, ToolError> {
    Ok(BoardSize { tasks: 0 })
}

fn main() {
    let _ = Board { tasks: Mutex::new(Vec::new()) };
}
