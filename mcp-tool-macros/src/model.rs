//! The typed model of what the macros read and what they generate from.
//!
//! `parse` turns syntax into the `*Item` types below, reporting only what it cannot read.
//! `validate` checks an item and, if code can be generated for it, returns its `Checked*`
//! counterpart, which holds only facts that are known to be sound; `expand` reads nothing else.

use crate::classify::{FieldType, OutputKind};
use proc_macro2::Span;
use syn::{Expr, Generics, Ident, Item, ItemFn, LitStr, Type};

/// `allow(lint_name = "reason")`, as written.
#[derive(Clone)]
pub struct Allow {
    pub lint: Ident,
    pub reason: LitStr,
}

// `#[tool_args]`, as parsed.

pub struct ArgsItem {
    /// The item with its `#[arg]` attributes removed, ready to re-emit.
    pub item: Item,
    pub ident: Ident,
    pub generics: Generics,
    /// `tag = ".."`: the field that names the variant of an internally tagged enum.
    pub tag: Option<LitStr>,
    pub allows: Vec<Allow>,
    /// `#[serde(deny_unknown_fields)]` on the item.
    pub deny_unknown_fields: Option<Span>,
    pub body: ArgsBody,
}

pub enum ArgsBody {
    /// A struct's fields; `None` when they are not named (a tuple or unit struct).
    Struct(Option<Vec<Field>>),
    Enum(Vec<Variant>),
}

pub struct Variant {
    pub ident: Ident,
    pub docs: Option<String>,
    pub fields: VariantFields,
    /// The fields as written, `{ .. }` or `( .. )` included.
    pub fields_span: Span,
}

pub enum VariantFields {
    Unit,
    Named(Vec<Field>),
    /// A tuple variant's fields.
    Unnamed,
}

impl VariantFields {
    /// The named fields, none for the other shapes.
    pub fn named(&self) -> &[Field] {
        match self {
            VariantFields::Named(fields) => fields,
            VariantFields::Unit | VariantFields::Unnamed => &[],
        }
    }
}

/// One parameter: a struct field or a field of a tagged enum's variant.
pub struct Field {
    pub ident: Ident,
    pub ty: Type,
    /// `ty`, classified.
    pub class: FieldType,
    pub docs: Option<String>,
    /// `#[arg(default = ..)]`, kept as written.
    pub default: Option<Expr>,
    pub min: Option<Bound>,
    pub max: Option<Bound>,
    pub allows: Vec<Allow>,
    /// `#[serde(default)]`: a default the schema does not show.
    pub serde_default: bool,
}

/// `min = ..` or `max = ..` as JSON number text (`"1"`, `"-0.5"`), with the span to blame.
pub struct Bound {
    pub text: String,
    pub span: Span,
}

// `#[tool_args]`, checked.

pub struct CheckedArgs {
    pub item: Item,
    pub ident: Ident,
    pub allows: Vec<Allow>,
    pub shape: CheckedShape,
}

pub enum CheckedShape {
    Struct {
        fields: Vec<CheckedField>,
        has_cursor: bool,
    },
    /// A fieldless enum: a closed set of names.
    Names,
    /// One entry per variant of the item, in order.
    Tagged {
        /// `None` after an error in the tag or in a variant's shape: the enum is then emitted
        /// without `tag`, so that serde adds no second error about the same mistake.
        tag: Option<LitStr>,
        variants: Vec<CheckedVariant>,
    },
}

pub struct CheckedVariant {
    pub ident: Ident,
    pub fields: Vec<CheckedField>,
}

/// A field with only the `#[arg]` keys that make sense on its type: the others are errors
/// already, and code for them would only add type errors that contradict the help.
pub struct CheckedField {
    pub ident: Ident,
    pub ty: Type,
    pub default: Option<Expr>,
    pub min: Option<String>,
    pub max: Option<String>,
    pub may_nest: bool,
    pub allows: Vec<Allow>,
}

// `#[mcp_tool]`, as parsed.

pub struct ToolItem {
    pub func: ItemFn,
    pub keys: ToolKeys,
    pub docs: Option<String>,
    pub params: Vec<FnParam>,
    /// The return type's span, or the fn name's when it returns nothing.
    pub return_span: Span,
    /// `T` of `ToolResult<T>`; `None` when the fn returns something else.
    pub output: Option<Output>,
}

/// The keys of `#[mcp_tool(...)]`.
pub struct ToolKeys {
    pub name: Option<LitStr>,
    pub family: Option<LitStr>,
    pub size_hint: Option<LitStr>,
    pub title: Option<LitStr>,
    pub annotations: Annotations<Option<Span>>,
    pub allows: Vec<Allow>,
}

/// The MCP tool annotations: as flags written (`Option<Span>`), or as checked (`bool`).
#[derive(Clone, Copy)]
pub struct Annotations<T> {
    pub read_only: T,
    pub destructive: T,
    pub idempotent: T,
    pub open_world: T,
}

pub struct FnParam {
    /// The span of a pattern that is not a plain name.
    pub complex_pattern: Option<Span>,
    pub kind: ParamKind,
}

pub enum ParamKind {
    /// `self`, by its span.
    Receiver(Span),
    /// `&mut T`, by the span of `mut`.
    MutRef(Span),
    /// `&ToolContext`.
    Context,
    /// `&T`: a server state.
    State(Type),
    /// A by-value parameter.
    ByValue(Type),
}

#[derive(Clone)]
pub struct Output {
    pub ty: Type,
    pub kind: OutputKind,
}

// `#[mcp_tool]`, checked.

pub struct CheckedTool {
    pub fn_ident: Ident,
    /// The name on the wire.
    pub name: String,
    pub family: String,
    pub size_hint: usize,
    pub title: Option<LitStr>,
    pub description: String,
    pub annotations: Annotations<bool>,
    pub params: Vec<ToolParam>,
    pub output: Output,
    pub return_span: Span,
    pub allows: Vec<Allow>,
    /// The message of the cross-item pagination check, `None` when it is not emitted (no
    /// arguments, or `pagination_mismatch` allowed).
    pub pagination_message: Option<String>,
}

pub enum ToolParam {
    Context,
    State(Type),
    /// The `#[tool_args]` struct.
    Args(Type),
}

impl CheckedTool {
    pub fn args_type(&self) -> Option<&Type> {
        self.params.iter().find_map(|p| match p {
            ToolParam::Args(t) => Some(t),
            _ => None,
        })
    }

    pub fn paginated(&self) -> bool {
        matches!(self.output.kind, OutputKind::Page(_))
    }
}
