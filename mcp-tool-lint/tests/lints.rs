//! Each lint on designs that must trip it and on near misses that must not.

mod common;

use common::*;
use mcp_tool_lint::*;

fn one(p: Param) -> Vec<String> {
    check_args(&args(vec![p]))
        .lints()
        .iter()
        .map(|l| l.name().to_string())
        .collect()
}

fn fires(p: Param, lint: &str) {
    let doc = p.description.clone();
    let got = one(p.clone());
    assert!(
        got.iter().any(|l| l == lint),
        "{lint} should fire on `{}` ({doc:?}), got {got:?}",
        p.name
    );
}

fn silent(p: Param) {
    let got = one(p.clone());
    assert!(
        got.is_empty(),
        "nothing should fire on `{}` ({:?}), got {got:?}",
        p.name,
        p.description
    );
}

#[test]
fn lint_names_round_trip_and_are_unique() {
    for lint in Lint::ALL {
        assert_eq!(Lint::from_name(lint.name()), Some(lint));
    }
    let mut names: Vec<_> = Lint::ALL.iter().map(|l| l.name()).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), Lint::ALL.len());
    assert_eq!(Lint::from_name("closed-domain-string"), None);
}

#[test]
fn too_many_params_fires_above_eight() {
    let make = |n: usize| {
        args(
            (0..n)
                .map(|i| param(&format!("field_{i}"), TypeClass::Integer, "A number."))
                .collect(),
        )
    };
    assert_eq!(check_args(&make(8)).lints(), vec![]);
    assert_eq!(check_args(&make(9)).lints(), vec![Lint::TooManyParams]);
    let f = &check_args(&make(9)).findings[0];
    assert_eq!(f.target, Target::Args);
    assert!(f.message.contains("9 parameters"), "{}", f.message);
}

#[test]
fn closed_domain_string_by_name_alone_only_for_names_that_cannot_be_open() {
    for name in [
        "direction",
        "sort_direction",
        "sort_order",
        "order",
        "visibility",
        "verbosity",
        "granularity",
        "severity",
        "priority",
        "log_level",
        "priorities",
        "provider",
        "model_provider",
    ] {
        fires(
            opt(name, TypeClass::String, "Only these."),
            "closed_domain_string",
        );
    }
    fires(
        opt(
            "severities",
            TypeClass::Array(Box::new(TypeClass::String)),
            "Only these.",
        ),
        "closed_domain_string",
    );
}

#[test]
fn closed_sounding_names_need_the_doc_to_show_the_set() {
    // Each of these takes open values in some real tool: an issue type defined per
    // organisation, a pandoc format, a model id, a Slack channel, a sortable column.
    for name in [
        "type",
        "kind",
        "status",
        "state",
        "mode",
        "format",
        "language",
        "model",
        "event_type",
        "channel",
        "platform",
        "sort",
        "sort_by",
        "statuses",
    ] {
        silent(opt(name, TypeClass::String, "Only these."));
        fires(
            opt(name, TypeClass::String, "One of: alpha, beta, gamma."),
            "closed_domain_string",
        );
    }
    // Quoted values spread through the doc, or one said to be the only one.
    fires(
        opt(
            "branch_type",
            TypeClass::String,
            "Whether to list local branches ('local'), remote branches ('remote') or all branches ('all').",
        ),
        "closed_domain_string",
    );
    fires(
        opt("sort", TypeClass::String, "Sort field ('indexed' only)."),
        "closed_domain_string",
    );
    // A name that cannot be open still yields to a doc saying the string holds JSON: that
    // is `json_string`'s finding, not a closed set.
    assert_eq!(
        one(opt(
            "visibility",
            TypeClass::String,
            "Comment visibility as a JSON string (e.g. '{\"type\":\"group\"}').",
        )),
        vec!["json_string"]
    );
    // Examples spelled like enum variants are evidence enough next to such a name.
    fires(
        opt(
            "event_type",
            TypeClass::String,
            "Filter by event type (e.g. ToolCall, ToolResult, Message)",
        ),
        "closed_domain_string",
    );
}

