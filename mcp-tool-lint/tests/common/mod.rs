//! Builders that mirror what the macros produce from a `#[tool_args]` struct.
#![allow(dead_code)]

use mcp_tool_lint::*;

pub fn param(name: &str, ty: TypeClass, doc: &str) -> Param {
    Param {
        description: Some(doc.to_string()),
        ..Param::new(name, ty)
    }
}

/// `Option<T>`.
pub fn opt(name: &str, ty: TypeClass, doc: &str) -> Param {
    Param {
        required: false,
        ..param(name, ty, doc)
    }
}

/// `#[arg(default = .., max = ..)]`.
pub fn limit(name: &str, default: u32, max: u32, doc: &str) -> Param {
    Param {
        required: false,
        default: Some(default.to_string()),
        min: Some(1.0),
        max: Some(max as f64),
        ..param(name, TypeClass::Integer, doc)
    }
}

pub fn cursor() -> Param {
    opt(
        "cursor",
        TypeClass::Cursor,
        "`next_cursor` from the previous page; omit for the first page.",
    )
}

/// An enum type as the macros see it: by name, variants unknown.
pub fn enum_ty(name: &str) -> TypeClass {
    let _ = name;
    TypeClass::Enum {
        variants: Vec::new(),
    }
}

pub fn args(params: Vec<Param>) -> Args {
    Args {
        params,
        ..Args::default()
    }
}

pub fn tool(name: &str, doc: &str) -> Tool {
    Tool {
        annotations: Annotations {
            read_only: true,
            ..Annotations::default()
        },
        ..Tool::new(name, Some(doc))
    }
}

/// The lint names of a report, with the parameter each one points at.
pub fn found(report: &Report, args: &Args) -> Vec<(String, String)> {
    report
        .findings
        .iter()
        .map(|f| {
            let at = match f.target {
                Target::Param(i) => args.params[i].name.clone(),
                other => format!("{other:?}"),
            };
            (f.code().to_string(), at)
        })
        .collect()
}

pub fn pairs(expected: &[(&str, &str)]) -> Vec<(String, String)> {
    expected
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

pub fn assert_clean(report: &Report) {
    assert!(
        report.findings.is_empty(),
        "expected no findings, got:\n{}",
        report
            .findings
            .iter()
            .map(Finding::render)
            .collect::<Vec<_>>()
            .join("\n---\n")
    );
}
