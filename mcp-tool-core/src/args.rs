//! Turning a call's JSON arguments into a `#[tool_args]` struct, with errors a model can act on.
//!
//! Most of this module is the runtime half of `#[tool_args]`: the macros implement its traits
//! and call its functions, and a tool author never names them. [`Exception`] is the record of
//! a silenced lint that [`ToolServer::exceptions`](crate::ToolServer::exceptions) lists.

use crate::error::ToolError;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

/// Implemented by `#[tool_args]` structs; never written by hand.
pub trait ToolArgs: DeserializeOwned + JsonSchema + Send + 'static {
    /// Whether the struct has a `cursor` field: checked against a `Page` output at compile time.
    const HAS_CURSOR: bool;

    /// Runs the `#[arg(min, max)]` checks the schema advertises.
    fn validate(&self) -> Result<(), ToolError>;

    /// Per-field schema keywords declared with `#[arg(...)]`.
    fn keywords() -> &'static [ArgKeywords];

    /// Lints silenced on this struct or its fields, with the reasons given.
    fn exceptions() -> &'static [Exception];

    /// Lints silenced inside the types of its fields (`#[tool_args(tag = ..)]` enums).
    fn nested_exceptions(out: &mut Vec<Exception>) {
        let _ = out;
    }
}

/// Schema keywords of one field, as declared in `#[arg(default = .., min = .., max = ..)]`.
pub struct ArgKeywords {
    /// The field's name in the schema's `properties`.
    pub field: &'static str,
    /// Produces the `default` keyword's value.
    pub default: Option<fn() -> Value>,
    /// Literal JSON numbers, kept as written so integers stay integers in the schema.
    pub minimum: Option<&'static str>,
    /// Like `minimum`, for the `maximum` keyword.
    pub maximum: Option<&'static str>,
}

/// A silenced lint and the reason a person gave for it, kept for review.
///
/// Every `allow(lint = "reason")` on a tool, its argument struct, a field or a nested
/// `#[tool_args]` type becomes one, built by the macros as a constant; the server lists them
/// all with [`ToolServer::exceptions`](crate::ToolServer::exceptions) (the `agtrace` catalog
/// prints them). The lint crate's check-time record of the same allow, with how many findings
/// it silenced, is [`mcp_tool_lint::AcceptedAllow`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exception {
    /// `tool`, `args`, or the field name.
    pub target: &'static str,
    /// The lint's stable name (`closed_domain_string`).
    pub lint: &'static str,
    /// Why the design is right despite the lint, as the author wrote it.
    pub reason: &'static str,
}

/// The input schema of an argument struct: schemars' schema plus the declared keywords.
pub fn input_schema<A: ToolArgs>() -> Value {
    let mut schema = crate::envelope::input_schema_of::<A>();
    if let Some(Value::Object(props)) = schema.get_mut("properties") {
        apply_keywords(props, A::keywords());
    }
    schema
}

/// Writes declared keywords into the `properties` of an object schema, the one place where
/// `#[arg(...)]` becomes JSON Schema, for struct fields and tagged-enum variant fields alike.
fn apply_keywords(props: &mut Map<String, Value>, keywords: &[ArgKeywords]) {
    for kw in keywords {
        let Some(Value::Object(prop)) = props.get_mut(kw.field) else {
            continue;
        };
        if let Some(default) = kw.default {
            prop.insert("default".into(), default());
        }
        if let Some(min) = kw
            .minimum
            .and_then(|m| serde_json::from_str::<Value>(m).ok())
        {
            prop.insert("minimum".into(), min);
        }
        if let Some(max) = kw
            .maximum
            .and_then(|m| serde_json::from_str::<Value>(m).ok())
        {
            prop.insert("maximum".into(), max);
        }
    }
}

/// The keywords of one variant of a `#[tool_args(tag = ..)]` enum, applied by schemars as a
/// variant transform. A nested enum's schema lives in `$defs`, out of reach of
/// [`input_schema`]; going through schemars puts the keywords in the variant's branch wherever
/// the enum is used.
pub fn variant_keywords(schema: &mut schemars::Schema, keywords: &[ArgKeywords]) {
    if let Some(Value::Object(props)) = schema.get_mut("properties") {
        apply_keywords(props, keywords);
    }
}

