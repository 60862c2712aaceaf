# Sourced by the check scripts. `debug_bin NAME` prints the path of the workspace binary NAME
# as `cargo test --workspace` builds it (it builds every bin of a package with integration
# tests), building it first if needed.
#
# Why not `cargo build -p PKG --bin NAME`: a build of one package selects another feature set
# of the shared dependencies than the workspace test build, so cargo compiles rmcp, tokio and
# the rest once more, for each such package: minutes of a CI run and gigabytes of its disk.
# Right after `cargo test --workspace`, as in CI, this builds nothing.
debug_bin() {
  local root
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
  (cd "$root" && cargo test -q --workspace --no-run >&2) || {
    echo "debug_bin: the build failed (cargo test --workspace --no-run)" >&2
    return 1
  }
  local target
  target=$(cd "$root" && cargo metadata --format-version 1 --no-deps |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
  [[ -x $target/debug/$1 ]] || {
    echo "debug_bin: no binary $1 in $target/debug" >&2
    return 1
  }
  echo "$target/debug/$1"
}
