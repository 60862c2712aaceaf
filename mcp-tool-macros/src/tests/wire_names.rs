//! A parameter is named as serde reads it: a raw identifier (`r#type`) without its `r#`, a
//! renamed field by its `rename`. The schema keywords, the range checks, the lints and the
//! registered exceptions all use that name.

use super::harness::expanded;

#[test]
fn a_raw_field_is_a_parameter_without_r_hash() {
    let (code, errors) = expanded(
        "tool_args",
        "",
        r#"
        pub struct Args {
            /// What kind of note to list.
            #[arg(default = Kind::Todo)]
            pub r#type: Kind,
            /// Notes per page.
            #[arg(default = 10, min = 1, max = 50, allow(vague_name = "kept for old clients"))]
            pub r#limit: u32,
            /// Text to look for.
            pub r#match: Option<String>,
        }
        "#,
    );
    assert!(errors.is_empty(), "{errors:?}");
    assert!(code.contains(r#"field : "type""#), "{code}");
    assert!(code.contains(r#"field : "limit""#), "{code}");
    assert!(
        code.contains(r#"check_range (& self . r#limit , "limit""#),
        "{code}"
    );
    assert!(code.contains("fn __mcp_default_type ()"), "{code}");
    assert!(
        code.contains(r#"serde (default = "Args::__mcp_default_type")"#),
        "{code}"
    );
    assert!(
        !code.contains("\"r#"),
        "a name on the wire with `r#`: {code}"
    );
}

#[test]
fn a_raw_field_of_a_tagged_variant() {
    let (code, errors) = expanded(
        "tool_args",
        r#"tag = "detail_level""#,
        r#"
        pub enum Detail {
            /// Ids only.
            Summary,
            /// One entry per turn.
            r#Turns {
                /// Turns to return.
                #[arg(default = 20, min = 1, max = 50)]
                r#max: u32,
            },
        }
        "#,
    );
    assert!(errors.is_empty(), "{errors:?}");
    assert!(code.contains(r#"field : "max""#), "{code}");
    assert!(code.contains("fn __mcp_default_1_max ()"), "{code}");
    assert!(
        !code.contains("\"r#"),
        "a name on the wire with `r#`: {code}"
    );
}

/// `type` and `r#type` are one key on the wire.
#[test]
fn a_raw_field_named_like_the_tag_collides() {
    let (_, errors) = expanded(
        "tool_args",
        r#"tag = "type""#,
        r#"
        pub enum Shape {
            /// A note.
            Note {
                /// The note's own kind.
                r#type: u32,
            },
        }
        "#,
    );
    assert!(
        errors
            .iter()
            .any(|e| e.starts_with("`r#type` is both the tag of `Shape`")),
        "{errors:?}"
    );
}

#[test]
fn a_raw_fn_name_is_the_tool_name_without_r_hash() {
    let (code, errors) = expanded(
        "mcp_tool",
        r#"family = "notes", size_hint = "1KB", read_only"#,
        r#"
        /// Match the notes against a pattern and count them.
        pub async fn r#match(args: Args) -> ToolResult<u32> { todo!() }
        "#,
    );
    assert!(errors.is_empty(), "{errors:?}");
    assert!(code.contains(r#"name : "match""#), "{code}");
    assert!(code.contains("fn __mcp_tool_call_match"), "{code}");
}

/// A bound that no `f64` holds is an error at the bound, not an out-of-range literal in the
/// generated code.
#[test]
fn a_bound_out_of_the_f64_range_is_an_error() {
    let (code, errors) = expanded(
        "tool_args",
        "",
        r#"
        pub struct Args {
            /// Least score of a match.
            #[arg(max = 1e400)]
            pub threshold: f64,
        }
        "#,
    );
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with("this bound is too large"),
        "{errors:?}"
    );
    assert!(!code.contains("inf"), "{code}");
}

#[test]
fn a_renamed_field_is_a_parameter_under_its_new_name() {
    let (code, errors) = expanded(
        "tool_args",
        "",
        r#"
        pub struct Args {
            /// Notes per page.
            #[serde(rename = "per_page")]
            #[arg(default = 10, min = 1, max = 50)]
            pub limit: u32,
            /// Least score of a note.
            #[serde(rename(serialize = "out", deserialize = "min_score"), default)]
            #[arg(min = 0)]
            pub score: f64,
        }
        "#,
    );
    // `score` has a `serde(default)`, which the lints see through `rename(..)`.
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].starts_with("[implicit_default]"), "{errors:?}");
    assert!(code.contains(r#"field : "per_page""#), "{code}");
    assert!(
        code.contains(r#"check_range (& self . limit , "per_page""#),
        "{code}"
    );
    assert!(code.contains(r#"field : "min_score""#), "{code}");
}

/// `rename_all` on the struct names every field without a `rename` of its own.
#[test]
fn rename_all_names_the_fields() {
    let (code, errors) = expanded(
        "tool_args",
        "",
        r#"
        #[serde(rename_all = "camelCase")]
        pub struct Args {
            /// Turns per page.
            #[arg(default = 10, min = 1, max = 50)]
            pub max_turns: u32,
            /// Least score of a turn.
            #[serde(rename = "floor")]
            #[arg(min = 0)]
            pub min_score: f64,
        }
        "#,
    );
    assert!(errors.is_empty(), "{errors:?}");
    assert!(code.contains(r#"field : "maxTurns""#), "{code}");
    assert!(code.contains(r#"field : "floor""#), "{code}");
}
