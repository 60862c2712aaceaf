//! The runtime front-end on hand-written JSON Schemas in the shape schemars 1 produces.

mod common;

use common::*;
use mcp_tool_lint::schema::{args_from_schema, check_schema_tool, output_shape};
use mcp_tool_lint::*;
use serde_json::{Value, json};

fn read_only() -> Annotations {
    Annotations {
        read_only: true,
        ..Annotations::default()
    }
}

fn page_output(item: Value) -> Value {
    json!({
        "type": "object",
        "properties": {
            "data": {"type": "array", "items": item},
            "pagination": {"type": "object", "properties": {"next_cursor": {"type": ["string", "null"]}}}
        }
    })
}

/// `search_event_previews` as schemars writes it: `Option<Provider>` as `anyOf [$ref, null]`,
/// documented unit variants as `oneOf` of `const`s.
fn search_event_previews_input() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "SearchEventPreviewsArgs",
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "Text to look for in event content (case-insensitive)."},
            "limit": {"type": "integer", "format": "uint32", "minimum": 1, "maximum": 50, "default": 10, "description": "Results per page."},
            "cursor": {"type": ["string", "null"], "description": "`next_cursor` from the previous page; omit for the first page."},
            "provider": {"anyOf": [{"$ref": "#/$defs/Provider"}, {"type": "null"}], "description": "Only events of this provider."},
            "event_type": {"anyOf": [{"$ref": "#/$defs/EventType"}, {"type": "null"}], "description": "Only events of this type."},
            "session_id": {"type": ["string", "null"], "description": "Only events of this session."}
        },
        "required": ["query"],
        "$defs": {
            "Provider": {"oneOf": [
                {"type": "string", "const": "claude_code", "description": "Claude Code session logs."},
                {"type": "string", "const": "codex", "description": "Codex CLI session logs."},
                {"type": "string", "const": "gemini", "description": "Gemini CLI session logs."}
            ]},
            "EventType": {"oneOf": [
                {"type": "string", "const": "tool_call", "description": "A tool call by the model."},
                {"type": "string", "const": "tool_result", "description": "The result of a tool call."},
                {"type": "string", "const": "message", "description": "A message by the user or the model."}
            ]}
        }
    })
}

#[test]
fn the_model_is_built_from_schemars_output() {
    let a = args_from_schema(&search_event_previews_input());
    let by_name = |n: &str| a.params.iter().find(|p| p.name == n).unwrap();
    assert_eq!(a.params.len(), 6);
    assert!(by_name("query").required && by_name("query").ty == TypeClass::String);
    let limit = by_name("limit");
    assert_eq!(
        (
            limit.ty.clone(),
            limit.default.as_deref(),
            limit.max,
            limit.min
        ),
        (TypeClass::Integer, Some("10"), Some(50.0), Some(1.0))
    );
    assert!(!limit.required);
    assert_eq!(by_name("cursor").ty, TypeClass::Cursor);
    let TypeClass::Enum { variants } = &by_name("provider").ty else {
        panic!("{:?}", by_name("provider").ty)
    };
    assert_eq!(
        variants.iter().map(|v| v.name.as_str()).collect::<Vec<_>>(),
        ["claude_code", "codex", "gemini"]
    );
    assert!(variants.iter().all(|v| v.description.is_some()));
    assert_eq!(by_name("session_id").ty, TypeClass::String);
    assert!(!a.deny_unknown_fields && a.has_cursor());
}

#[test]
fn the_redesigned_tool_passes_at_runtime_too() {
    let r = check_schema_tool(
        "search_event_previews",
        Some("Search event content across sessions and return ~300-character previews."),
        read_only(),
        &search_event_previews_input(),
        Some(&page_output(json!({"$ref": "#/$defs/EventPreview"}))),
    );
    assert_clean(&r);
}

