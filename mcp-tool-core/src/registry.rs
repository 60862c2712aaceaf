//! The link-time tool registry that `#[mcp_tool]` fills through `inventory`.

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

pub type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// Everything the runtime knows about one tool. Emitted by `#[mcp_tool]` as a `static`.
pub struct ToolDef {
    pub name: &'static str,
    pub family: &'static str,
    pub title: Option<&'static str>,
    /// The fn's doc comment, without the size-hint sentence the runtime adds.
    pub description: &'static str,
    /// Response budget in bytes (`size_hint = "10KB"` is 10240).
    pub size_hint: usize,
    pub read_only: bool,
    pub destructive: bool,
    pub idempotent: bool,
    pub open_world: bool,
    /// The output is a `Page<T>`: answers carry `pagination`, and `cursor` arguments are checked.
    pub paginated: bool,
    pub input_schema: fn() -> Value,
    /// Schema of `data` (for a page: of the item list); the runtime wraps it in the envelope.
    /// `None` for tools answering with rich [`crate::content::Content`].
    pub output_schema: Option<fn() -> Value>,
    pub injected: &'static [Injected],
    pub exceptions: fn() -> Vec<Exception>,
    pub call: fn(Invocation) -> BoxFuture<Result<Output, ToolError>>,
    pub file: &'static str,
    pub line: u32,
}

inventory::collect!(ToolDef);

/// A `&T` parameter that the server must provide from its states.
pub struct Injected {
    pub type_id: fn() -> TypeId,
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

    pub fn context(&self) -> &ToolContext {
        &self.context
    }
}
