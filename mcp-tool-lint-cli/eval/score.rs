//! Scores `mcp-tool-lint` against the judged findings of `eval/findings.tsv` on the catalogs of
//! `eval/dumps/`, per half of the servers (`eval/halves.tsv`), so that a rule tuned on one half
//! is reported on the other. Shared by `examples/lint_eval.rs` (the table) and `tests/eval.rs`
//! (the floors). See `eval/README.md` for the judging standard and the matching rule.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use mcp_tool_lint::Level;
use mcp_tool_lint_cli::Finding;
use mcp_tool_lint_cli::catalog::Catalog;
use mcp_tool_lint_cli::check::check;
use mcp_tool_lint_cli::rules::catalog_tokens::default_budget;

/// The folder that holds the development set.
pub fn eval_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("eval")
}

/// What a judged finding is about: two findings with the same key are the same claim about
/// the design, whatever their wording.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key {
    pub server: String,
    /// The tool, or `a, b` for a pair, or `(catalog)`.
    pub tool: String,
    pub lint: String,
    /// `param:NAME`, `args`, `name`, `description`, `annotations`, `output`, `catalog`, `tools`.
    pub place: String,
    /// What in that place, for a parameter or the output (which hold nested values): the
    /// first `` `quoted` `` name of the message, prefixed `values:` for a finding about the
    /// values of an enum and `union:` for one about untagged shapes. Empty elsewhere: a tool
    /// has one name, one description, one set of arguments.
    pub subject: String,
}

impl Key {
    fn new(server: &str, tool: &str, lint: &str, place: &str, message: &str) -> Key {
        let nested = place.starts_with("param:") || place == "output";
        Key {
            server: server.into(),
            tool: tool.into(),
            lint: lint.into(),
            place: place.into(),
            subject: if nested {
                subject(message)
            } else {
                String::new()
            },
        }
    }
}

/// The subject of a message (see [`Key::subject`]).
pub fn subject(message: &str) -> String {
    let quoted = message.split('`').nth(1).unwrap_or("").to_string();
    if message.starts_with("the values of") {
        format!("values:{quoted}")
    } else if message.contains(" shapes (`anyOf`)") || message.contains(" shapes (`oneOf`)") {
        format!("union:{quoted}")
    } else {
        quoted
    }
}

/// Where a finding points, in the `where` spelling of `findings.tsv`.
pub fn place(f: &Finding) -> String {
    if let Some(p) = &f.param {
        return format!("param:{p}");
    }
    match (f.tools.len(), f.lint) {
        (0, _) => "catalog".into(),
        (2, _) => "tools".into(),
        (_, "tool_name" | "inconsistent_naming" | "vague_name") => "name".into(),
        (_, "missing_description" | "description_budget") => "description".into(),
        (_, "annotation_conflict") => "annotations".into(),
        (_, "too_many_params" | "false_strictness") => "args".into(),
        _ => "output".into(),
    }
}

/// One row of `findings.tsv`.
#[derive(Debug, Clone)]
pub struct Judged {
    pub key: Key,
    pub real: bool,
    pub message: String,
    pub reason: String,
}

/// Every judged finding, by key. A key judged twice must be judged alike.
pub fn judged() -> Result<BTreeMap<Key, Judged>, String> {
    let path = eval_dir().join("findings.tsv");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out: BTreeMap<Key, Judged> = BTreeMap::new();
    for (n, line) in text.lines().enumerate().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let [server, tool, lint, message, verdict, reason, place] = cols[..] else {
            return Err(format!("findings.tsv:{}: expected 7 columns", n + 1));
        };
        let real = match verdict {
            "TRUE" => true,
            "FALSE" => false,
            v => return Err(format!("findings.tsv:{}: verdict `{v}`", n + 1)),
        };
        let key = Key::new(server, tool, lint, place, message);
        if let Some(old) = out.get(&key)
            && old.real != real
        {
            return Err(format!(
                "findings.tsv:{}: {key:?} is judged both ways",
                n + 1
            ));
        }
        out.insert(
            key.clone(),
            Judged {
                key,
                real,
                message: message.into(),
                reason: reason.into(),
            },
        );
    }
    Ok(out)
}

/// `server -> half` from `halves.tsv`.
pub fn halves() -> Result<BTreeMap<String, String>, String> {
    let path = eval_dir().join("halves.tsv");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(text
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once('\t'))
        .map(|(s, h)| (s.to_string(), h.to_string()))
        .collect())
}

