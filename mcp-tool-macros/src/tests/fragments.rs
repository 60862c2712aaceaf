//! Fragments of Rust syntax, and the items and attribute arguments built from them. In each
//! list the clean options come first (`Dim::clean` of them).

use super::generate::{Case, Dim, Picker};

// Attributes, in every form a doc or a configuration can take.

pub const DOCS: Dim = Dim {
    name: "docs",
    clean: 4,
    needed: true,
    options: &[
        "/// What it is.",
        "/** What it is, in a block. */",
        "#[doc = \"What it is.\"]",
        "/// Größe, 検索, İstanbul, ǅ, ß, “quotes”, 🚀: Unicode of every width.",
        "///",
        "/// İİİ defaults to 5, only when İ is set; one of 'İ', 'ß'.",
        "/// Returns 'a', 'b' or 'c' (default: 'a').",
        "/**\n * A block doc\n * on lines.\n */",
        "#[doc = \"\"]",
        "#[doc = \"   \"]",
        "#[doc = \"line one\\nline two\\n\\n\\n\"]",
        "#[doc = include_str!(\"../README.md\")]",
        "#[doc = concat!(\"What \", \"it is.\")]",
        "#[doc = r#\"A raw \"doc\".\"#]",
        "#[doc = \"\\u{0}\\u{feff}\\t\"]",
        "#[doc(hidden)]",
        "#[doc(alias = \"other\")]",
        "#[doc = 5]",
        "#[doc = b\"bytes\"]",
    ],
};

pub const CFGS: Dim = Dim {
    name: "cfgs",
    clean: 4,
    needed: false,
    options: &[
        "#[allow(dead_code)]",
        "#[rustfmt::skip]",
        "#[cfg(all())]",
        "#[cfg_attr(all(), doc = \"Always.\")]",
        "#[cfg(test)]",
        "#[cfg(any())]",
        "#[cfg_attr(test, doc = \"Only in tests.\")]",
        "#[deprecated]",
    ],
};

pub const VIS: Dim = Dim {
    name: "vis",
    clean: 7,
    needed: false,
    options: &[
        "",
        "pub",
        "pub(crate)",
        "pub(super)",
        "pub(self)",
        "pub(in crate)",
        "pub(in crate::a::b)",
    ],
};

pub const GENERICS: Dim = Dim {
    name: "generics",
    clean: 2,
    needed: false,
    options: &[
        "",
        "",
        "<T>",
        "<'a>",
        "<'a, 'b: 'a, T: Clone + 'a>",
        "<const N: usize>",
        "<T = u32>",
        "<T: ?Sized>",
    ],
};

pub const WHERE: Dim = Dim {
    name: "where",
    clean: 3,
    needed: false,
    options: &[
        "",
        "",
        "where u8: Copy,",
        "where T: Clone",
        "where for<'x> fn(&'x u8): Copy",
    ],
};

// `#[tool_args]`: fields and variants.

pub const FIELD_NAMES: Dim = Dim {
    name: "field_names",
    clean: 10,
    needed: false,
    options: &[
        "query",
        "r#match",
        // (`r#fn` would be an abbreviation: `vague_name`.)
        "r#loop",
        "r#struct",
        "r#async",
        "r#query",
        "größe",
        "名前",
        "ünïcödé_name_with_many_chars",
        "_x",
        "r#type",
        "limit",
        "cursor",
        "r#limit",
        "r#cursor",
        "data",
        "page_size",
        "include_content",
    ],
};

pub const FIELD_TYPES: Dim = Dim {
    name: "field_types",
    clean: 20,
    needed: false,
    options: &[
        "String",
        "Option<String>",
        "Option<Option<String>>",
        "Vec<Option<String>>",
        "Vec<Vec<u8>>",
        "Option<Vec<Option<u32>>>",
        "i64",
        "f32",
        "char",
        "&'static str",
        "[u8; 4]",
        "[String; 0]",
        "(u8, u8)",
        "Order",
        "r#Type",
        "Größe",
        "::std::option::Option<String>",
        "std::vec::Vec<f64>",
        "Box<Option<Option<u32>>>",
        "crate::model::Order",
        "u32",
        "u128",
        "bool",
        "Option<u32>",
        "Option<Option<u32>>",
        "&'a str",
        "&mut u32",
        "()",
        "(u32)",
        "Box<dyn Fn() + Send>",
        "fn(u8) -> u8",
        "T",
        "Self",
        "Cursor",
        "Option<Cursor>",
        "HashMap<String, u32>",
        "<T as Trait>::Assoc",
        "Option<>",
        "Option<u32, u8>",
        "Option<'a>",
        "Vec<'a, u8>",
        "ty!()",
        "*const u8",
    ],
};