#[test]
fn the_before_design_warns_with_the_same_lints() {
    let input = json!({
        "type": "object",
        "properties": {
            "pattern": {"type": "string", "description": "Regex or text to search"},
            "limit": {"type": ["integer", "null"], "description": "Maximum results"},
            "provider": {"type": ["string", "null"], "description": "Filter by provider"},
            "event_type": {"type": ["string", "null"], "description": "Filter by event type (e.g. ToolCall, ToolResult, Message)"},
            "include_full_payload": {"type": ["boolean", "null"], "description": "Return the full payload instead of a preview"}
        },
        "required": ["pattern"],
        "additionalProperties": false
    });
    let r = check_schema_tool(
        "search_events",
        Some("Search events."),
        read_only(),
        &input,
        Some(&json!({"type": "object"})),
    );
    let mut lints = r.lints();
    lints.sort();
    // `provider`'s name alone is no evidence in another server's schema; the rest is, as
    // advice (below 90% precise on servers the rules were not tuned on).
    let mut expected = vec![
        Lint::VagueName,
        Lint::ClosedDomainString,
        Lint::ModeToggle,
        Lint::UnboundedLimit,
    ];
    expected.sort();
    assert_eq!(lints, expected, "{:#?}", r.findings);
    assert!(r.findings.iter().all(|f| f.level == Level::Advice));
}

#[test]
fn enum_variants_without_docs_are_left_to_the_values() {
    let input = json!({
        "type": "object",
        "properties": {
            "direction": {"$ref": "#/$defs/Direction", "description": "Sort direction."},
            "order": {"type": "string", "enum": ["asc", "desc"], "description": "Sort order."}
        },
        "required": ["direction", "order"],
        "$defs": {"Direction": {"oneOf": [
            {"type": "string", "const": "asc", "description": "Oldest first."},
            {"type": "string", "const": "desc"}
        ]}}
    });
    let r = check_schema_tool(
        "list_things",
        Some("Lists things."),
        read_only(),
        &input,
        None,
    );
    let messages: Vec<String> = r.findings.iter().map(Finding::render).collect();
    // In another server's schema, values name themselves or the parameter's doc explains
    // them: on real servers an undocumented value was almost never what misled a model.
    assert_eq!(r.lints(), vec![], "{messages:#?}");
}

#[test]
fn nested_properties_without_docs_warn_with_their_path() {
    let input = json!({
        "type": "object",
        "properties": {
            "filter": {"$ref": "#/$defs/Filter", "description": "Which sessions to list."}
        },
        "required": ["filter"],
        "$defs": {
            "Filter": {
                "type": "object",
                "properties": {
                    "since": {"type": "string", "description": "Start time (RFC 3339)."},
                    "until": {"type": "string"},
                    "tags": {"type": "array", "items": {"$ref": "#/$defs/Tag"}, "description": "Tags."},
                    "parent": {"anyOf": [{"$ref": "#/$defs/Filter"}, {"type": "null"}], "description": "Recursive."},
                    "kind": {"description": "Kind.", "oneOf": [{"const": "a", "description": "The first."}, {"const": "b"}]}
                }
            },
            "Tag": {"type": "object", "properties": {"label": {"type": "string"}}}
        }
    });
    let r = check_schema_tool(
        "list_sessions",
        Some("Lists sessions."),
        read_only(),
        &input,
        None,
    );
    let messages: Vec<&str> = r.findings.iter().map(|f| f.message.as_str()).collect();
    assert!(
        r.findings.iter().all(|f| f.target == Target::Param(0)),
        "{messages:#?}"
    );
    // A point in time whose format nothing states; a label says what it holds.
    assert_eq!(
        messages,
        [
            "`filter.until` is a point in time with no description: nothing says its format (ISO 8601? a relative date?)"
        ],
        "{messages:#?}"
    );
    // (The recursive `parent` is walked once: its findings are not repeated without end.)
}

