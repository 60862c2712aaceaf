#!/usr/bin/env bash
# Installs the official Python MCP SDK in a throwaway virtualenv and runs
# scripts/python_client_check.py against the hello_tools example over stdio.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=lib/debug-bin.sh
source scripts/lib/debug-bin.sh
binary=$(debug_bin hello_tools)

venv="$(mktemp -d)"
trap 'rm -rf "$venv"' EXIT
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "mcp>=1.9,<2"
"$venv/bin/python" -c 'import importlib.metadata as m; print("python mcp SDK", m.version("mcp"))'
"$venv/bin/python" scripts/python_client_check.py "$binary"