pub const FIELD_ATTRS: Dim = Dim {
    name: "field_attrs",
    clean: 1,
    needed: false,
    options: &[
        "#[serde(rename = \"other_name\")]",
        // Well formed, but not clean on every type.
        "#[arg(default = 5)]",
        "#[arg(min = 1, max = 10)]",
        "#[arg(min = -1.5, max = 2.5e3)]",
        "#[arg(default = \"text\")]",
        "#[arg(default = Order::Newest)]",
        "#[arg(allow(vague_name = \"the name users know\"))]",
        "#[arg(max = 0x10)]",
        "#[arg(max = 1_000u64)]",
        "#[arg(min = 0, max = 1.)]",
        "#[arg(max = 1E5)]",
        "#[arg(min = -0)]",
        "#[arg(max = 340282366920938463463374607431768211456)]",
        "#[arg(min = 1)] #[arg(max = 2)]",
        "#[serde(default)]",
        "#[serde(rename = \"type\")]",
        "#[serde(flatten)]",
        "#[serde(default = \"path\")]",
        "#[serde(skip)]",
        "#[serde(rename(deserialize = \"in\", serialize = \"out\"), default)]",
        "#[serde(rename = 5)]",
        "#[serde(rename = \"\")]",
        "#[serde(rename = \"r#type\")]",
        // Malformed.
        "#[arg(max = 1e400)]",
        "#[arg(min = -1e309)]",
        "#[arg]",
        "#[arg()]",
        "#[arg = 5]",
        "#[arg(unknown = 1)]",
        "#[arg(min = \"one\")]",
        "#[arg(min = true)]",
        "#[arg(min)]",
        "#[arg(min = 1, min = 2)]",
        "#[arg(default)]",
        "#[arg(default = )]",
        "#[arg(default = 1, default = 2)]",
        "#[arg(allow(vague_name = \"\"))]",
        "#[arg(allow(nope = \"x\"))]",
        "#[arg(allow(vague_name))]",
        "#[arg(allow = 3)]",
        "#[arg(allow(r#type = \"x\"))]",
        "#[arg(allow(r#vague_name = \"x\"))]",
        "#[arg(allow(vague_name = 5))]",
        "#[arg(allow(vague_name = \"a\", vague_name = \"b\"))]",
        "#[arg(min = -x)]",
        "#[arg(min = --1)]",
        "#[arg(min = (1))]",
        "#[arg(,)]",
        "#[arg(min = 1,,)]",
        "#[arg(\"lit\")]",
        "#[arg(r#min = 1)]",
        "#[arg(min = 'c')]",
        "#[arg(min = b'x')]",
        "#[arg(max = 1u8 + 2)]",
        "#[arg(default = |x| x)]",
        "#[arg(default = { 5 })]",
        "#[arg(default = r#\"raw\"#)]",
        "#[arg::nested]",
        "#[arg(min = 1; max = 2)]",
        "#[serde]",
        "#[serde = \"x\"]",
        "#[serde(default = )]",
        "#[cfg_attr(all(), arg(min = 1))]",
        "#[cfg_attr(any(), serde(default))]",
    ],
};

pub const ARGS_ITEM_ATTRS: Dim = Dim {
    name: "args_item_attrs",
    clean: 3,
    needed: false,
    options: &[
        "#[derive(Debug)]",
        "#[cfg_attr(test, derive(Clone))]",
        "#[non_exhaustive]",
        "#[serde(deny_unknown_fields)]",
        "#[serde(rename_all = \"camelCase\")]",
        "#[serde(rename_all = \"SCREAMING-KEBAB-CASE\")]",
        "#[serde(rename_all(deserialize = \"PascalCase\"))]",
        "#[serde(rename_all = \"nonsense\")]",
        "#[serde(tag = \"t\")]",
        "#[serde(deny_unknown_fields, deny_unknown_fields)]",
        "#[serde(crate = \"x\")]",
        "#[serde]",
        "#[repr(C)]",
        "#[arg(min = 1)]",
    ],
};

pub const ITEM_NAMES: Dim = Dim {
    name: "item_names",
    clean: 6,
    needed: false,
    options: &["Args", "SearchArgs", "r#Args", "r#match", "Größe", "名前"],
};

