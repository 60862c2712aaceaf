//! The neutral model of a tool that the rules run over; both front-ends build it.

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

/// Where the model of a tool comes from, which decides how strict a rule may be.
///
/// In code, the author controls the names and docs the rules judge, so a plain breach of a
/// stated rule (a tool name that is not snake_case, a field without a doc) is an error. A
/// schema may be another server's, judged by what a model can read of it: only evidence in its
/// structure or in an explicit statement counts there, and the level follows the rule's
/// precision on catalogs it was not tuned on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Origin {
    /// The macros, on the author's own Rust items.
    #[default]
    Code,
    /// A JSON Schema: `tools/list` of any server, or the runtime's check of its own catalog.
    Schema,
}

/// The arguments struct of a tool.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Args {
    /// The fields, in declaration order ([`Target::Param`](crate::Target::Param) indexes into it).
    pub params: Vec<Param>,
    /// The struct has `#[serde(deny_unknown_fields)]` (or the schema
    /// `additionalProperties: false`): `false_strictness`.
    pub deny_unknown_fields: bool,
    /// The lints silenced on the whole struct.
    pub allows: Vec<Allow>,
    /// The description of the tool that takes these arguments, when the front-end knows it
    /// (the JSON front-end does; `#[tool_args]` sees the struct alone). A parameter the tool's
    /// description explains needs less of its own.
    pub tool_description: Option<String>,
    /// Which front-end built the model.
    pub origin: Origin,
}

impl Args {
    /// Whether the arguments take a pagination cursor, for [`check_pagination`](crate::check_pagination).
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
    /// The tool's family (`#[mcp_tool(family = "..")]`): a first word of the name that
    /// equals it is a namespace prefix (`browser_navigate` in family `browser`).
    pub family: Option<String>,
    /// Which front-end built the model.
    pub origin: Origin,
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
            family: None,
            origin: Origin::Code,
        }
    }
}
