//! The lints the command knows: every lint of [`mcp_tool_lint`], run per tool through its JSON
//! Schema front-end ([`tool_design`]), and the catalog-wide lints declared here, one file each.

pub mod catalog_tokens;
pub mod inconsistent_naming;
pub mod indistinct_tools;
pub mod probed_strictness;
pub mod tool_design;
pub mod unannotated_destructive;
pub mod words;

use mcp_tool_lint::Lint;

/// One lint as the command shows it: SARIF rules and `--allow` validation use this table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LintDecl {
    /// The stable snake_case name.
    pub name: &'static str,
    /// What it rejects, in one line (the table at the top of `docs/lints.md`).
    pub summary: &'static str,
}

/// The lints that judge the catalog as a whole; only this command runs them.
pub const CATALOG_LINTS: [LintDecl; 4] = [
    LintDecl {
        name: catalog_tokens::NAME,
        summary: "a `tools/list` whose input side costs more o200k tokens than its budget",
    },
    LintDecl {
        name: indistinct_tools::NAME,
        summary: "two tools whose descriptions are so alike that a model cannot tell them apart",
    },
    LintDecl {
        name: inconsistent_naming::NAME,
        summary: "a tool name that breaks the server's own convention (case style, namespace prefix)",
    },
    LintDecl {
        name: unannotated_destructive::NAME,
        summary: "a catalog with destructive tools and no annotations, so clients cannot tell them from the readers",
    },
];

/// What each per-tool lint rejects, as the table at the top of `docs/lints.md` says it.
fn design_summary(lint: Lint) -> &'static str {
    match lint.name() {
        "too_many_params" => "more than 8 parameters",
        "closed_domain_string" => "a string whose name or doc shows a closed set of values",
        "json_string" => "a string parameter that holds a JSON document",
        "hidden_coupling" => {
            "a parameter whose meaning depends on another one, or an untagged union"
        }
        "mode_toggle" => "a bool that switches the shape of the response",
        "missing_description" => "a tool, parameter or enum value without a description",
        "implicit_default" => "a default that the schema does not show",
        "unbounded_limit" => "a page-size parameter without a maximum",
        "pagination_mismatch" => "a cursor without a paginated output, or the reverse",
        "vague_name" => "names about the implementation (`pattern`, `data`) or that say nothing",
        "tool_name" => "a malformed tool name, or one that does not start with a verb",
        "annotation_conflict" => "annotations that contradict each other or the tool's verb",
        "false_strictness" => {
            "arguments that reject unknown fields (`additionalProperties: false`)"
        }
        "description_budget" => "a tool description over its token budget",
        _ => "see docs/lints.md",
    }
}

/// Every lint: the per-tool ones in [`Lint::ALL`] order, then the catalog-wide ones.
pub fn all() -> Vec<LintDecl> {
    Lint::ALL
        .into_iter()
        .map(|l| LintDecl {
            name: l.name(),
            summary: design_summary(l),
        })
        .chain(CATALOG_LINTS)
        .collect()
}

/// The lint with exactly this name.
pub fn by_name(name: &str) -> Option<LintDecl> {
    all().into_iter().find(|d| d.name == name)
}

/// Checks a lint name as a user wrote it; an unknown one is an error with a "did you mean".
pub fn resolve(name: &str) -> Result<&'static str, String> {
    if let Some(d) = by_name(name) {
        return Ok(d.name);
    }
    let normalized = name.trim().to_ascii_lowercase().replace(['-', ' '], "_");
    let closest = all()
        .into_iter()
        .map(|d| (words::edit_distance(&normalized, d.name), d.name))
        .filter(|(dist, n)| *dist <= 3.max(n.len() / 4))
        .min_by_key(|(dist, _)| *dist);
    Err(match closest {
        Some((_, n)) => format!("unknown lint `{name}`: did you mean `{n}`?"),
        None => format!(
            "unknown lint `{name}`; the lints are: {}",
            all().iter().map(|d| d.name).collect::<Vec<_>>().join(", ")
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_design_lint_has_its_own_summary() {
        for lint in Lint::ALL {
            assert_ne!(design_summary(lint), "see docs/lints.md", "{lint}");
        }
    }

    #[test]
    fn names_are_unique_and_resolve_to_themselves() {
        let names: Vec<&str> = all().iter().map(|d| d.name).collect();
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len());
        for n in names {
            assert_eq!(resolve(n), Ok(n));
        }
    }

    #[test]
    fn a_misspelt_name_gets_a_suggestion() {
        assert_eq!(
            resolve("missing-descriptoin").unwrap_err(),
            "unknown lint `missing-descriptoin`: did you mean `missing_description`?"
        );
        assert_eq!(
            resolve("catalog_token").unwrap_err(),
            "unknown lint `catalog_token`: did you mean `catalog_tokens`?"
        );
        assert!(
            resolve("zzz")
                .unwrap_err()
                .starts_with("unknown lint `zzz`; the lints are: too_many_params,")
        );
    }
}
