//! `ToolServer`: the registered tools, validated, ready to serve over any rmcp transport.

mod build;
pub(crate) mod dispatch;
mod handler;
pub(crate) mod transport;

pub use build::{BuildError, ToolServerBuilder};
pub(crate) use handler::Handler;

use crate::registry::ToolDef;
use crate::state::States;
use rmcp::model::{ServerConfig, Tool};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

/// A validated set of tools with their states. Cheap to clone; clones share everything.
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
}

/// A tool with everything computed once at build time, so calls do no schema work.
pub(crate) struct Prepared {
    pub def: &'static ToolDef,
    pub tool: Tool,
    /// Defaults from the input schema, for cursor fingerprints.
    pub defaults: Map<String, Value>,
    /// Names of the declared parameters, to warn about arguments that will be ignored.
    pub parameters: Vec<String>,
}

impl ToolServer {
    pub fn builder() -> ToolServerBuilder {
        ToolServerBuilder::default()
    }

    /// The tools this server lists, in `tools/list` order.
    pub fn tools(&self) -> impl Iterator<Item = &Tool> {
        self.inner.tools.iter().map(|p| &p.tool)
    }

    /// The registry entries this server serves, in `tools/list` order.
    pub fn definitions(&self) -> impl Iterator<Item = &'static ToolDef> + '_ {
        self.inner.tools.iter().map(|p| p.def)
    }

    pub fn server_name(&self) -> &str {
        &self.inner.config.server_info.name
    }

    pub(crate) fn prepared(&self, name: &str) -> Option<&Prepared> {
        self.inner.by_name.get(name).map(|&i| &self.inner.tools[i])
    }
}
