//! `agtrace serve` flags for replicas behind a load balancer (docs/replicas.md).

use crate::Failure;
use mcp_tool::ToolServerBuilder;
use mcp_tool::seal::SigningKeys;

#[derive(clap::Args)]
pub struct ReplicaArgs {
    /// Keys that seal cursors, `ID:SECRET[,ID:SECRET...]`, the sealing key first (secrets of
    /// 32 bytes or more). Replicas behind one load balancer need the same keys. Default: the
    /// data directory's `signing.key`, made on first use. Prefer the environment variable:
    /// other users can read a process's arguments.
    #[arg(
        long,
        env = "AGTRACE_SIGNING_KEYS",
        hide_env_values = true,
        value_name = "ID:SECRET,..."
    )]
    signing_keys: Option<String>,
    /// With --http: serve without sessions, each POST on its own, so that a load balancer
    /// may send any request to any replica.
    #[arg(long, requires = "http")]
    stateless: bool,
}

/// [`ReplicaArgs`], checked.
pub struct Replicas {
    keys: Option<SigningKeys>,
    stateless: bool,
}

impl ReplicaArgs {
    /// The settings, or a usage error for keys that do not parse (before anything is indexed).
    pub fn check(&self) -> Result<Replicas, Failure> {
        let keys = match self
            .signing_keys
            .as_deref()
            .filter(|s| !s.trim().is_empty())
        {
            None => None,
            Some(spec) => Some(SigningKeys::parse(spec).map_err(|e| {
                Failure::usage(format!("--signing-keys (AGTRACE_SIGNING_KEYS): {e}"))
            })?),
        };
        Ok(Replicas {
            keys,
            stateless: self.stateless,
        })
    }
}

impl Replicas {
    /// `builder` with these settings.
    pub fn apply(self, builder: ToolServerBuilder) -> ToolServerBuilder {
        let builder = builder.stateless_http(self.stateless);
        match self.keys {
            Some(keys) => builder.signing_keys(keys),
            None => builder,
        }
    }
}