/// The call-time checks (`#[arg(min, max)]`) of a type nested in an argument struct: the
/// variant fields of a `#[tool_args(tag = ..)]` enum. `path` is where the value sits in the
/// arguments (`detail`), so an error names the full path (`detail.max_turns`).
pub trait NestedArgs {
    /// Runs the checks of the value found at `path` in the arguments.
    fn validate_at(&self, path: &str) -> Result<(), ToolError>;

    /// Lints silenced on the type or its fields, with the reasons given. The target of a
    /// variant field's exception is `Enum::Variant.field`.
    fn exceptions() -> &'static [Exception];
}

impl<T: NestedArgs> NestedArgs for Option<T> {
    fn validate_at(&self, path: &str) -> Result<(), ToolError> {
        self.as_ref().map_or(Ok(()), |v| v.validate_at(path))
    }

    fn exceptions() -> &'static [Exception] {
        T::exceptions()
    }
}

impl<T: NestedArgs> NestedArgs for Vec<T> {
    fn validate_at(&self, path: &str) -> Result<(), ToolError> {
        self.iter()
            .enumerate()
            .try_for_each(|(i, v)| v.validate_at(&format!("{path}[{i}]")))
    }

    fn exceptions() -> &'static [Exception] {
        T::exceptions()
    }
}

impl<T: NestedArgs> NestedArgs for Box<T> {
    fn validate_at(&self, path: &str) -> Result<(), ToolError> {
        (**self).validate_at(path)
    }

    fn exceptions() -> &'static [Exception] {
        T::exceptions()
    }
}

/// A field of an argument struct, on its way to [`NestedChecks`] or [`NoNestedChecks`].
///
/// The macros cannot tell from syntax whether a field's type is a tagged enum (it is just a
/// name), so they wrap every field that might be and call `(&Nested(..)).check_nested()`:
/// method lookup picks [`NestedChecks`] when the type implements [`NestedArgs`] and falls back
/// to the no-op [`NoNestedChecks`] one auto-reference later (autoref specialization).
pub struct Nested<'a, T>(pub &'a T, pub &'a str);

/// The checks of a field whose type implements [`NestedArgs`]; see [`Nested`].
pub trait NestedChecks {
    /// Runs the nested type's checks at the field's path.
    fn check_nested(&self) -> Result<(), ToolError>;
}

impl<T: NestedArgs> NestedChecks for Nested<'_, T> {
    fn check_nested(&self) -> Result<(), ToolError> {
        self.0.validate_at(self.1)
    }
}

/// The fallback of [`NestedChecks`] for every other field type: no checks.
pub trait NoNestedChecks {
    /// Does nothing: the field's type has no nested checks.
    fn check_nested(&self) -> Result<(), ToolError> {
        Ok(())
    }
}

impl<T> NoNestedChecks for &Nested<'_, T> {}

/// The type of a field, for [`NestedExceptions`] or [`NoNestedExceptions`], which collect the
/// exceptions of a nested type without a value of it, by the same autoref dispatch as
/// [`Nested`].
pub struct NestedType<T>(std::marker::PhantomData<T>);

impl<T> NestedType<T> {
    /// The marker for `T`, usable in constants.
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Self {
        NestedType(std::marker::PhantomData)
    }
}

/// The exceptions of a field whose type implements [`NestedArgs`]; see [`NestedType`].
pub trait NestedExceptions {
    /// Appends the nested type's exceptions to `out`.
    fn nested_exceptions(&self, out: &mut Vec<Exception>);
}

impl<T: NestedArgs> NestedExceptions for NestedType<T> {
    fn nested_exceptions(&self, out: &mut Vec<Exception>) {
        out.extend_from_slice(T::exceptions());
    }
}

/// The fallback of [`NestedExceptions`] for every other field type: none.
pub trait NoNestedExceptions {
    /// Appends nothing: the field's type has no exceptions of its own.
    fn nested_exceptions(&self, out: &mut Vec<Exception>) {
        let _ = out;
    }
}

