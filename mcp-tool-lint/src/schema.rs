//! The runtime front-end: builds the model from JSON Schema (draft 2020-12 as schemars 1
//! produces it) and adds the findings only a schema can show: nested types, enum variants,
//! and output unions.
//!
//! Findings from here are warnings: the runtime logs them at `ToolServer::build()`.

use std::collections::HashSet;

use serde_json::{Map, Value};

use crate::rules;
use crate::rules::{missing_description, pagination_mismatch};
use crate::{
    Annotations, Args, Finding, Lint, Origin, OutputShape, Param, Report, Target, Tool, TypeClass,
    Variant,
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

    /// Where a property is documented, as a model reading the schema finds it: its own
    /// `description`; else the schema it refers to (`$ref` to a `$defs` entry with a
    /// description); else the non-null alternative of an `Option`; else the branches of a
    /// union that have one; else the items of an array; else a `title` that says more
    /// than the property's name (pydantic's `"Repo Path"` for `repo_path` says nothing).
    fn documentation(&self, name: &str, v: &'a Value) -> Option<String> {
        self.documentation_at(name, v, 0)
    }

    fn documentation_at(&self, name: &str, v: &'a Value, depth: usize) -> Option<String> {
        if depth > 4 {
            return None;
        }
        if let Some(d) = description(v) {
            return Some(d);
        }
        let resolved = self.resolve(v);
        if !std::ptr::eq(resolved, v)
            && let Some(d) = self.documentation_at(name, resolved, depth + 1)
        {
            return Some(d);
        }
        let inner = self.unwrap_option(v);
        if !std::ptr::eq(inner, resolved)
            && let Some(d) = self.documentation_at(name, inner, depth + 1)
        {
            return Some(d);
        }
        for key in ["anyOf", "oneOf"] {
            let Some(branches) = inner.get(key).and_then(Value::as_array) else {
                continue;
            };
            // Notion-style `anyOf [documented object, string]`: the string is a JSON-encoded
            // fallback of the same value, and the documented branch speaks for both.
            let docs: Vec<String> = branches
                .iter()
                .filter(|b| !is_null(self.resolve(b)))
                .filter_map(|b| self.documentation_at(name, b, depth + 1))
                .collect();
            if !docs.is_empty() {
                return Some(docs.join(" Or: "));
            }
        }
        if let Some(d) = inner
            .get("items")
            .and_then(|items| description(self.resolve(items)))
        {
            return Some(d);
        }
        [v, resolved, inner]
            .into_iter()
            .filter_map(|x| x.get("title").and_then(Value::as_str))
            .find(|t| !t.trim().is_empty() && !restates(name, t))
            .map(str::to_string)
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

/// Whether a title only re-cases a name: the same words in the same order (`"Repo Path"`
/// for `repo_path`, `"Url"` for `url`).
fn restates(name: &str, title: &str) -> bool {
    let words = |s: &str| -> Vec<String> {
        let mut out = Vec::new();
        let mut cur = String::new();
        let mut prev_lower = false;
        for c in s.chars() {
            if (!c.is_alphanumeric() || (c.is_uppercase() && prev_lower)) && !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            if c.is_alphanumeric() {
                cur.extend(c.to_lowercase());
            }
            prev_lower = c.is_lowercase() || c.is_ascii_digit();
        }
        if !cur.is_empty() {
            out.push(cur);
        }
        out
    };
    words(name) == words(title)
}

/// A plain `enum` has no place for a description per value (unlike `oneOf` of `const`s), so
/// its values are documented where the property's description names them (`"css" produces
/// ...`): such a value takes that description.
fn documented_by_mention(ty: TypeClass, doc: Option<&str>) -> TypeClass {
    let (TypeClass::Enum { variants }, Some(doc)) = (&ty, doc) else {
        return ty;
    };
    let lower = doc.to_lowercase();
    let variants = variants
        .iter()
        .map(|v| Variant {
            description: v
                .description
                .clone()
                .or_else(|| mentions(&lower, &v.name.to_lowercase()).then(|| doc.to_string())),
            name: v.name.clone(),
        })
        .collect();
    TypeClass::Enum { variants }
}

/// Whether `text` contains `word` with no letter or digit on either side.
fn mentions(text: &str, word: &str) -> bool {
    if word.is_empty() {
        return false;
    }
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
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
///
/// `deny_unknown_fields` stays false too: `false_strictness` is about a strictness the schema
/// does not show, and `additionalProperties: false` is the schema showing it (zod-based
/// servers also write it on every object whether or not the server rejects extra keys). The
/// macros see `#[serde(deny_unknown_fields)]` itself.
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
            let doc = s.documentation(name, prop);
            Param {
                name: name.clone(),
                ty: documented_by_mention(s.type_class(name, prop), doc.as_deref()),
                required: required.contains(name.as_str()),
                default: prop
                    .get("default")
                    .or_else(|| inner.get("default"))
                    .map(Value::to_string),
                min: number(prop, ["minimum", "exclusiveMinimum"])
                    .or_else(|| number(inner, ["minimum", "exclusiveMinimum"])),
                max: number(prop, ["maximum", "exclusiveMaximum"])
                    .or_else(|| number(inner, ["maximum", "exclusiveMaximum"])),
                description: doc,
                serde_default: false,
                allows: Vec::new(),
            }
        })
        .collect();
    Args {
        params,
        deny_unknown_fields: false,
        allows: Vec::new(),
        tool_description: None,
        origin: Origin::Schema,
    }
}