pub const STRUCT_BODIES: Dim = Dim {
    name: "struct_bodies",
    clean: 4,
    needed: false,
    options: &[
        "named",
        "named",
        "named",
        "empty",
        "tuple",
        "tuple_arg",
        "unit",
    ],
};

pub const VARIANT_NAMES: Dim = Dim {
    name: "variant_names",
    clean: 8,
    needed: false,
    options: &[
        "Newest", "Oldest", "r#Type", "r#match", "Größe", "名前", "Self_", "A",
    ],
};

pub const VARIANT_SHAPES: Dim = Dim {
    name: "variant_shapes",
    clean: 3,
    needed: false,
    options: &[
        "",
        "",
        "= 3",
        "named",
        "named",
        "{}",
        "()",
        "(u32)",
        "(u32, String)",
    ],
};

pub const VARIANT_ATTRS: Dim = Dim {
    name: "variant_attrs",
    clean: 2,
    needed: false,
    options: &[
        "/// When to choose it.",
        "#[serde(rename = \"other\")]",
        "#[serde(skip)]",
        "#[default]",
        "#[arg(min = 1)]",
        "#[cfg(test)]",
    ],
};

pub const ARGS_ATTRS: Dim = Dim {
    name: "args_attrs",
    clean: 2,
    needed: false,
    options: &[
        "",
        "",
        "tag = \"kind\"",
        "tag = \"detail_level\"",
        "tag = \"\"",
        "tag = \"   \"",
        "tag = \"r#type\"",
        "tag = \"größe\"",
        "tag = \"limit\"",
        "tag = \"match\"",
        "tag = 1",
        "tag",
        "tag()",
        "tag = \"a\", tag = \"b\"",
        "allow(too_many_params = \"many, on purpose\")",
        "allow(too_many_params = \"\")",
        "allow(false_strictness = \"r\", false_strictness = \"s\")",
        "allow()",
        "allow",
        "allow(x = 1)",
        "allow(nope = \"x\")",
        "allow(r#type = \"x\")",
        "allow(a::b = \"x\")",
        "unknown",
        "unknown = 5",
        "\"just a string\"",
        "5",
        "=",
        ",",
        ", ,",
        "tag = \"k\",",
        "tag = \"k\" allow()",
        "r#tag = \"k\"",
        "tag = r#\"k\"#",
        "tag = b\"k\"",
        "tag = c\"k\"",
        "crate::path",
        "tag = \"k\"; x",
        "(tag = \"k\")",
        "[1, 2]",
        "{}",
    ],
};

pub const ITEM_KINDS: Dim = Dim {
    name: "item_kinds",
    clean: 5,
    needed: false,
    options: &[
        "struct",
        "struct",
        "struct",
        "enum",
        "enum",
        "fn f() {}",
        "async fn f(args: Args) -> ToolResult<u32> { todo!() }",
        "impl Foo { fn f() {} }",
        "trait T { fn f(); }",
        "const X: u8 = 1;",
        "static S: u8 = 1;",
        "mod m {}",
        "use std::fmt;",
        "type A = u8;",
        "union U { a: u32 }",
        "extern crate core;",
        "macro_rules! m { () => {} }",
        "extern \"C\" {}",
        "m!();",
    ],
};

/// A field (of a struct or a variant).
fn field(p: &mut Picker) -> String {
    let docs = p.some(&DOCS, 2);
    let cfgs = p.some(&CFGS, 1);
    let attrs = p.some(&FIELD_ATTRS, 2);
    let vis = p.pick(&VIS);
    let (name, ty) = (p.pick(&FIELD_NAMES), p.pick(&FIELD_TYPES));
    format!("{docs}\n{cfgs}\n{attrs}\n{vis} {name}: {ty},")
}

fn fields(p: &mut Picker, max: usize) -> String {
    let n = p.below(max + 1);
    (0..n).map(|_| field(p)).collect::<Vec<_>>().join("\n")
}

fn struct_item(p: &mut Picker, extra_attrs: &Dim) -> String {
    let attrs = [p.some(&DOCS, 2), p.some(&CFGS, 1), p.some(extra_attrs, 1)].join("\n");
    let (vis, name) = (p.pick(&VIS), p.pick(&ITEM_NAMES));
    let (generics, where_clause) = (p.pick(&GENERICS), p.pick(&WHERE));
    let body = match p.pick(&STRUCT_BODIES) {
        "named" => format!("{where_clause} {{ {} }}", fields(p, 4)),
        "tuple" => format!("(pub u32, Option<Option<String>>) {where_clause};"),
        "tuple_arg" => format!("(#[arg(min = 1)] pub u32, #[arg] String) {where_clause};"),
        "unit" => format!("{where_clause};"),
        _ => format!("{where_clause} {{}}"),
    };
    format!("{attrs}\n{vis} struct {name}{generics} {body}")
}

