// One type in the arguments and in the answers, marked `#[tool_args]` and `#[tool_output]`, in
// either order: a closed set of values and a struct.
use mcp_tool::prelude::*;

/// Where a task stands.
#[tool_args]
#[tool_output]
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TaskStatus {
    /// Not started.
    Todo,
    /// Finished.
    Done,
}

/// A label on a task.
#[tool_output]
#[tool_args]
#[derive(Debug, Clone)]
pub struct Label {
    /// The label's text.
    pub text: String,
}

#[tool_args]
pub struct SetStatusArgs {
    /// The status to give the task.
    pub status: TaskStatus,
    /// The label to add with it.
    pub label: Label,
}

#[tool_output]
pub struct Task {
    /// The task's status now.
    pub status: TaskStatus,
    /// Its label.
    pub label: Label,
}

/// Sets the status of the task and labels it.
#[mcp_tool(family = "board", size_hint = "1KB", idempotent)]
pub async fn set_task_status(args: SetStatusArgs) -> ToolResult<Task> {
    Ok(Task {
        status: args.status,
        label: args.label,
    })
}

fn main() {
    let status: TaskStatus = mcp_tool::__private::serde_json::from_str("\"done\"").unwrap();
    assert_eq!(status, TaskStatus::Done);
    let out = mcp_tool::__private::serde_json::to_string(&status).unwrap();
    assert_eq!(out, "\"done\"");
}