/// A page: the runtime's envelope (a `pagination` object) or a token, flag or offset for the
/// next page next to the data (`next_cursor`, `nextPageToken`, `has_more`, `next_offset`).
pub fn output_shape(output_schema: Option<&Value>) -> OutputShape {
    let Some(out) = output_schema else {
        return OutputShape::Unknown;
    };
    let s = Schema { root: out };
    let root = s.resolve(out);
    // FastMCP wraps an answer that is not an object as `{"result": ...}`: often a JSON text
    // whose shape the schema does not show.
    if root.get("x-fastmcp-wrap-result").is_some_and(|w| w == true)
        && root
            .pointer("/properties/result/type")
            .is_some_and(|t| t == "string")
    {
        return OutputShape::Unknown;
    }
    let props = root.get("properties").and_then(Value::as_object);
    let paged = props.is_some_and(|p| p.keys().any(|k| pagination_mismatch::is_page_marker(k)));
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
    let args = Args {
        tool_description: description.map(str::to_string),
        ..args_from_schema(input_schema)
    };
    let mut report = crate::check_args(&args);
    let output = output_shape(output_schema);
    let tool = Tool {
        annotations,
        output,
        origin: Origin::Schema,
        ..Tool::new(name, description)
    };
    report.extend(rules::check_tool(&tool, crate::DEFAULT_DESCRIPTION_BUDGET));
    // A numbered position (`offset`, `page`) takes back an answer's `next_offset`, but is no
    // page token of its own: a tool may take a line offset and answer one value.
    let token = args
        .params
        .iter()
        .any(pagination_mismatch::takes_page_token);
    let offset = args.params.iter().any(pagination_mismatch::takes_offset);
    if let Some(f) =
        pagination_mismatch::check_schema(token || (offset && output == OutputShape::Page), output)
    {
        // At its schema level, as every finding here: `settle_levels` below.
        report.findings.push(f);
    }

    let s = Schema { root: input_schema };
    let root = s.resolve(input_schema);
    // An object parameter that lists its properties shows what it holds, whatever its name
    // (a `params` wrapper around described fields): what the parameter model of the rules
    // cannot see. An open object (`options: {}`) still says nothing.
    let shows_its_fields = |param: usize| {
        args.params.get(param).is_some_and(|p| {
            root.get("properties")
                .and_then(|props| props.get(&p.name))
                .map(|v| s.unwrap_option(s.resolve(v)))
                .and_then(|v| v.get("properties"))
                .and_then(Value::as_object)
                .is_some_and(|fields| !fields.is_empty())
        })
    };
    report.findings.retain(|f| {
        !(f.lint == Some(Lint::VagueName)
            && matches!(f.target, Target::Param(i) if shows_its_fields(i)))
    });
    if let Some(props) = root.get("properties").and_then(Value::as_object) {
        for (i, (pname, prop)) in props.iter().enumerate() {
            let mut walk = Walk {
                schema: &s,
                target: Target::Param(i),
                findings: &mut report.findings,
                seen: HashSet::new(),
                tool_description: description,
                enclosing: Vec::new(),
            };
            let doc = s.documentation(pname, prop);
            if doc.as_deref().is_none_or(|d| d.trim().is_empty()) {
                walk.findings.extend(undocumented_value(
                    &s,
                    pname,
                    prop,
                    Target::Param(i),
                    description,
                ));
            }
            walk.enclosing.push(doc.unwrap_or_default());
            walk.nested(pname, prop, 0);
        }
    }
    if let Some(out) = output_schema {
        let s = Schema { root: out };
        let mut walk = Walk {
            schema: &s,
            target: Target::ToolOutput,
            findings: &mut report.findings,
            seen: HashSet::new(),
            tool_description: description,
            enclosing: Vec::new(),
        };
        walk.unions("output", out, 0);
    }
    rules::settle_levels(Origin::Schema, &mut report.findings);
    report
}

