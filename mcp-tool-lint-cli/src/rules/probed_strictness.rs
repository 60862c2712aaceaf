//! `false_strictness` on a live server's behaviour: a tool that refused a call for one argument
//! its schema does not list (learned by `--probe`, see [`crate::probe`]). A model's harmless
//! extra key then fails the whole call. The schema's `additionalProperties: false` alone is no
//! evidence: most servers that write it drop unknown keys.

use mcp_tool_lint::{Level, Lint};

use crate::catalog::Catalog;
use crate::check::Finding;

/// One error per tool the probe saw refuse an unknown argument, in catalog order.
pub fn check(catalog: &Catalog) -> Vec<Finding> {
    let lint = Lint::FalseStrictness.name();
    catalog
        .names()
        .into_iter()
        .filter(|name| catalog.probes.get(*name) == Some(&true))
        .map(|name| Finding {
            level: Level::Error,
            lint,
            tools: vec![name.to_string()],
            param: None,
            message: format!(
                "`{name}` rejects a call that carries one argument its schema does not list (seen with `--probe`): a harmless extra key from a model fails the whole call"
            ),
            help: format!(
                "ignore unknown arguments (parse without `.strict()`, `extra = \"ignore\"`), or if they must be refused, say so in the description; or allow it with a reason: `[tools.{name}.allow] {lint} = \"why\"` in mcp-tool-lint.toml"
            ),
        })
        .collect()
}
