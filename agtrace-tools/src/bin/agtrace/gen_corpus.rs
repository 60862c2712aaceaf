//! `agtrace gen-corpus`: a deterministic synthetic log tree.

use super::Failure;
use super::output::outln;
use agtrace_tools::corpus::{CorpusSpec, generate};
use agtrace_tools::model::Provider;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct GenCorpusArgs {
    /// Sessions to write, spread evenly over the three providers.
    #[arg(long, default_value_t = 30)]
    sessions: usize,
    /// Folder to write into (claude/projects, codex/sessions, gemini/tmp below it).
    #[arg(long)]
    out: PathBuf,
    /// Seed: the same seed writes the same bytes.
    #[arg(long, default_value_t = 2026)]
    seed: u64,
    /// Largest tool output in bytes.
    #[arg(long, default_value_t = 1 << 20)]
    max_tool_output: usize,
}

pub fn run(args: GenCorpusArgs) -> Result<(), Failure> {
    let mut spec = CorpusSpec::new(args.sessions, args.seed);
    spec.max_tool_output = args.max_tool_output;
    let stats = generate(&spec, &args.out)?;
    let counts: Vec<String> = Provider::ALL
        .into_iter()
        .map(|p| format!("{} {p}", stats.sessions[p.position()]))
        .collect();
    outln!(
        "wrote {} files, {:.1} MB ({} sessions) under {}",
        stats.files,
        stats.bytes as f64 / 1e6,
        counts.join(", "),
        args.out.display()
    )?;
    let flags: Vec<String> = Provider::ALL
        .into_iter()
        .map(|p| {
            format!(
                "--{} {}/{}",
                p.spec().flag,
                args.out.display(),
                p.spec().tree_root
            )
        })
        .collect();
    outln!("use it with: agtrace {} index", flags.join(" "))?;
    Ok(())
}