#[test]
fn an_untagged_output_union_warns_and_tagged_ones_do_not() {
    // Both shapes require `text`: nothing present tells a hit from a miss.
    let defs = json!({
        "Hit": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
        "Miss": {"type": "object", "properties": {"text": {"type": "string"}, "reason": {"type": "string"}}, "required": ["text"]}
    });
    let untagged = json!({
        "type": "object",
        "properties": {"result": {"anyOf": [{"$ref": "#/$defs/Hit"}, {"$ref": "#/$defs/Miss"}]}},
        "$defs": defs
    });
    let input = json!({"type": "object", "properties": {}});
    let r = check_schema_tool(
        "get_result",
        Some("One result."),
        read_only(),
        &input,
        Some(&untagged),
    );
    assert_eq!(r.lints(), vec![Lint::HiddenCoupling]);
    assert_eq!(r.findings[0].target, Target::ToolOutput);
    assert!(
        r.findings[0].message.contains("`output.result`"),
        "{}",
        r.findings[0].message
    );
    assert!(
        r.findings[0].help.contains("#[serde(tag = "),
        "{}",
        r.findings[0].help
    );

    let internally_tagged = json!({"oneOf": [
        {"type": "object", "properties": {"kind": {"type": "string", "const": "hit"}, "text": {"type": "string"}}, "required": ["kind", "text"]},
        {"type": "object", "properties": {"kind": {"type": "string", "const": "miss"}, "reason": {"type": "string"}}, "required": ["kind", "reason"]}
    ]});
    let externally_tagged = json!({"oneOf": [
        {"type": "string", "const": "nothing"},
        {"type": "object", "properties": {"hit": {"type": "string"}}, "required": ["hit"], "additionalProperties": false},
        {"type": "object", "properties": {"miss": {"type": "string"}}, "required": ["miss"], "additionalProperties": false}
    ]});
    let option = json!({"anyOf": [{"type": "object", "properties": {"text": {"type": "string"}}}, {"type": "null"}]});
    for ok in [internally_tagged, externally_tagged, option] {
        let r = check_schema_tool(
            "get_result",
            Some("One result."),
            read_only(),
            &input,
            Some(&ok),
        );
        assert_clean(&r);
    }
}

#[test]
fn pagination_is_checked_from_the_output_schema() {
    let with_cursor = json!({"type": "object", "properties": {"cursor": {"type": ["string", "null"], "description": "From the previous page."}}});
    let without = json!({"type": "object", "properties": {}});
    let single = json!({"type": "object", "properties": {"id": {"type": "string"}}});
    let page = page_output(json!({"type": "string"}));
    assert_eq!(output_shape(Some(&page)), OutputShape::Page);
    assert_eq!(output_shape(Some(&single)), OutputShape::Single);
    assert_eq!(output_shape(None), OutputShape::Unknown);
    let run = |input: &Value, out: Option<&Value>| {
        check_schema_tool(
            "list_things",
            Some("Lists things."),
            read_only(),
            input,
            out,
        )
        .lints()
    };
    assert_eq!(
        run(&with_cursor, Some(&single)),
        vec![Lint::PaginationMismatch]
    );
    assert_eq!(run(&without, Some(&page)), vec![Lint::PaginationMismatch]);
    assert_eq!(run(&with_cursor, Some(&page)), vec![]);
    assert_eq!(run(&with_cursor, None), vec![]);
}

#[test]
fn tool_level_lints_run_on_foreign_tools() {
    let input = json!({"type": "object", "properties": {}});
    let annotations = Annotations {
        read_only: true,
        destructive: true,
        ..Annotations::default()
    };
    let r = check_schema_tool("get.weather", None, annotations, &input, None);
    let mut lints = r.lints();
    lints.sort();
    assert_eq!(
        lints,
        vec![
            Lint::MissingDescription,
            Lint::ToolName,
            Lint::AnnotationConflict
        ]
    );
}

/// The lints of a tool with this input schema, as `(lint, message)`.
fn findings_of(input: &Value) -> Vec<(Lint, String)> {
    check_schema_tool("get_thing", Some("Gets a thing."), read_only(), input, None)
        .findings
        .into_iter()
        .filter_map(|f| Some((f.lint?, f.message)))
        .collect()
}

#[test]
fn additional_properties_false_is_shown_strictness_not_false_strictness() {
    let input = json!({
        "type": "object",
        "properties": {"path": {"type": "string", "description": "File to read."}},
        "required": ["path"],
        "additionalProperties": false
    });
    assert_eq!(findings_of(&input), vec![]);
    assert!(!args_from_schema(&input).deny_unknown_fields);
}