#[test]
fn closed_domain_string_ignores_open_names_and_non_strings() {
    for name in [
        "path",
        "message",
        "title",
        "name",
        "query",
        "since",
        "session_id",
        "project",
        "text",
        "until",
        "mime_type",
        "content_type",
        "type_name",
        "status_message",
        "model",
        "branch",
    ] {
        silent(opt(
            name,
            TypeClass::String,
            "A value the tool uses as given.",
        ));
    }
    silent(opt("direction", enum_ty("Direction"), "Sort direction."));
    silent(opt("priority", TypeClass::Integer, "1 is the highest."));
}

#[test]
fn closed_domain_string_by_documented_values() {
    for doc in [
        "Sort order, one of 'asc', 'desc'.",
        "One of: asc, desc.",
        "Either `asc`|`desc`.",
        "`asc`|`desc`",
        "asc|desc",
        "auto|on|circulate",
        "Where to look: titles, bodies or comments.",
        "Sort direction (asc, desc).",
        "'newest' (default) or 'oldest'.",
        "Can be json or text.",
        "Accepted values: \"small\", \"medium\", \"large\".",
        "Either 'a' / 'b'.",
        // Phrasings from the corpus: a slash list, "Allowed values are", "Pick from", a doc
        // that is only the list.
        "low / normal / high / critical",
        "Access to grant. Allowed values are viewer, commenter and editor.",
        "Pick from: overdue, today, this_week, later.",
        "metric or imperial (anything else is rejected)",
        "Destination. Must be INBOX, SPAM, TRASH or ARCHIVE.",
        "Supported: csv, tsv, parquet.",
    ] {
        fires(
            opt("ordering", TypeClass::String, doc),
            "closed_domain_string",
        );
    }
}

#[test]
fn closed_domain_string_ignores_examples_prose_and_field_references() {
    for doc in [
        "Text to look for in event content (case-insensitive).",
        "`next_cursor` from the previous page; omit for the first page.",
        "Results per page.",
        "Only events of this provider.",
        "Only sessions that started at or after this time (RFC 3339).",
        "Session id or a unique prefix of one.",
        "Path of the file, e.g. src/lib.rs or docs/lints.md.",
        "Project name, e.g. agtrace or mcp-tool.",
        "The user's display name, as shown in 'Settings'.",
        "A glob such as **/*.rs.",
        "Commit message; it's used as given.",
        "Read and/or write.",
        "Mentions `other_field` or `another_field` in passing.",
        // Examples of an open set, however many and however quoted.
        "Only snippets in this language, e.g. rust, python, typescript, go.",
        "Target format as a pandoc writer name, such as docx, odt, epub or html.",
        "Model id, e.g. gpt-4.1 or claude-sonnet-4-5.",
        "Text shown next to the user's name, such as 'In a meeting' or 'Back at 3'.",
        "Relative dates (e.g., '2 weeks ago', 'yesterday') or ISO 8601.",
        "Filter by `source` (common values include 'edge_logs', 'postgres_logs').",
        "Time period hint: 1h, 24h, 7d, 14d, 30d, etc.",
        "Filter by event type (e.g. ToolCall, ToolResult, Message)",
        // A disjunction in prose is not a list of values.
        "Repository owner (username or organization)",
        "Commit SHA, branch or tag name to list commits of.",
        "Assignee's identifier (string): Email, display name, or account ID.",
    ] {
        let a = args(vec![
            opt("subject", TypeClass::String, doc),
            opt("other_field", TypeClass::Integer, "Another."),
            opt("another_field", TypeClass::Integer, "Another."),
        ]);
        let report = check_args(&a);
        assert_clean(&report);
    }
    // A choice between two fields is no list of values; it is a coupling of the two.
    let a = args(vec![
        opt(
            "subject",
            TypeClass::String,
            "Either this or `other_field`.",
        ),
        opt("other_field", TypeClass::Integer, "Another."),
    ]);
    assert_eq!(check_args(&a).lints(), vec![Lint::HiddenCoupling]);
}

