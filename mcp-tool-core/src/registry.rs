//! The link-time tool registry that `#[mcp_tool]` fills through `inventory`.
//!
//! Every `#[mcp_tool]` in the binary is here, whatever its family; a server picks its tools
//! from [`all_tools`] at [`build`](crate::ToolServerBuilder::build). Reading the registry is
//! for tools that list or check tools (a catalog, a test); serving never needs it directly.

use crate::args::{self, Exception, ToolArgs};
use crate::context::ToolContext;
use crate::envelope::Output;
use crate::error::ToolError;
use crate::state::States;
use serde_json::{Map, Value};
use std::any::TypeId;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// The future of one call, boxed so that every tool has the same [`ToolDef::call`] type.
pub type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// Everything the runtime knows about one tool. Emitted by `#[mcp_tool]` as a `static`.
pub struct ToolDef {
    /// The wire name (`name = ".."`).
    pub name: &'static str,
    /// The family (`family = ".."`) that servers select with `.families(..)`.
    pub family: &'static str,
    /// The human-readable title (`title = ".."`).
    pub title: Option<&'static str>,
    /// The fn's doc comment, without the size-hint sentence the runtime adds.
    pub description: &'static str,
    /// Response budget in bytes (`size_hint = "10KB"` is 10240).
    pub size_hint: usize,
    /// The `read_only` annotation (`readOnlyHint`).
    pub read_only: bool,
    /// The `destructive` annotation (`destructiveHint`).
    pub destructive: bool,
    /// The `idempotent` annotation (`idempotentHint`).
    pub idempotent: bool,
    /// The `open_world` annotation (`openWorldHint`).
    pub open_world: bool,
    /// The output is a `Page<T>`: answers carry `pagination`, and `cursor` arguments are checked.
    pub paginated: bool,
    /// The input schema, keywords from `#[arg(..)]` included.
    pub input_schema: fn() -> Value,
    /// Schema of `data` (for a page: of the item list); the runtime wraps it in the envelope.
    /// `None` for tools answering with rich [`crate::content::Content`].
    pub output_schema: Option<fn() -> Value>,
    /// The `&T` states the tool takes; `build()` checks the server has each one.
    pub injected: &'static [Injected],
    /// Every lint silenced on the tool and its argument types, with the reasons.
    pub exceptions: fn() -> Vec<Exception>,
    /// The generated glue: parses the arguments, fetches the states, runs the `async fn`.
    pub call: fn(Invocation) -> BoxFuture<Result<Output, ToolError>>,
    /// Source file of the `#[mcp_tool]` item.
    pub file: &'static str,
    /// Source line of the `#[mcp_tool]` item.
    pub line: u32,
}

inventory::collect!(ToolDef);

/// A `&T` parameter that the server must provide from its states.
pub struct Injected {
    /// The state's type, to look it up.
    pub type_id: fn() -> TypeId,
    /// The state's type name, for the build error when it is missing.
    pub type_name: &'static str,
}

/// All registered tools, sorted by family then name (a deterministic `tools/list`).
pub fn all_tools() -> Vec<&'static ToolDef> {
    let mut tools: Vec<&'static ToolDef> = inventory::iter::<ToolDef>.into_iter().collect();
    tools.sort_by(|a, b| {
        (a.family, a.name, a.file, a.line).cmp(&(b.family, b.name, b.file, b.line))
    });
    tools
}

impl ToolDef {
    /// `file:line` of the `#[mcp_tool]` item, for error messages.
    pub fn location(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }
}

/// One call as the generated glue sees it: raw arguments, the server's states, the context.
pub struct Invocation {
    pub(crate) arguments: Map<String, Value>,
    pub(crate) states: Arc<States>,
    pub(crate) context: ToolContext,
}

impl Invocation {
    /// Parses and validates the arguments into the tool's `#[tool_args]` struct.
    pub fn args<A: ToolArgs>(&mut self) -> Result<A, ToolError> {
        args::parse(std::mem::take(&mut self.arguments))
    }

    /// A state registered with `ToolServerBuilder::state`.
    pub fn state<T: Send + Sync + 'static>(&self) -> Result<&T, ToolError> {
        self.states.get::<T>().ok_or_else(|| {
            ToolError::internal(format!(
                "server state `{}` is missing (register it with `.state(..)`)",
                std::any::type_name::<T>()
            ))
        })
    }

    /// The call's context, for a tool that takes `&ToolContext`.
    pub fn context(&self) -> &ToolContext {
        &self.context
    }
}