fn variant(p: &mut Picker) -> String {
    let attrs = p.some(&VARIANT_ATTRS, 2);
    let name = p.pick(&VARIANT_NAMES);
    let shape = match p.pick(&VARIANT_SHAPES) {
        "named" => format!("{{ {} }}", fields(p, 3)),
        other => other.to_owned(),
    };
    format!("{attrs}\n{name} {shape},")
}

fn enum_item(p: &mut Picker, extra_attrs: &Dim) -> String {
    let attrs = [p.some(&DOCS, 2), p.some(&CFGS, 1), p.some(extra_attrs, 1)].join("\n");
    let (vis, name) = (p.pick(&VIS), p.pick(&ITEM_NAMES));
    let (generics, where_clause) = (p.pick(&GENERICS), p.pick(&WHERE));
    let n = p.below(5);
    let variants: Vec<String> = (0..n).map(|_| variant(p)).collect();
    let variants = variants.join("\n");
    format!("{attrs}\n{vis} enum {name}{generics} {where_clause} {{ {variants} }}")
}

/// A struct, an enum or another item, under `extra_attrs` when it is a struct or an enum.
fn any_item(p: &mut Picker, extra_attrs: &Dim) -> String {
    match p.pick(&ITEM_KINDS) {
        "struct" => struct_item(p, extra_attrs),
        "enum" => enum_item(p, extra_attrs),
        other => other.to_owned(),
    }
}

pub const ARGS_DIMS: [&Dim; 16] = [
    &DOCS,
    &CFGS,
    &VIS,
    &GENERICS,
    &WHERE,
    &FIELD_NAMES,
    &FIELD_TYPES,
    &FIELD_ATTRS,
    &ARGS_ITEM_ATTRS,
    &ITEM_NAMES,
    &STRUCT_BODIES,
    &VARIANT_NAMES,
    &VARIANT_SHAPES,
    &VARIANT_ATTRS,
    &ARGS_ATTRS,
    &ITEM_KINDS,
];

pub fn args_case(p: &mut Picker) -> Case {
    (
        p.pick(&ARGS_ATTRS).to_owned(),
        any_item(p, &ARGS_ITEM_ATTRS),
    )
}

// `#[mcp_tool]`: fns.

pub const QUALIFIERS: Dim = Dim {
    name: "qualifiers",
    clean: 3,
    needed: false,
    options: &[
        "async",
        "async",
        "async",
        "",
        "const",
        "unsafe",
        "async unsafe",
        "async extern \"C\"",
        "extern \"C\"",
    ],
};

pub const FN_NAMES: Dim = Dim {
    name: "fn_names",
    clean: 3,
    needed: false,
    options: &[
        "list_tasks",
        "search_events",
        "r#list_tasks",
        "get",
        "r#match",
        "r#type",
        "r#fn",
        "zähle_dinge",
        "名前",
        "a",
        "_x",
    ],
};

pub const RECEIVERS: Dim = Dim {
    name: "receivers",
    clean: 4,
    needed: false,
    options: &[
        "",
        "",
        "",
        "",
        "&self",
        "self",
        "&mut self",
        "mut self",
        "self: Box<Self>",
        "&'a self",
    ],
};

/// Parameters taken by reference: the context and server states.
pub const REF_PARAMS: Dim = Dim {
    name: "ref_params",
    clean: 9,
    needed: false,
    options: &[
        "ctx: &ToolContext",
        "state: &State",
        "state: &'static State",
        "ctx: &::mcp_tool::ToolContext",
        "x: &[u8]",
        "x: &&State",
        "x: &'static str",
        "f: &dyn Fn()",
        "#[allow(unused)] ctx: &ToolContext",
        "s: &mut State",
        "ctx: &mut ToolContext",
        "&x: &u8",
        "x: &impl Sized",
        "state: &'a State",
        "x: &T",
    ],
};

