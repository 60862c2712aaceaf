//! Streamable HTTP without sessions, for replicas behind a load balancer.
//!
//! With sessions (the default), `initialize` creates a session that lives in one process's
//! memory; a later request carrying its `Mcp-Session-Id` and sent to another replica is
//! answered `404`. Without sessions every POST stands alone, so a balancer can send each one
//! anywhere, and a replica that dies loses only the calls it was running.

use super::ToolServerBuilder;
use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;

impl ToolServerBuilder {
    /// Serves HTTP without sessions: no `Mcp-Session-Id`, each POST handled on its own and
    /// answered with plain JSON (`application/json`) unless the tool sends progress or logs
    /// first (then the answer comes as an event stream, as with sessions). For replicas
    /// behind a load balancer that does not pin a client to one replica. Default: off.
    ///
    /// What a client loses, since nothing ties its requests together:
    /// - the `GET` stream (`405`): the server has nothing to say outside a request;
    /// - `DELETE` (`405`): there is no session to end;
    /// - budgets fitted to the client: `clientInfo` arrives only with `initialize`, so calls
    ///   get each tool's own `size_hint` (see [`client_limit`](Self::client_limit)).
    ///
    /// Cursors still work across replicas when they share
    /// [`signing_keys`](Self::signing_keys). stdio is not affected.
    pub fn stateless_http(mut self, stateless: bool) -> Self {
        self.stateless_http = stateless;
        self
    }
}

/// The rmcp settings for [`ToolServerBuilder::stateless_http`].
pub(super) fn configure(
    config: StreamableHttpServerConfig,
    stateless: bool,
) -> StreamableHttpServerConfig {
    if stateless {
        config
            .with_legacy_session_mode(false)
            .with_json_response(true)
    } else {
        config
    }
}