#[test]
fn parameters_documented_where_the_schema_puts_it_are_described() {
    let input = json!({
        "type": "object",
        "properties": {
            // On the `$defs` entry the property refers to.
            "filter": {"$ref": "#/$defs/Filter"},
            // On the non-null alternative of an optional value.
            "since": {"anyOf": [{"type": "string", "description": "Start time (RFC 3339)."}, {"type": "null"}]},
            // On every branch of a union.
            "target": {"oneOf": [
                {"type": "string", "description": "One path."},
                {"type": "array", "items": {"type": "string"}, "description": "Several paths."}
            ]},
            // On the items of a list.
            "ids": {"type": "array", "items": {"type": "integer", "description": "A session id."}},
            // A title that says more than the name.
            "repo": {"type": "string", "title": "Path of the git working tree"}
        },
        "$defs": {"Filter": {
            "type": "object",
            "description": "Which sessions to keep.",
            "properties": {"tag": {"$ref": "#/$defs/Tag"}}
        }, "Tag": {"type": "string", "description": "A tag."}}
    });
    assert_eq!(findings_of(&input), vec![]);
    let args = args_from_schema(&input);
    let doc = |n: &str| {
        args.params
            .iter()
            .find(|p| p.name == n)
            .and_then(|p| p.description.clone())
    };
    assert_eq!(doc("filter").as_deref(), Some("Which sessions to keep."));
    assert_eq!(
        doc("target").as_deref(),
        Some("One path. Or: Several paths.")
    );
}

#[test]
fn a_title_that_only_recases_the_name_is_no_description() {
    let input = json!({
        "type": "object",
        "properties": {
            "repo_path": {"type": "string", "title": "Repo Path"},
            "maxCount": {"type": "integer", "title": "Max count", "maximum": 50}
        }
    });
    let messages: Vec<String> = findings_of(&input).into_iter().map(|(_, m)| m).collect();
    // Undocumented, but the names say what they hold: nothing to guess.
    assert_eq!(messages, Vec::<String>::new());
    let untitled = json!({
        "type": "object",
        "properties": {"maxAge": {"type": "integer", "title": "Max Age"}}
    });
    let messages: Vec<String> = findings_of(&untitled).into_iter().map(|(_, m)| m).collect();
    assert_eq!(
        messages,
        ["`maxAge` is a span of time with no unit and no description: milliseconds? seconds?"]
    );
}

#[test]
fn branches_keyed_by_a_required_property_are_discriminated() {
    let input = json!({
        "type": "object",
        "properties": {"parent": {"description": "Where the page goes.", "oneOf": [
            {"type": "object", "properties": {"page_id": {"type": "string", "description": "Page."}}, "required": ["page_id"]},
            {"type": "object", "properties": {"database_id": {"type": "string", "description": "Database."}}, "required": ["database_id"]}
        ]}},
        "required": ["parent"]
    });
    assert_eq!(findings_of(&input), vec![]);
}

/// An object with an empty `properties` map is as free as one without: beside one shaped
/// branch (a MongoDB pipeline stage: `$vectorSearch`, or any other stage), there is only one
/// shape to tell apart. Two shaped branches beside it still need a tag.
#[test]
fn a_free_object_with_empty_properties_is_no_shape_to_tell_apart() {
    let stage = |extra: serde_json::Value| {
        let mut branches = vec![
            json!({"type": "object", "properties": {"$vectorSearch": {"type": "object", "description": "The search."}}}),
            json!({"type": "object", "properties": {}, "additionalProperties": {}}),
        ];
        if !extra.is_null() {
            branches.push(extra);
        }
        json!({
            "type": "object",
            "properties": {"pipeline": {"type": "array", "description": "Aggregation stages.",
                "items": {"anyOf": branches}}},
            "required": ["pipeline"]
        })
    };
    assert_eq!(findings_of(&stage(serde_json::Value::Null)), vec![]);
    let two_shapes = stage(json!({"type": "object", "properties": {
        "$search": {"type": "object", "description": "The text search."}}}));
    let messages: Vec<String> = findings_of(&two_shapes)
        .into_iter()
        .map(|(_, m)| m)
        .collect();
    assert_eq!(
        messages,
        [
            "the argument `pipeline[]` is one of 3 shapes (`anyOf`) with no field saying which (an untagged enum): which fields mean anything depends on a shape nothing names"
        ]
    );
}

