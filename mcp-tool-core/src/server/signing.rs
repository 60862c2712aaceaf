//! The server's signing keys: set on the builder, read by whatever the server seals.

use super::{ToolServer, ToolServerBuilder};
use crate::seal::SigningKeys;

impl ToolServerBuilder {
    /// The keys that seal what this server hands clients to give back (cursors, saved request
    /// state); see [`crate::seal`]. Replicas behind one load balancer need the same keys, so
    /// that what one replica sealed another accepts.
    ///
    /// Default: [`SigningKeys::process_default`], a random key made once per process, which
    /// no other process accepts.
    ///
    /// ```
    /// use mcp_tool::ToolServer;
    /// use mcp_tool::seal::SigningKeys;
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// // In a real server: from an environment variable or a secrets file, never the source.
    /// let keys = SigningKeys::parse("2026-11:a-secret-of-at-least-32-bytes-long!!")?;
    /// let server = ToolServer::builder().signing_keys(keys).build()?;
    /// assert_eq!(server.signing_keys().sealing_key_id(), "2026-11");
    /// # Ok(()) }
    /// ```
    pub fn signing_keys(mut self, keys: SigningKeys) -> Self {
        self.signing_keys = keys;
        self
    }
}

impl ToolServer {
    /// The keys this server seals and opens with ([`ToolServerBuilder::signing_keys`]).
    pub fn signing_keys(&self) -> &SigningKeys {
        &self.inner.signing_keys
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn servers_without_keys_share_the_process_key_and_configured_ones_use_theirs() {
        let a = ToolServer::builder().build().unwrap();
        let b = ToolServer::builder().build().unwrap();
        assert_eq!(
            a.signing_keys().sealing_key_id(),
            SigningKeys::process_default().sealing_key_id()
        );
        let token = a.signing_keys().seal("test", b"p");
        assert_eq!(b.signing_keys().open("test", &token).unwrap(), b"p");

        let keys = SigningKeys::parse("k1:0123456789abcdef0123456789abcdef").unwrap();
        let c = ToolServer::builder()
            .signing_keys(keys.clone())
            .build()
            .unwrap();
        assert_eq!(c.signing_keys().sealing_key_id(), "k1");
        assert!(c.signing_keys().open("test", &token).is_err());
        assert_eq!(
            keys.open("test", &c.signing_keys().seal("test", b"q"))
                .unwrap(),
            b"q"
        );
    }
}
