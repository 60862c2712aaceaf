# shellcheck shell=bash
# The generated corpus laid out as upstream agtrace finds it, and upstream's config for it:
# sourced by scripts/bench/upstream-compare.sh and scripts/bench/index-compare.sh.

# corpus_for_upstream AGTRACE SESSIONS DIR: `agtrace gen-corpus` into DIR once (kept while DIR
# holds `.complete`), its roots renamed .claude/projects, .codex/sessions and .gemini/tmp, the
# names upstream recognises a provider by.
corpus_for_upstream() {
    local agtrace=$1 sessions=$2 corpus=$3
    [[ -f $corpus/.complete ]] && return 0
    echo "== generating $sessions sessions into $corpus" >&2
    rm -rf "$corpus" "$corpus.tmp"
    "$agtrace" gen-corpus --sessions "$sessions" --out "$corpus.tmp" >&2
    for p in claude codex gemini; do mv "$corpus.tmp/$p" "$corpus.tmp/.$p"; done
    mv "$corpus.tmp" "$corpus"
    touch "$corpus/.complete"
}

# upstream_config DATA CORPUS: upstream's config.toml in its data dir DATA, naming the log
# roots of CORPUS (upstream's `index update` reads them from there).
upstream_config() {
    local data=$1 corpus=$2
    cat > "$data/config.toml" <<EOF
[providers.claude_code]
enabled = true
log_root = "$corpus/.claude/projects"

[providers.codex]
enabled = true
log_root = "$corpus/.codex/sessions"

[providers.gemini]
enabled = true
log_root = "$corpus/.gemini/tmp"
EOF
}
