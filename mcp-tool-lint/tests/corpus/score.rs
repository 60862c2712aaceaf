//! Loads the corpus (`real/*.json`, `bad/*.json`), runs every case through the JSON Schema
//! front-end and scores the findings against each case's `expect`. Shared by `tests/corpus.rs`
//! and `examples/corpus_report.rs` (which prints the markdown table for `docs/lints.md`).
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use mcp_tool_lint::schema::check_schema_tool;
use mcp_tool_lint::{Annotations, Lint};
use serde_json::Value;

/// One tool design with the lints a careful reviewer expects on it.
#[derive(Debug, Clone)]
pub struct Case {
    /// `real/<server>` or `bad/<theme>`.
    pub file: String,
    /// Whether it comes from `real/` (a transcribed public server).
    pub real: bool,
    /// Where the design comes from: the case's own `source`, else its file's.
    pub source: String,
    pub name: String,
    pub description: Option<String>,
    pub input_schema: Value,
    pub output_schema: Option<Value>,
    pub annotations: Annotations,
    /// Lint names, as written (checked against `Lint::from_name` by the tests).
    pub expect: Vec<String>,
    pub why: Option<String>,
}

/// The outcome of one case.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub case: Case,
    /// Each finding's lint name (escape-hatch errors as `allow`), in report order.
    pub findings: Vec<String>,
    /// Each finding rendered, for the mismatch listing.
    pub rendered: Vec<String>,
}

impl Outcome {
    pub fn found(&self) -> BTreeSet<&str> {
        self.findings.iter().map(String::as_str).collect()
    }

    pub fn expected(&self) -> BTreeSet<&str> {
        self.case.expect.iter().map(String::as_str).collect()
    }

    /// Lints found but not expected (false alarms) and expected but not found (misses).
    pub fn mismatch(&self) -> (Vec<&str>, Vec<&str>) {
        let (found, expected) = (self.found(), self.expected());
        (
            found.difference(&expected).copied().collect(),
            expected.difference(&found).copied().collect(),
        )
    }
}

/// Per lint, counted per case: a case where the lint is both expected and found is one true
/// positive, however many findings it raised.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Counts {
    pub tp: usize,
    pub fp: usize,
    pub fn_: usize,
}

impl Counts {
    /// `None` when the lint never fired.
    pub fn precision(&self) -> Option<f64> {
        ratio(self.tp, self.tp + self.fp)
    }

    /// `None` when the lint was never expected.
    pub fn recall(&self) -> Option<f64> {
        ratio(self.tp, self.tp + self.fn_)
    }
}

fn ratio(a: usize, b: usize) -> Option<f64> {
    (b > 0).then(|| a as f64 / b as f64)
}

/// The whole score.
#[derive(Debug, Clone)]
pub struct Score {
    pub outcomes: Vec<Outcome>,
    pub per_lint: BTreeMap<String, Counts>,
    /// Findings whose lint the case expects, and all findings (one tool can raise the same
    /// lint on several parameters: each finding counts).
    pub findings_true: usize,
    pub findings_all: usize,
}

impl Score {
    /// Share of findings that name an expected lint: "at least nine findings in ten are real".
    pub fn finding_precision(&self) -> Option<f64> {
        ratio(self.findings_true, self.findings_all)
    }

    /// Per lint, in the order of `Lint::ALL` (the docs' order), then any name the corpus
    /// expects that is not a lint (the well-formedness test rejects those).
    pub fn ordered(&self) -> Vec<(&str, Counts)> {
        let mut rows: Vec<(&str, Counts)> = Lint::ALL
            .iter()
            .map(|l| {
                (
                    l.name(),
                    self.per_lint.get(l.name()).copied().unwrap_or_default(),
                )
            })
            .collect();
        for (name, c) in &self.per_lint {
            if Lint::from_name(name).is_none() {
                rows.push((name.as_str(), *c));
            }
        }
        rows
    }

    pub fn total(&self) -> Counts {
        self.per_lint
            .values()
            .fold(Counts::default(), |a, c| Counts {
                tp: a.tp + c.tp,
                fp: a.fp + c.fp,
                fn_: a.fn_ + c.fn_,
            })
    }

    /// Findings on real designs that name an expected lint, and all findings on real designs:
    /// the measure, on servers nobody here wrote.
    pub fn real_findings(&self) -> (usize, usize) {
        self.outcomes
            .iter()
            .filter(|o| o.case.real)
            .fold((0, 0), |(t, a), o| {
                let expected = o.expected();
                let right = o
                    .findings
                    .iter()
                    .filter(|f| expected.contains(f.as_str()))
                    .count();
                (t + right, a + o.findings.len())
            })
    }

