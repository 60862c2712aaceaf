//! `build()` reports registered tools that no family setting accounts for: a mistyped
//! `family = ".."` must not vanish from `tools/list` in silence.

use mcp_tool::prelude::*;
use mcp_tool::{ToolServer, UnservedTool};

/// Return the first number.
#[mcp_tool(name = "get_alpha", family = "alpha", size_hint = "1KB", read_only)]
pub async fn get_alpha() -> ToolResult<u8> {
    Ok(1)
}

/// Return the second number.
#[mcp_tool(name = "get_beta", family = "beta", size_hint = "1KB", read_only)]
pub async fn get_beta() -> ToolResult<u8> {
    Ok(2)
}

/// Return the third number; its family is a typo of `alpha`.
#[mcp_tool(name = "get_gamma", family = "alpah", size_hint = "1KB", read_only)]
pub async fn get_gamma() -> ToolResult<u8> {
    Ok(3)
}

fn served(server: &ToolServer) -> Vec<&'static str> {
    server.definitions().map(|d| d.name).collect()
}

#[test]
fn a_family_neither_served_nor_excluded_is_reported_with_its_tools() {
    let (server, warnings) = with_warnings(|| {
        ToolServer::builder()
            .families(["alpha", "beta"])
            .build()
            .unwrap()
    });
    assert_eq!(served(&server), ["get_alpha", "get_beta"]);
    let unserved = server.unserved_tools();
    assert_eq!(unserved.len(), 1);
    let UnservedTool {
        name,
        family,
        location,
    } = &unserved[0];
    assert_eq!((*name, *family), ("get_gamma", "alpah"));
    assert!(location.contains("unserved_families.rs:"), "{location}");

    assert_eq!(
        warnings.len(),
        1,
        "one warning per unserved family: {warnings:?}"
    );
    let warning = &warnings[0];
    for needle in [
        "`alpah`",
        "`get_gamma`",
        "`alpha`, `beta`",
        ".exclude_families(",
    ] {
        assert!(warning.contains(needle), "{needle} in {warning}");
    }
}

#[test]
fn excluded_families_are_left_out_without_a_report() {
    let (server, warnings) = with_warnings(|| {
        ToolServer::builder()
            .families(["alpha", "beta"])
            .exclude_families(["alpah"])
            .build()
            .unwrap()
    });
    assert_eq!(served(&server), ["get_alpha", "get_beta"]);
    assert_eq!(server.unserved_tools(), &[]);
    assert_eq!(warnings, Vec::<String>::new());
}

#[test]
fn without_families_everything_but_the_excluded_is_served() {
    let all = ToolServer::builder().build().unwrap();
    assert_eq!(served(&all), ["get_gamma", "get_alpha", "get_beta"]);
    assert_eq!(all.unserved_tools(), &[]);

    let some = ToolServer::builder()
        .exclude_families(["beta", "alpah"])
        .build()
        .unwrap();
    assert_eq!(served(&some), ["get_alpha"]);
    assert_eq!(some.unserved_tools(), &[]);
}

#[test]
fn explicit_definitions_are_checked_the_same_way() {
    let defs = mcp_tool::registry::all_tools();
    let server = ToolServer::builder()
        .with_definitions(defs.into_iter().filter(|d| d.name != "get_beta").collect())
        .families(["alpha"])
        .build()
        .unwrap();
    let names: Vec<&str> = server.unserved_tools().iter().map(|t| t.name).collect();
    assert_eq!(names, ["get_gamma"]);
}

#[test]
fn excluding_an_unknown_family_or_one_that_is_served_fails_the_build() {
    let err = ToolServer::builder()
        .exclude_families(["delta"])
        .build()
        .unwrap_err();
    assert_eq!(err.problems.len(), 1);
    assert!(
        err.problems[0].starts_with("family `delta` has no tools"),
        "{err}"
    );

    let err = ToolServer::builder()
        .families(["alpha", "beta"])
        .exclude_families(["beta", "alpah"])
        .build()
        .unwrap_err();
    assert_eq!(
        err.problems,
        [
            "family `beta` is both served and excluded; name it in one of `.families(..)` and \
          `.exclude_families(..)`"
        ]
    );
}

#[path = "support/warnings.rs"]
mod warnings;
use warnings::with_warnings;