/// `missing_description` on an undocumented value of the schema, as advice: see
/// [`missing_description::schema_unexplained`].
fn undocumented_value(
    schema: &Schema<'_>,
    path: &str,
    v: &Value,
    target: Target,
    tool_description: Option<&str>,
) -> Option<Finding> {
    let why = missing_description::schema_unexplained(path, shape(schema, v), tool_description)?;
    let name = path.rsplit(['.', '[']).next().unwrap_or(path);
    Some(
        Finding::new(
            Lint::MissingDescription,
            target,
            why,
            format!("add a doc comment on `{name}` saying what the value is and how the tool uses it"),
        )
        .with_schema_fix(format!(
            "give `{name}` a `description`: what the value is, its unit or format, and how the tool uses it"
        ))
        .advice(),
    )
}

/// What a value's schema shows of it (see [`missing_description::Shape`]).
fn shape<'a>(schema: &Schema<'a>, v: &'a Value) -> missing_description::Shape<'a> {
    use missing_description::Shape;
    let v = schema.unwrap_option(schema.resolve(v));
    if let Some((tag, kinds, fields)) = kinded(schema, v) {
        return Shape::Kinded { tag, kinds, fields };
    }
    if primary_type(v) == Some("array")
        && let Some(items) = v.get("items").map(|i| schema.resolve(i))
        && let Some([value]) = items
            .get("enum")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
        && let Some(value) = value.as_str()
    {
        return Shape::OneValueList { value };
    }
    // `additionalProperties` shows the values' shape only as a schema that says something:
    // `true`, `{}` and (with no properties) `false` show no key at all.
    let keyed = [
        "properties",
        "patternProperties",
        "oneOf",
        "anyOf",
        "allOf",
        "enum",
        "const",
        "$ref",
    ]
    .iter()
    .any(|k| v.get(*k).is_some())
        || v.get("additionalProperties")
            .and_then(Value::as_object)
            .is_some_and(|o| !o.is_empty());
    match primary_type(v) {
        Some("integer" | "number") => Shape::Number {
            bounded: v.get("maximum").is_some() || v.get("exclusiveMaximum").is_some(),
        },
        Some("string") if v.get("enum").is_none() && v.get("format").is_none() => Shape::Text,
        Some("array") => match v.get("items").map(|i| shape(schema, i)) {
            Some(Shape::Text) => Shape::Text,
            _ => Shape::Other,
        },
        Some("object") | None if !keyed => Shape::Untyped,
        _ => Shape::Other,
    }
}

/// An object, or a list of objects, whose one required enum property of three or more
/// values picks a kind and whose three or more other properties are all optional and all
/// undescribed: `(tag, kinds, fields)`. Each kind uses some of the fields, and nothing in
/// the schema says which.
fn kinded<'a>(schema: &Schema<'a>, v: &'a Value) -> Option<(&'a str, usize, usize)> {
    let object = match primary_type(v) {
        Some("array") => schema.unwrap_option(schema.resolve(v.get("items")?)),
        _ => v,
    };
    let props = object.get("properties")?.as_object()?;
    let required: Vec<&str> = object
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let described = props.iter().any(|(n, p)| {
        schema
            .documentation(n, p)
            .is_some_and(|d| !d.trim().is_empty())
    });
    if described || required.len() != 1 {
        return None;
    }
    let (tag, prop) = props.get_key_value(required[0])?;
    let kinds = schema.resolve(prop).get("enum")?.as_array()?.len();
    let fields = props.len() - 1;
    (kinds >= 3 && fields >= 3).then_some((tag.as_str(), kinds, fields))
}

