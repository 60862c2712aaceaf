//! The runtime front-end: builds the model from JSON Schema (draft 2020-12 as schemars 1
//! produces it) and adds the findings only a schema can show: nested types, enum variants,
//! and output unions.
//!
//! Findings from here are warnings: the runtime logs them at `ToolServer::build()`.

use std::collections::HashSet;

use serde_json::{Map, Value};

use crate::rules;
use crate::{
    Annotations, Args, Finding, Lint, OutputShape, Param, Report, Target, Tool, TypeClass, Variant,
};

/// Nesting deeper than this is not walked: recursive types are cut by `$ref` tracking, and a
/// real argument is never this deep.
const MAX_DEPTH: usize = 12;

struct Schema<'a> {
    root: &'a Value,
}

impl<'a> Schema<'a> {
    fn lookup(&self, reference: &str) -> Option<&'a Value> {
        let pointer = reference.strip_prefix('#')?;
        self.root.pointer(pointer)
    }

    /// Follows `$ref` (and a single-element `allOf`, the older schemars wrapper).
    fn resolve(&self, mut v: &'a Value) -> &'a Value {
        for _ in 0..32 {
            if let Some(target) = v
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| self.lookup(r))
            {
                v = target;
            } else if let Some([only]) = v.get("allOf").and_then(Value::as_array).map(Vec::as_slice)
            {
                v = only;
            } else {
                break;
            }
        }
        v
    }

    /// `Option<T>`: strips the `null` alternative (`anyOf: [T, {type: null}]`).
    fn unwrap_option(&self, v: &'a Value) -> &'a Value {
        let v = self.resolve(v);
        for key in ["anyOf", "oneOf"] {
            if let Some(branches) = v.get(key).and_then(Value::as_array) {
                let non_null: Vec<&Value> = branches
                    .iter()
                    .filter(|b| !is_null(self.resolve(b)))
                    .collect();
                if let [only] = non_null.as_slice()
                    && non_null.len() < branches.len()
                {
                    return self.resolve(only);
                }
            }
        }
        v
    }

    fn type_class(&self, name: &str, v: &'a Value) -> TypeClass {
        if ref_name(v).is_some_and(|n| n == "Cursor") {
            return TypeClass::Cursor;
        }
        let v = self.unwrap_option(v);
        if let Some(values) = v.get("enum").and_then(Value::as_array) {
            let variants = values
                .iter()
                .filter(|x| !x.is_null())
                .map(|x| Variant {
                    name: value_text(x),
                    description: None,
                })
                .collect();
            return TypeClass::Enum { variants };
        }
        if let Some(c) = v.get("const") {
            return TypeClass::Enum {
                variants: vec![Variant {
                    name: value_text(c),
                    description: description(v),
                }],
            };
        }
        for key in ["oneOf", "anyOf"] {
            if let Some(branches) = v.get(key).and_then(Value::as_array) {
                let branches: Vec<&Value> = branches
                    .iter()
                    .map(|b| self.resolve(b))
                    .filter(|b| !is_null(b))
                    .collect();
                let variants: Option<Vec<Variant>> =
                    branches.iter().map(|b| unit_variant(b)).collect();
                return match variants {
                    Some(variants) => TypeClass::Enum { variants },
                    None => TypeClass::Other(key.to_string()),
                };
            }
        }
        match primary_type(v) {
            Some("string") if name == "cursor" => TypeClass::Cursor,
            Some("string") => TypeClass::String,
            Some("boolean") => TypeClass::Bool,
            Some("integer") => TypeClass::Integer,
            Some("number") => TypeClass::Number,
            Some("array") => {
                let items = v
                    .get("items")
                    .map_or(TypeClass::Other("any".into()), |i| self.type_class("", i));
                TypeClass::Array(Box::new(items))
            }
            Some("object") => TypeClass::Object,
            None if v.get("properties").is_some() => TypeClass::Object,
            other => TypeClass::Other(other.unwrap_or("any").to_string()),
        }
    }
}

fn is_null(v: &Value) -> bool {
    v.get("type").and_then(Value::as_str) == Some("null")
        || v.get("const").is_some_and(Value::is_null)
}

fn ref_name(v: &Value) -> Option<&str> {
    v.get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.rsplit('/').next())
}

fn value_text(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_string)
}

fn description(v: &Value) -> Option<String> {
    v.get("description")
        .and_then(Value::as_str)
        .map(str::to_string)
}

/// `"string"`, or the first non-null entry of `["string", "null"]`.
fn primary_type(v: &Value) -> Option<&str> {
    match v.get("type")? {
        Value::String(s) => Some(s.as_str()),
        Value::Array(types) => types
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null"),
        _ => None,
    }
}

/// A documented unit variant as schemars writes it: `{const: "a", description: ..}` or
/// `{enum: ["a"], description: ..}`.
fn unit_variant(v: &Value) -> Option<Variant> {
    let value = v.get("const").or_else(|| {
        match v.get("enum").and_then(Value::as_array).map(Vec::as_slice) {
            Some([only]) => Some(only),
            _ => None,
        }
    })?;
    Some(Variant {
        name: value_text(value),
        description: description(v),
    })
}

