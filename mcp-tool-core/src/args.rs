//! Turning a call's JSON arguments into a `#[tool_args]` struct, with errors a model can act on.

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
}

/// Schema keywords of one field, as declared in `#[arg(default = .., min = .., max = ..)]`.
pub struct ArgKeywords {
    pub field: &'static str,
    pub default: Option<fn() -> Value>,
    /// Literal JSON numbers, kept as written so integers stay integers in the schema.
    pub minimum: Option<&'static str>,
    pub maximum: Option<&'static str>,
}

/// A silenced lint and the reason a person gave for it, kept for review.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exception {
    /// `tool`, `args`, or the field name.
    pub target: &'static str,
    pub lint: &'static str,
    pub reason: &'static str,
}

/// The input schema of an argument struct: schemars' schema plus the declared keywords.
pub fn input_schema<A: ToolArgs>() -> Value {
    let mut schema = crate::envelope::schema_of::<A>();
    if let Some(Value::Object(props)) = schema.get_mut("properties") {
        for kw in A::keywords() {
            let Some(Value::Object(prop)) = props.get_mut(kw.field) else { continue };
            if let Some(default) = kw.default {
                prop.insert("default".into(), default());
            }
            if let Some(min) = kw.minimum.and_then(|m| serde_json::from_str::<Value>(m).ok()) {
                prop.insert("minimum".into(), min);
            }
            if let Some(max) = kw.maximum.and_then(|m| serde_json::from_str::<Value>(m).ok()) {
                prop.insert("maximum".into(), max);
            }
        }
    }
    schema
}

/// The input schema of a tool without arguments.
pub fn empty_input_schema() -> Value {
    json!({"type": "object", "properties": {}})
}

/// Deserializes arguments, reporting the JSON path of the first bad field.
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
    let rest = message.split_once("expected one of ").or_else(|| message.split_once("expected "))?.1;
    if !message.contains("unknown variant") {
        return None;
    }
    let values: Vec<String> = rest.split('`').skip(1).step_by(2).map(str::to_owned).collect();
    (!values.is_empty()).then_some(values)
}

fn between(text: &str, start: &str, end: &str) -> Option<String> {
    let from = text.find(start)? + start.len();
    let len = text[from..].find(end)?;
    Some(text[from..from + len].to_owned())
}

/// Numbers (and optional numbers) that `#[arg(min, max)]` can bound.
pub trait Bounded {
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
    let Some(v) = value.as_f64() else { return Ok(()) };
    let below = minimum.is_some_and(|m| v < m);
    let above = maximum.is_some_and(|m| v > m);
    if !(below || above) {
        return Ok(());
    }
    let bound = |b: f64| if b.fract() == 0.0 { format!("{}", b as i64) } else { b.to_string() };
    let range = match (minimum, maximum) {
        (Some(lo), Some(hi)) => format!("between {} and {}", bound(lo), bound(hi)),
        (Some(lo), None) => format!("at least {}", bound(lo)),
        (None, Some(hi)) => format!("at most {}", bound(hi)),
        (None, None) => unreachable!("a bound was crossed"),
    };
    let mut error =
        ToolError::invalid_parameter(field, format!("`{field}` must be {range} (got {}).", bound(v)))
            .with_detail("received", v);
    if let Some(lo) = minimum {
        error = error.with_detail("minimum", lo);
    }
    if let Some(hi) = maximum {
        error = error.with_detail("maximum", hi);
    }
    Err(error)
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

    #[test]
    fn ranges_are_enforced_with_the_bound_in_the_message() {
        assert!(check_range(&10u32, "limit", Some(1.0), Some(50.0)).is_ok());
        assert!(check_range(&None::<u32>, "limit", Some(1.0), Some(50.0)).is_ok());
        let e = check_range(&Some(500u32), "limit", Some(1.0), Some(50.0)).unwrap_err();
        assert_eq!(e.message, "`limit` must be between 1 and 50 (got 500).");
        let e = check_range(&-1i64, "offset", Some(0.0), None).unwrap_err();
        assert_eq!(e.message, "`offset` must be at least 0 (got -1).");
    }
}