struct Walk<'s, 'a> {
    schema: &'s Schema<'a>,
    target: Target,
    findings: &'s mut Vec<Finding>,
    /// The schemas on the current path, by address: a recursive type is entered once.
    seen: HashSet<*const Value>,
    /// The tool's description: it may say what a nested value's name does not.
    tool_description: Option<&'s str>,
    /// The descriptions of the values that hold the current one, outermost first: a field an
    /// enclosing description names as a key (`{ category: 'a', value: 10 }`) is shown there.
    enclosing: Vec<String>,
}

/// Whether `doc` names `field` as a key: quoted (`` `value` ``, `'value'`, `"value"`) or
/// followed by `:` or `=`, as an example object or an assignment shows its fields. A bare word
/// of the prose (the value to set) is no such statement.
fn names_key(doc: &str, field: &str) -> bool {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    doc.match_indices(field).any(|(at, _)| {
        let before = doc[..at].chars().next_back();
        let after_text = &doc[at + field.len()..];
        let after = after_text.chars().next();
        if before.is_some_and(is_ident) || after.is_some_and(is_ident) {
            return false;
        }
        let quoted = matches!(
            (before, after),
            (Some('`'), Some('`')) | (Some('\''), Some('\'')) | (Some('"'), Some('"'))
        );
        quoted || after_text.trim_start().starts_with([':', '='])
    })
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

    /// Undocumented properties inside a parameter (the parameter itself is checked by
    /// `check_schema_tool`), and unions in it. The values of a plain enum are not checked:
    /// they name themselves, or the property's doc names them.
    fn nested(&mut self, path: &str, v: &'a Value, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let Some(inner) = self.enter(v) else { return };
        self.union(path, inner);
        if let Some(props) = inner.get("properties").and_then(Value::as_object) {
            for (name, prop) in props {
                // A tagged variant's tag (`"detail_level": {"const": "turns"}`) leaves the model
                // nothing to choose: the branch's own description says what it means.
                if self.schema.resolve(prop).get("const").is_some() {
                    continue;
                }
                let child = format!("{path}.{name}");
                let child_doc = self.schema.documentation(name, prop);
                let undocumented = child_doc.as_deref().is_none_or(|d| d.trim().is_empty());
                let shown_above = self
                    .enclosing
                    .iter()
                    .map(String::as_str)
                    .chain(self.tool_description)
                    .any(|d| names_key(d, name));
                if undocumented && !shown_above {
                    self.findings.extend(undocumented_value(
                        self.schema,
                        &child,
                        prop,
                        self.target,
                        self.tool_description,
                    ));
                }
                self.enclosing.push(child_doc.unwrap_or_default());
                self.nested(&child, prop, depth + 1);
                self.enclosing.pop();
            }
        }
        if let Some(items) = inner.get("items") {
            self.nested(&format!("{path}[]"), items, depth + 1);
        }
        for key in ["oneOf", "anyOf"] {
            for b in inner
                .get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                self.nested(path, b, depth + 1);
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
            ).with_schema_fix(
                "give every branch a property that names it (a `const` tag such as `\"kind\": {\"const\": \"...\"}`, or a key only that branch requires)",
            ));
        }
    }
}

