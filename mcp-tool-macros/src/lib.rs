//! `#[mcp_tool]`, `#[tool_args]` and `#[tool_output]`: the macros of mcp-tool.
//!
//! Use them through `mcp_tool` (`use mcp_tool::prelude::*;`): the code they generate
//! names only `::mcp_tool::__private`, so a crate of tools needs no serde, schemars or
//! inventory of its own.
//!
//! Each macro runs parse -> validate -> expand over a typed model (`model.rs`): parse reads the
//! syntax and classifies types once (`classify.rs`), validate checks what the item means and
//! runs the design lints (`mcp-tool-lint`), expand generates code from the checked model only.
//! Problems are collected, not returned at the first one, so a person sees everything wrong
//! with an item in one compile; on error the macros still emit the item itself so that its
//! users do not fail in cascade.

#![warn(missing_docs)]

mod args;
mod attrs;
mod classify;
mod diagnostics;
mod docs;
mod lints;
mod model;
mod output;
mod private;
mod size;
#[cfg(test)]
mod tests;
mod tool;

use proc_macro::TokenStream;

/// Turns an `async fn` into a registered MCP tool.
///
/// The fn's doc comment is the tool's description; the attribute's keys say the rest:
///
/// | key | value | meaning |
/// | --- | --- | --- |
/// | `name` | `"verb_object"` | The tool's name on the wire. Optional: the fn's name (without `r#`) by default. Checked by the `tool_name` lint: `^[a-z][a-z0-9_]{0,63}$`, starting with what the tool does. |
/// | `family` | `"trace"` | Required. The group the tool belongs to; a server serves the families it names (`ToolServer::builder().families([..])`). |
/// | `size_hint` | `"10KB"` | Required. The answer's budget: digits then `B`, `KB` or `MB` (`10KB` = 10240 bytes). Shown in the description; answers are measured against it. |
/// | `title` | `"Search events"` | A human-readable title, for clients that show one. |
/// | `read_only` | flag | MCP annotation: the tool changes nothing. |
/// | `destructive` | flag | MCP annotation: the tool may destroy or overwrite data. |
/// | `idempotent` | flag | MCP annotation: calling it twice with the same arguments does no more than once. |
/// | `open_world` | flag | MCP annotation: the tool reaches outside systems (the web, other services). |
/// | `allow(lint = "reason")` | a lint name and a non-empty reason | Silences one tool-level design lint on this tool; the reason is registered with it. |
///
/// The parameters: at most one by value, the tool's arguments (a [`macro@tool_args`]
/// struct); `&ToolContext` for progress, logging and cancellation; any other `&T` is state
/// given to the server builder (`.state(..)`), checked when the server is built. The return
/// type is `ToolResult<T>` (or `Result<T, ToolError>`) with `T` a [`macro@tool_output`] type,
/// `Page<T>` for a paginated list, or `Content` for rich content.
///
/// ```rust
/// use mcp_tool::prelude::*;
///
/// /// The server's state, given to `ToolServer::builder().state(..)`.
/// pub struct Board {
///     pub tasks: Vec<String>,
/// }
///
/// #[tool_args]
/// pub struct ListTasksArgs {
///     /// Tasks per page.
///     #[arg(default = 20, min = 1, max = 100)]
///     pub limit: u32,
///     /// `next_cursor` from the previous page; omit for the first page.
///     pub cursor: Option<Cursor>,
/// }
///
/// /// One task on the board.
/// #[tool_output]
/// pub struct Task {
///     /// What the task is.
///     pub title: String,
/// }
///
/// /// List the tasks on the board, oldest first.
/// #[mcp_tool(family = "board", size_hint = "10KB", title = "Tasks", read_only, idempotent)]
/// pub async fn list_tasks(board: &Board, args: ListTasksArgs) -> ToolResult<Page<Task>> {
///     let offset = match &args.cursor {
///         Some(cursor) => cursor.position::<usize>()?,
///         None => 0,
///     };
///     let tasks = board.tasks.iter().map(|t| Task { title: t.clone() }).collect();
///     Ok(Page::from_offset(tasks, offset, args.limit as usize))
/// }
///
/// /// Say whether the board is up.
/// #[mcp_tool(
///     name = "ping",
///     family = "board",
///     size_hint = "1KB",
///     read_only,
///     allow(tool_name = "the name clients already call")
/// )]
/// pub async fn ping(ctx: &ToolContext) -> ToolResult<String> {
///     ctx.add_warning("nothing to report");
///     Ok("pong".to_owned())
/// }
/// # fn main() {}
/// ```
///
/// The design lints are compile errors. A tool without a doc comment has no description a
/// model could choose it by (`missing_description`):
///
/// ```rust,compile_fail
/// use mcp_tool::prelude::*;
///
/// #[mcp_tool(family = "board", size_hint = "1KB", read_only)]
/// pub async fn count_tasks() -> ToolResult<u32> {
///     Ok(0)
/// }
/// # fn main() {}
/// ```
///
/// A missing `family` or `size_hint`, a fn that is not `async` and a second by-value
/// parameter are errors too, each with a `help:` saying what to write instead.
#[proc_macro_attribute]
pub fn mcp_tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    tool::expand(attr.into(), item.into()).into()
}

