//! The escape hatch: `allow(lint = "reason")` drops the finding and keeps an auditable record.

mod common;

use common::*;
use mcp_tool_lint::*;

fn provider_string(allows: Vec<Allow>) -> Param {
    Param {
        allows,
        ..opt(
            "provider",
            TypeClass::String,
            "Model provider, one of openai, anthropic or google (plugins add more).",
        )
    }
}

#[test]
fn a_field_allow_drops_the_finding_and_records_the_accepted_allow() {
    let a = args(vec![provider_string(vec![Allow::new(
        "closed_domain_string",
        "providers are user-defined plugins",
    )])]);
    let r = check_args(&a);
    assert_clean(&r);
    assert_eq!(
        r.accepted_allows,
        vec![AcceptedAllow {
            lint: Lint::ClosedDomainString,
            target: Target::Param(0),
            reason: "providers are user-defined plugins".into(),
            suppressed: 1,
        }]
    );
}

#[test]
fn a_field_allow_covers_only_its_field() {
    let a = args(vec![
        provider_string(vec![Allow::new("closed_domain_string", "plugins")]),
        opt("visibility", TypeClass::String, "Who can see the job."),
    ]);
    let r = check_args(&a);
    assert_eq!(
        found(&r, &a),
        pairs(&[("closed_domain_string", "visibility")])
    );
}

#[test]
fn an_item_allow_covers_the_whole_item() {
    let many = (0..9)
        .map(|i| param(&format!("field_{i}"), TypeClass::Integer, "A number."))
        .collect();
    let a = Args {
        allows: vec![Allow::new(
            "too_many_params",
            "mirrors the upstream API one to one",
        )],
        ..args(many)
    };
    let r = check_args(&a);
    assert_clean(&r);
    assert_eq!(r.accepted_allows[0].target, Target::Args);
    assert_eq!(r.accepted_allows[0].suppressed, 1);

    let t = Tool {
        allows: vec![Allow::new("tool_name", "name fixed by an external client")],
        ..tool("session", "One session at a glance.")
    };
    let r = check_tool(&t);
    assert_clean(&r);
    assert_eq!(r.accepted_allows[0].lint, Lint::ToolName);
    assert_eq!(r.accepted_allows[0].target, Target::Tool);
}

#[test]
fn an_allow_for_a_lint_that_did_not_fire_is_kept_with_zero_suppressed() {
    let a = args(vec![Param {
        allows: vec![Allow::new("mode_toggle", "kept from an older design")],
        ..opt("query", TypeClass::String, "Text to look for.")
    }]);
    let r = check_args(&a);
    assert_clean(&r);
    assert_eq!(r.accepted_allows[0].suppressed, 0);
}

#[test]
fn an_empty_reason_is_an_error_and_silences_nothing() {
    let a = args(vec![provider_string(vec![Allow::new(
        "closed_domain_string",
        "  ",
    )])]);
    let r = check_args(&a);
    let codes: Vec<&str> = r.findings.iter().map(Finding::code).collect();
    assert_eq!(codes, vec!["closed_domain_string", "allow"]);
    let err = &r.findings[1];
    assert_eq!(err.lint, None);
    assert_eq!(
        err.target,
        Target::Allow {
            param: Some(0),
            index: 0
        }
    );
    assert!(
        err.render()
            .starts_with("[allow] `allow(closed_domain_string)` needs a reason"),
        "{}",
        err.render()
    );
    assert!(r.accepted_allows.is_empty());
}

#[test]
fn an_unknown_lint_is_an_error_with_a_suggestion() {
    for (written, meant) in [
        ("closed_domain_strng", "closed_domain_string"),
        ("closed-domain-string", "closed_domain_string"),
        ("ModeToggle", "mode_toggle"),
        ("too_many_param", "too_many_params"),
        ("vague_names", "vague_name"),
    ] {
        let a = Args {
            allows: vec![Allow::new(written, "a reason")],
            ..args(vec![])
        };
        let r = check_args(&a);
        assert_eq!(r.findings.len(), 1, "{written}");
        let err = &r.findings[0];
        assert_eq!(
            err.target,
            Target::Allow {
                param: None,
                index: 0
            }
        );
        assert!(
            err.message.contains(&format!("unknown lint `{written}`")),
            "{}",
            err.message
        );
        assert!(
            err.help.contains(&format!("did you mean `{meant}`?")),
            "{written}: {}",
            err.help
        );
    }
    let r = check_args(&Args {
        allows: vec![Allow::new("everything", "a reason")],
        ..args(vec![])
    });
    assert!(
        r.findings[0]
            .help
            .contains("the lints are: too_many_params, closed_domain_string"),
        "{}",
        r.findings[0].help
    );
    assert_eq!(Lint::suggest("everything"), None);
}

#[test]
fn find_allow_serves_cross_item_checks() {
    let allows = vec![
        Allow::new("pagination_mismatch", "the cursor is a stream position"),
        Allow::new("vague_name", ""),
    ];
    assert_eq!(
        find_allow(&allows, Lint::PaginationMismatch).map(|a| a.reason.as_str()),
        Some("the cursor is a stream position")
    );
    assert_eq!(find_allow(&allows, Lint::VagueName), None);
    assert_eq!(find_allow(&allows, Lint::ToolName), None);
}