/// Parameters taken by value: the arguments, or a mistake.
pub const VALUE_PARAMS: Dim = Dim {
    name: "value_params",
    clean: 11,
    needed: false,
    options: &[
        "args: Args",
        "mut args: Args",
        "r#type: Args",
        "größe: Args",
        "_: Args",
        "args: r#Args",
        "#[cfg_attr(test, allow(unused))] args: Args",
        "ref x: Args",
        "x: Option<Option<u32>>",
        "x: [u8; 4]",
        "x: ()",
        "#[cfg(test)] args: Args",
        "(a, b): (u8, u8)",
        "Args { a, .. }: Args",
        "Args(a): Args",
        "x @ _: Args",
        "[a, b]: [u8; 2]",
        "x: impl Into<String>",
        "x: Box<impl Sized>",
        "x: T",
        "f: fn()",
        "x: Box<dyn Trait>",
        "x: ty!()",
    ],
};

pub const RETURNS: Dim = Dim {
    name: "returns",
    clean: 13,
    needed: false,
    options: &[
        "-> ToolResult<u32>",
        "-> ToolResult<u32>",
        "-> Result<u32, ToolError>",
        "-> ToolResult<Content>",
        "-> ToolResult<Option<Option<u32>>>",
        "-> ToolResult<Vec<Option<Task>>>",
        "-> ToolResult<[u8; 4]>",
        "-> ToolResult<()>",
        "-> ToolResult<&'static str>",
        "-> ::mcp_tool::ToolResult<u32>",
        "-> ToolResult<r#Type>",
        "-> ToolResult<Größe>",
        "-> Result<u32, ::mcp_tool::ToolError>",
        "-> ToolResult<Page<Task>>",
        "",
        "-> Result<u32, String>",
        "-> ToolResult",
        "-> ToolResult<>",
        "-> ToolResult<u32, u8>",
        "-> ToolResult<'a, u32>",
        "-> impl Future<Output = u32>",
        "-> ToolResult<&'a str>",
        "-> ToolResult<impl Serialize>",
        "-> ToolResult<Page<impl Serialize>>",
        "-> ToolResult<Vec<impl Serialize>>",
        "-> Result<Page<T>, ::x::ToolError>",
        "-> Result<u32>",
        "-> Result<'a, u32, ToolError>",
        "-> Page<u32>",
        "-> !",
        "-> ToolResult<Page<>>",
        "-> ToolResult<Page<'a>>",
        "-> ToolResult<Page<u32, u8>>",
        "-> ToolResult<Self>",
        "-> ToolResult<dyn Trait>",
        "-> ToolResult<fn() -> u8>",
        "-> (u32)",
        "-> ToolResult<T>",
        "-> ToolResult<ty!()>",
        "-> ToolResult<(u8, impl Sized)>",
    ],
};

pub const TOOL_ITEM_ATTRS: Dim = Dim {
    name: "tool_item_attrs",
    clean: 4,
    needed: false,
    options: &[
        "#[inline]",
        "#[must_use]",
        "#[allow(unused)]",
        "#[tracing::instrument]",
        "#[mcp_tool(family = \"f\", size_hint = \"1KB\")]",
        "#[arg(min = 1)]",
    ],
};

pub const TOOL_ATTRS: Dim = Dim {
    name: "tool_attrs",
    clean: 4,
    needed: false,
    options: &[
        "family = \"board\", size_hint = \"10KB\", read_only",
        "family = \"board\", size_hint = \"10KB\", read_only",
        "family = \"board\", size_hint = \"1KB\", title = \"Tasks\", read_only, idempotent",
        "name = \"delete_tasks\", family = \"board\", size_hint = \"1MB\", destructive",
        "family = \"board\", size_hint = \"10KB\", read_only, destructive, idempotent, open_world",
        "family = \"f\", size_hint = \"1KB\", allow(tool_name = \"the name clients call\")",
        "family = \"f\", size_hint = \"1KB\", allow(pagination_mismatch = \"on purpose\")",
        "",
        "family = \"f\"",
        "size_hint = \"1KB\"",
        "family = \"f\", size_hint = \"10 KB\"",
        "family = \"f\", size_hint = \"İKB\"",
        "family = \"f\", size_hint = \"99999999999999999999999MB\"",
        "family = \"f\", size_hint = \"18014398509481984MB\"",
        "family = \"f\", size_hint = \"0KB\"",
        "family = \"f\", size_hint = \"\"",
        "family = \"f\", size_hint = 10",
        "family = 1, size_hint = \"1KB\"",
        "family, size_hint",
        "family = \"f\", size_hint = \"1KB\", read_only = true",
        "family = \"f\", size_hint = \"1KB\", read_only = \"yes\"",
        "family = \"f\", size_hint = \"1KB\", read_only(x)",
        "family = \"a\", family = \"b\", size_hint = \"1KB\"",
        "family = \"f\", size_hint = \"1KB\", read_only, read_only",
        "family = \"f\", size_hint = \"1KB\", name = \"\"",
        "family = \"f\", size_hint = \"1KB\", name = \"r#x\"",
        "family = \"f\", size_hint = \"1KB\", name = \"名前\"",
        "family = \"f\", size_hint = \"1KB\", name = \"İstanbul_İİİ\"",
        "family = \"\", size_hint = \"1KB\", title = \"\"",
        "family = \"f\", size_hint = \"1KB\", allow(tool_name = \"\")",
        "family = \"f\", size_hint = \"1KB\", allow(tool_name)",
        "family = \"f\", size_hint = \"1KB\", allow(r#type = \"x\")",
        "family = \"f\", size_hint = \"1KB\", allow(r#tool_name = \"x\")",
        "family = \"f\", size_hint = \"1KB\", allow()",
        "family = \"f\", size_hint = \"1KB\", allow(nope = \"x\")",
        "family = \"f\", size_hint = \"1KB\", unknown = 1",
        "\"str\"",
        "5",
        "family = \"f\" size_hint = \"1KB\"",
        ", , ,",
        "family = \"f\", size_hint = \"1KB\",",
        "family = r#\"f\"#, size_hint = r\"1KB\"",
        "family = b\"f\", size_hint = c\"1KB\"",
        "r#family = \"f\", r#size_hint = \"1KB\"",
        "family = \"f\"; size_hint = \"1KB\"",
        "(family = \"f\")",
        "family = \"f\", size_hint = \"1KB\", title = 'c'",
    ],
};