fn number(v: &Value, keys: [&str; 2]) -> Option<f64> {
    keys.iter().find_map(|k| v.get(*k).and_then(Value::as_f64))
}

/// The model of the arguments described by a tool's `inputSchema`. Allows cannot be written
/// in a schema, and `serde_default` is unknowable there, so both stay empty/false.
pub fn args_from_schema(input_schema: &Value) -> Args {
    let s = Schema { root: input_schema };
    let root = s.resolve(input_schema);
    let required: HashSet<&str> = root
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let empty = Map::new();
    let props = root
        .get("properties")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let params = props
        .iter()
        .map(|(name, prop)| {
            let inner = s.unwrap_option(prop);
            Param {
                name: name.clone(),
                ty: s.type_class(name, prop),
                required: required.contains(name.as_str()),
                default: prop
                    .get("default")
                    .or_else(|| inner.get("default"))
                    .map(Value::to_string),
                min: number(prop, ["minimum", "exclusiveMinimum"])
                    .or_else(|| number(inner, ["minimum", "exclusiveMinimum"])),
                max: number(prop, ["maximum", "exclusiveMaximum"])
                    .or_else(|| number(inner, ["maximum", "exclusiveMaximum"])),
                description: description(prop),
                serde_default: false,
                allows: Vec::new(),
            }
        })
        .collect();
    Args {
        params,
        deny_unknown_fields: root.get("additionalProperties") == Some(&Value::Bool(false)),
        allows: Vec::new(),
    }
}

/// `Page<T>` as the runtime's envelope advertises it: a `pagination` object (or a bare
/// `next_cursor`) next to the data.
pub fn output_shape(output_schema: Option<&Value>) -> OutputShape {
    let Some(out) = output_schema else {
        return OutputShape::Unknown;
    };
    let s = Schema { root: out };
    let root = s.resolve(out);
    let props = root.get("properties").and_then(Value::as_object);
    let paged = props.is_some_and(|p| {
        ["pagination", "next_cursor", "nextCursor"]
            .iter()
            .any(|k| p.contains_key(*k))
    });
    if paged {
        OutputShape::Page
    } else {
        OutputShape::Single
    }
}

/// Runs [`crate::check_args`], [`crate::check_tool`] and [`crate::check_pagination`] on a tool
/// described by its schemas, plus the schema-only findings: nested properties and enum values
/// without descriptions (`missing_description`) and unions without a discriminator, in the
/// arguments or the output (`hidden_coupling`: which fields mean anything depends on a shape
/// nothing names).
pub fn check_schema_tool(
    name: &str,
    description: Option<&str>,
    annotations: Annotations,
    input_schema: &Value,
    output_schema: Option<&Value>,
) -> Report {
    let args = args_from_schema(input_schema);
    let mut report = crate::check_args(&args);
    let output = output_shape(output_schema);
    let tool = Tool {
        annotations,
        output,
        ..Tool::new(name, description)
    };
    report.extend(rules::check_tool(&tool, crate::DEFAULT_DESCRIPTION_BUDGET));
    if let Some(f) = crate::check_pagination(args.has_cursor(), output) {
        report.findings.push(f);
    }

    let s = Schema { root: input_schema };
    let root = s.resolve(input_schema);
    if let Some(props) = root.get("properties").and_then(Value::as_object) {
        for (i, (pname, prop)) in props.iter().enumerate() {
            let mut walk = Walk {
                schema: &s,
                target: Target::Param(i),
                findings: &mut report.findings,
                seen: HashSet::new(),
            };
            walk.nested(pname, prop, 0, true);
        }
    }
    if let Some(out) = output_schema {
        let s = Schema { root: out };
        let mut walk = Walk {
            schema: &s,
            target: Target::ToolOutput,
            findings: &mut report.findings,
            seen: HashSet::new(),
        };
        walk.unions("output", out, 0);
    }
    report
}

struct Walk<'s, 'a> {
    schema: &'s Schema<'a>,
    target: Target,
    findings: &'s mut Vec<Finding>,
    /// The schemas on the current path, by address: a recursive type is entered once.
    seen: HashSet<*const Value>,
}

