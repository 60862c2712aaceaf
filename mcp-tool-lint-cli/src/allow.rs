//! Allows: a lint silenced on every tool (`--allow LINT`, or the config's `[allow]`) or on one
//! tool (the config's `[tools.<name>.allow]`), each from the config with its reason.

use crate::catalog::Catalog;
use crate::check::Finding;
use crate::rules;

/// Where an allow was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// `--allow LINT` on the command line.
    Flag,
    /// The config file.
    Config,
}

/// One silenced lint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Allow {
    /// The lint (a checked name).
    pub lint: &'static str,
    /// The tool it is limited to; `None` for every tool and the catalog.
    pub tool: Option<String>,
    /// Why the design is right despite the lint (empty for a flag).
    pub reason: String,
    /// Where it was written.
    pub origin: Origin,
}

impl Allow {
    /// `--allow LINT`: an unknown name is an error with a "did you mean".
    pub fn from_flag(name: &str) -> Result<Allow, String> {
        Ok(Allow {
            lint: rules::resolve(name).map_err(|e| format!("--allow: {e}"))?,
            tool: None,
            reason: String::new(),
            origin: Origin::Flag,
        })
    }

    /// Whether this allow silences `finding`: same lint, and (if limited to a tool) a finding
    /// about that tool.
    pub fn matches(&self, finding: &Finding) -> bool {
        self.lint == finding.lint
            && self
                .tool
                .as_ref()
                .is_none_or(|t| finding.tools.iter().any(|ft| ft == t))
    }
}

/// An allow with how many findings it silenced: 0 means it is no longer needed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AllowUse {
    /// The allow.
    pub allow: Allow,
    /// How many findings it silenced.
    pub suppressed: usize,
}

/// A warning for every allow limited to a tool the catalog does not have (a renamed tool, a
/// typo): such an allow silences nothing.
pub fn unknown_tools(allows: &[Allow], catalog: &Catalog) -> Vec<String> {
    let names = catalog.names();
    allows
        .iter()
        .filter_map(|a| {
            let tool = a.tool.as_deref()?;
            if names.contains(&tool) {
                return None;
            }
            let hint = names
                .iter()
                .map(|n| (rules::words::edit_distance(tool, n), n))
                .filter(|(d, n)| *d <= 3.max(n.len() / 4))
                .min_by_key(|(d, _)| *d)
                .map(|(_, n)| format!(" (did you mean `{n}`?)"))
                .unwrap_or_default();
            Some(format!(
                "the config allows `{}` on `{tool}`, but the server has no tool named `{tool}`{hint}",
                a.lint
            ))
        })
        .collect()
}