/// Unions a value's own structure tells apart need no tag: coordinate lists nested one level
/// deeper each (GeoJSON), alternatives of one scalar type, a branch that takes anything. Two
/// object shapes still do.
#[test]
fn unions_told_apart_by_structure_need_no_tag() {
    let position =
        json!({"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2});
    let union_of = |branches: serde_json::Value| {
        json!({
            "type": "object",
            "properties": {"geometry": {"description": "A point, a line or a polygon.", "anyOf": branches}},
            "required": ["geometry"]
        })
    };
    let geometry = union_of(json!([
        position,
        {"type": "array", "items": position},
        {"type": "array", "items": {"type": "array", "items": position}}
    ]));
    assert_eq!(findings_of(&geometry), vec![]);
    let refs = union_of(
        json!([{"type": "string", "description": "A branch."}, {"type": "string", "description": "Any ref."}]),
    );
    assert_eq!(findings_of(&refs), vec![]);
    let anything = union_of(json!([{"type": "string"}, {}]));
    assert_eq!(findings_of(&anything), vec![]);
    let objects = union_of(json!([
        {"type": "object", "properties": {"lat": {"type": "number", "description": "Latitude."}}},
        {"type": "object", "properties": {"city": {"type": "string", "description": "A city."}}}
    ]));
    let messages: Vec<String> = findings_of(&objects).into_iter().map(|(_, m)| m).collect();
    assert_eq!(
        messages,
        [
            "the argument `geometry` is one of 2 shapes (`anyOf`) with no field saying which (an untagged enum): which fields mean anything depends on a shape nothing names"
        ]
    );
}

/// Of `r`'s `vague_name` findings, there is one: on `options`.
fn assert_only_options_is_vague(r: &mcp_tool_lint::Report) {
    let vague: Vec<&str> = r
        .findings
        .iter()
        .filter(|f| f.lint == Some(Lint::VagueName))
        .map(|f| f.message.as_str())
        .collect();
    assert_eq!(
        vague,
        ["`options` names how the implementation uses the value, not what the value is"]
    );
}

/// An object parameter that lists its fields shows what it holds, whatever its name.
#[test]
fn a_vague_wrapper_that_lists_its_fields_passes_on_a_schema() {
    let input = json!({
        "type": "object",
        "properties": {
            "params": {"type": "object", "properties": {
                "projectSlug": {"type": "string", "description": "The project, as `gh/org/name`."}}},
            "options": {"type": "object"}
        }
    });
    let r = check_schema_tool(
        "get_pipeline",
        Some("Gets a pipeline."),
        read_only(),
        &input,
        None,
    );
    assert_only_options_is_vague(&r);
}

/// On another server's schema a vague name with a description of its own passes; without
/// one it is reported.
#[test]
fn a_vague_name_that_describes_itself_passes_on_a_schema() {
    let input = json!({
        "type": "object",
        "properties": {
            "data": {"type": "array", "items": {"type": "number"}, "description": "The values to plot, in order."},
            "options": {"type": "string"}
        },
        "required": ["data"]
    });
    let r = check_schema_tool(
        "plot_line",
        Some("Plots a line chart."),
        read_only(),
        &input,
        None,
    );
    assert_only_options_is_vague(&r);
}

/// A nested field an enclosing description shows as a key (an example object) is documented
/// there; a bare word of the prose is not.
#[test]
fn a_field_an_enclosing_description_shows_as_a_key_is_documented() {
    let chart = |doc: &str| {
        json!({
            "type": "object",
            "properties": {"rows": {"type": "array", "description": doc,
                "items": {"type": "object", "properties": {
                    "category": {"type": "string"}, "value": {"type": "number"}}}}},
            "required": ["rows"]
        })
    };
    let shown = chart("Chart rows, such as [{ category: 'A', value: 10 }].");
    assert_eq!(findings_of(&shown), vec![]);
    let prose = chart("Chart rows: each has a category and the value to plot.");
    let messages: Vec<String> = findings_of(&prose).into_iter().map(|(_, m)| m).collect();
    assert_eq!(
        messages,
        ["`rows[].value` has no description, and its name does not say what it holds"]
    );
}

#[test]
fn names_that_say_what_they_hold_need_no_description() {
    let input = json!({
        "type": "object",
        "properties": {
            "repo_path": {"type": "string"},
            "context_lines": {"type": "integer", "default": 3},
            "target": {"type": "string"},
            "base_branch": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null}
        },
        "required": ["repo_path", "target"]
    });
    let messages: Vec<String> = findings_of(&input).into_iter().map(|(_, m)| m).collect();
    assert_eq!(
        messages,
        ["`target` has no description, and its name does not say what it holds"]
    );
}

#[test]
fn plain_enum_values_named_in_the_description_are_documented() {
    let input = json!({
        "type": "object",
        "properties": {
            "scale": {"type": "string", "enum": ["css", "device"],
                "description": "\"css\" keeps CSS pixels; \"device\" uses device pixels."},
            "format": {"type": "string", "enum": ["png", "jpeg"], "description": "Image format, png unless set."},
            "keys": {"type": "array", "items": {"enum": ["Alt", "Shift"]}, "description": "Hold Alt or Shift."}
        }
    });
    // `format`'s doc names `png` (its default) and not `jpeg`: a plain list whose values say
    // what they are, not a value forgotten next to documented ones.
    assert_eq!(findings_of(&input), vec![]);
    let own_docs = json!({
        "type": "object",
        "properties": {"format": {"description": "Image format.", "oneOf": [
            {"const": "png", "description": "Lossless."},
            {"const": "jpeg"}
        ]}}
    });
    assert_eq!(findings_of(&own_docs), vec![]);
}

#[test]
fn a_union_tagged_by_disjoint_enum_values_is_discriminated() {
    let output = json!({
        "type": "object",
        "properties": {"content": {"type": "array", "items": {"anyOf": [
            {"type": "object", "properties": {"type": {"enum": ["image", "audio"]}, "data": {"type": "string"}}},
            {"type": "object", "properties": {"type": {"const": "resource"}, "uri": {"type": "string"}}}
        ]}}}
    });
    let r = check_schema_tool(
        "read_media",
        Some("Reads media."),
        read_only(),
        &json!({"type": "object"}),
        Some(&output),
    );
    assert_eq!(r.lints(), vec![]);
    let overlapping = json!({"anyOf": [
        {"type": "object", "properties": {"type": {"enum": ["image", "audio"]}}},
        {"type": "object", "properties": {"type": {"enum": ["audio", "video"]}}}
    ]});
    let r = check_schema_tool(
        "read_media",
        Some("Reads media."),
        read_only(),
        &json!({"type": "object"}),
        Some(&overlapping),
    );
    assert_eq!(r.lints(), vec![Lint::HiddenCoupling]);
}

#[test]
fn a_page_size_beside_a_page_is_left_to_the_api() {
    let lints = |extra: serde_json::Value| {
        let mut props =
            json!({"per_page": {"type": "integer", "description": "Results per page."}});
        props
            .as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        let input = json!({"type": "object", "properties": props});
        check_schema_tool(
            "list_issues",
            Some("Lists issues."),
            read_only(),
            &input,
            None,
        )
        .lints()
    };
    // Alone, the size is the whole answer; beside a page number or a page token, an API that
    // pages serves one capped page. A line offset is no page.
    assert_eq!(lints(json!({})), vec![Lint::UnboundedLimit]);
    assert_eq!(
        lints(json!({"offset": {"type": "integer", "description": "First line."}})),
        vec![Lint::UnboundedLimit]
    );
    assert_eq!(
        lints(json!({"page": {"type": "integer", "description": "Page number."}})),
        vec![]
    );
    assert_eq!(
        lints(json!({"start_cursor": {"type": "string", "description": "From a previous page."}})),
        vec![]
    );
}

#[test]
fn objects_whose_kind_picks_their_fields_need_a_description() {
    let action = json!({"type": "object", "required": ["type"], "properties": {
        "type": {"type": "string", "enum": ["click", "scroll", "press", "wait"]},
        "selector": {"type": "string"},
        "direction": {"type": "string", "enum": ["up", "down"]},
        "key": {"type": "string"},
        "milliseconds": {"type": "number"}
    }});
    let findings = |actions: serde_json::Value| {
        let input = json!({"type": "object", "properties": {"actions": actions}});
        check_schema_tool(
            "scrape_page",
            Some("Scrapes a page."),
            read_only(),
            &input,
            None,
        )
        .findings
        .into_iter()
        .map(|f| f.message)
        .collect::<Vec<_>>()
    };
    assert_eq!(
        findings(json!({"type": "array", "items": action.clone()})),
        vec![
            "`actions` takes objects whose `type` is one of 4 kinds, with 4 optional fields and no description: nothing says which fields go with which `type`"
        ]
    );
    // A description on the list, or on its fields, says it.
    assert_eq!(
        findings(
            json!({"type": "array", "items": action.clone(), "description": "Steps; `selector` for click, `key` for press."})
        ),
        Vec::<String>::new()
    );
    let mut described = action;
    described["properties"]["key"]["description"] = json!("The key, for `press`.");
    assert_eq!(
        findings(json!({"type": "array", "items": described})),
        Vec::<String>::new()
    );
}
