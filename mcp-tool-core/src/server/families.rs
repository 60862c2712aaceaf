//! Which registered tools a server serves, and which it leaves out without being told to.
//!
//! One binary may link tools of several families and serve only some, so an unserved family
//! is not an error. But a mistyped `family = "trce"` looks exactly like that, and its tool
//! would vanish from `tools/list` without a word: every family that is neither served nor
//! excluded by name is reported (a warning at build, [`ToolServer::unserved_tools`] after).
//!
//! [`ToolServer::unserved_tools`]: crate::ToolServer::unserved_tools

use crate::registry::ToolDef;
use std::collections::BTreeSet;

/// A registered tool that the server does not serve: its family is neither among
/// [`families`](crate::ToolServerBuilder::families) nor among
/// [`exclude_families`](crate::ToolServerBuilder::exclude_families).
///
/// Usually a typo in `family = ".."` or a family the builder forgot; a server's own test can
/// assert that [`ToolServer::unserved_tools`](crate::ToolServer::unserved_tools) is empty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnservedTool {
    /// The tool's wire name.
    pub name: &'static str,
    /// The family the tool declares.
    pub family: &'static str,
    /// `file:line` of its `#[mcp_tool]`.
    pub location: String,
}

/// The registry split by the builder's family settings.
pub(super) struct Selection {
    pub served: Vec<&'static ToolDef>,
    pub unserved: Vec<UnservedTool>,
    /// Settings that name no registered family, or one family both ways.
    pub problems: Vec<String>,
}

/// Splits `registered` into served and unserved tools. `served` is `None` for every family;
/// `excluded` families are left out on purpose and never reported.
pub(super) fn select(
    registered: Vec<&'static ToolDef>,
    served: Option<&[String]>,
    excluded: &[String],
) -> Selection {
    let known: BTreeSet<&str> = registered.iter().map(|t| t.family).collect();
    let mut problems = Vec::new();
    for family in served.unwrap_or_default().iter().chain(excluded) {
        if !known.contains(family.as_str()) {
            problems.push(format!(
                "family `{family}` has no tools (registered families: {})",
                quoted(known.iter().copied())
            ));
        }
    }
    for family in excluded {
        if served.is_some_and(|s| s.contains(family)) {
            problems.push(format!(
                "family `{family}` is both served and excluded; name it in one of \
                 `.families(..)` and `.exclude_families(..)`"
            ));
        }
    }
    let is_served = |family: &str| {
        !excluded.iter().any(|f| f == family)
            && served.is_none_or(|s| s.iter().any(|f| f == family))
    };
    let (kept, left_out): (Vec<_>, Vec<_>) =
        registered.into_iter().partition(|t| is_served(t.family));
    let unserved = left_out
        .into_iter()
        .filter(|t| !excluded.iter().any(|f| f == t.family))
        .map(|t| UnservedTool {
            name: t.name,
            family: t.family,
            location: t.location(),
        })
        .collect();
    Selection {
        served: kept,
        unserved,
        problems,
    }
}

/// Logs one warning per unserved family, naming its tools and what the server does serve.
pub(super) fn warn_unserved(unserved: &[UnservedTool], served: &[&'static ToolDef]) {
    let families: BTreeSet<&str> = unserved.iter().map(|t| t.family).collect();
    let served_families: BTreeSet<&str> = served.iter().map(|t| t.family).collect();
    for family in families {
        let tools = unserved
            .iter()
            .filter(|t| t.family == family)
            .map(|t| format!("`{}` ({})", t.name, t.location));
        super::heard::warn(&format!(
            "family `{family}` is registered but not served: its tools {} are left out \
             (served families: {}); fix the tool's `family`, add it to `.families(..)`, or \
             name it in `.exclude_families(..)` if this server leaves it out on purpose",
            tools.collect::<Vec<_>>().join(", "),
            quoted(served_families.iter().copied())
        ));
    }
}

fn quoted<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let names: Vec<String> = names.map(|n| format!("`{n}`")).collect();
    if names.is_empty() {
        "none".to_owned()
    } else {
        names.join(", ")
    }
}
