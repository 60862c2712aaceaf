//! The agtrace tools before and after their redesign: the before-designs must be rejected with
//! exactly the lints that name their faults, the after-designs must pass untouched.

mod common;

use common::*;
use mcp_tool_lint::*;

fn search_events_before() -> Args {
    args(vec![
        param("pattern", TypeClass::String, "Regex or text to search"),
        limit("limit", 20, 100, "Maximum number of results"),
        cursor(),
        opt("provider", TypeClass::String, "Filter by provider"),
        opt(
            "event_type",
            TypeClass::String,
            "Filter by event type (e.g. ToolCall, ToolResult, Message)",
        ),
        opt(
            "include_full_payload",
            TypeClass::Bool,
            "Return the full payload instead of a preview",
        ),
    ])
}

#[test]
fn search_events_before_is_rejected_with_exactly_its_faults() {
    let a = search_events_before();
    let report = check_args(&a);
    assert_eq!(
        found(&report, &a),
        pairs(&[
            ("vague_name", "pattern"),
            ("closed_domain_string", "provider"),
            ("closed_domain_string", "event_type"),
            ("mode_toggle", "include_full_payload"),
        ])
    );
}

#[test]
fn closed_domain_help_names_the_enum_to_write_with_the_documented_values() {
    let a = search_events_before();
    let report = check_args(&a);
    let event_type = report
        .findings
        .iter()
        .find(|f| f.target == Target::Param(4))
        .unwrap();
    let text = event_type.render();
    assert!(
        text.starts_with("[closed_domain_string] `event_type` lists a closed set of values"),
        "{text}"
    );
    assert!(text.contains("help: "), "{text}");
    assert!(
        text.contains("pub enum EventType { ToolCall, ToolResult, Message }"),
        "{text}"
    );
    assert!(text.contains("event_type: Option<EventType>"), "{text}");
}

fn detail_level() -> Param {
    opt(
        "detail_level",
        enum_ty("DetailLevel"),
        "How much of the session to return.",
    )
}

#[test]
fn get_session_details_before_is_hidden_coupling_only() {
    let a = args(vec![
        param(
            "session_id",
            TypeClass::String,
            "Session id or a unique prefix of one.",
        ),
        detail_level(),
        opt(
            "include_reasoning",
            TypeClass::Bool,
            "Include reasoning blocks (only applies to 'turns' level)",
        ),
    ]);
    let report = check_args(&a);
    assert_eq!(
        found(&report, &a),
        pairs(&[("hidden_coupling", "include_reasoning")])
    );
}

#[test]
fn loud_coupling_is_still_hidden_coupling() {
    let a = args(vec![
        param(
            "session_id",
            TypeClass::String,
            "Session id or a unique prefix of one.",
        ),
        detail_level(),
        opt(
            "include_reasoning",
            TypeClass::Bool,
            "Include reasoning blocks. WARNING: Only valid when detail_level='turns'. Ignored otherwise.",
        ),
    ]);
    let report = check_args(&a);
    assert_eq!(
        found(&report, &a),
        pairs(&[("hidden_coupling", "include_reasoning")])
    );
    let help = &report.findings[0].help;
    assert!(
        help.contains("`detail_level`"),
        "the help names the parameter it depends on: {help}"
    );
    assert!(help.contains("split the tool"), "{help}");
}

#[test]
fn search_event_previews_passes() {
    let a = args(vec![
        param(
            "query",
            TypeClass::String,
            "Text to look for in event content (case-insensitive).",
        ),
        limit("limit", 10, 50, "Results per page."),
        cursor(),
        opt(
            "provider",
            enum_ty("Provider"),
            "Only events of this provider.",
        ),
        opt(
            "event_type",
            enum_ty("EventType"),
            "Only events of this type.",
        ),
        opt(
            "session_id",
            TypeClass::String,
            "Only events of this session (id or unique prefix).",
        ),
    ]);
    assert_clean(&check_args(&a));
    let t = tool(
        "search_event_previews",
        "Search event content across sessions and return ~300-character previews.\nUse `get_event_details` for the full payload of one hit.",
    );
    assert_clean(&check_tool(&Tool {
        output: OutputShape::Page,
        ..t
    }));
    assert_eq!(check_pagination(a.has_cursor(), OutputShape::Page), None);
}

#[test]
fn the_redesigned_session_tools_pass() {
    let session = || {
        param(
            "session_id",
            TypeClass::String,
            "Session id or a unique prefix of one.",
        )
    };
    let designs: Vec<(&str, Args, OutputShape)> = vec![
        (
            "get_event_details",
            args(vec![
                session(),
                param(
                    "event_index",
                    TypeClass::Integer,
                    "Index of the event in the session, from a search hit.",
                ),
                cursor(),
            ]),
            OutputShape::Page,
        ),
        (
            "get_session_summary",
            args(vec![session()]),
            OutputShape::Single,
        ),
        (
            "get_session_turns",
            args(vec![
                session(),
                limit("limit", 10, 50, "Turns per page."),
                cursor(),
            ]),
            OutputShape::Page,
        ),
        (
            "get_turn_steps",
            args(vec![
                session(),
                param(
                    "turn_index",
                    TypeClass::Integer,
                    "Index of the turn, from `get_session_turns`.",
                ),
                limit("limit", 20, 100, "Steps per page."),
                cursor(),
            ]),
            OutputShape::Page,
        ),
        (
            "get_session_full",
            args(vec![session(), cursor()]),
            OutputShape::Page,
        ),
        (
            "list_sessions",
            args(vec![
                opt(
                    "provider",
                    enum_ty("Provider"),
                    "Only sessions of this provider.",
                ),
                opt(
                    "project",
                    TypeClass::String,
                    "Only sessions of this project (name or root path).",
                ),
                opt(
                    "since",
                    TypeClass::String,
                    "Only sessions that started at or after this time (RFC 3339).",
                ),
                opt(
                    "until",
                    TypeClass::String,
                    "Only sessions that started before this time (RFC 3339).",
                ),
                opt(
                    "include_archived",
                    TypeClass::Bool,
                    "Also list archived sessions.",
                ),
                limit("limit", 20, 100, "Sessions per page."),
                cursor(),
            ]),
            OutputShape::Page,
        ),
    ];
    for (name, a, output) in designs {
        assert_clean(&check_args(&a));
        let t = Tool {
            output,
            ..tool(
                name,
                "Returns what its name says, in pages when it is long.",
            )
        };
        assert_clean(&check_tool(&t));
        assert_eq!(check_pagination(a.has_cursor(), output), None, "{name}");
    }
}