#[test]
fn hidden_coupling_phrases() {
    for doc in [
        "Include reasoning blocks (only applies to 'turns' level)",
        "WARNING: Only valid when detail_level='turns'. Ignored otherwise.",
        "Page size; only applies when paginating.",
        "Ignored unless a session is given.",
        "Maximum depth. Ignored otherwise.",
        "Requires `detail_level`.",
        "Used when detail_level is turns.",
        "Only used if detail_level is set.",
        "Only used with detail_level.",
        "Mutually exclusive with detail_level.",
        "Has no effect unless detail_level is given.",
        "Indent width for detail_level=\"json\".",
        // Said other ways.
        "Must accompany `detail_level`; sending one without the other is rejected.",
        "Set exactly one of indent and detail_level.",
        "Provide either indent or detail_level, not both.",
        "Mandatory when the two accounts' currencies differ.",
        "Needed whenever detail_level is present.",
        "If provided with detail_level, only indents those.",
        "Must be set together with detail_level.",
        "Applies when detail_level is given.",
        "Has no effect if detail_level is summary.",
    ] {
        let a = args(vec![
            opt(
                "detail_level",
                enum_ty("DetailLevel"),
                "How much to return.",
            ),
            opt("indent", TypeClass::Integer, doc),
        ]);
        let lints = check_args(&a).lints();
        assert_eq!(lints, vec![Lint::HiddenCoupling], "on {doc:?}");
    }
}

#[test]
fn hidden_coupling_needs_a_real_dependency() {
    for doc in [
        "Text to look for in event content (case-insensitive).",
        "`next_cursor` from the previous page; omit for the first page.",
        "Results per page.",
        "Only events of this provider.",
        "Only sessions that started at or after this time (RFC 3339).",
        "Case is ignored.",
        "Requires no authentication.",
        "When omitted, all sessions are listed.",
        "Only events that happened when the tool failed.",
        // A condition word far from the sibling's name is not a condition on it.
        "Use this when you only need a few fields, for example just 'provider'.",
        "Required for private repositories.",
        "If you later need other provider data, call another tool.",
    ] {
        let a = args(vec![
            opt("provider", enum_ty("Provider"), "Only this provider."),
            opt("subject", TypeClass::String, doc),
        ]);
        assert_clean(&check_args(&a));
    }
}

#[test]
fn mode_toggle_names_the_response_shape() {
    for name in [
        "include_full_payload",
        "verbose",
        "full",
        "raw",
        "detailed",
        "include_raw_events",
        "include_payloads",
        "expand_children",
        "as_markdown",
        "compact",
        "return_full_text",
    ] {
        fires(
            opt(name, TypeClass::Bool, "Changes the output."),
            "mode_toggle",
        );
    }
    for name in [
        "include_archived",
        "include_reasoning",
        "case_sensitive",
        "only_failed",
        "has_full_payload",
        "recursive",
        "dry_run",
    ] {
        silent(opt(name, TypeClass::Bool, "Changes what is returned."));
    }
    // Shape words only matter on bools: an enum is the fix, a string is another lint.
    silent(opt(
        "verbosity_choice",
        enum_ty("Verbosity"),
        "How much to say.",
    ));
}

#[test]
fn missing_description_on_params_and_tools() {
    // The author's own fields each need a doc (another server's schema is judged by what its
    // structure leaves open: `schema.rs` tests), however clear the name.
    fires(
        Param::new("query", TypeClass::String),
        "missing_description",
    );
    fires(
        Param::new("repo_path", TypeClass::String),
        "missing_description",
    );
    fires(
        Param::new("target", TypeClass::String),
        "missing_description",
    );
    fires(
        Param {
            required: false,
            ..Param::new("since", TypeClass::String)
        },
        "missing_description",
    );
    fires(
        param("resourceType", TypeClass::String, "   \n "),
        "missing_description",
    );
    let documented_values = TypeClass::Enum {
        variants: vec![
            Variant {
                name: "asc".into(),
                description: Some("Oldest first.".into()),
            },
            Variant {
                name: "desc".into(),
                description: None,
            },
        ],
    };
    let r = check_args(&args(vec![opt(
        "direction",
        documented_values,
        "Sort direction.",
    )]));
    assert_eq!(r.lints(), vec![Lint::MissingDescription]);
    assert!(
        r.findings[0].message.contains("`desc`"),
        "{}",
        r.findings[0].message
    );

    let t = Tool::new("get_session_summary", None);
    assert_eq!(check_tool(&t).lints(), vec![Lint::MissingDescription]);
    assert_eq!(
        check_tool(&Tool::new("get_session_summary", Some(" "))).findings[0].target,
        Target::ToolDescription
    );
    assert_clean(&check_tool(&Tool::new(
        "get_session_summary",
        Some("One session at a glance."),
    )));
}