    /// Real cases with no finding beyond their `expect`.
    pub fn real_clean(&self) -> (usize, usize) {
        let real: Vec<&Outcome> = self.outcomes.iter().filter(|o| o.case.real).collect();
        let clean = real.iter().filter(|o| o.mismatch().0.is_empty()).count();
        (clean, real.len())
    }

    /// Written bad designs (a non-empty `expect`) where every expected lint was found.
    pub fn bad_caught(&self) -> (usize, usize) {
        let bad: Vec<&Outcome> = self
            .outcomes
            .iter()
            .filter(|o| !o.case.real && !o.case.expect.is_empty())
            .collect();
        let caught = bad.iter().filter(|o| o.mismatch().1.is_empty()).count();
        (caught, bad.len())
    }

    /// Written good designs (an empty `expect`, phrased to tempt the rules) with no finding.
    pub fn tempting_clean(&self) -> (usize, usize) {
        let good: Vec<&Outcome> = self
            .outcomes
            .iter()
            .filter(|o| !o.case.real && o.case.expect.is_empty())
            .collect();
        let clean = good.iter().filter(|o| o.findings.is_empty()).count();
        (clean, good.len())
    }
}

pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")
}

/// Every case of every file, in file-name order. Panics with the file name on malformed JSON:
/// a broken corpus file must fail the test, not shrink the corpus.
pub fn load() -> Vec<Case> {
    let mut cases = Vec::new();
    for sub in ["real", "bad"] {
        let dir = corpus_dir().join(sub);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("directory entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        for path in files {
            let text = std::fs::read_to_string(&path).expect("readable corpus file");
            let doc: Value =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let file = format!(
                "{sub}/{}",
                path.file_stem().and_then(|s| s.to_str()).unwrap_or("?")
            );
            let file_source = doc.get("source").and_then(Value::as_str).unwrap_or("");
            let tools = doc
                .get("tools")
                .and_then(Value::as_array)
                .unwrap_or_else(|| panic!("{}: no `tools` array", path.display()));
            for t in tools {
                cases.push(parse_case(&file, sub == "real", file_source, t));
            }
        }
    }
    cases
}

fn parse_case(file: &str, real: bool, file_source: &str, t: &Value) -> Case {
    let text = |k: &str| t.get(k).and_then(Value::as_str).map(str::to_string);
    let name = text("name").unwrap_or_else(|| panic!("{file}: a tool without `name`"));
    let expect = t
        .get("expect")
        .and_then(Value::as_array)
        .unwrap_or_else(|| panic!("{file}/{name}: no `expect` array"))
        .iter()
        .map(|v| {
            v.as_str()
                .unwrap_or_else(|| panic!("{file}/{name}: `expect` holds lint names"))
                .to_string()
        })
        .collect();
    Case {
        file: file.to_string(),
        real,
        source: text("source").unwrap_or_else(|| file_source.to_string()),
        description: text("description"),
        input_schema: t
            .get("inputSchema")
            .cloned()
            .unwrap_or_else(|| panic!("{file}/{name}: no `inputSchema`")),
        output_schema: t.get("outputSchema").cloned(),
        annotations: annotations(t.get("annotations")),
        expect,
        why: text("why"),
        name,
    }
}

/// MCP annotations as declared. Only an explicit `true` counts: the specification's defaults
/// (`destructiveHint` and `openWorldHint` true when absent) are what a client assumes, not
/// what the author claimed, and `annotation_conflict` judges claims.
fn annotations(a: Option<&Value>) -> Annotations {
    let hint = |k: &str| a.and_then(|a| a.get(k)).and_then(Value::as_bool) == Some(true);
    Annotations {
        read_only: hint("readOnlyHint"),
        destructive: hint("destructiveHint"),
        idempotent: hint("idempotentHint"),
        open_world: hint("openWorldHint"),
    }
}

pub fn run(case: &Case) -> Outcome {
    let report = check_schema_tool(
        &case.name,
        case.description.as_deref(),
        case.annotations,
        &case.input_schema,
        case.output_schema.as_ref(),
    );
    Outcome {
        case: case.clone(),
        findings: report
            .findings
            .iter()
            .map(|f| f.code().to_string())
            .collect(),
        rendered: report.findings.iter().map(|f| f.render()).collect(),
    }
}

