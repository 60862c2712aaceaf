//! Runs one macro entry point in-process on one input and judges its output: it must not panic,
//! it must be items (`compile_error!` included), and it must give the item back so that code
//! using the item does not fail in cascade.

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use quote::ToTokens;
use std::cell::Cell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

/// A macro entry point, as `lib.rs` calls it.
pub type Entry = fn(TokenStream, TokenStream) -> TokenStream;

/// The three attributes, by name.
pub const MACROS: [(&str, Entry); 3] = [
    ("mcp_tool", crate::tool::expand),
    ("tool_args", crate::args::expand),
    ("tool_output", crate::output::expand),
];

/// What a macro made of an input that it handled without panicking.
pub struct Expansion {
    pub file: syn::File,
    /// The messages of its `compile_error!`s; empty when it expanded cleanly.
    pub errors: Vec<String>,
}

thread_local! {
    static EXPECTING_PANICS: Cell<bool> = const { Cell::new(false) };
}

/// Keeps the default hook's report for panics outside [`expand`]: the tests of this crate run
/// in parallel in one process, and a failing assertion elsewhere must still be printed.
fn quiet_hook() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !EXPECTING_PANICS.with(Cell::get) {
                default(info);
            }
        }));
    });
}

/// Expands `item` under `#[name(attr)]`, or says what went wrong.
pub fn expand(entry: Entry, attr: &str, item: &str) -> Result<Expansion, String> {
    let attr: TokenStream = attr
        .parse()
        .unwrap_or_else(|e| panic!("generator bug: attribute `{attr}` is not tokens: {e}"));
    let item_tokens: TokenStream = item
        .parse()
        .unwrap_or_else(|e| panic!("generator bug: item is not tokens: {e}\n{item}"));
    let input: syn::Item = syn::parse2(item_tokens.clone())
        .unwrap_or_else(|e| panic!("generator bug: not an item: {e}\n{item}"));

    quiet_hook();
    EXPECTING_PANICS.with(|f| f.set(true));
    let result = panic::catch_unwind(AssertUnwindSafe(|| entry(attr, item_tokens)));
    EXPECTING_PANICS.with(|f| f.set(false));
    let output = result.map_err(|payload| {
        let message = payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_default();
        format!("panicked: {message}")
    })?;

    let file: syn::File =
        syn::parse2(output.clone()).map_err(|e| format!("output is not items: {e}\n{output}"))?;
    let errors = compile_errors(&file);
    if let Some(ident) = item_ident(&input)
        && !file.items.iter().any(|i| item_ident(i) == Some(ident))
    {
        return Err(format!(
            "the item `{ident}` is not in the output: its users would fail in cascade\n{output}"
        ));
    }
    if let Some(empty) = errors.iter().find(|m| m.trim().is_empty()) {
        return Err(format!("a compile_error! without a message: {empty:?}"));
    }
    if let Some(bare) = errors.iter().find(|m| !m.contains("\n\nhelp: ")) {
        return Err(format!("an error without a `help:` line: {bare}"));
    }
    Ok(Expansion { file, errors })
}

/// The macro called `name`.
pub fn entry(name: &str) -> Entry {
    MACROS.iter().find(|(n, _)| *n == name).expect("a macro").1
}

/// [`expand`] by the macro's name, with its own rules too: `#[tool_args]` leaves no `#[arg]`
/// on a struct or an enum (any other item it gives back as written).
pub fn judge(name: &str, attr: &str, item: &str) -> Result<Expansion, String> {
    let expansion = expand(entry(name), attr, item)?;
    let data = matches!(
        syn::parse_str(item),
        Ok(syn::Item::Struct(_) | syn::Item::Enum(_))
    );
    if name == "tool_args" && data && has_arg_attr(expansion.tokens()) {
        return Err(format!(
            "an #[arg] is left in the output\n{}",
            expansion.tokens()
        ));
    }
    Ok(expansion)
}

/// The output of `#[name(attr)] item` as text, and its errors; the input must pass [`expand`].
pub fn expanded(name: &str, attr: &str, item: &str) -> (String, Vec<String>) {
    let expansion = judge(name, attr, item).unwrap_or_else(|why| panic!("{why}"));
    (expansion.tokens().to_string(), expansion.errors)
}

/// Whether an `#[arg(..)]` attribute is left anywhere in `tokens`, alone or in a `cfg_attr`:
/// `#[tool_args]` takes them all off, since no other attribute reads them and the compiler
/// would add "cannot find attribute `arg`" to the errors.
pub fn has_arg_attr(tokens: TokenStream) -> bool {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    tokens.iter().enumerate().any(|(i, t)| match t {
        TokenTree::Group(g) => {
            let is_attr = matches!(&tokens[..i], [.., TokenTree::Punct(p)] if p.as_char() == '#')
                && g.delimiter() == Delimiter::Bracket;
            let inner: Vec<TokenTree> = g.stream().into_iter().collect();
            let in_cfg_attr = match inner.as_slice() {
                [TokenTree::Ident(id), TokenTree::Group(list)] if id == "cfg_attr" => {
                    let list: Vec<TokenTree> = list.stream().into_iter().collect();
                    // The attributes after the predicate, each after a `,`.
                    list.split(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ','))
                        .skip(1)
                        .any(is_arg)
                }
                _ => false,
            };
            (is_attr && (is_arg(&inner) || in_cfg_attr)) || has_arg_attr(g.stream())
        }
        _ => false,
    })
}

impl Expansion {
    pub fn tokens(&self) -> TokenStream {
        self.file.to_token_stream()
    }
}

/// Whether the tokens of an attribute are `arg`, `arg(..)` or `arg = ..`, not a path such as
/// `arg::other`.
fn is_arg(tokens: &[TokenTree]) -> bool {
    match tokens {
        [TokenTree::Ident(id), rest @ ..] => {
            id == "arg" && !matches!(rest.first(), Some(TokenTree::Punct(p)) if p.as_char() == ':')
        }
        _ => false,
    }
}

/// The name of a struct, enum or fn.
fn item_ident(item: &syn::Item) -> Option<&syn::Ident> {
    match item {
        syn::Item::Struct(s) => Some(&s.ident),
        syn::Item::Enum(e) => Some(&e.ident),
        syn::Item::Fn(f) => Some(&f.sig.ident),
        _ => None,
    }
}

/// The messages of the top-level `compile_error! { "..." }` items (that is how
/// `syn::Error::to_compile_error` writes them).
fn compile_errors(file: &syn::File) -> Vec<String> {
    file.items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Macro(m)
                if m.mac
                    .path
                    .segments
                    .last()
                    .is_some_and(|s| s.ident == "compile_error") =>
            {
                Some(match syn::parse2::<syn::LitStr>(m.mac.tokens.clone()) {
                    Ok(lit) => lit.value(),
                    Err(_) => String::new(),
                })
            }
            _ => None,
        })
        .collect()
}
