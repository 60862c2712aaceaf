//! Settings of the 2026-07-28 revision (stateless MCP) on the builder; the protocol itself is
//! served by the handler, the same for every revision. See docs/protocol-eras.md.

use super::{ToolServer, ToolServerBuilder};
use rmcp::model::CacheScope;
use std::time::Duration;

/// How long, and by whom, a `tools/list` answer may be cached (SEP-2549 `ttlMs`, `cacheScope`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ListCaching {
    pub ttl: Duration,
    pub scope: CacheScope,
}

impl Default for ListCaching {
    fn default() -> Self {
        Self {
            ttl: ToolServerBuilder::DEFAULT_TOOLS_LIST_TTL,
            scope: CacheScope::Private,
        }
    }
}

impl ToolServerBuilder {
    /// How long a client may use a `tools/list` answer before asking again, by default.
    pub const DEFAULT_TOOLS_LIST_TTL: Duration = Duration::from_secs(60);

    /// The caching hints of `tools/list` answers: `ttlMs` (how long a client may use the
    /// list before asking again) and `cacheScope` (`Public`: any client or proxy may share it;
    /// `Private`: only the asking user's client). The list of a server is fixed when it is
    /// built, so a long time is safe within one deployment; a new deployment's list reaches
    /// clients after at most `ttl`.
    ///
    /// Default: [`DEFAULT_TOOLS_LIST_TTL`](Self::DEFAULT_TOOLS_LIST_TTL), `Private` (a
    /// server that shows some callers fewer tools must not have its list shared).
    ///
    /// ```
    /// use mcp_tool::ToolServer;
    /// use mcp_tool::rmcp::model::CacheScope;
    /// use std::time::Duration;
    ///
    /// let server = ToolServer::builder()
    ///     .tools_list_cache(Duration::from_secs(600), CacheScope::Public)
    ///     .build()
    ///     .unwrap();
    /// # let _ = server;
    /// ```
    pub fn tools_list_cache(mut self, ttl: Duration, scope: CacheScope) -> Self {
        self.list_caching = ListCaching { ttl, scope };
        self
    }
}

impl ToolServer {
    pub(crate) fn list_caching(&self) -> ListCaching {
        self.inner.list_caching
    }
}
