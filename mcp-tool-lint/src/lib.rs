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

mod rules;
pub mod schema;
mod text;

use std::fmt;

pub use rules::{DEFAULT_DESCRIPTION_BUDGET, MAX_PARAMS, estimate_tokens};

/// A design lint. Its [`Lint::name`] is stable: error messages, `allow(..)` and the docs use it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lint {
    TooManyParams,
    ClosedDomainString,
    HiddenCoupling,
    ModeToggle,
    MissingDescription,
    ImplicitDefault,
    UnboundedLimit,
    PaginationMismatch,
    VagueName,
    ToolName,
    AnnotationConflict,
    FalseStrictness,
    DescriptionBudget,
}

impl Lint {
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
    String,
    Bool,
    Integer,
    Number,
    /// The framework's opaque pagination cursor.
    Cursor,
    /// A closed set of values. `variants` may be empty when the front-end cannot see them
    /// (the macros only see the enum's name).
    Enum {
        variants: Vec<Variant>,
    },
    Array(Box<TypeClass>),
    Object,
    /// Anything else, by the name the front-end knows it by.
    Other(String),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    pub name: String,
    pub description: Option<String>,
}

/// An `allow(lint_name = "reason")` as the user wrote it; validated by the checks.
#[derive(Debug, Clone, PartialEq)]
pub struct Allow {
    pub lint: String,
    pub reason: String,
}

impl Allow {
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
    pub name: String,
    pub ty: TypeClass,
    /// `false` for `Option<T>` and for parameters with a default.
    pub required: bool,
    /// The declared default (`#[arg(default = ..)]` or the schema's `default`), as JSON text.
    pub default: Option<String>,
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub description: Option<String>,
    /// The field has `#[serde(default)]` (or `#[serde(default = "..")]`).
    pub serde_default: bool,
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

    pub fn is_cursor(&self) -> bool {
        self.ty == TypeClass::Cursor || self.name == "cursor"
    }
}

/// The arguments struct of a tool.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Args {
    pub params: Vec<Param>,
    pub deny_unknown_fields: bool,
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
    pub read_only: bool,
    pub destructive: bool,
    pub idempotent: bool,
    pub open_world: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputShape {
    /// `Page<T>`: a paginated list.
    Page,
    Single,
    /// The front-end cannot tell (no output schema): pagination is not checked.
    Unknown,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Tool {
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub annotations: Annotations,
    pub output: OutputShape,
    pub allows: Vec<Allow>,
}

impl Tool {
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
        param: Option<usize>,
        index: usize,
    },
    ToolName,
    ToolDescription,
    ToolAnnotations,
    ToolOutput,
    Tool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// `None` for an error in the escape hatch itself (unknown lint name, empty reason).
    pub lint: Option<Lint>,
    pub target: Target,
    pub message: String,
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

/// An `allow` that was accepted: kept so that reviewers can audit every exception.
#[derive(Debug, Clone, PartialEq)]
pub struct Exception {
    pub lint: Lint,
    /// Where the allow was written: `Param(i)`, `Args` or `Tool`.
    pub target: Target,
    pub reason: String,
    /// How many findings it silenced (0: the allow is not needed any more).
    pub suppressed: usize,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Report {
    pub findings: Vec<Finding>,
    pub exceptions: Vec<Exception>,
}

impl Report {
    pub fn is_clean(&self) -> bool {
        self.findings.is_empty()
    }

    /// The lints found, in report order (escape-hatch errors are left out).
    pub fn lints(&self) -> Vec<Lint> {
        self.findings.iter().filter_map(|f| f.lint).collect()
    }

    pub fn extend(&mut self, other: Report) {
        self.findings.extend(other.findings);
        self.exceptions.extend(other.exceptions);
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