#[test]
fn implicit_default() {
    fires(
        Param {
            serde_default: true,
            ..opt("limit_hint", TypeClass::Integer, "How many.")
        },
        "implicit_default",
    );
    for doc in [
        "Results per page; defaults to 20.",
        "Results per page (default: 20).",
        "Results per page, default 20.",
        "Default is 20.",
        "Results per page. Default = 20.",
        "Sort order: 'newest' (default) or 'oldest'.",
    ] {
        fires(opt("take_n", TypeClass::Integer, doc), "implicit_default");
    }
    let r = check_args(&args(vec![opt(
        "page_hint",
        TypeClass::Integer,
        "Results per page; defaults to 20.",
    )]));
    assert!(
        r.findings[0].help.contains("#[arg(default = 20)]"),
        "{}",
        r.findings[0].help
    );

    silent(Param {
        default: Some("20".into()),
        ..opt(
            "page_hint",
            TypeClass::Integer,
            "Results per page; defaults to 20.",
        )
    });
    silent(Param {
        serde_default: true,
        default: Some("20".into()),
        ..opt("page_hint", TypeClass::Integer, "Results.")
    });
    silent(opt(
        "page_hint",
        TypeClass::Integer,
        "Use the default profile.",
    ));
    silent(opt("page_hint", TypeClass::Integer, "Hidden by default."));
}

#[test]
fn unbounded_limit() {
    for name in [
        "limit",
        "page_size",
        "per_page",
        "max_results",
        "count",
        "top_k",
        "max_items",
        "result_limit",
    ] {
        fires(
            Param {
                default: Some("10".into()),
                ..opt(name, TypeClass::Integer, "Results per page.")
            },
            "unbounded_limit",
        );
    }
    silent(limit("limit", 10, 50, "Results per page."));
    silent(opt("turn_index", TypeClass::Integer, "Index of the turn."));
    silent(opt("timeout_secs", TypeClass::Integer, "Seconds to wait."));
}

#[test]
fn pagination_mismatch_both_ways() {
    let cursor_only = check_pagination(true, OutputShape::Single).unwrap();
    assert_eq!(cursor_only.lint, Some(Lint::PaginationMismatch));
    assert!(
        cursor_only
            .render()
            .starts_with("[pagination_mismatch] the arguments take a `cursor`")
    );
    assert!(cursor_only.help.contains("Page<T>"));
    let page_only = check_pagination(false, OutputShape::Page).unwrap();
    assert!(
        page_only.message.contains("no `cursor`"),
        "{}",
        page_only.message
    );
    assert_eq!(check_pagination(true, OutputShape::Page), None);
    assert_eq!(check_pagination(false, OutputShape::Single), None);
    assert_eq!(check_pagination(true, OutputShape::Unknown), None);
    assert!(args(vec![cursor()]).has_cursor());
    assert!(
        args(vec![opt(
            "cursor",
            TypeClass::String,
            "From the previous page."
        )])
        .has_cursor()
    );
    assert!(!args(vec![opt("query", TypeClass::String, "Text.")]).has_cursor());
}

#[test]
fn vague_param_names() {
    for name in [
        "pattern", "data", "input", "value", "flag", "params", "args", "options", "obj", "item",
        "info", "payload", "json", "str", "s", "x", "val", "data2",
    ] {
        fires(opt(name, TypeClass::Integer, "Something."), "vague_name");
    }
    let r = check_args(&args(vec![param(
        "pattern",
        TypeClass::String,
        "Regex or text to search",
    )]));
    assert!(
        r.findings[0].help.contains("`query`"),
        "{}",
        r.findings[0].help
    );
    // Made precise by their context.
    assert_clean(&check_args(&args(vec![
        param("name", TypeClass::String, "Variable name."),
        param(
            "value",
            TypeClass::String,
            "Value to assign to the variable.",
        ),
    ])));
    assert_clean(&check_args(&args(vec![
        param("x", TypeClass::Number, "Horizontal position in pixels."),
        param("y", TypeClass::Number, "Vertical position in pixels."),
    ])));
    silent(param(
        "pattern",
        TypeClass::String,
        "Regular expression (Rust regex syntax) to look for in each line.",
    ));
    fires(
        param("pattern", TypeClass::String, "Regex or glob to match."),
        "vague_name",
    );
    for name in [
        "query",
        "file_pattern_glob",
        "input_path",
        "config",
        "text",
        "payload_id",
    ] {
        silent(opt(name, TypeClass::Integer, "Something."));
    }
}