/// One finding of today's rules on a development server.
#[derive(Debug, Clone)]
pub struct Found {
    pub key: Key,
    pub level: Level,
    pub message: String,
    /// `Some(real)` when judged.
    pub verdict: Option<bool>,
}

/// Every finding of today's rules on every catalog of `dumps/`, with its verdict.
pub fn run(judged: &BTreeMap<Key, Judged>) -> Result<Vec<Found>, String> {
    let dir = eval_dir().join("dumps");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let server = path.file_stem().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
        let value = serde_json::from_str(&text).map_err(|e| format!("{server}: {e}"))?;
        let catalog = Catalog::from_json(value)?;
        let mut seen = BTreeSet::new();
        for f in check(&catalog, &[], default_budget(catalog.tools.len())).findings {
            let tool = if f.tools.is_empty() {
                "(catalog)".into()
            } else {
                f.tools.join(", ")
            };
            let key = Key::new(&server, &tool, f.lint, &place(&f), &f.message);
            // Two findings with one key are one claim (a nested field reached twice).
            if !seen.insert(key.clone()) {
                continue;
            }
            let verdict = judged.get(&key).map(|j| j.real);
            out.push(Found {
                key,
                level: f.level,
                message: f.message,
                verdict,
            });
        }
    }
    Ok(out)
}

/// Counts for one lint (or a total) on one set of servers.
#[derive(Debug, Clone, Copy, Default)]
pub struct Counts {
    /// Findings judged real.
    pub tp: usize,
    /// Findings judged false alarms.
    pub fp: usize,
    /// Findings nobody has judged yet.
    pub unjudged: usize,
    /// Real problems (judged TRUE) no finding raised.
    pub missed: usize,
}

impl Counts {
    pub fn precision(&self) -> Option<f64> {
        ratio(self.tp, self.tp + self.fp)
    }
    pub fn recall(&self) -> Option<f64> {
        ratio(self.tp, self.tp + self.missed)
    }
    fn add(&mut self, o: Counts) {
        self.tp += o.tp;
        self.fp += o.fp;
        self.unjudged += o.unjudged;
        self.missed += o.missed;
    }
}

fn ratio(a: usize, b: usize) -> Option<f64> {
    (b > 0).then(|| a as f64 / b as f64)
}

/// The scores, per half (`A`, `B`) and lint, plus the totals of the errors and of everything.
#[derive(Debug, Clone, Default)]
pub struct Scores {
    /// `(half, lint) -> counts`.
    pub per_lint: BTreeMap<(String, String), Counts>,
    /// `half -> counts` of the findings at level error (a missed real problem counts here
    /// under the level its lint has).
    pub errors: BTreeMap<String, Counts>,
    /// `half -> counts` of every finding.
    pub all: BTreeMap<String, Counts>,
    /// Each lint's level as the findings showed it (`None` when it never fired).
    pub levels: BTreeMap<String, BTreeSet<Level>>,
    pub found: Vec<Found>,
    pub missed: Vec<Judged>,
}

pub fn score() -> Result<Scores, String> {
    let judged = judged()?;
    let halves = halves()?;
    let found = run(&judged)?;
    let half_of = |server: &str| -> Result<String, String> {
        halves
            .get(server)
            .cloned()
            .ok_or_else(|| format!("server `{server}` is in no half of halves.tsv"))
    };
    let mut s = Scores::default();
    let hit: BTreeSet<&Key> = found.iter().map(|f| &f.key).collect();
    for f in &found {
        let half = half_of(&f.key.server)?;
        s.levels
            .entry(f.key.lint.clone())
            .or_default()
            .insert(f.level);
        let mut c = Counts::default();
        match f.verdict {
            Some(true) => c.tp = 1,
            Some(false) => c.fp = 1,
            None => c.unjudged = 1,
        }
        s.per_lint
            .entry((half.clone(), f.key.lint.clone()))
            .or_default()
            .add(c);
        s.all.entry(half.clone()).or_default().add(c);
        if f.level == Level::Error {
            s.errors.entry(half).or_default().add(c);
        }
    }
    for j in judged.values().filter(|j| j.real && !hit.contains(&j.key)) {
        let half = half_of(&j.key.server)?;
        let c = Counts {
            missed: 1,
            ..Counts::default()
        };
        s.per_lint
            .entry((half.clone(), j.key.lint.clone()))
            .or_default()
            .add(c);
        s.all.entry(half).or_default().add(c);
        s.missed.push(j.clone());
    }
    s.found = found;
    Ok(s)
}