pub fn score(cases: &[Case]) -> Score {
    let outcomes: Vec<Outcome> = cases.iter().map(run).collect();
    let mut per_lint: BTreeMap<String, Counts> = Lint::ALL
        .iter()
        .map(|l| (l.name().to_string(), Counts::default()))
        .collect();
    let (mut findings_true, mut findings_all) = (0, 0);
    for o in &outcomes {
        let (found, expected) = (o.found(), o.expected());
        for lint in found.union(&expected) {
            let c = per_lint.entry((*lint).to_string()).or_default();
            match (found.contains(lint), expected.contains(lint)) {
                (true, true) => c.tp += 1,
                (true, false) => c.fp += 1,
                (false, true) => c.fn_ += 1,
                (false, false) => {}
            }
        }
        findings_all += o.findings.len();
        findings_true += o
            .findings
            .iter()
            .filter(|f| expected.contains(f.as_str()))
            .count();
    }
    Score {
        outcomes,
        per_lint,
        findings_true,
        findings_all,
    }
}

fn pct(x: Option<f64>) -> String {
    x.map_or("–".to_string(), |x| format!("{:.0}%", x * 100.0))
}

/// The per-lint table in markdown, then the totals: what `docs/lints.md` shows.
pub fn markdown(s: &Score) -> String {
    let mut out = String::new();
    let (real_n, bad_n) = (
        s.outcomes.iter().filter(|o| o.case.real).count(),
        s.outcomes.iter().filter(|o| !o.case.real).count(),
    );
    let _ = writeln!(
        out,
        "Corpus: {} cases ({real_n} transcribed from public servers, {bad_n} written to break or tempt the rules).\n",
        s.outcomes.len()
    );
    out.push_str("| lint | expected | found | TP | FP | FN | precision | recall |\n");
    out.push_str("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for (lint, c) in s.ordered() {
        let _ = writeln!(
            out,
            "| `{lint}` | {} | {} | {} | {} | {} | {} | {} |",
            c.tp + c.fn_,
            c.tp + c.fp,
            c.tp,
            c.fp,
            c.fn_,
            pct(c.precision()),
            pct(c.recall())
        );
    }
    let t = s.total();
    let _ = writeln!(
        out,
        "| **all** | {} | {} | {} | {} | {} | {} | {} |",
        t.tp + t.fn_,
        t.tp + t.fp,
        t.tp,
        t.fp,
        t.fn_,
        pct(t.precision()),
        pct(t.recall())
    );
    let (clean, real) = s.real_clean();
    let (caught, bad) = s.bad_caught();
    let (tempting_clean, tempting) = s.tempting_clean();
    let (real_right, real_all) = s.real_findings();
    let _ = writeln!(
        out,
        "\n- Findings that name a lint their case expects: {} of {} ({}); on real designs only, {real_right} of {real_all} ({}).\n- Real designs without a false alarm: {clean} of {real}.\n- Written bad designs with every expected lint found: {caught} of {bad}.\n- Written good designs (phrased to tempt the rules) without a finding: {tempting_clean} of {tempting}.",
        s.findings_true,
        s.findings_all,
        pct(s.finding_precision()),
        pct(ratio(real_right, real_all))
    );
    out
}

/// A ratio as a whole percent, rounded down (what the floors compare).
pub fn percent_floor(x: Option<f64>) -> Option<u32> {
    x.map(|x| (x * 100.0 + 1e-9).floor() as u32)
}

/// Today's values, rounded down, as the constants of `tests/corpus.rs`.
pub fn floors(s: &Score) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "const FINDING_PRECISION_FLOOR: u32 = {};",
        percent_floor(s.finding_precision()).unwrap_or(0)
    );
    let _ = writeln!(
        out,
        "const RECALL_FLOOR: u32 = {};",
        percent_floor(s.total().recall()).unwrap_or(0)
    );
    out.push_str("const LINT_FLOORS: &[(&str, u32, u32)] = &[\n");
    for (lint, c) in s.ordered() {
        let _ = writeln!(
            out,
            "    (\"{lint}\", {}, {}),",
            percent_floor(c.precision()).unwrap_or(0),
            percent_floor(c.recall()).unwrap_or(0)
        );
    }
    out.push_str("];\n");
    out
}

/// Every case whose findings differ from its `expect`, with the findings: the work list.
pub fn mismatches(s: &Score) -> String {
    let mut out = String::new();
    for o in &s.outcomes {
        let (extra, missing) = o.mismatch();
        if extra.is_empty() && missing.is_empty() {
            continue;
        }
        let _ = writeln!(
            out,
            "{}/{}: false alarm {:?}, missed {:?}",
            o.case.file, o.case.name, extra, missing
        );
        for r in &o.rendered {
            let first = r.lines().next().unwrap_or("");
            let _ = writeln!(out, "    {first}");
        }
    }
    out
}
