//! `agtrace index`: bring the index up to date, with a progress bar on stderr.

use super::output::{errln, outln};
use super::{Failure, Roots, open_store};
use agtrace_tools::index::{SkipReason, SkipSummary};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Skipped files named per reason on stderr; the rest are counted.
const NAMED_PER_REASON: usize = 20;

pub async fn run(roots: &Roots) -> Result<(), Failure> {
    let store = open_store(roots.config())?;
    let stats = tokio::task::spawn_blocking(move || {
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{spinner} indexing [{bar:30}] {binary_bytes}/{binary_total_bytes} {binary_bytes_per_sec} {msg}")
                .expect("a valid template")
                .progress_chars("=> "),
        );
        let stats = store.refresh_with_progress(&mut |p| {
            bar.set_length(p.bytes_total);
            bar.set_position(p.bytes_done);
            bar.set_message(format!("{}/{} files", p.files_done, p.files_total));
        });
        bar.finish_and_clear();
        stats
    })
    .await??;
    for note in &stats.notes {
        errln!("note: {note}");
    }
    for reason in SkipReason::ALL {
        let of_reason: Vec<_> = stats
            .skipped
            .iter()
            .filter(|s| s.reason == reason)
            .collect();
        for s in of_reason.iter().take(NAMED_PER_REASON) {
            errln!("note: not indexed ({reason}): {}", s.path);
        }
        if of_reason.len() > NAMED_PER_REASON {
            errln!(
                "note: not indexed ({reason}): {} more",
                of_reason.len() - NAMED_PER_REASON
            );
        }
    }
    let skips = SkipSummary::of(&stats.skipped, 0);
    let skipped = match skips.total() {
        0 => String::new(),
        n => format!(", {n} not indexed ({})", skips.counts_text()),
    };
    outln!(
        "{} files: {} parsed, {} appended, {} unchanged, {} removed{skipped}; {} events added, {} malformed lines skipped; {:.1} MB in {:.2} s",
        stats.files_seen,
        stats.files_parsed,
        stats.files_appended,
        stats.files_skipped,
        stats.files_removed,
        stats.events_added,
        stats.malformed_lines,
        stats.bytes_read as f64 / 1e6,
        stats.elapsed_ms as f64 / 1e3
    )?;
    let a = &stats.archive;
    if a.files > 0 || roots.config().archive {
        outln!(
            "archive: {} logs, {} kept in {} ({} copied now); {} deleted by their agent still answer ({} reclaimed on disk)",
            a.files,
            size(a.raw_bytes),
            size(a.stored_bytes),
            a.copied,
            a.kept_files,
            size(a.kept_raw_bytes)
        )?;
    }
    Ok(())
}

/// Bytes for people: `812 B`, `37.5 KB`, `1161.9 MB`.
fn size(bytes: u64) -> String {
    match bytes {
        b if b < 1_000 => format!("{b} B"),
        b if b < 1_000_000 => format!("{:.1} KB", b as f64 / 1e3),
        b => format!("{:.1} MB", b as f64 / 1e6),
    }
}
