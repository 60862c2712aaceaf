# Sourced by the agent scripts: the bundled Node (22+, from scripts/clients/install.sh) on PATH,
# the pinned agent CLIs, and npm installs made once per version.
#
# Needs $root (the repository). Sets CLIENTS_NODE, CLIENTS_PY, node_dir, npm_cli, AGENTS_HOME.

CLAUDE_CODE_VERSION=2.1.330
CODEX_VERSION=0.169.0
GEMINI_CLI_VERSION=0.61.0

target=${CARGO_TARGET_DIR:-$root/target}
export MCP_CLIENTS_HOME=${MCP_CLIENTS_HOME:-$target/clients}
# shellcheck source=../clients/install.sh
source "$root/scripts/clients/install.sh"
node_dir=$(dirname "$CLIENTS_NODE")
npm_cli=$(dirname "$node_dir")/lib/node_modules/npm/bin/npm-cli.js
# The CLIs need Node 22+ (Claude Code's engines field says so); they find `node` on PATH.
export PATH=$node_dir:$PATH
AGENTS_HOME=${MCP_AGENTS_HOME:-$target/agents}

# npm_once DIR STAMP PACKAGE...: installs the packages into DIR unless DIR/stamp says STAMP.
npm_once() {
  local dir=$1 stamp=$2
  shift 2
  if [[ -f $dir/stamp && $(cat "$dir/stamp") == "$stamp" ]]; then
    return
  fi
  echo "agents: installing into $dir ($stamp)" >&2
  rm -rf "$dir"
  mkdir -p "$dir"
  echo '{"private": true}' >"$dir/package.json"
  (cd "$dir" && "$CLIENTS_NODE" "$npm_cli" install --silent --no-audit --no-fund "$@" >&2)
  echo "$stamp" >"$dir/stamp"
}

# install_agents: Claude Code, Codex CLI and Gemini CLI at the pinned versions; sets cli_bin.
install_agents() {
  npm_once "$AGENTS_HOME/npm" \
    "claude-code=$CLAUDE_CODE_VERSION codex=$CODEX_VERSION gemini-cli=$GEMINI_CLI_VERSION node=$("$CLIENTS_NODE" --version)" \
    "@anthropic-ai/claude-code@$CLAUDE_CODE_VERSION" "@openai/codex@$CODEX_VERSION" \
    "@google/gemini-cli@$GEMINI_CLI_VERSION"
  cli_bin=$AGENTS_HOME/npm/node_modules/.bin
}