impl<T> NoNestedExceptions for &NestedType<T> {}

/// The input schema of a tool without arguments.
pub fn empty_input_schema() -> Value {
    json!({"type": "object", "properties": {}})
}

/// Deserializes arguments, reporting the JSON path of the first bad field.
///
/// # Errors
///
/// `invalid_parameter` with `details.path` naming the field (`filter.kind`), and for an
/// unknown enum value `details.allowed` listing the accepted ones; or the error of a failed
/// `#[arg(min, max)]` check.
pub fn parse<A: ToolArgs>(arguments: Map<String, Value>) -> Result<A, ToolError> {
    let args: A = serde_path_to_error::deserialize(Value::Object(arguments))
        .map_err(|e| deserialize_error(e.path().to_string(), e.into_inner().to_string()))?;
    args.validate()?;
    Ok(args)
}

fn deserialize_error(path: String, message: String) -> ToolError {
    // serde reports a missing field at the parent's path; name the field itself instead.
    let missing = between(&message, "missing field `", "`");
    let path = match (&missing, path.as_str()) {
        (Some(field), ".") => field.clone(),
        (Some(field), parent) => format!("{parent}.{field}"),
        (None, p) => p.to_owned(),
    };
    let text = match &missing {
        Some(_) => format!("Missing required parameter `{path}`."),
        None => format!("Invalid value for `{path}`: {message}."),
    };
    let mut error = ToolError::invalid_parameter(path, text);
    if let Some(allowed) = allowed_values(&message) {
        error = error.with_detail("allowed", allowed);
    }
    error
}

/// The variants serde lists in "unknown variant `x`, expected one of `a`, `b`".
fn allowed_values(message: &str) -> Option<Vec<String>> {
    let rest = message
        .split_once("expected one of ")
        .or_else(|| message.split_once("expected "))?
        .1;
    if !message.contains("unknown variant") {
        return None;
    }
    let values: Vec<String> = rest
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect();
    (!values.is_empty()).then_some(values)
}

fn between(text: &str, start: &str, end: &str) -> Option<String> {
    let from = text.find(start)? + start.len();
    let len = text[from..].find(end)?;
    Some(text[from..from + len].to_owned())
}

/// Numbers (and optional numbers) that `#[arg(min, max)]` can bound.
pub trait Bounded {
    /// The value as a float, or `None` for an absent optional value (never out of range).
    fn as_f64(&self) -> Option<f64>;
}

macro_rules! bounded {
    ($($t:ty),*) => {$(
        impl Bounded for $t {
            fn as_f64(&self) -> Option<f64> { Some(*self as f64) }
        }
    )*};
}
bounded!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize, f32, f64);

impl<T: Bounded> Bounded for Option<T> {
    fn as_f64(&self) -> Option<f64> {
        self.as_ref().and_then(Bounded::as_f64)
    }
}

/// The runtime half of `#[arg(min = .., max = ..)]`.
pub fn check_range(
    value: &impl Bounded,
    field: &str,
    minimum: Option<f64>,
    maximum: Option<f64>,
) -> Result<(), ToolError> {
    let Some(v) = value.as_f64() else {
        return Ok(());
    };
    let below = minimum.is_some_and(|m| v < m);
    let above = maximum.is_some_and(|m| v > m);
    if !(below || above) {
        return Ok(());
    }
    let bound = |b: f64| {
        if b.fract() == 0.0 {
            format!("{}", b as i64)
        } else {
            b.to_string()
        }
    };
    let range = match (minimum, maximum) {
        (Some(lo), Some(hi)) => format!("between {} and {}", bound(lo), bound(hi)),
        (Some(lo), None) => format!("at least {}", bound(lo)),
        (None, Some(hi)) => format!("at most {}", bound(hi)),
        (None, None) => unreachable!("a bound was crossed"),
    };
    let mut error = ToolError::invalid_parameter(
        field,
        format!("`{field}` must be {range} (got {}).", bound(v)),
    )
    .with_detail("received", number(v));
    if let Some(lo) = minimum {
        error = error.with_detail("minimum", number(lo));
    }
    if let Some(hi) = maximum {
        error = error.with_detail("maximum", number(hi));
    }
    Err(error)
}

