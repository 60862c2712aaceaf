//! A mistake gets one error that names it, and the generated code adds none of its own: no
//! registration that cannot compile, no `#[arg]` left for the compiler to trip on.

use super::harness::{expanded, has_arg_attr};

const TOOL_KEYS: &str = r#"family = "notes", size_hint = "1KB", read_only"#;

fn tool(item: &str) -> (String, Vec<String>) {
    expanded("mcp_tool", TOOL_KEYS, item)
}

/// Each error's first line.
fn messages(errors: &[String]) -> Vec<&str> {
    errors.iter().filter_map(|e| e.lines().next()).collect()
}

#[test]
fn an_unsafe_tool_is_an_error_and_is_not_registered() {
    let (code, errors) = tool(
        "/// Count the notes.\npub async unsafe fn count_notes() -> ToolResult<u32> { Ok(0) }",
    );
    assert_eq!(
        messages(&errors),
        [
            "#[mcp_tool] on `count_notes`: a tool cannot be `unsafe`, the server calls it and cannot uphold its safety conditions"
        ]
    );
    assert!(errors[0].contains("\n\nhelp: "), "{errors:?}");
    assert!(!code.contains("inventory"), "{code}");
}

#[test]
fn an_impl_trait_parameter_is_a_generic_parameter() {
    for param in ["text: impl Into<String>", "state: &impl Sized"] {
        let (code, errors) = tool(&format!(
            "/// Count the notes.\npub async fn count_notes({param}) -> ToolResult<u32> {{ Ok(0) }}"
        ));
        assert_eq!(
            messages(&errors),
            ["an #[mcp_tool] fn cannot be generic: its schema is fixed at registration"],
            "{param}"
        );
        assert!(!code.contains("inventory"), "{code}");
    }
}

#[test]
fn an_impl_trait_answer_is_an_error() {
    let (_, errors) = tool(
        "/// List the notes.\npub async fn list_notes() -> ToolResult<Vec<impl Serialize>> { todo!() }",
    );
    assert_eq!(
        messages(&errors),
        [
            "`list_notes` returns an `impl Trait`: the answer's schema is generated from its type, which must have a name"
        ]
    );
}

#[test]
fn an_arg_off_a_field_is_an_error_and_is_taken_off() {
    let items = [
        "#[arg(min = 1)]\npub struct Args {\n/// Text.\npub text: String }",
        "pub enum Order {\n/// Newest first.\n#[arg(default = 1)]\nNewest }",
    ];
    for item in items {
        let (code, errors) = expanded("tool_args", "", item);
        assert_eq!(
            messages(&errors),
            ["#[arg] goes on a field: it describes one parameter"],
            "{item}"
        );
        assert!(!has_arg_attr(code.parse().unwrap()), "{code}");
    }
}

#[test]
fn a_tuple_struct_is_given_back_without_its_args() {
    let (code, errors) = expanded("tool_args", "", "pub struct Args(#[arg(min = 1)] pub u32);");
    assert_eq!(
        messages(&errors),
        ["#[tool_args] needs a struct with named fields: each field is a parameter"]
    );
    assert!(!has_arg_attr(code.parse().unwrap()), "{code}");
}

/// The impls would name the item without its parameters (`impl Args`), and the compiler would
/// add "missing generics" to the error that says why.
#[test]
fn a_generic_args_struct_gets_one_error_and_no_impls() {
    let (code, errors) = expanded(
        "tool_args",
        "",
        "pub struct Args<T> {\n/// Text.\n#[arg(default = 5)]\npub text: T }",
    );
    assert_eq!(
        messages(&errors),
        ["#[tool_args] items cannot be generic: a tool's schema is fixed when it is registered"]
    );
    assert!(!code.contains("impl"), "{code}");
    assert!(!has_arg_attr(code.parse().unwrap()), "{code}");
}

#[test]
fn an_arg_in_cfg_attr_is_an_error_and_is_taken_off() {
    let (code, errors) = expanded(
        "tool_args",
        "",
        "pub struct Args {\n/// Text.\n#[cfg_attr(test, arg(default = 5), doc = \"More.\")]\npub text: String }",
    );
    assert_eq!(
        messages(&errors),
        [
            "#[tool_args] cannot read an #[arg] inside #[cfg_attr]: it reads the fields before cfg_attr is applied"
        ]
    );
    assert!(!has_arg_attr(code.parse().unwrap()), "{code}");
    assert!(
        code.contains(r#"# [cfg_attr (test , doc = "More.")]"#),
        "{code}"
    );
}

#[test]
fn a_second_arg_on_a_field_is_an_error() {
    let (_, errors) = expanded(
        "tool_args",
        "",
        "pub struct Args {\n/// Least score.\n#[arg(min = 1)]\n#[arg(max = 2)]\npub score: u32 }",
    );
    assert_eq!(
        messages(&errors),
        ["a second #[arg(..)] on this field: only one is read"]
    );
}

/// darling's errors about keys get the list of keys as their help.
#[test]
fn an_unknown_key_lists_the_keys() {
    let (_, errors) = expanded(
        "mcp_tool",
        r#"family = "notes", size_hint = "1KB", colour = "red""#,
        "/// Count the notes.\npub async fn count_notes() -> ToolResult<u32> { Ok(0) }",
    );
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with("Unknown field: `colour`"),
        "{errors:?}"
    );
    assert!(
        errors[0].contains("\n\nhelp: the keys are `family = \"..\"` and `size_hint"),
        "{errors:?}"
    );
}

/// Compiled out, the parameter would still be passed by the registration ("this function
/// takes 0 arguments but 1 argument was supplied").
#[test]
fn a_cfg_on_a_tool_parameter_is_an_error() {
    let (code, errors) = tool(
        "/// Count the notes.\npub async fn count_notes(#[cfg(test)] args: Args) -> ToolResult<u32> { Ok(0) }",
    );
    assert_eq!(
        messages(&errors),
        ["a tool's parameters cannot depend on a cfg: the registration passes every one of them"]
    );
    assert!(!code.contains("inventory"), "{code}");
}

/// The macros see `#[doc = include_str!(..)]` unexpanded: one error that says so, and not
/// also "has no description" from the lints.
#[test]
fn a_doc_the_macro_cannot_read_is_one_error() {
    let unread = "#[mcp_tool] cannot read a doc given by an expression: it runs before `include_str!` and other macros in `#[doc = ..]` are expanded, so the description would be missing";
    let (_, errors) = tool(
        "#[doc = include_str!(\"count.md\")]\npub async fn count_notes() -> ToolResult<u32> { Ok(0) }",
    );
    assert_eq!(messages(&errors), [unread]);

    let (_, errors) = expanded(
        "tool_args",
        r#"tag = "kind""#,
        "pub enum Kind {\n#[doc = concat!(\"A\", \"B\")]\nA { #[doc = include_str!(\"x.md\")] text: String } }",
    );
    let unread = unread.replace("#[mcp_tool]", "#[tool_args]");
    assert_eq!(messages(&errors), [unread.as_str(), unread.as_str()]);
}
