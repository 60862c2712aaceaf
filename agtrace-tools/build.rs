//! Declares every file in `src/tools/` as a module, so that adding a tool touches one file.

use std::fmt::Write;
use std::path::Path;

fn main() {
    // Read when the script runs, not baked in when it is compiled: worktrees sharing one target
    // dir share this script's binary, and a baked-in path would list another worktree's tools.
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let dir = Path::new(&manifest_dir).join("src/tools");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| {
        p.extension().is_some_and(|e| e == "rs") && p.file_stem().is_some_and(|s| s != "mod")
    });
    files.sort();
    let mut code = String::new();
    for path in files {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        writeln!(
            code,
            "#[path = {:?}]\npub mod {stem};",
            path.display().to_string()
        )
        .unwrap();
    }
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).join("tool_modules.rs");
    std::fs::write(out, code).unwrap();
}