pub const TOOL_DIMS: [&Dim; 13] = [
    &DOCS,
    &CFGS,
    &VIS,
    &GENERICS,
    &WHERE,
    &QUALIFIERS,
    &FN_NAMES,
    &RECEIVERS,
    &REF_PARAMS,
    &VALUE_PARAMS,
    &RETURNS,
    &TOOL_ITEM_ATTRS,
    &TOOL_ATTRS,
];

fn fn_item(p: &mut Picker) -> String {
    let attrs = [
        p.some(&DOCS, 2),
        p.some(&CFGS, 1),
        p.some(&TOOL_ITEM_ATTRS, 1),
    ]
    .join("\n");
    let (vis, qualifiers, name) = (p.pick(&VIS), p.pick(&QUALIFIERS), p.pick(&FN_NAMES));
    let (generics, where_clause) = (p.pick(&GENERICS), p.pick(&WHERE));
    let receiver = p.pick(&RECEIVERS);
    let by_ref = p.below(3);
    // A clean tool takes at most one argument by value.
    let by_value = p.below(if p.clean() { 2 } else { 3 });
    let mut params: Vec<&str> = (0..by_ref).map(|_| p.pick(&REF_PARAMS)).collect();
    for _ in 0..by_value {
        let at = p.below(params.len() + 1);
        params.insert(at, p.pick(&VALUE_PARAMS));
    }
    // A receiver is always first: elsewhere it is not a fn item at all.
    if !receiver.is_empty() {
        params.insert(0, receiver);
    }
    let params = params.join(", ");
    let returns = p.pick(&RETURNS);
    format!(
        "{attrs}\n{vis} {qualifiers} fn {name}{generics}({params}) {returns} {where_clause} {{ todo!() }}"
    )
}

pub fn tool_case(p: &mut Picker) -> Case {
    let attr = p.pick(&TOOL_ATTRS).to_owned();
    // Mostly fns, and now and then any other item.
    let item = match p.below(8) {
        0 if !p.clean() => any_item(p, &ARGS_ITEM_ATTRS),
        _ => fn_item(p),
    };
    (attr, item)
}

// `#[tool_output]`.

pub const OUTPUT_ATTRS: Dim = Dim {
    name: "output_attrs",
    clean: 3,
    needed: false,
    options: &[
        "",
        "",
        "",
        "x",
        "= 1",
        "rename_all = \"camelCase\"",
        "\"str\"",
        ",",
    ],
};

pub const OUTPUT_DIMS: [&Dim; 10] = [
    &DOCS,
    &CFGS,
    &VIS,
    &GENERICS,
    &FIELD_NAMES,
    &FIELD_TYPES,
    &ITEM_NAMES,
    &STRUCT_BODIES,
    &ITEM_KINDS,
    &OUTPUT_ATTRS,
];

pub fn output_case(p: &mut Picker) -> Case {
    (p.pick(&OUTPUT_ATTRS).to_owned(), any_item(p, &CFGS))
}