#[test]
fn vague_tool_names() {
    for name in [
        "do_it",
        "handle",
        "process",
        "run",
        "execute",
        "manage",
        "tool",
        "helper",
        "misc",
        "process_data",
        "run_tool",
        "handle_request",
    ] {
        let r = check_tool(&tool(name, "Does things."));
        assert!(
            r.lints().contains(&Lint::VagueName),
            "{name}: {:?}",
            r.lints()
        );
    }
    for name in [
        "run_tests",
        "search_event_previews",
        "process_payment_refund",
        "execute_sql_query",
    ] {
        let r = check_tool(&Tool {
            annotations: Annotations::default(),
            ..tool(name, "Does a thing.")
        });
        assert!(
            !r.lints().contains(&Lint::VagueName),
            "{name}: {:?}",
            r.lints()
        );
    }
}

#[test]
fn tool_name_syntax_and_meaning() {
    // Upper case is sound on the wire: another server's name passes, the author's own is
    // held to lowercase snake_case, verb first.
    let schema_tool = |name: &str| Tool {
        origin: Origin::Schema,
        ..tool(name, "Does a thing.")
    };
    for name in [
        "Search",
        "searchEvents",
        "API-post-search",
        "getUser",
        "browser_navigate",
        "issue_read",
        "get-sum",
        "hset",
        "lpush",
        "jira_issue",
    ] {
        let r = check_tool(&schema_tool(name));
        assert!(!r.lints().contains(&Lint::ToolName), "{name:?}");
        let r = check_tool(&tool(name, "Does a thing."));
        assert!(r.lints().contains(&Lint::ToolName), "{name:?}");
    }
    for name in [
        "_get",
        "9get",
        "get events",
        "files.read",
        "tools:search",
        "jira/create_issue",
        "créer_fichier",
        "",
        &"get_x".repeat(20),
    ] {
        let r = check_tool(&tool(name, "Does a thing."));
        assert!(
            r.lints().contains(&Lint::ToolName),
            "{name:?}: {:?}",
            r.lints()
        );
    }
    let r = check_tool(&tool("search.events", "Does a thing."));
    assert!(
        r.findings[0].help.contains("`search_events`"),
        "{}",
        r.findings[0].help
    );
    let r = check_tool(&tool("jira_issue", "Does a thing."));
    assert_eq!(r.lints(), vec![Lint::ToolName]);
    assert!(
        r.findings[0].help.contains("`get_jira_issue`"),
        "{}",
        r.findings[0].help
    );
    for name in [
        "get_session_summary",
        "list_sessions",
        "search_event_previews",
        "analyze_session",
        "find_x",
        "summarize_turn",
        "validate_config",
        "fetch_url",
        "check_links",
        "compute_stats",
        // A namespace first, the verb after it.
        "github_create_issue",
        "slack_post_message",
        // No verb, but the last word says what the answer is.
        "git_status",
        "directory_tree",
        "session_summary",
        // Verbs known by their shape rather than a list.
        "reindex_documents",
        "vectorize_text",
        &format!("get_{}", "x".repeat(60)),
    ] {
        let r = check_tool(&tool(name, "Does a thing."));
        assert!(
            !r.lints().contains(&Lint::ToolName),
            "{name}: {:?}",
            r.lints()
        );
    }
}

#[test]
fn annotation_conflicts() {
    let with = |name: &str, read_only, destructive, idempotent| {
        let annotations = Annotations {
            read_only,
            destructive,
            idempotent,
            open_world: false,
        };
        check_tool(&Tool {
            annotations,
            ..Tool::new(name, Some("Does a thing."))
        })
        .lints()
    };
    assert_eq!(
        with("get_thing", true, true, false),
        vec![Lint::AnnotationConflict]
    );
    assert_eq!(
        with("delete_session", true, false, false),
        vec![Lint::AnnotationConflict]
    );
    assert_eq!(
        with("create_issue", true, false, true),
        vec![Lint::AnnotationConflict]
    );
    assert_eq!(
        with("get_thing", false, true, false),
        vec![Lint::AnnotationConflict]
    );
    // Read-only implies idempotent; destructive and idempotent go together (delete by id).
    assert_eq!(with("get_thing", true, false, true), vec![]);
    assert_eq!(with("delete_session", false, true, true), vec![]);
    assert_eq!(with("run_tests", true, false, false), vec![]);
    assert_eq!(with("create_issue", false, false, false), vec![]);
    // The verb after a namespace or an object.
    assert_eq!(
        with("github_delete_issue", true, false, false),
        vec![Lint::AnnotationConflict]
    );
    assert!(with("issue_read", false, true, false).contains(&Lint::AnnotationConflict));
    assert!(!with("issue_read", true, false, false).contains(&Lint::AnnotationConflict));
}

