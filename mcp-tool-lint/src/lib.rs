//! Design rules for MCP tools.
//!
//! The rules run over a neutral model of a tool ([`Tool`], [`Args`], [`Param`]) so that two
//! front-ends share them: the `#[tool_args]`/`#[mcp_tool]` macros build the model from syntax
//! and turn findings into compile errors, and the runtime builds it from JSON Schema
//! ([`schema`]) and logs findings as warnings. The lints and their rationale are documented in
//! `docs/lints.md`.
//!
//! This crate is linked into the proc macro, so it depends on nothing but `serde_json` and
//! keeps its text heuristics hand-written (no regex engine to compile in every user build).
//!
//! ```
//! use mcp_tool_lint::{Args, Lint, Param, TypeClass, check_args};
//!
//! let args = Args {
//!     params: vec![Param::new("data", TypeClass::String)],
//!     ..Args::default()
//! };
//! let report = check_args(&args);
//! assert!(report.lints().contains(&Lint::VagueName));
//! println!("{}", report.findings[0]); // `[lint_name] message`, a blank line, `help: ...`
//! ```

#![warn(missing_docs)]

mod rules;
pub mod schema;
mod text;

use std::fmt;

pub use rules::{DEFAULT_DESCRIPTION_BUDGET, MAX_PARAMS, estimate_tokens};

/// A design lint. Its [`Lint::name`] is stable: error messages, `allow(..)` and the docs use it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lint {
    /// `too_many_params`: more than [`MAX_PARAMS`] parameters.
    TooManyParams,
    /// `closed_domain_string`: a `String` that takes one of a closed set of values.
    ClosedDomainString,
    /// `hidden_coupling`: a parameter whose meaning depends on another one.
    HiddenCoupling,
    /// `mode_toggle`: a bool that switches the shape of the response.
    ModeToggle,
    /// `missing_description`: a tool or parameter without a doc comment.
    MissingDescription,
    /// `implicit_default`: a default the schema does not declare.
    ImplicitDefault,
    /// `unbounded_limit`: a page-size parameter without a maximum.
    UnboundedLimit,
    /// `pagination_mismatch`: a `cursor` parameter without a `Page` output, or the reverse.
    PaginationMismatch,
    /// `vague_name`: an implementation-aligned name (`data`, `input`, `value`, ...).
    VagueName,
    /// `tool_name`: a malformed tool name, or one that does not start with a verb.
    ToolName,
    /// `annotation_conflict`: annotations that contradict each other (`read_only` and
    /// `destructive`).
    AnnotationConflict,
    /// `false_strictness`: `deny_unknown_fields`, which the schema cannot tell clients.
    FalseStrictness,
    /// `description_budget`: a tool description over its token budget.
    DescriptionBudget,
}

impl Lint {
    /// Every lint, in the order of the table in `docs/lints.md`.
    pub const ALL: [Lint; 13] = [
        Lint::TooManyParams,
        Lint::ClosedDomainString,
        Lint::HiddenCoupling,
        Lint::ModeToggle,
        Lint::MissingDescription,
        Lint::ImplicitDefault,
        Lint::UnboundedLimit,
        Lint::PaginationMismatch,
        Lint::VagueName,
        Lint::ToolName,
        Lint::AnnotationConflict,
        Lint::FalseStrictness,
        Lint::DescriptionBudget,
    ];

    /// The stable snake_case name: what error messages, `allow(..)` and the docs use.
    pub fn name(self) -> &'static str {
        match self {
            Lint::TooManyParams => "too_many_params",
            Lint::ClosedDomainString => "closed_domain_string",
            Lint::HiddenCoupling => "hidden_coupling",
            Lint::ModeToggle => "mode_toggle",
            Lint::MissingDescription => "missing_description",
            Lint::ImplicitDefault => "implicit_default",
            Lint::UnboundedLimit => "unbounded_limit",
            Lint::PaginationMismatch => "pagination_mismatch",
            Lint::VagueName => "vague_name",
            Lint::ToolName => "tool_name",
            Lint::AnnotationConflict => "annotation_conflict",
            Lint::FalseStrictness => "false_strictness",
            Lint::DescriptionBudget => "description_budget",
        }
    }

    /// The lint with exactly this [`name`](Lint::name), if any.
    pub fn from_name(name: &str) -> Option<Lint> {
        Lint::ALL.into_iter().find(|l| l.name() == name)
    }

    /// The closest lint name to a misspelt one, for "did you mean" help.
    pub fn suggest(name: &str) -> Option<Lint> {
        let normalized = name.trim().to_ascii_lowercase().replace(['-', ' '], "_");
        if let Some(l) = Lint::from_name(&normalized) {
            return Some(l);
        }
        Lint::ALL
            .into_iter()
            .map(|l| (text::edit_distance(&normalized, l.name()), l))
            .filter(|(d, l)| *d <= 3.max(l.name().len() / 4))
            .min_by_key(|(d, _)| *d)
            .map(|(_, l)| l)
    }
}

