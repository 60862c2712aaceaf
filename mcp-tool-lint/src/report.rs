//! What the rules report: findings, where they point, and the allows that silenced some.

use std::fmt;

use crate::Lint;

/// Where a finding points; the macros map it to a span.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The arguments struct as a whole.
    Args,
    /// `Args::params[i]`.
    Param(usize),
    /// The `index`-th allow of `Args::params[p]` (`param: Some(p)`) or of the item
    /// (`param: None`: `Args::allows` in [`check_args`](crate::check_args), `Tool::allows` in [`check_tool`](crate::check_tool)).
    Allow {
        /// The parameter whose allows hold it, or `None` for the item's own.
        param: Option<usize>,
        /// Its position in that list of allows.
        index: usize,
    },
    /// The tool's `name`.
    ToolName,
    /// The tool's doc comment.
    ToolDescription,
    /// The tool's annotations (`read_only`, `destructive`, ...).
    ToolAnnotations,
    /// The tool's return type.
    ToolOutput,
    /// The tool as a whole.
    Tool,
}

/// How a finding is reported, set by how sure its rule can be.
///
/// A rule is an error only where its precision on tool catalogs it was not tuned on is at
/// least 90% (`docs/lints.md` gives each lint's figure); the rest is advice: a warning at
/// compile time and a `note` in `mcp-tool-lint` (`--deny-advice` makes it fail the run).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// A compile error; exit status 1 in `mcp-tool-lint`.
    Error,
    /// A compile-time warning; a `note` in `mcp-tool-lint`.
    Advice,
}

impl Level {
    /// `error` or `advice`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Advice => "advice",
        }
    }
}

/// One broken rule: what is wrong, where, and how to fix it.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// Whether it fails the build (or the `mcp-tool-lint` run) or only advises.
    pub level: Level,
    /// `None` for an error in the escape hatch itself (unknown lint name, empty reason).
    pub lint: Option<Lint>,
    /// What the finding points at.
    pub target: Target,
    /// What is wrong, naming the item (without the `[lint_name]` prefix).
    pub message: String,
    /// The fix, as a sentence (rendered after `help: `), in the terms of the Rust macros.
    pub help: String,
    /// The fix in the terms of a JSON Schema (`enum`, `default`, `maximum`), for servers
    /// written in any language, where it differs from [`Finding::fix`]; see
    /// [`Finding::fix_for_schema`].
    pub schema_fix: Option<String>,
}

impl Finding {
    /// A finding whose help is the fix followed by how to silence the lint where it fires
    /// (see [`Finding::silence`]).
    pub(crate) fn new(
        lint: Lint,
        target: Target,
        message: impl Into<String>,
        fix: impl Into<String>,
    ) -> Self {
        let fix = fix.into();
        let help = match silence_attribute(lint, target) {
            Some(attr) => format!("{fix}{SILENCE_JOINER}`{attr}`"),
            None => fix,
        };
        Finding {
            level: Level::Error,
            lint: Some(lint),
            target,
            message: message.into(),
            help,
            schema_fix: None,
        }
    }

    /// The same finding as advice: the rule's evidence is not strong enough for an error.
    pub(crate) fn advice(mut self) -> Self {
        self.level = Level::Advice;
        self
    }

    /// The same finding at `level`.
    pub(crate) fn at(mut self, level: Level) -> Self {
        self.level = level;
        self
    }

    /// The same finding with the fix phrased for a server described by JSON Schema.
    pub(crate) fn with_schema_fix(mut self, fix: impl Into<String>) -> Self {
        self.schema_fix = Some(fix.into());
        self
    }

    /// The fix for a server that is only a JSON Schema to its reader (`mcp-tool-lint` on any
    /// server): [`Finding::schema_fix`] where the Rust fix names an attribute or a type, else
    /// [`Finding::fix`].
    pub fn fix_for_schema(&self) -> &str {
        self.schema_fix.as_deref().unwrap_or_else(|| self.fix())
    }

    /// The attribute that silences this finding where it fires, with a reason to fill in
    /// (`#[arg(allow(mode_toggle = "why"))]`); `None` for errors in the escape hatch itself.
    /// The help ends with it; a front-end with another way to silence lints (a CLI flag, a
    /// config file) shows [`Finding::fix`] and its own way instead.
    pub fn silence(&self) -> Option<String> {
        self.lint.and_then(|l| silence_attribute(l, self.target))
    }

    /// The help without the sentence on silencing: the fix alone.
    pub fn fix(&self) -> &str {
        self.help
            .split_once(SILENCE_JOINER)
            .map_or(self.help.as_str(), |(fix, _)| fix)
    }

    /// The bracketed name that starts the rendered message.
    pub fn code(&self) -> &'static str {
        self.lint.map_or("allow", Lint::name)
    }

    /// `[lint_name] message` then a blank line and `help: ...`.
    pub fn render(&self) -> String {
        format!("[{}] {}\n\nhelp: {}", self.code(), self.message, self.help)
    }
}

/// Joins a fix and the silencing attribute in a help.
const SILENCE_JOINER: &str = "; or, if the design is right here, silence it with a reason: ";

/// Where an allow for a finding on `target` is written: on the field, on the arguments item or
/// on the tool.
fn silence_attribute(lint: Lint, target: Target) -> Option<String> {
    let attr = match target {
        Target::Param(_) => "arg",
        Target::Args => "tool_args",
        Target::ToolName
        | Target::ToolDescription
        | Target::ToolAnnotations
        | Target::ToolOutput
        | Target::Tool => "mcp_tool",
        Target::Allow { .. } => return None,
    };
    Some(format!("#[{attr}(allow({} = \"why\"))]", lint.name()))
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

/// An `allow(..)` the checks accepted (a known lint, a non-empty reason), with what it
/// silenced: the check-time record. Reviewers audit it to find allows that are no longer
/// needed (`suppressed == 0`). The runtime's own record of a silenced lint, kept on every
/// registered tool, is `mcp_tool::args::Exception`.
#[derive(Debug, Clone, PartialEq)]
pub struct AcceptedAllow {
    /// The lint it silences.
    pub lint: Lint,
    /// Where the allow was written: `Param(i)`, `Args` or `Tool`.
    pub target: Target,
    /// The reason given.
    pub reason: String,
    /// How many findings it silenced (0: the allow is not needed any more).
    pub suppressed: usize,
}

/// The outcome of a check: what is wrong, and which allows silenced what.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Report {
    /// The findings left after the allows, in a stable order.
    pub findings: Vec<Finding>,
    /// The allows that were valid, with how many findings each silenced.
    pub accepted_allows: Vec<AcceptedAllow>,
}

impl Report {
    /// No findings (accepted allows do not count).
    pub fn is_clean(&self) -> bool {
        self.findings.is_empty()
    }

    /// The lints found, in report order (escape-hatch errors are left out).
    pub fn lints(&self) -> Vec<Lint> {
        self.findings.iter().filter_map(|f| f.lint).collect()
    }

    /// Appends another report's findings and allows, e.g. the tool's to the arguments'.
    pub fn extend(&mut self, other: Report) {
        self.findings.extend(other.findings);
        self.accepted_allows.extend(other.accepted_allows);
    }
}
