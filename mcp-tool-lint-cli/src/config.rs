//! The config file, `mcp-tool-lint.toml` in the current directory or `--config PATH`:
//!
//! ```toml
//! token_budget = 4000            # optional: the catalog_tokens budget
//!
//! [allow]                        # lints silenced on every tool, each with its reason
//! tool_name = "the names are fixed by the upstream API"
//!
//! [tools.browser_click.allow]    # lints silenced on one tool
//! mode_toggle = "doubleClick changes the gesture, not the answer"
//! ```
//!
//! Like `allow(..)` in the macros, every allow needs a reason; unknown keys and unknown lint
//! names are errors (with a "did you mean"), so a typo cannot silently allow nothing.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::allow::{Allow, Origin};
use crate::rules;

/// The file looked for in the current directory when `--config` is not given.
pub const DEFAULT_FILE: &str = "mcp-tool-lint.toml";

/// A loaded, validated config.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Config {
    /// The `catalog_tokens` budget, if the file sets one.
    pub token_budget: Option<usize>,
    /// The allows, each with its reason.
    pub allows: Vec<Allow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    token_budget: Option<usize>,
    #[serde(default)]
    allow: BTreeMap<String, String>,
    #[serde(default)]
    tools: BTreeMap<String, ToolSection>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ToolSection {
    #[serde(default)]
    allow: BTreeMap<String, String>,
}

/// Loads `path`, or `mcp-tool-lint.toml` from the current directory if it exists, or nothing.
pub fn load(path: Option<&Path>) -> Result<Config, String> {
    let path: PathBuf = match path {
        Some(p) => p.to_path_buf(),
        None if Path::new(DEFAULT_FILE).is_file() => PathBuf::from(DEFAULT_FILE),
        None => return Ok(Config::default()),
    };
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read the config `{}`: {e}", path.display()))?;
    parse(&text).map_err(|e| format!("config `{}`: {e}", path.display()))
}

/// Parses and validates a config's text.
pub fn parse(text: &str) -> Result<Config, String> {
    let file: File = toml::from_str(text).map_err(|e| e.message().to_string())?;
    let mut allows = Vec::new();
    let scopes = std::iter::once((None, &file.allow))
        .chain(file.tools.iter().map(|(t, s)| (Some(t), &s.allow)));
    for (tool, section) in scopes {
        for (name, reason) in section {
            let place = match tool {
                Some(t) => format!("[tools.{t}.allow] {name}"),
                None => format!("[allow] {name}"),
            };
            let lint = rules::resolve(name).map_err(|e| format!("{place}: {e}"))?;
            if reason.trim().is_empty() {
                return Err(format!(
                    "{place}: an allow needs a reason: say why the design is right here, `{name} = \"...\"`"
                ));
            }
            allows.push(Allow {
                lint,
                tool: tool.cloned(),
                reason: reason.clone(),
                origin: Origin::Config,
            });
        }
    }
    Ok(Config {
        token_budget: file.token_budget,
        allows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allows_for_all_tools_and_for_one() {
        let config = parse(
            "token_budget = 900\n[allow]\ntool_name = \"fixed upstream\"\n[tools.a.allow]\nmode_toggle = \"changes the gesture\"\n",
        )
        .unwrap();
        assert_eq!(config.token_budget, Some(900));
        let got: Vec<(&str, Option<&str>, &str)> = config
            .allows
            .iter()
            .map(|a| (a.lint, a.tool.as_deref(), a.reason.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("tool_name", None, "fixed upstream"),
                ("mode_toggle", Some("a"), "changes the gesture")
            ]
        );
    }

    #[test]
    fn a_blank_reason_an_unknown_lint_and_an_unknown_key_are_errors() {
        assert_eq!(
            parse("[tools.a.allow]\nmode_toggle = \" \"\n").unwrap_err(),
            "[tools.a.allow] mode_toggle: an allow needs a reason: say why the design is right here, `mode_toggle = \"...\"`"
        );
        assert_eq!(
            parse("[allow]\nmode_togle = \"x\"\n").unwrap_err(),
            "[allow] mode_togle: unknown lint `mode_togle`: did you mean `mode_toggle`?"
        );
        assert!(
            parse("allows = 1\n")
                .unwrap_err()
                .contains("unknown field `allows`")
        );
    }
}
