#!/usr/bin/env python3
"""The workspace's `rust-version` holds for what CI can check without that toolchain (the
machine has one toolchain and cannot fetch another):

- every crate in the locked dependency tree declares a `rust-version` no newer than ours, so a
  build with that compiler does not stop at a dependency;
- our own code's use of the standard library is checked by clippy's `incompatible_msrv` lint,
  which reads the same `rust-version` and runs in CI's clippy step with `-D warnings`.

Language features newer than `rust-version` are not caught here; only a build with that
toolchain would.
"""
import json
import subprocess
import sys


def version(text):
    return tuple(int(part) for part in text.split("."))[:3] + (0,) * (3 - len(text.split(".")))


meta = json.loads(
    subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--locked"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
)
ours = {p["id"]: p for p in meta["packages"] if p["id"] in meta["workspace_members"]}
declared = {p.get("rust_version") for p in ours.values()}
if len(declared) != 1 or None in declared:
    sys.exit(f"msrv: workspace members declare different rust-versions: {sorted(map(str, declared))}")
msrv = declared.pop()
used = {node["id"] for node in meta["resolve"]["nodes"]}
newer = sorted(
    (p["name"], p["version"], p["rust_version"])
    for p in meta["packages"]
    if p["id"] in used and p.get("rust_version") and version(p["rust_version"]) > version(msrv)
)
if newer:
    for name, ver, rv in newer:
        print(f"msrv: {name} {ver} needs Rust {rv}, newer than the workspace's {msrv}", file=sys.stderr)
    sys.exit(1)
print(f"msrv: {len(used)} locked crates, none needs a Rust newer than {msrv}")