impl fmt::Display for Lint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What the model sees of a value's type.
#[derive(Debug, Clone, PartialEq)]
pub enum TypeClass {
    /// A JSON string.
    String,
    /// A JSON boolean.
    Bool,
    /// A JSON integer.
    Integer,
    /// A JSON number that may have a fraction.
    Number,
    /// The framework's opaque pagination cursor.
    Cursor,
    /// A closed set of values. `variants` may be empty when the front-end cannot see them
    /// (the macros only see the enum's name).
    Enum {
        /// The values, as far as the front-end knows them.
        variants: Vec<Variant>,
    },
    /// A list of values of one type.
    Array(Box<TypeClass>),
    /// A JSON object (a nested struct, a map).
    Object,
    /// Anything else, by the name the front-end knows it by.
    Other(String),
}

/// One value of a [`TypeClass::Enum`].
#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    /// The value as it appears on the wire.
    pub name: String,
    /// Its doc comment or schema description, if any.
    pub description: Option<String>,
}

/// An `allow(lint_name = "reason")` as the user wrote it; validated by the checks.
#[derive(Debug, Clone, PartialEq)]
pub struct Allow {
    /// The lint name as written; an unknown name is a finding (with a "did you mean").
    pub lint: String,
    /// Why the design is right despite the lint; an empty reason is a finding.
    pub reason: String,
}

impl Allow {
    /// An allow of `lint` for `reason`.
    pub fn new(lint: impl Into<String>, reason: impl Into<String>) -> Self {
        Allow {
            lint: lint.into(),
            reason: reason.into(),
        }
    }
}

/// One argument of a tool.
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    /// The name on the wire.
    pub name: String,
    /// What the model sees of its type.
    pub ty: TypeClass,
    /// `false` for `Option<T>` and for parameters with a default.
    pub required: bool,
    /// The declared default (`#[arg(default = ..)]` or the schema's `default`), as JSON text.
    pub default: Option<String>,
    /// The declared lower bound (`#[arg(min = ..)]` or the schema's `minimum`).
    pub min: Option<f64>,
    /// The declared upper bound (`#[arg(max = ..)]` or the schema's `maximum`).
    pub max: Option<f64>,
    /// The doc comment or schema description; `None` (or blank) is `missing_description`.
    pub description: Option<String>,
    /// The field has `#[serde(default)]` (or `#[serde(default = "..")]`).
    pub serde_default: bool,
    /// The lints silenced on this parameter.
    pub allows: Vec<Allow>,
}

impl Param {
    /// A parameter with only a name and a type; the rest is filled by field update syntax.
    pub fn new(name: impl Into<String>, ty: TypeClass) -> Self {
        Param {
            name: name.into(),
            ty,
            required: true,
            default: None,
            min: None,
            max: None,
            description: None,
            serde_default: false,
            allows: Vec::new(),
        }
    }

    /// Whether this is the pagination cursor: typed as one, or named `cursor`.
    pub fn is_cursor(&self) -> bool {
        self.ty == TypeClass::Cursor || self.name == "cursor"
    }
}

/// The arguments struct of a tool.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Args {
    /// The fields, in declaration order ([`Target::Param`] indexes into it).
    pub params: Vec<Param>,
    /// The struct has `#[serde(deny_unknown_fields)]` (or the schema
    /// `additionalProperties: false`): `false_strictness`.
    pub deny_unknown_fields: bool,
    /// The lints silenced on the whole struct.
    pub allows: Vec<Allow>,
}

impl Args {
    /// Whether the arguments take a pagination cursor, for [`check_pagination`].
    pub fn has_cursor(&self) -> bool {
        self.params.iter().any(Param::is_cursor)
    }
}

