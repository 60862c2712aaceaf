#!/usr/bin/env bash
# The README's tour, as an author would take it: a fresh crate outside the workspace whose only
# framework dependency is `mcp-tool` (by path here, as the README's `mcp-tool = "0.1"` until it
# is published), its main.rs the README's Rust block as written. It must build, and answer an
# MCP client over stdio: initialize, tools/list, and a call of the README's tool.
#
#   scripts/readme-example.sh    # builds in the project's target dir (or CARGO_TARGET_DIR)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# The workspace's own dependencies, built already, serve the fresh crate too.
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/readme_server/src"
cd "$work/readme_server"
# The README's first ```rust block, whole.
awk '/^```rust$/ { if (!done) { inside = 1; next } } /^```$/ { if (inside) { inside = 0; done = 1 } } inside' \
    "$root/README.md" >src/main.rs
[[ -s src/main.rs ]] || { echo "readme-example: no rust block in README.md" >&2; exit 1; }
# The README's [dependencies], with the path of this checkout for mcp-tool.
deps=$(awk '/^\[dependencies\]$/ { inside = 1; next } /^```$/ { inside = 0 } inside && !/^#/' "$root/README.md" |
    sed "s|^mcp-tool = \"[^\"]*\"|mcp-tool = { path = \"$root/mcp-tool\" }|")
grep -q "^mcp-tool = { path" <<<"$deps" || { echo "readme-example: no mcp-tool line in the README's [dependencies]" >&2; exit 1; }
cat >Cargo.toml <<TOML
[package]
name = "readme_server"
version = "0.0.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
$deps
TOML
# The versions CI tested the workspace with.
cp "$root/Cargo.lock" .
cargo build -q
bin=$CARGO_TARGET_DIR/debug/readme_server
# A client's first exchange, piped: every request read before stdin closes is answered.
answers=$(printf '%s\n' \
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"readme-example","version":"0"}}}' \
    '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
    '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' \
    '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_tasks","arguments":{"status":"done"}}}' |
    timeout 20 "$bin" 2>"$work/stderr")
python3 - "$answers" "$work/stderr" <<'PY'
import json, sys
answers = {m["id"]: m for m in map(json.loads, sys.argv[1].splitlines()) if "id" in m}
problems = []
if sorted(answers) != [1, 2, 3]:
    problems.append(f"answered ids {sorted(answers)}, not 1, 2, 3")
tools = [t["name"] for t in answers.get(2, {}).get("result", {}).get("tools", [])]
if tools != ["list_tasks"]:
    problems.append(f"tools/list gave {tools}")
result = answers.get(3, {}).get("result", {})
data = (result.get("structuredContent") or {}).get("data")
if result.get("isError") or [t.get("title") for t in data or []] != ["Write the README"]:
    problems.append(f"list_tasks status=done gave {json.dumps(result)[:400]}")
if problems:
    sys.exit("readme-example: " + "; ".join(problems) + "\nstderr:\n" + open(sys.argv[2]).read())
print("readme-example: the README's server builds as a fresh crate and answers initialize, tools/list and list_tasks")
PY
