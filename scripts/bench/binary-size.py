#!/usr/bin/env python3
"""What a release binary's size is made of: its sections, and its code by crate.

    scripts/bench/binary-size.py target/release/agtrace [--top 30]

Give the unstripped binary (the per-crate table reads its symbol table); the stripped size is
measured on a stripped copy. Rust symbols are grouped by the first path segment of their
demangled name (`core::`, `<serde_json::... as ...>` count for core, serde_json), which puts
generic code under the crate that defines the generic rather than the one that instantiated
it. C symbols are grouped by library where their names say so (aws-lc, SQLite, zstd).
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import tempfile

C_LIBRARIES = [
    ("aws-lc (C)", re.compile(r"aws_lc|nistz|p521|p384|p256|p224|curve25519|edwards|mldsa|mlkem"
                              r"|^(ec_|bn_|rsa|evp_|x25519|ed25519|aes_|chacha|poly1305|gcm_|fiat_)",
                              re.I)),
    ("SQLite (C)", re.compile(r"sqlite|^(fts[35]|vdbe|btree|pager|yy|where|select|expr|resolve"
                              r"|analyze|rtree|balance|multiselect)", re.I)),
    ("zstd (C)", re.compile(r"zstd|^(huf|fse_|zdict|hist_)", re.I)),
]
RUST_PATH = re.compile(r"[<&*\s]*(?:dyn )?([A-Za-z_][A-Za-z0-9_]*)::")


def owner(symbol):
    m = RUST_PATH.match(symbol)
    if m:
        return m.group(1)
    for name, pattern in C_LIBRARIES:
        if pattern.search(symbol):
            return name
    return "(other)"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--top", type=int, default=30)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        stripped = os.path.join(tmp, "stripped")
        shutil.copy(args.binary, stripped)
        subprocess.run(["strip", stripped], check=True)
        print(f"stripped: {os.path.getsize(stripped) / 1e6:.2f} MB "
              f"(unstripped {os.path.getsize(args.binary) / 1e6:.2f} MB)")
    sections = subprocess.run(["size", "-A", args.binary], check=True, capture_output=True,
                              text=True).stdout.splitlines()
    rows = []
    for line in sections:
        parts = line.split()
        if len(parts) >= 2 and parts[0].startswith(".") and parts[1].isdigit():
            rows.append((int(parts[1]), parts[0]))
    print("\n| section | MB |\n| --- | ---: |")
    for size, name in sorted(rows, reverse=True)[:8]:
        print(f"| `{name}` | {size / 1e6:.2f} |")
    nm = subprocess.run(["nm", "--size-sort", "-S", "-C", args.binary], check=True,
                        capture_output=True, text=True).stdout
    by_owner = collections.Counter()
    for line in nm.splitlines():
        parts = line.split(" ", 3)
        if len(parts) == 4:
            by_owner[owner(parts[3])] += int(parts[1], 16)
    total = sum(by_owner.values())
    print(f"\nsymbols: {total / 1e6:.2f} MB\n\n| crate or library | KB |\n| --- | ---: |")
    for name, size in by_owner.most_common(args.top):
        print(f"| {name} | {size / 1e3:.0f} |")


if __name__ == "__main__":
    main()
