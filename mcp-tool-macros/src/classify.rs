//! What the macros know of a Rust type, decided once, from syntax, when the item is parsed.
//!
//! A proc macro sees names, not types: `Option<u32>` is known by its spelling, and an alias
//! hides it. Every rule that looks at a type (the checks of `#[arg]`, the design lints, the
//! generated code) reads the answers stored in the model, so they cannot disagree.

use mcp_tool_lint as lint;
use syn::Type;
use syn::ext::IdentExt;

/// The facts about an argument field's type.
#[derive(Clone, Debug)]
pub struct FieldType {
    /// `Option<T>`: the field may be absent.
    pub optional: bool,
    /// An integer or float, under at most one `Option`: bounds apply to it.
    pub numeric: bool,
    /// Whether the value might be (or hold) a tagged `#[tool_args]` enum with checks of its
    /// own: true for any type not known to have none.
    pub may_nest: bool,
    /// The type as the design lints see it.
    pub lint: lint::TypeClass,
}

pub fn field_type(ty: &Type) -> FieldType {
    let unwrapped = option_inner(ty).unwrap_or(ty);
    let element = option_inner(ty)
        .or_else(|| generic_arg(ty, "Vec"))
        .unwrap_or(ty);
    FieldType {
        optional: option_inner(ty).is_some(),
        numeric: is_number(unwrapped),
        may_nest: !is_number(element)
            && !matches!(
                last_ident(element).as_deref(),
                Some("String" | "bool" | "Cursor" | "Value" | "char")
            ),
        lint: lint_class(ty),
    }
}

/// Whether a field is the pagination cursor, by the lint's own rule (`Param::is_cursor`), so
/// that the const-evaluated check of `#[mcp_tool]` and the lint never disagree.
pub fn is_cursor(name: &str, ty: &FieldType) -> bool {
    lint::Param::new(name, ty.lint.clone()).is_cursor()
}

fn lint_class(ty: &Type) -> lint::TypeClass {
    use lint::TypeClass as C;
    if let Type::Reference(r) = ty {
        return lint_class(&r.elem);
    }
    if let Some(inner) = option_inner(ty) {
        return lint_class(inner);
    }
    for list in ["Vec", "HashSet", "BTreeSet"] {
        if let Some(inner) = generic_arg(ty, list) {
            return C::Array(Box::new(lint_class(inner)));
        }
    }
    match last_ident(ty).as_deref() {
        Some("String" | "str" | "Cow") => C::String,
        Some("bool") => C::Bool,
        Some(i) if INTEGERS.contains(&i) => C::Integer,
        Some(f) if FLOATS.contains(&f) => C::Number,
        Some("Cursor") => C::Cursor,
        Some("HashMap" | "BTreeMap" | "Map" | "Value") => C::Object,
        Some(other) => C::Other(other.to_owned()),
        None => C::Other(String::new()),
    }
}

/// How a tool hands its answer to the runtime, from the `T` of `ToolResult<T>`.
#[derive(Clone)]
pub enum OutputKind {
    /// `Page<U>`: a list, paginated; the output schema is that of `Vec<U>`.
    Page(Box<Type>),
    /// `Content`: rich content (text, images, resources), without an output schema.
    Content,
    /// Any other `T`, serialized as the data of the envelope.
    Value,
}

pub fn output_kind(output: &Type) -> OutputKind {
    if let Some(item) = generic_arg(output, "Page") {
        return OutputKind::Page(Box::new(item.clone()));
    }
    match last_ident(output).as_deref() {
        Some("Content") => OutputKind::Content,
        _ => OutputKind::Value,
    }
}

/// `T` of `ToolResult<T>` or `Result<T, ToolError>`.
pub fn tool_result_inner(ty: &Type) -> Option<Type> {
    let Type::Path(p) = ty else { return None };
    let seg = p.path.segments.last()?;
    let syn::PathArguments::AngleBracketed(a) = &seg.arguments else {
        return None;
    };
    let mut types = a.args.iter().filter_map(|g| match g {
        syn::GenericArgument::Type(t) => Some(t.clone()),
        _ => None,
    });
    match seg.ident.unraw().to_string().as_str() {
        "ToolResult" if a.args.len() == 1 => types.next(),
        "Result" if a.args.len() == 2 => {
            let ok = types.next()?;
            let err = types.next()?;
            (last_ident(&err).as_deref() == Some("ToolError")).then_some(ok)
        }
        _ => None,
    }
}

