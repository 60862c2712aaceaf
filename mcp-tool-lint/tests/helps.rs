//! A help is followed literally: the code it suggests must not trip another check. Each case
//! here came from the UI suite, where following the first help led to a second error.

mod common;

use common::*;
use mcp_tool_lint::*;

fn help(p: Param, lint: Lint) -> String {
    check_args(&args(vec![p]))
        .findings
        .into_iter()
        .find(|f| f.lint == Some(lint))
        .unwrap_or_else(|| panic!("{lint} should fire"))
        .help
}

#[test]
fn unbounded_limit_on_an_option_suggests_only_the_bound() {
    // `#[arg(default)]` on an `Option` is refused by `#[tool_args]`.
    let h = help(
        opt(
            "per_project_limit",
            TypeClass::Integer,
            "Sessions per project.",
        ),
        Lint::UnboundedLimit,
    );
    assert!(h.contains("`#[arg(max = 100)]`"), "{h}");
    assert!(!h.contains("default"), "{h}");

    let declared = Param {
        default: Some("10".into()),
        required: false,
        ..param("limit", TypeClass::Integer, "Results per page.")
    };
    let h = help(declared, Lint::UnboundedLimit);
    assert!(h.contains("`#[arg(default = 10, max = 100)]`"), "{h}");

    let h = help(
        param("limit", TypeClass::Integer, "Results per page."),
        Lint::UnboundedLimit,
    );
    assert!(h.contains("`#[arg(default = 20, max = 100)]`"), "{h}");
}

#[test]
fn implicit_default_from_serde_says_to_replace_the_serde_attribute() {
    // Both attributes together are a duplicate `default` for serde.
    let p = Param {
        serde_default: true,
        required: false,
        ..param("limit", TypeClass::Integer, "Results per page.")
    };
    let h = help(p, Lint::ImplicitDefault);
    assert!(
        h.starts_with("replace `#[serde(default)]` with `#[arg(default = ..)]`"),
        "{h}"
    );
}

#[test]
fn implicit_default_from_the_doc_says_to_drop_the_option() {
    let h = help(
        opt(
            "snippet_chars",
            TypeClass::Integer,
            "Characters to show (default: 200).",
        ),
        Lint::ImplicitDefault,
    );
    assert!(
        h.contains("`#[arg(default = 200)]` and drop the `Option`"),
        "{h}"
    );
}

#[test]
fn tool_name_repair_passes_the_name_check_itself() {
    let help_for = |name: &str| {
        let r = check_tool(&tool(name, "Ids, times and model of one session."));
        let f = r
            .findings
            .iter()
            .find(|f| f.lint == Some(Lint::ToolName))
            .expect("tool_name fires");
        f.fix().to_string()
    };
    let h = help_for("customer.account");
    assert!(h.ends_with("e.g. `get_customer_account`"), "{h}");
    let h = help_for("session.summary");
    assert!(h.ends_with("e.g. `session_summary`"), "{h}");
    let h = help_for("search events");
    assert!(h.ends_with("e.g. `search_events`"), "{h}");
    let long = format!("x{}", "y".repeat(70));
    let h = help_for(&long);
    let suggested = h.rsplit('`').nth(1).unwrap();
    assert!(
        suggested.len() <= 64 && suggested.starts_with("get_"),
        "{h}"
    );
}