/// Makes a struct a tool's arguments, or an enum usable in them.
///
/// It derives `Deserialize` and `JsonSchema` (through `mcp_tool`), turns `#[arg(...)]`
/// into schema keywords and checks run before the tool is called, and runs the argument
/// lints. Each field is a parameter; its doc comment is the parameter's description.
///
/// On the item:
///
/// | key | value | meaning |
/// | --- | --- | --- |
/// | `tag` | `"detail_level"` | On an enum only: makes it internally tagged. The field named `tag` says which variant is sent; variants are unit or have named fields, each a parameter like a struct field. |
/// | `allow(lint = "reason")` | a lint name and a non-empty reason | Silences one argument lint on the whole item (e.g. `too_many_params`). |
///
/// On a field, `#[arg(...)]`:
///
/// | key | value | meaning |
/// | --- | --- | --- |
/// | `default` | an expression, e.g. `10`, `"newest"`, `Order::Newest` | The value when the parameter is absent; shown as `default` in the schema. Not on an `Option` field, which has no value when absent. A string literal is converted with `Into`. |
/// | `min` | a number literal, e.g. `1`, `-0.5` | The least value (`minimum` in the schema), checked before the call. Numbers only. |
/// | `max` | a number literal | The greatest value (`maximum` in the schema), checked before the call. Numbers only. |
/// | `allow(lint = "reason")` | a lint name and a non-empty reason | Silences one lint on this field. |
///
/// A fieldless enum is a closed set of values, sent by their snake_case names; that is what a
/// `String` with a few allowed values should be.
///
/// ```rust
/// use mcp_tool::prelude::*;
///
/// /// Order of the results.
/// #[tool_args]
/// pub enum Order {
///     /// Newest first.
///     Newest,
///     /// Oldest first.
///     Oldest,
/// }
///
/// #[tool_args]
/// pub struct SearchNotesArgs {
///     /// Text to look for in the notes (case-insensitive).
///     pub query: String,
///     /// Order of the results.
///     #[arg(default = Order::Newest)]
///     pub order: Order,
///     /// Notes per page.
///     #[arg(default = 10, min = 1, max = 50)]
///     pub limit: u32,
///     /// Glob of the files to search, as the editor names it.
///     #[arg(allow(vague_name = "the editor calls it pattern and users search for that"))]
///     pub pattern: Option<String>,
/// }
///
/// /// How much of a session to return.
/// #[tool_args(tag = "detail_level")]
/// pub enum Detail {
///     /// Ids, times and model only.
///     Summary,
///     /// One entry per turn.
///     Turns {
///         /// Most turns to return.
///         #[arg(default = 20, min = 1, max = 50)]
///         max_turns: u32,
///     },
/// }
/// # fn main() {}
/// ```
///
/// A `String` whose doc lists its values makes the model guess a spelling
/// (`closed_domain_string`); the enum above is the fix:
///
/// ```rust,compile_fail
/// use mcp_tool::prelude::*;
///
/// #[tool_args]
/// pub struct ListNotesArgs {
///     /// Order of the results: one of 'newest', 'oldest'.
///     pub ordering: Option<String>,
/// }
/// # fn main() {}
/// ```
#[proc_macro_attribute]
pub fn tool_args(attr: TokenStream, item: TokenStream) -> TokenStream {
    args::expand(attr.into(), item.into()).into()
}

/// Makes a struct or an enum a tool's answer: derives `Serialize` and `JsonSchema` (through
/// `mcp_tool`, so the crate needs neither serde nor schemars). Field docs become the
/// descriptions in the tool's output schema. It takes no keys; `#[serde(..)]` attributes on
/// the item and its fields apply as usual.
///
/// ```rust
/// use mcp_tool::prelude::*;
///
/// /// One session, in brief.
/// #[tool_output]
/// pub struct SessionSummary {
///     /// Full session id.
///     pub session_id: String,
///     /// Turns in the session.
///     pub turns: u32,
///     /// The first prompt, if the session has one.
///     #[serde(skip_serializing_if = "Option::is_none")]
///     pub first_prompt: Option<String>,
/// }
/// # fn main() {}
/// ```
#[proc_macro_attribute]
pub fn tool_output(attr: TokenStream, item: TokenStream) -> TokenStream {
    output::expand(attr.into(), item.into()).into()
}