/// The first `impl Trait` in a type: a type the generated code cannot name.
pub fn impl_trait(ty: &Type) -> Option<&syn::TypeImplTrait> {
    match ty {
        Type::ImplTrait(i) => Some(i),
        Type::Reference(r) => impl_trait(&r.elem),
        Type::Ptr(p) => impl_trait(&p.elem),
        Type::Slice(s) => impl_trait(&s.elem),
        Type::Array(a) => impl_trait(&a.elem),
        Type::Paren(p) => impl_trait(&p.elem),
        Type::Group(g) => impl_trait(&g.elem),
        Type::Tuple(t) => t.elems.iter().find_map(impl_trait),
        Type::Path(p) => p.path.segments.iter().find_map(|s| match &s.arguments {
            syn::PathArguments::AngleBracketed(a) => a.args.iter().find_map(|g| match g {
                syn::GenericArgument::Type(t) => impl_trait(t),
                _ => None,
            }),
            _ => None,
        }),
        _ => None,
    }
}

/// Whether a `&T` parameter is the call's `&ToolContext` rather than a server state.
pub fn is_context(referent: &Type) -> bool {
    last_ident(referent).as_deref() == Some("ToolContext")
}

const INTEGERS: [&str; 10] = [
    "u8", "u16", "u32", "u64", "usize", "i8", "i16", "i32", "i64", "isize",
];
const FLOATS: [&str; 2] = ["f32", "f64"];

fn is_number(ty: &Type) -> bool {
    last_ident(ty).is_some_and(|i| INTEGERS.contains(&i.as_str()) || FLOATS.contains(&i.as_str()))
}

/// `T` of `Option<T>`.
fn option_inner(ty: &Type) -> Option<&Type> {
    generic_arg(ty, "Option")
}

/// The single type argument of `Name<T>` (by last path segment).
fn generic_arg<'a>(ty: &'a Type, name: &str) -> Option<&'a Type> {
    let Type::Path(p) = ty else { return None };
    let seg = p.path.segments.last()?;
    if seg.ident.unraw() != name {
        return None;
    }
    let syn::PathArguments::AngleBracketed(a) = &seg.arguments else {
        return None;
    };
    match a.args.first()? {
        syn::GenericArgument::Type(t) => Some(t),
        _ => None,
    }
}

/// The last path segment's name, through references.
fn last_ident(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(p) => p.path.segments.last().map(|s| s.ident.unraw().to_string()),
        Type::Reference(r) => last_ident(&r.elem),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lint::TypeClass as C;

    fn of(ty: &str) -> FieldType {
        field_type(&syn::parse_str(ty).expect("a type"))
    }

    #[test]
    fn options_and_numbers() {
        let t = of("Option<u32>");
        assert!(t.optional && t.numeric && !t.may_nest);
        assert_eq!(t.lint, C::Integer);
        let t = of("f64");
        assert!(!t.optional && t.numeric);
        assert_eq!(t.lint, C::Number);
        assert!(!of("Option<Option<u32>>").numeric);
    }

    #[test]
    fn what_may_nest() {
        for leaf in [
            "String",
            "bool",
            "Cursor",
            "Value",
            "char",
            "Vec<u8>",
            "Option<String>",
        ] {
            assert!(!of(leaf).may_nest, "{leaf}");
        }
        for user in ["Detail", "Vec<Detail>", "Option<Detail>", "Option<Vec<u8>>"] {
            assert!(of(user).may_nest, "{user}");
        }
    }

    #[test]
    fn lint_classes() {
        assert_eq!(of("Vec<String>").lint, C::Array(Box::new(C::String)));
        assert_eq!(of("Option<Cursor>").lint, C::Cursor);
        assert_eq!(of("HashMap<String, u32>").lint, C::Object);
        assert_eq!(of("Provider").lint, C::Other("Provider".into()));
    }

    #[test]
    fn impl_trait_anywhere_in_a_type() {
        for ty in [
            "impl Sized",
            "&impl Sized",
            "Vec<impl Sized>",
            "(u8, [impl Sized; 2])",
        ] {
            let ty: Type = syn::parse_str(ty).unwrap();
            assert!(impl_trait(&ty).is_some(), "{}", quote::quote!(#ty));
        }
        for ty in ["u8", "&dyn Fn()", "Vec<Box<dyn Sized>>", "fn() -> u8"] {
            let ty: Type = syn::parse_str(ty).unwrap();
            assert!(impl_trait(&ty).is_none(), "{}", quote::quote!(#ty));
        }
    }

    #[test]
    fn outputs() {
        let page: Type = syn::parse_str("Page<Event>").unwrap();
        assert!(matches!(output_kind(&page), OutputKind::Page(_)));
        let content: Type = syn::parse_str("Content").unwrap();
        assert!(matches!(output_kind(&content), OutputKind::Content));
        let result: Type = syn::parse_str("Result<u32, ToolError>").unwrap();
        assert!(tool_result_inner(&result).is_some());
        let other: Type = syn::parse_str("Result<u32, String>").unwrap();
        assert!(tool_result_inner(&other).is_none());
    }
}
