//! The agtrace MCP server: the `trace` tools over one `TraceStore`.

use crate::store::TraceStore;
use crate::store::signing_key::local_signing_keys;
use mcp_tool::{BuildError, ToolServer, ToolServerBuilder};

/// What the client may tell the model about using the tools together.
const INSTRUCTIONS: &str = "Tools over the local session logs of Claude Code, Codex CLI, Gemini CLI, Qwen Code, GitHub Copilot CLI and OpenCode. \
Start with `list_sessions` (or `search_event_previews` to find a moment by its text), then narrow down: \
`get_session_summary` -> `get_session_turns` -> `get_turn_steps` -> `get_session_full` for the complete transcript; \
`get_event_details` for one event in full; `analyze_session` for failures, loops and slow tools; \
`get_project_info` for the projects and their sessions; `list_file_history` for the sessions that touched a file.";

/// The server with every `trace` tool, serving `store`.
pub fn build(store: TraceStore) -> Result<ToolServer, BuildError> {
    builder(store).build()
}

/// [`build`]'s builder, for settings of the binary's own (signing keys, stateless HTTP,
/// authentication).
pub fn builder(store: TraceStore) -> ToolServerBuilder {
    let builder = match local_signing_keys(&store.config().data_dir) {
        Some(keys) => ToolServer::builder().signing_keys(keys),
        None => ToolServer::builder(),
    };
    builder
        .name("agtrace")
        .version(env!("CARGO_PKG_VERSION"))
        .title("agtrace: agent session logs")
        .instructions(INSTRUCTIONS)
        .families(["trace"])
        .state(store)
}

#[cfg(test)]
mod instructions_tests {
    /// The instructions name every agent agtrace reads (they named three of six).
    #[test]
    fn the_instructions_name_every_agent() {
        for p in crate::providers::Provider::ALL {
            let title = p.spec().title;
            assert!(super::INSTRUCTIONS.contains(title), "{title}");
        }
    }
}