#[test]
fn false_strictness() {
    let a = Args {
        deny_unknown_fields: true,
        ..args(vec![param("query", TypeClass::String, "Text.")])
    };
    let r = check_args(&a);
    assert_eq!(r.lints(), vec![Lint::FalseStrictness]);
    assert_eq!(r.findings[0].target, Target::Args);
    assert!(r.findings[0].help.contains("deny_unknown_fields"));
}

#[test]
fn description_budget() {
    let long = "Returns one session. ".repeat(60);
    let r = check_tool(&tool("get_session", &long));
    assert_eq!(r.lints(), vec![Lint::DescriptionBudget]);
    assert!(
        r.findings[0].message.contains("over its budget of 250"),
        "{}",
        r.findings[0].message
    );
    assert_clean(&check_tool(&tool(
        "get_session",
        &"x".repeat(DEFAULT_DESCRIPTION_BUDGET * 4),
    )));
    assert_eq!(
        check_tool(&tool(
            "get_session",
            &"x".repeat(DEFAULT_DESCRIPTION_BUDGET * 4 + 1)
        ))
        .lints(),
        vec![Lint::DescriptionBudget]
    );
    assert_clean(&check_tool_with_budget(&tool("get_session", &long), 1000));
    assert_eq!(
        check_tool_with_budget(&tool("get_session", "Twelve chars"), 2).lints(),
        vec![Lint::DescriptionBudget]
    );
    assert_eq!(estimate_tokens("abcd"), 1);
    assert_eq!(estimate_tokens("abcde"), 2);
}

#[test]
fn all_violations_of_an_item_are_reported_together() {
    let a = Args {
        deny_unknown_fields: true,
        ..args(vec![
            Param::new("data", TypeClass::String),
            opt("visibility", TypeClass::String, "Who sees the job."),
            opt("verbose", TypeClass::Bool, "More output."),
        ])
    };
    let r = check_args(&a);
    assert_eq!(
        r.lints(),
        vec![
            Lint::MissingDescription,
            Lint::VagueName,
            Lint::ClosedDomainString,
            Lint::ModeToggle,
            Lint::FalseStrictness
        ]
    );
}

#[test]
fn render_puts_the_lint_name_first_and_help_last() {
    let r = check_args(&args(vec![opt(
        "provider",
        TypeClass::String,
        "Only events of this provider: claude, codex or gemini.",
    )]));
    let text = r.findings[0].render();
    let mut lines = text.lines();
    assert!(
        lines
            .next()
            .unwrap()
            .starts_with("[closed_domain_string] `provider` lists a closed set of values")
    );
    assert!(text.lines().last().unwrap().starts_with("help: "), "{text}");
    assert!(text.contains("pub enum Provider"), "{text}");
}

#[test]
fn a_string_whose_doc_names_its_few_values_joined_by_or_is_a_closed_set() {
    for (name, doc) in [
        ("order", "Sort order: newest or oldest."),
        ("sort", "Sort by date or size."),
        ("format", "Return json or text."),
        ("units", "metric or imperial"),
        ("detail", "How much to return, summary or full."),
    ] {
        fires(param(name, TypeClass::String, doc), "closed_domain_string");
    }
    for (name, doc) in [
        ("owner", "Repository owner (username or organization)."),
        ("path", "File to read, e.g. src/lib.rs or docs/x.md."),
        ("revision", "Commit SHA, branch or tag name."),
        ("query", "Text to look for in titles or bodies."),
        ("model", "Model id, e.g. gpt-4.1 or claude-sonnet-4-5."),
    ] {
        let r = check_args(&args(vec![param(name, TypeClass::String, doc)]));
        assert!(
            !r.lints().contains(&Lint::ClosedDomainString),
            "{name}: {doc}: {:?}",
            r.findings
        );
    }
}