fn pct(v: Option<f64>) -> String {
    v.map_or("–".into(), |v| format!("{:.0}%", v * 100.0))
}

fn cell(c: Option<&Counts>) -> String {
    let c = c.copied().unwrap_or_default();
    let unjudged = if c.unjudged > 0 {
        format!(" ({} unjudged)", c.unjudged)
    } else {
        String::new()
    };
    format!(
        "{}/{} = {}{unjudged} | {}",
        c.tp,
        c.tp + c.fp,
        pct(c.precision()),
        pct(c.recall())
    )
}

fn level_name(levels: Option<&BTreeSet<Level>>) -> String {
    match levels {
        None => "–".into(),
        Some(l) => l
            .iter()
            .map(|l| match l {
                Level::Error => "error",
                Level::Advice => "advice",
            })
            .collect::<Vec<_>>()
            .join(" + "),
    }
}

/// The halves a table shows, in order, with their headings: B, the held-out figure; A, the
/// half the rules were tuned on; C, E and F, servers first linted after a tuning and looked at
/// since; D, servers first linted with the rules, which no change has looked at since.
const COLUMNS: &[(&str, &str)] = &[
    ("B", "B (held out)"),
    ("A", "A (tuned on)"),
    ("C", "C (new servers)"),
    ("D", "D (new, rules frozen)"),
    ("E", "E (new servers)"),
    ("F", "F (new servers)"),
];

/// The markdown table: per lint, its level, then precision (real / findings) and recall per
/// half ([`COLUMNS`]).
pub fn markdown(s: &Scores) -> String {
    let halves: Vec<&(&str, &str)> = COLUMNS
        .iter()
        .filter(|(h, _)| s.all.contains_key(*h))
        .collect();
    let mut out = String::from("| lint | level |");
    for (_, heading) in &halves {
        let _ = write!(out, " {heading}: precision | recall |");
    }
    out.push_str("\n| --- | --- |");
    out.push_str(&" ---: | ---: |".repeat(halves.len()));
    out.push('\n');
    let row = |out: &mut String, first: &str, cells: Vec<String>| {
        let _ = writeln!(out, "| {first} | {} |", cells.join(" | "));
    };
    let lints: BTreeSet<&String> = s.per_lint.keys().map(|(_, l)| l).collect();
    for lint in lints {
        let cells = halves
            .iter()
            .map(|(h, _)| cell(s.per_lint.get(&((*h).into(), lint.clone()))))
            .collect();
        row(
            &mut out,
            &format!("`{lint}` | {}", level_name(s.levels.get(lint))),
            cells,
        );
    }
    // A missed problem belongs to no level, so the errors have no recall of their own.
    let no_recall = |c: Option<&Counts>| {
        let text = cell(c);
        format!(
            "{} | –",
            text.rsplit_once(" | ").map_or(text.as_str(), |(p, _)| p)
        )
    };
    let errors = halves
        .iter()
        .map(|(h, _)| no_recall(s.errors.get(*h)))
        .collect();
    row(&mut out, "**errors** |", errors);
    let all = halves.iter().map(|(h, _)| cell(s.all.get(*h))).collect();
    row(&mut out, "**all findings** |", all);
    out
}

/// Every finding nobody has judged, as `findings.tsv` rows with an empty verdict to fill in.
pub fn unjudged_rows(s: &Scores) -> String {
    let mut out = String::new();
    for f in s.found.iter().filter(|f| f.verdict.is_none()) {
        let _ = writeln!(
            out,
            "{}\t{}\t{}\t{}\t?\t?\t{}",
            f.key.server, f.key.tool, f.key.lint, f.message, f.key.place
        );
    }
    out
}

/// The false alarms and the misses, for one half.
pub fn mismatches(s: &Scores, half: &str, halves: &BTreeMap<String, String>) -> String {
    let in_half = |server: &str| halves.get(server).is_some_and(|h| h == half);
    let mut out = String::new();
    for f in s
        .found
        .iter()
        .filter(|f| f.verdict == Some(false) && in_half(&f.key.server))
    {
        let _ = writeln!(
            out,
            "false alarm\t{}\t{}\t{}\t{}",
            f.key.server, f.key.tool, f.key.lint, f.message
        );
    }
    for j in s.missed.iter().filter(|j| in_half(&j.key.server)) {
        let _ = writeln!(
            out,
            "missed\t{}\t{}\t{}\t{}\t({})",
            j.key.server, j.key.tool, j.key.lint, j.message, j.reason
        );
    }
    out
}
