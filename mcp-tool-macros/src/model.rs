//! The typed model of what the macros read and what they generate from.
//!
//! `parse` turns syntax into the `*Item` types below, reporting only what it cannot read.
//! `validate` checks an item and, if code can be generated for it, returns its `Checked*`
//! counterpart, which holds only facts that are known to be sound; `expand` reads nothing else.

use crate::classify::{FieldType, OutputKind};
use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::ext::IdentExt;
use syn::{Expr, Generics, Ident, ItemEnum, ItemFn, ItemStruct, LitStr, Type};

/// `allow(lint_name = "reason")`, as written.
#[derive(Clone)]
pub struct Allow {
    pub lint: Ident,
    pub reason: LitStr,
}

impl Allow {
    /// The lint's name, without the `r#` of a raw identifier.
    pub fn lint_name(&self) -> String {
        self.lint.unraw().to_string()
    }
}

// `#[tool_args]`, as parsed.

pub struct ArgsItem {
    pub ident: Ident,
    pub generics: Generics,
    /// `tag = ".."`: the field that names the variant of an internally tagged enum.
    pub tag: Option<LitStr>,
    pub allows: Vec<Allow>,
    /// `#[serde(deny_unknown_fields)]` on the item.
    pub deny_unknown_fields: Option<Span>,
    pub body: ArgsBody,
}

/// The item with its `#[arg]` attributes removed, ready to re-emit, and what it holds.
pub enum ArgsBody {
    Struct {
        item: ItemStruct,
        /// `None` when the fields are not named (a tuple or unit struct).
        fields: Option<Vec<Field>>,
    },
    Enum {
        item: ItemEnum,
        variants: Vec<Variant>,
    },
}

/// The item alone, for when no code can be generated for it.
impl ToTokens for ArgsBody {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match self {
            ArgsBody::Struct { item, .. } => item.to_tokens(tokens),
            ArgsBody::Enum { item, .. } => item.to_tokens(tokens),
        }
    }
}

pub struct Variant {
    pub ident: Ident,
    pub docs: Option<String>,
    /// A `#[doc = <expression>]` the macro cannot read (already an error): no lint says the
    /// docs are missing.
    pub unread_doc: Option<Span>,
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
    /// The parameter's name on the wire and in the schema: the field's name without `r#`, or
    /// its `#[serde(rename = "..")]`.
    pub name: String,
    pub ty: Type,
    /// `ty`, classified.
    pub class: FieldType,
    pub docs: Option<String>,
    /// A `#[doc = <expression>]` the macro cannot read (already an error): no lint says the
    /// docs are missing.
    pub unread_doc: Option<Span>,
    /// `#[arg(default = ..)]`, kept as written.
    pub default: Option<Expr>,
    pub min: Option<Bound>,
    pub max: Option<Bound>,
    pub allows: Vec<Allow>,
    /// `#[serde(default)]`: a default the schema does not show.
    pub serde_default: bool,
}

/// `min = ..` or `max = ..`: as JSON number text (`"1"`, `"-0.5"`) for the schema, as a finite
/// `f64` for the check run before the call, with the span to blame.
#[derive(Clone)]
pub struct Bound {
    pub text: String,
    pub value: f64,
    pub span: Span,
}

// `#[tool_args]`, checked.

pub struct CheckedArgs {
    pub ident: Ident,
    pub allows: Vec<Allow>,
    pub shape: CheckedShape,
}

/// What code is generated for, with the item to re-emit.
pub enum CheckedShape {
    Struct {
        item: ItemStruct,
        fields: Vec<CheckedField>,
        has_cursor: bool,
    },
    /// A fieldless enum: a closed set of names.
    Names { item: ItemEnum },
    /// One entry per variant of the item, in order.
    Tagged {
        item: ItemEnum,
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
    /// The name on the wire (`Field::name`).
    pub name: String,
    pub ty: Type,
    pub default: Option<Expr>,
    pub min: Option<Bound>,
    pub max: Option<Bound>,
    pub may_nest: bool,
    pub allows: Vec<Allow>,
}

// `#[mcp_tool]`, as parsed.

pub struct ToolItem {
    pub func: ItemFn,
    pub keys: ToolKeys,
    pub docs: Option<String>,
    /// A `#[doc = <expression>]` the macro cannot read (already an error): no lint says the
    /// docs are missing.
    pub unread_doc: Option<Span>,
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
    /// The span of a `#[cfg(..)]` on the parameter.
    pub cfg: Option<Span>,
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