/// Whether a union's branches can be told apart by a value: unit variants (`const`), branches
/// of different JSON types, externally tagged objects (one required key each, all
/// different), or a property whose `const` or `enum` values differ per branch (internally or
/// adjacently tagged).
fn discriminated(branches: &[&Value]) -> bool {
    // A free object (`{"type": "object"}` with no properties, or an empty `properties` map,
    // which says the same) takes whatever the others do not, and a branch repeated takes
    // nothing new: neither is a shape to tell apart.
    let mut distinct: Vec<&Value> = Vec::new();
    for b in branches {
        let no_properties = b
            .get("properties")
            .and_then(Value::as_object)
            .is_none_or(serde_json::Map::is_empty);
        let free = primary_type(b) == Some("object")
            && no_properties
            && b.get("additionalProperties") != Some(&Value::Bool(false));
        // A schema that constrains nothing (`{}`) takes anything, as a free object does.
        let anything = b
            .as_object()
            .is_some_and(|m| m.keys().all(|k| k == "description" || k == "title"));
        if !free && !anything && !distinct.contains(b) {
            distinct.push(b);
        }
    }
    let branches = distinct.as_slice();
    if branches.len() < 2 || branches.iter().all(|b| unit_variant(b).is_some()) {
        return true;
    }
    if keyed_by_required_property(branches) {
        return true;
    }
    // Branches of different JSON types (a string or an array of them) name themselves: the
    // value's own type says which one was sent.
    let types: Option<Vec<&str>> = branches.iter().map(|b| json_type(b)).collect();
    if let Some(types) = &types
        && types.iter().collect::<HashSet<_>>().len() == types.len()
    {
        return true;
    }
    // Alternatives of one scalar type (a branch name or any ref, both strings) have no fields
    // that could mean something in one and not the other: the value is a string either way.
    if let Some(types) = &types
        && types
            .iter()
            .all(|t| *t == types[0] && !matches!(*t, "object" | "array"))
    {
        return true;
    }
    // Lists whose items differ in structure name themselves too: GeoJSON coordinates nest one
    // level deeper from a point to a line to a polygon, and a position has two numbers or
    // three.
    let shapes: Option<Vec<String>> = branches.iter().map(|b| structure(b, 0)).collect();
    if let Some(shapes) = shapes
        && shapes.iter().collect::<HashSet<_>>().len() == shapes.len()
    {
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
    // A tag property whose values (a `const`, or an `enum` list as zod writes
    // `z.enum(["image", "audio"])`) never overlap between branches.
    first.keys().any(|tag| {
        let values: Option<Vec<Vec<String>>> = branches
            .iter()
            .map(|b| {
                b.get("properties")
                    .and_then(|p| p.get(tag))
                    .and_then(tag_values)
            })
            .collect();
        values.is_some_and(|vs| {
            let all: Vec<&String> = vs.iter().flatten().collect();
            all.iter().collect::<HashSet<_>>().len() == all.len()
        })
    })
}

/// The values a tag property takes: its `const`, or its `enum` list.
/// A branch's JSON type: its `type`, or `object` for properties or a union without one
/// (`{"oneOf": [{$ref}, ...]}` of objects, which the branch's own check tells apart).
/// A value's structure as the value itself shows it: its JSON type and, for a list, its items'
/// structure and any fixed length (`[[number]2]` for a list of positions). `None` where a
/// `$ref`, a union or an untyped schema leaves it open.
fn structure(v: &Value, depth: usize) -> Option<String> {
    if depth > MAX_DEPTH || v.get("$ref").is_some() {
        return None;
    }
    let ty = json_type(v)?;
    if ty != "array" {
        return Some(ty.to_string());
    }
    let bound = |k: &str| v.get(k).and_then(Value::as_u64);
    let len = match (bound("minItems"), bound("maxItems")) {
        (Some(a), Some(b)) if a == b => a.to_string(),
        _ => String::new(),
    };
    match v.get("items") {
        Some(Value::Array(tuple)) => {
            let parts: Vec<String> = tuple
                .iter()
                .map(|t| structure(t, depth + 1))
                .collect::<Option<_>>()?;
            Some(format!("({})", parts.join(",")))
        }
        Some(items) => Some(format!("[{}]{len}", structure(items, depth + 1)?)),
        None => Some(format!("[]{len}")),
    }
}

fn json_type(v: &Value) -> Option<&str> {
    primary_type(v).or_else(|| {
        let nested =
            v.get("properties").is_some() || ["oneOf", "anyOf"].iter().any(|k| v.get(*k).is_some());
        nested.then_some("object")
    })
}

/// Object branches that each require a property no other branch requires (`page_id` against
/// `database_id`): the key present names the branch, as an external tag would.
fn keyed_by_required_property(branches: &[&Value]) -> bool {
    let props = |b: &Value| -> HashSet<String> {
        b.get("required")
            .and_then(Value::as_array)
            .map(|r| {
                r.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default()
    };
    branches.iter().enumerate().all(|(i, b)| {
        let required = b.get("required").and_then(Value::as_array);
        required
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .any(|key| {
                branches
                    .iter()
                    .enumerate()
                    .all(|(j, other)| i == j || !props(other).contains(key))
            })
    })
}

fn tag_values(v: &Value) -> Option<Vec<String>> {
    if let Some(c) = v.get("const") {
        return Some(vec![value_text(c)]);
    }
    let values = v.get("enum")?.as_array()?;
    (!values.is_empty()).then(|| values.iter().map(value_text).collect())
}
