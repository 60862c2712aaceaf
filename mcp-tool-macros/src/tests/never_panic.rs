//! A proc macro never panics: every generated input gets the attribute's output or spanned
//! errors, as items, with the item itself kept.

use super::fragments;
use super::generate::{self, Build, Case, Dim};
use super::harness::{MACROS, judge};
use std::collections::BTreeMap;
use std::time::Instant;

/// Inputs per option of each dimension: every fragment meets many others.
const PER_OPTION: usize = 6;

/// Runs the macro `name` on every case and fails with the inputs that broke it.
fn run_all(name: &str, cases: &[Case]) {
    let started = Instant::now();
    let mut failures = Vec::new();
    let mut rejected = 0;
    for (attr, item) in cases {
        let input = format!("#[{name}({attr})]\n{item}");
        match judge(name, attr, item) {
            Ok(expansion) => rejected += usize::from(!expansion.errors.is_empty()),
            Err(why) => failures.push((why, input)),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} inputs broke #[{name}]:\n\n{}",
        failures.len(),
        cases.len(),
        report(failures)
    );
    // The generator reaches both sides: inputs the macro accepts and inputs it rejects.
    assert!(
        rejected > 0 && rejected < cases.len(),
        "#[{name}]: {rejected} of {} inputs rejected",
        cases.len()
    );
    eprintln!(
        "#[{name}]: {} inputs ({rejected} rejected) in {:?}",
        cases.len(),
        started.elapsed()
    );
}

/// Each distinct failure (by its first line) once, with how often it happened and the
/// shortest input that shows it.
fn report(failures: Vec<(String, String)>) -> String {
    let mut by_reason: BTreeMap<String, (usize, String)> = BTreeMap::new();
    for (why, input) in failures {
        let reason = why.lines().next().unwrap_or_default().to_owned();
        let entry = by_reason.entry(reason).or_insert((0, input.clone()));
        entry.0 += 1;
        if input.len() < entry.1.len() {
            entry.1 = input;
        }
    }
    by_reason
        .into_iter()
        .map(|(reason, (n, input))| format!("{n} x {reason}\n{input}"))
        .collect::<Vec<_>>()
        .join("\n\n---\n\n")
}

fn cases(dims: &[&Dim], build: Build) -> Vec<Case> {
    generate::cases(dims, PER_OPTION, build)
}

#[test]
fn tool_args_never_panics() {
    let cases = cases(&fragments::ARGS_DIMS, fragments::args_case);
    run_all("tool_args", &cases);
}

#[test]
fn mcp_tool_never_panics() {
    let cases = cases(&fragments::TOOL_DIMS, fragments::tool_case);
    run_all("mcp_tool", &cases);
}

#[test]
fn tool_output_never_panics() {
    let cases = cases(&fragments::OUTPUT_DIMS, fragments::output_case);
    run_all("tool_output", &cases);
}

/// Every macro on every other macro's inputs: an attribute in the wrong place is an error, not
/// a panic.
#[test]
fn each_macro_on_the_others_inputs() {
    let inputs = [
        cases(&fragments::ARGS_DIMS, fragments::args_case),
        cases(&fragments::TOOL_DIMS, fragments::tool_case),
    ];
    for (name, _) in MACROS {
        for input in &inputs {
            // One in four is enough here: the dimensions are covered above.
            let sample: Vec<_> = input.iter().step_by(4).cloned().collect();
            let failures: Vec<_> = sample
                .iter()
                .filter_map(|(attr, item)| {
                    let why = judge(name, attr, item).err()?;
                    Some((why, format!("#[{name}({attr})]\n{item}")))
                })
                .collect();
            assert!(failures.is_empty(), "{}", report(failures));
        }
    }
}

/// Inputs made of clean fragments only expand without errors: the generator reaches the code
/// the macros generate, not only their errors.
#[test]
fn clean_inputs_expand_without_errors() {
    let builders: [(&str, Build); 3] = [
        ("mcp_tool", fragments::tool_case),
        ("tool_args", fragments::args_case),
        ("tool_output", fragments::output_case),
    ];
    for (name, build) in builders {
        let failures: Vec<_> = generate::clean_cases(200, build)
            .into_iter()
            .filter_map(|(attr, item)| {
                let why = match judge(name, &attr, &item) {
                    Ok(expansion) if expansion.errors.is_empty() => return None,
                    Ok(expansion) => expansion.errors.join("\n"),
                    Err(why) => why,
                };
                Some((why, format!("#[{name}({attr})]\n{item}")))
            })
            .collect();
        assert!(failures.is_empty(), "#[{name}]:\n{}", report(failures));
    }
}