/// `b` as the JSON number a schema would write: `50`, not `50.0`, for a whole number, so a
/// client comparing the detail with the schema's `maximum` sees the same value.
fn number(b: f64) -> serde_json::Value {
    // 2^53: beyond it an f64 no longer holds every integer.
    if b.fract() == 0.0 && b.abs() <= 9_007_199_254_740_992.0 {
        serde_json::Value::from(b as i64)
    } else {
        serde_json::Value::from(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_field_names_the_field() {
        let e = deserialize_error(".".into(), "missing field `query`".into());
        assert_eq!(e.details.unwrap()["path"], "query");
        assert_eq!(e.message, "Missing required parameter `query`.");
    }

    #[test]
    fn unknown_variant_lists_allowed_values() {
        let e = deserialize_error(
            "provider".into(),
            "unknown variant `claude`, expected one of `claude_code`, `codex`, `gemini`".into(),
        );
        let d = e.details.unwrap();
        assert_eq!(d["path"], "provider");
        assert_eq!(d["allowed"], json!(["claude_code", "codex", "gemini"]));
    }

    struct Pick(Option<u32>);

    impl NestedArgs for Pick {
        fn validate_at(&self, path: &str) -> Result<(), ToolError> {
            check_range(&self.0, &format!("{path}.count"), None, Some(5.0))
        }

        fn exceptions() -> &'static [Exception] {
            &[Exception {
                target: "Pick::Only.count",
                lint: "vague_name",
                reason: "a test",
            }]
        }
    }

    // The explicit `&` is the dispatch itself: the no-op impls are one auto-reference further.
    #[allow(clippy::needless_borrow)]
    #[test]
    fn nested_checks_run_only_for_types_that_have_them() {
        let bad = Some(Pick(Some(9)));
        let e = (&Nested(&bad, "pick")).check_nested().unwrap_err();
        assert_eq!(e.details.unwrap()["path"], "pick.count");
        let list = vec![Pick(Some(1)), Pick(Some(6))];
        let e = (&Nested(&list, "picks")).check_nested().unwrap_err();
        assert_eq!(e.details.unwrap()["path"], "picks[1].count");
        // A type without checks takes the no-op path instead of failing to compile.
        assert!((&Nested(&"text".to_owned(), "text")).check_nested().is_ok());
        assert!((&Nested(&Pick(Some(2)), "pick")).check_nested().is_ok());

        let mut out = Vec::new();
        (&NestedType::<Option<Pick>>::new()).nested_exceptions(&mut out);
        (&NestedType::<String>::new()).nested_exceptions(&mut out);
        assert_eq!(out, Pick::exceptions());
    }

    #[test]
    fn ranges_are_enforced_with_the_bound_in_the_message() {
        assert!(check_range(&10u32, "limit", Some(1.0), Some(50.0)).is_ok());
        assert!(check_range(&None::<u32>, "limit", Some(1.0), Some(50.0)).is_ok());
        let e = check_range(&Some(500u32), "limit", Some(1.0), Some(50.0)).unwrap_err();
        assert_eq!(e.message, "`limit` must be between 1 and 50 (got 500).");
        // Whole bounds are integers in the details, as in the schema: `50`, not `50.0`.
        let details = serde_json::to_string(&e.details).unwrap();
        assert!(
            details.contains(r#""maximum":50"#) && !details.contains("50.0"),
            "{details}"
        );
        assert!(details.contains(r#""minimum":1"#) && details.contains(r#""received":500"#));
        let e = check_range(&0.25f64, "ratio", Some(0.5), None).unwrap_err();
        assert!(serde_json::to_string(&e.details).unwrap().contains("0.25"));
        let e = check_range(&-1i64, "offset", Some(0.0), None).unwrap_err();
        assert_eq!(e.message, "`offset` must be at least 0 (got -1).");
    }
}