/// The MCP tool annotations (`readOnlyHint`, `destructiveHint`, `idempotentHint`,
/// `openWorldHint`), as declared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Annotations {
    /// `readOnlyHint`: the tool does not modify its environment.
    pub read_only: bool,
    /// `destructiveHint`: the tool may delete or overwrite.
    pub destructive: bool,
    /// `idempotentHint`: repeating a call with the same arguments has no further effect.
    pub idempotent: bool,
    /// `openWorldHint`: the tool reaches outside systems (the web, other people).
    pub open_world: bool,
}

/// What a tool returns, as far as pagination is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputShape {
    /// `Page<T>`: a paginated list.
    Page,
    /// Anything that is not a page.
    Single,
    /// The front-end cannot tell (no output schema): pagination is not checked.
    Unknown,
}

/// A tool as the model sees it, minus its arguments (those are [`Args`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Tool {
    /// The wire name, checked by `tool_name`.
    pub name: String,
    /// The human-readable title, if any.
    pub title: Option<String>,
    /// The description (the fn's doc comment); `None` or blank is `missing_description`.
    pub description: Option<String>,
    /// The declared MCP annotations.
    pub annotations: Annotations,
    /// Whether it answers with a page.
    pub output: OutputShape,
    /// The lints silenced on the tool.
    pub allows: Vec<Allow>,
}

impl Tool {
    /// A tool with a name and a description, no annotations, a single (non-page) output and
    /// no allows; the rest is filled by field update syntax.
    pub fn new(name: impl Into<String>, description: Option<&str>) -> Self {
        Tool {
            name: name.into(),
            title: None,
            description: description.map(str::to_string),
            annotations: Annotations::default(),
            output: OutputShape::Single,
            allows: Vec::new(),
        }
    }
}

/// Where a finding points; the macros map it to a span.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The arguments struct as a whole.
    Args,
    /// `Args::params[i]`.
    Param(usize),
    /// The `index`-th allow of `Args::params[p]` (`param: Some(p)`) or of the item
    /// (`param: None`: `Args::allows` in [`check_args`], `Tool::allows` in [`check_tool`]).
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

/// One broken rule: what is wrong, where, and how to fix it.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// `None` for an error in the escape hatch itself (unknown lint name, empty reason).
    pub lint: Option<Lint>,
    /// What the finding points at.
    pub target: Target,
    /// What is wrong, naming the item (without the `[lint_name]` prefix).
    pub message: String,
    /// The fix, as a sentence (rendered after `help: `).
    pub help: String,
}

impl Finding {
    pub(crate) fn new(
        lint: Lint,
        target: Target,
        message: impl Into<String>,
        help: impl Into<String>,
    ) -> Self {
        Finding {
            lint: Some(lint),
            target,
            message: message.into(),
            help: help.into(),
        }
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

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

/// An `allow(..)` the checks accepted (a known lint, a non-empty reason), with what it
/// silenced: the check-time record. Reviewers audit it to find allows that are no longer
/// needed (`suppressed == 0`). The runtime's own record of a silenced lint, kept on every
/// registered tool, is `mcp_tool_core::args::Exception`.
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

/// Parameter-level lints plus `too_many_params` and `false_strictness`, after applying the
/// allows of the fields (for their field) and of the struct (for the whole struct).
pub fn check_args(args: &Args) -> Report {
    rules::check_args(args)
}

/// Tool-level lints (name, description, annotations, description budget) with the default
/// budget, after applying the tool's allows.
pub fn check_tool(tool: &Tool) -> Report {
    rules::check_tool(tool, DEFAULT_DESCRIPTION_BUDGET)
}

/// [`check_tool`] with a description budget in estimated tokens (see [`estimate_tokens`]).
pub fn check_tool_with_budget(tool: &Tool, description_budget: usize) -> Report {
    rules::check_tool(tool, description_budget)
}

/// The cross-item rule: a `cursor` parameter needs a `Page` output and a `Page` output needs a
/// `cursor` parameter. `OutputShape::Unknown` is never a mismatch. The macros reuse
/// `render()` as the message of their const-evaluated check.
pub fn check_pagination(has_cursor: bool, output: OutputShape) -> Option<Finding> {
    rules::check_pagination(has_cursor, output)
}

/// The accepted allow for `lint` in `allows`, if any (for checks done outside this crate,
/// such as the macros' cross-item pagination check).
pub fn find_allow(allows: &[Allow], lint: Lint) -> Option<&Allow> {
    allows
        .iter()
        .find(|a| a.lint == lint.name() && !a.reason.trim().is_empty())
}