impl<'a> Walk<'_, 'a> {
    /// Enters a schema unless it is already on the path, so recursive types end.
    fn enter(&mut self, v: &'a Value) -> Option<&'a Value> {
        let inner = self.schema.unwrap_option(v);
        self.seen.insert(inner as *const Value).then_some(inner)
    }

    fn leave(&mut self, inner: &'a Value) {
        self.seen.remove(&(inner as *const Value));
    }

    /// Descriptions of the properties inside a parameter (the parameter itself, and its enum
    /// values when it is one, are checked by `check_args`), and unions in it.
    fn nested(&mut self, path: &str, v: &'a Value, depth: usize, top: bool) {
        if depth > MAX_DEPTH {
            return;
        }
        let Some(inner) = self.enter(v) else { return };
        if !top && let TypeClass::Enum { variants } = self.schema.type_class("", v) {
            let undocumented: Vec<&str> = variants
                .iter()
                .filter(|x| x.description.as_deref().is_none_or(|d| d.trim().is_empty()))
                .map(|x| x.name.as_str())
                .collect();
            if !undocumented.is_empty() {
                self.findings.push(Finding::new(
                    Lint::MissingDescription,
                    self.target,
                    format!(
                        "the values of `{path}` have no description: {}",
                        undocumented
                            .iter()
                            .map(|u| format!("`{u}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    "add a doc comment on each enum variant saying when to choose it",
                ));
            }
        }
        self.union(path, inner);
        if let Some(props) = inner.get("properties").and_then(Value::as_object) {
            for (name, prop) in props {
                // A tagged variant's tag (`"detail_level": {"const": "turns"}`) leaves the model
                // nothing to choose: the branch's own description says what it means.
                if self.schema.resolve(prop).get("const").is_some() {
                    continue;
                }
                let child = format!("{path}.{name}");
                if description(prop).is_none_or(|d| d.trim().is_empty()) {
                    self.findings.push(Finding::new(
                        Lint::MissingDescription,
                        self.target,
                        format!("`{child}` has no description"),
                        format!("add a doc comment on the field `{name}` saying what the value is"),
                    ));
                }
                self.nested(&child, prop, depth + 1, false);
            }
        }
        if let Some(items) = inner.get("items") {
            self.nested(&format!("{path}[]"), items, depth + 1, false);
        }
        for key in ["oneOf", "anyOf"] {
            for b in inner
                .get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                self.nested(path, b, depth + 1, true);
            }
        }
        self.leave(inner);
    }

    /// Unions without a discriminator anywhere in the output.
    fn unions(&mut self, path: &str, v: &'a Value, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let Some(inner) = self.enter(v) else { return };
        self.union(path, inner);
        if let Some(props) = inner.get("properties").and_then(Value::as_object) {
            for (name, prop) in props {
                self.unions(&format!("{path}.{name}"), prop, depth + 1);
            }
        }
        if let Some(items) = inner.get("items") {
            self.unions(&format!("{path}[]"), items, depth + 1);
        }
        for key in ["oneOf", "anyOf"] {
            for b in inner
                .get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                self.unions(path, b, depth + 1);
            }
        }
        self.leave(inner);
    }

    fn union(&mut self, path: &str, v: &'a Value) {
        for key in ["oneOf", "anyOf"] {
            let Some(branches) = v.get(key).and_then(Value::as_array) else {
                continue;
            };
            let branches: Vec<&Value> = branches
                .iter()
                .map(|b| self.schema.resolve(b))
                .filter(|b| !is_null(b))
                .collect();
            if branches.len() < 2 || v.get("discriminator").is_some() || discriminated(&branches) {
                continue;
            }
            let (what, fix) = if self.target == Target::ToolOutput {
                (
                    "the output",
                    "tag the enum so every variant names itself: `#[serde(tag = \"kind\")]`",
                )
            } else {
                (
                    "the argument",
                    "tag the enum so the model says which variant it sends: `#[tool_args(tag = \"kind\")]` (`#[serde(tag = \"kind\")]` outside mcp-tool)",
                )
            };
            self.findings.push(Finding::new(
                Lint::HiddenCoupling,
                self.target,
                format!(
                    "{what} `{path}` is one of {} shapes (`{key}`) with no field saying which (an untagged enum): which fields mean anything depends on a shape nothing names",
                    branches.len()
                ),
                fix,
            ));
        }
    }
}

/// Whether a union's branches can be told apart by a value: unit variants (`const`),
/// externally tagged objects (one required key each, all different), or a property whose
/// `const` differs per branch (internally or adjacently tagged).
fn discriminated(branches: &[&Value]) -> bool {
    if branches.iter().all(|b| unit_variant(b).is_some()) {
        return true;
    }
    let single_key = |b: &Value| -> Option<String> {
        let props = b.get("properties")?.as_object()?;
        let required = b.get("required")?.as_array()?;
        match (props.len(), required.as_slice()) {
            // schemars closes externally tagged variants; an open one-field object is just data.
            (1, [Value::String(k)])
                if props.contains_key(k)
                    && b.get("additionalProperties") == Some(&Value::Bool(false)) =>
            {
                Some(k.clone())
            }
            _ => None,
        }
    };
    let external: Option<Vec<String>> = branches
        .iter()
        .map(|b| {
            unit_variant(b)
                .map(|v| format!("={}", v.name))
                .or_else(|| single_key(b))
        })
        .collect();
    if let Some(keys) = external {
        let distinct: HashSet<&String> = keys.iter().collect();
        if distinct.len() == keys.len() {
            return true;
        }
    }
    let Some(first) = branches
        .first()
        .and_then(|b| b.get("properties"))
        .and_then(Value::as_object)
    else {
        return false;
    };
    first.keys().any(|tag| {
        let values: Option<Vec<String>> = branches
            .iter()
            .map(|b| {
                b.get("properties")
                    .and_then(|p| p.get(tag))
                    .and_then(unit_variant)
                    .map(|v| v.name)
            })
            .collect();
        values.is_some_and(|vs| vs.iter().collect::<HashSet<_>>().len() == vs.len())
    })
}
