//! Tool schemas rewritten for the clients and model APIs that read them.
//!
//! schemars derives full JSON Schema 2020-12: `$defs`/`$ref`, `type: ["string", "null"]` for
//! `Option`, `oneOf` of `const`s for enums, Rust-only formats such as `uint32`. Every MCP client
//! passes the input schema on to a model API, and each API reads a different subset of JSON
//! Schema. [`input_schema`] rewrites a tool's input schema for a [`SchemaProfile`];
//! [`output_schema`] spells the output schema the way strict client validators read it.
//!
//! The rules each profile meets, with their sources, are written as checkers in
//! `mcp-tool-core/tests/portable_schemas.rs`.

use serde_json::{Map, Value, json};

/// Which dialect of JSON Schema a server's input schemas are written in; set it with
/// [`ToolServerBuilder::schema_profile`](crate::ToolServerBuilder::schema_profile).
///
/// Only the spelling changes: the arguments a tool accepts stay the same, so a call written
/// against any profile's schema passes the tool's argument validation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SchemaProfile {
    /// The default: the subset that OpenAI function calling, Anthropic tool use, Gemini
    /// function declarations and MCP Inspector `--strict` all accept as it is.
    ///
    /// - `$ref`s are inlined and `$defs` dropped (a recursive type fails the build);
    /// - an optional parameter is written as its plain type and left out of `required`
    ///   (omitting it is how a model says "none"; `null` is still accepted);
    /// - enums are `{"type": "string", "enum": [..]}`; the values' own descriptions are kept
    ///   in the parameter's description when they are short;
    /// - tagged enums are `anyOf` (not `oneOf`) of objects, tags are one-value `enum`s;
    /// - no `type` arrays, no `const`, no `$schema`, no `additionalProperties: false`;
    /// - integer formats (`uint32`, `int64`, ...) become `minimum`/`maximum`, and only the
    ///   `date-time` string format is kept;
    /// - `description`, `default`, `minimum`, `maximum`, `enum` and `required` are kept.
    #[default]
    Portable,
    /// OpenAI's strict mode (`"strict": true` on a function): [`Portable`](Self::Portable),
    /// then every object lists all its properties in `required` and has
    /// `additionalProperties: false`. An optional parameter without a default becomes
    /// `anyOf: [T, {"type": "null"}]` (the model sends `null` to leave it out); one with a
    /// default becomes required and states its default in its description, since strict mode
    /// takes no `default` keyword.
    OpenAiStrict,
    /// JSON Schema 2020-12 as derived (`$schema`, `$defs`, `$ref`, `additionalProperties`,
    /// `oneOf` kept), for clients that read all of it, such as the MCP conformance suite. Only
    /// the spellings MCP Inspector `--strict` flags are rewritten, each into an equivalent:
    /// `type` arrays become `anyOf`, schemas that accept anything are spelled out.
    JsonSchema,
}

/// Value descriptions of an enum longer than this (in total) are left out of the parameter's
/// description: every request to the model pays for them, and the values' names already say
/// most of it.
const ENUM_NOTES_MAX_CHARS: usize = 120;

/// Keywords that describe a value without constraining it.
const ANNOTATIONS: &[&str] = &[
    "description",
    "title",
    "default",
    "examples",
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// Keywords whose values are data, not subschemas.
const DATA_KEYWORDS: &[&str] = &["enum", "const", "default", "examples", "required"];

/// The string formats every target reads: OpenAI strict mode lists date-time, time, date,
/// duration, email, hostname, ipv4, ipv6, uuid; Gemini's `Schema` lists enum and date-time.
const PORTABLE_STRING_FORMATS: &[&str] = &["date-time"];

/// The formats JSON Schema 2020-12 defines (validation spec §7.3); others are warnings in
/// validators such as Ajv.
const STANDARD_FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// Rewrites a tool's input schema for `profile`.
///
/// # Errors
///
/// A sentence naming the problem when the schema cannot be written in the profile: a recursive
/// type (it cannot be inlined) or a `$ref` that points nowhere.
pub fn input_schema(
    profile: SchemaProfile,
    schema: &Map<String, Value>,
) -> Result<Map<String, Value>, String> {
    match profile {
        SchemaProfile::JsonSchema => Ok(output_schema(schema)),
        SchemaProfile::Portable => portable(schema),
        SchemaProfile::OpenAiStrict => {
            let mut schema = portable(schema)?;
            strictify(&mut schema);
            Ok(schema)
        }
    }
}

/// Spells an output schema the way strict validators and MCP Inspector `--strict` read it,
/// without changing what it accepts: `type` arrays become `anyOf` of single types, schemas that
/// accept any value list the JSON types, non-standard integer formats become `minimum` and
/// `maximum`, unknown formats are dropped. `$defs` and `$ref` stay.
pub fn output_schema(schema: &Map<String, Value>) -> Map<String, Value> {
    spelled_out(schema.clone())
}

/// [`output_schema`] of a schema the caller no longer needs (no copy).
pub(crate) fn spelled_out(schema: Map<String, Value>) -> Map<String, Value> {
    let mut root = Value::Object(schema);
    spell_out(&mut root, None);
    match root {
        Value::Object(map) => map,
        _ => unreachable!("an object stays an object"),
    }
}

fn portable(schema: &Map<String, Value>) -> Result<Map<String, Value>, String> {
    let mut root = schema.clone();
    let mut defs = Map::new();
    for key in ["$defs", "definitions"] {
        if let Some(Value::Object(d)) = root.remove(key) {
            defs.extend(d.into_iter().map(|(k, v)| (format!("#/{key}/{k}"), v)));
        }
    }
    root.remove("$schema");
    let mut root = inline(&Value::Object(root), &defs, &mut Vec::new())?;
    simplify(&mut root);
    attach_notes(&mut root);
    match root {
        Value::Object(map) => Ok(map),
        _ => unreachable!("an object stays an object"),
    }
}

/// Replaces every local `$ref` with the schema it names; sibling keywords (a field's own
/// description) win over the definition's.
fn inline(
    node: &Value,
    defs: &Map<String, Value>,
    stack: &mut Vec<String>,
) -> Result<Value, String> {
    match node {
        Value::Object(map) => {
            let mut out = Map::new();
            if let Some(Value::String(reference)) = map.get("$ref") {
                let reference = reference.replace("~1", "/").replace("~0", "~");
                let Some(target) = defs.get(&reference) else {
                    return Err(format!(
                        "`$ref` to `{reference}` names no definition of the schema"
                    ));
                };
                if stack.contains(&reference) {
                    return Err(format!(
                        "the type at `{reference}` contains itself, so it cannot be inlined for \
                         the portable schema profile; break the recursion or choose \
                         `SchemaProfile::JsonSchema`"
                    ));
                }
                stack.push(reference);
                let resolved = inline(target, defs, stack)?;
                stack.pop();
                if let Value::Object(resolved) = resolved {
                    out.extend(resolved);
                }
            }
            for (key, value) in map {
                if key == "$ref" {
                    continue;
                }
                let value = if DATA_KEYWORDS.contains(&key.as_str()) {
                    value.clone()
                } else {
                    inline(value, defs, stack)?
                };
                out.insert(key.clone(), value);
            }
            Ok(Value::Object(out))
        }
        Value::Array(items) => items
            .iter()
            .map(|v| inline(v, defs, stack))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array),
        other => Ok(other.clone()),
    }
}

/// How a JSON Schema keyword holds subschemas.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Holds {
    /// A map of named subschemas (`properties`, `$defs`, ...).
    Named,
    /// A list of subschemas (`anyOf`, `prefixItems`, ...).
    Listed,
    /// One subschema (`items`, `not`, ...).
    One,
}

/// Whether and how `keyword` holds subschemas: the one list the transform, its spelling pass
/// and the provider rules all walk by.
pub(crate) fn holds(keyword: &str) -> Option<Holds> {
    match keyword {
        "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas" => {
            Some(Holds::Named)
        }
        "anyOf" | "oneOf" | "allOf" | "prefixItems" => Some(Holds::Listed),
        "items"
        | "additionalProperties"
        | "not"
        | "if"
        | "then"
        | "else"
        | "contains"
        | "propertyNames"
        | "unevaluatedProperties"
        | "unevaluatedItems"
        | "additionalItems"
        | "contentSchema" => Some(Holds::One),
        _ => None,
    }
}

/// Calls `f` on every direct subschema of `map`.
fn for_each_subschema(map: &mut Map<String, Value>, f: &mut dyn FnMut(&mut Value)) {
    for (key, value) in map.iter_mut() {
        match (holds(key), value) {
            (Some(Holds::Named), Value::Object(children)) => {
                children.values_mut().for_each(&mut *f);
            }
            (Some(Holds::Listed), Value::Array(children)) => {
                children.iter_mut().for_each(&mut *f);
            }
            (Some(Holds::One), value) => f(value),
            _ => {}
        }
    }
}

/// The portable rewrite of one (already inlined) schema node, children first.
fn simplify(node: &mut Value) {
    let Value::Object(map) = node else { return };
    for_each_subschema(map, &mut simplify);

    if let Some(one_of) = map.remove("oneOf") {
        // Gemini and OpenAI strict mode refuse `oneOf`; the branches schemars writes (enum
        // values, tagged variants) exclude each other, so `anyOf` accepts the same values.
        map.insert("anyOf".into(), one_of);
    }
    if let Some(Value::Array(all_of)) = map.get("allOf")
        && all_of.len() == 1
        && let Some(Value::Object(only)) = map
            .remove("allOf")
            .and_then(|a| a.as_array().and_then(|a| a.first().cloned()))
    {
        merge_under(map, only);
    }
    // Nullability: omitting an optional argument already means "none", and the targets
    // disagree on how to write null (`nullable`, type arrays, an `anyOf` branch).
    if let Some(Value::Array(types)) = map.get("type") {
        let kept: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        match kept.len() {
            0 => {}
            1 => {
                map.insert("type".into(), kept[0].clone());
            }
            _ => {
                map.remove("type");
                let branches = kept.into_iter().map(|t| json!({"type": t})).collect();
                map.insert("anyOf".into(), Value::Array(branches));
            }
        }
    }
    if let Some(Value::Array(branches)) = map.get_mut("anyOf") {
        branches.retain(|b| !is_null_schema(b));
        if branches.len() == 1
            && let Some(Value::Object(only)) = map
                .remove("anyOf")
                .and_then(|a| a.as_array().and_then(|a| a.first().cloned()))
        {
            merge_under(map, only);
        }
    }
    if map.get("default") == Some(&Value::Null) {
        map.remove("default");
    }
    if let Some(Value::Array(values)) = map.get_mut("enum") {
        values.retain(|v| !v.is_null());
    }
    fold_const_branches(map);
    if let Some(value) = map.remove("const") {
        map.insert("enum".into(), Value::Array(vec![value]));
    }
    if matches!(map.get("additionalProperties"), Some(Value::Bool(_))) {
        // Gemini's `Schema` has no `additionalProperties`; an unknown argument still gets a
        // tool error naming it when the server denies unknown fields.
        map.remove("additionalProperties");
    }
    rewrite_format(map, PORTABLE_STRING_FORMATS);
}

fn is_null_schema(schema: &Value) -> bool {
    schema.as_object().is_some_and(|b| {
        b.get("type") == Some(&json!("null"))
            && b.keys()
                .all(|k| k == "type" || ANNOTATIONS.contains(&k.as_str()))
    })
}

/// Merges `inner` into `outer`; `outer`'s own keywords (a field's description, its default)
/// win.
fn merge_under(outer: &mut Map<String, Value>, inner: Map<String, Value>) {
    for (key, value) in inner {
        outer.entry(key).or_insert(value);
    }
}

/// `anyOf: [{const: a, description: ..}, ..]` becomes `enum: [a, ..]`.
fn fold_const_branches(map: &mut Map<String, Value>) {
    let Some(Value::Array(branches)) = map.get("anyOf") else {
        return;
    };
    let mut values = Vec::new();
    let mut notes = Vec::new();
    let mut types = Vec::new();
    for branch in branches {
        let Some(branch) = branch.as_object() else {
            return;
        };
        let value = match (branch.get("const"), branch.get("enum")) {
            (Some(c), None) => c.clone(),
            (None, Some(Value::Array(e))) if e.len() == 1 => e[0].clone(),
            _ => return,
        };
        if branch.keys().any(|k| {
            !matches!(k.as_str(), "const" | "enum" | "type") && !ANNOTATIONS.contains(&k.as_str())
        }) {
            return;
        }
        if let Some(Value::String(d)) = branch.get("description") {
            let text = value
                .as_str()
                .map_or_else(|| value.to_string(), str::to_owned);
            notes.push(format!("`{text}`: {}", d.trim().trim_end_matches('.')));
        }
        types.push(json_type(&value));
        values.push(value);
    }
    map.remove("anyOf");
    types.dedup();
    if let [Some(t)] = types.as_slice() {
        map.insert("type".into(), json!(t));
    }
    map.insert("enum".into(), Value::Array(values.clone()));
    let notes = notes.join("; ");
    if !notes.is_empty() && notes.len() <= ENUM_NOTES_MAX_CHARS {
        // Attached once the enum has settled into the field that uses it, whose own
        // description wins over the type's.
        map.insert(ENUM_NOTES.into(), Value::String(notes));
    }
}

/// Where [`fold_const_branches`] keeps the value descriptions until [`attach_notes`].
const ENUM_NOTES: &str = "x-mcp-tool-enum-notes";

fn attach_notes(node: &mut Value) {
    let Value::Object(map) = node else { return };
    for_each_subschema(map, &mut attach_notes);
    if let Some(Value::String(notes)) = map.remove(ENUM_NOTES) {
        let description = match map.get("description").and_then(Value::as_str) {
            Some(d) => format!("{} ({notes}).", d.trim_end().trim_end_matches('.')),
            None => format!("{notes}."),
        };
        map.insert("description".into(), Value::String(description));
    }
}

fn json_type(value: &Value) -> Option<&'static str> {
    match value {
        Value::String(_) => Some("string"),
        Value::Bool(_) => Some("boolean"),
        Value::Number(n) if n.is_i64() || n.is_u64() => Some("integer"),
        Value::Number(_) => Some("number"),
        _ => None,
    }
}

/// The range a Rust integer format stands for. 64-bit bounds are left out: a JSON number
/// beyond 2^53 is not exact in most clients anyway.
fn format_bounds(format: &str) -> Option<(Option<i64>, Option<i64>)> {
    Some(match format {
        "int8" => (Some(i8::MIN.into()), Some(i8::MAX.into())),
        "int16" => (Some(i16::MIN.into()), Some(i16::MAX.into())),
        "int32" => (Some(i32::MIN.into()), Some(i32::MAX.into())),
        "uint8" => (Some(0), Some(u8::MAX.into())),
        "uint16" => (Some(0), Some(u16::MAX.into())),
        "uint32" => (Some(0), Some(u32::MAX.into())),
        "uint" | "uint64" | "uint128" => (Some(0), None),
        "int" | "int64" | "int128" | "float" | "double" => (None, None),
        _ => return None,
    })
}

/// Replaces an integer format by the bounds it stands for; keeps a string format only when it
/// is in `kept`.
fn rewrite_format(map: &mut Map<String, Value>, kept: &[&str]) {
    let Some(Value::String(format)) = map.get("format") else {
        return;
    };
    let format = format.clone();
    if let Some((min, max)) = format_bounds(&format) {
        map.remove("format");
        if let Some(min) = min {
            map.entry("minimum").or_insert(json!(min));
        }
        if let Some(max) = max {
            map.entry("maximum").or_insert(json!(max));
        }
    } else if !kept.contains(&format.as_str()) {
        map.remove("format");
    }
}

/// OpenAI strict mode on a portable schema: every object closed and fully required. Parents
/// go first, since they read their properties' defaults before the children lose them.
fn strictify(node: &mut Map<String, Value>) {
    if node.get("type") == Some(&json!("object")) {
        let required: Vec<String> = node
            .get("required")
            .and_then(Value::as_array)
            .map(|r| {
                r.iter()
                    .filter_map(|v| v.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default();
        let mut all = Vec::new();
        if let Some(Value::Object(properties)) = node.get_mut("properties") {
            for (name, property) in properties.iter_mut() {
                all.push(Value::String(name.clone()));
                let Value::Object(prop) = property else {
                    continue;
                };
                if required.contains(name) {
                    continue;
                }
                if let Some(default) = prop.remove("default") {
                    // The model must send a value; the default tells it which one means
                    // "as if left out" (strict mode takes no `default` keyword).
                    let note = format!("Default: {default}.");
                    let description = match prop.get("description").and_then(Value::as_str) {
                        Some(d) => format!("{} {note}", d.trim_end()),
                        None => note,
                    };
                    prop.insert("description".into(), Value::String(description));
                } else {
                    // OpenAI's documented spelling of an optional field: a union with null.
                    let description = prop.remove("description");
                    let inner = std::mem::take(prop);
                    prop.insert("anyOf".into(), json!([inner, {"type": "null"}]));
                    if let Some(d) = description {
                        prop.insert("description".into(), d);
                    }
                }
            }
        }
        node.insert("required".into(), Value::Array(all));
        node.insert("additionalProperties".into(), Value::Bool(false));
    }
    node.remove("default");
    for_each_subschema(node, &mut |v| {
        if let Value::Object(m) = v {
            strictify(m);
        }
    });
}

/// The equivalent spellings MCP Inspector `--strict` asks for, on every node: `type` arrays as
/// `anyOf` of single types, any-value schemas (`{}`, `true`) with the JSON types listed,
/// non-standard formats rewritten. `parent` is the keyword the node sits under.
fn spell_out(node: &mut Value, parent: Option<&str>) {
    const BOOLEAN_PLACES: &[&str] = &[
        "additionalProperties",
        "unevaluatedProperties",
        "additionalItems",
        "unevaluatedItems",
    ];
    if let Value::Bool(b) = node {
        if parent.is_some_and(|p| BOOLEAN_PLACES.contains(&p)) {
            return;
        }
        *node = if *b { json!({}) } else { json!({"not": {}}) };
    }
    let Value::Object(map) = node else { return };
    for (key, value) in map.iter_mut() {
        match (holds(key), value) {
            (Some(Holds::Named), Value::Object(children)) => {
                for child in children.values_mut() {
                    spell_out(child, Some(key));
                }
            }
            (Some(Holds::Listed), Value::Array(children)) => {
                for child in children.iter_mut() {
                    spell_out(child, Some(key));
                }
            }
            (Some(Holds::One), value) => spell_out(value, Some(key)),
            _ => {}
        }
    }
    rewrite_format(map, STANDARD_FORMATS);
    if let Some(Value::Array(types)) = map.get("type").cloned() {
        map.remove("type");
        // Keywords for one type constrain nothing of another, so each branch may carry them
        // all; `enum`, `const` and the applicators apply to every value and stay outside.
        let moved: Vec<String> = map
            .keys()
            .filter(|k| TYPE_SPECIFIC.contains(&k.as_str()))
            .cloned()
            .collect();
        let mut specific = Map::new();
        for k in moved {
            if let Some(v) = map.remove(&k) {
                specific.insert(k, v);
            }
        }
        let branches: Vec<Value> = types
            .iter()
            .map(|t| {
                let mut branch = Map::new();
                branch.insert("type".into(), t.clone());
                if t != "null" {
                    branch.extend(specific.clone());
                }
                Value::Object(branch)
            })
            .collect();
        let union = Value::Array(branches);
        if map.contains_key("anyOf") {
            let existing = map.remove("anyOf").unwrap_or_default();
            let all_of = map.entry("allOf").or_insert_with(|| json!([]));
            if let Value::Array(all_of) = all_of {
                all_of.push(json!({"anyOf": existing}));
                all_of.push(json!({"anyOf": union}));
            }
        } else {
            map.insert("anyOf".into(), union);
        }
    }
    if parent != Some("not") && !map.keys().any(|k| CONSTRAINING.contains(&k.as_str())) {
        let any: Vec<Value> = ["object", "array", "string", "number", "boolean", "null"]
            .iter()
            .map(|t| json!({"type": t}))
            .collect();
        map.insert("anyOf".into(), Value::Array(any));
    }
}

/// Keywords that only constrain values of one JSON type.
const TYPE_SPECIFIC: &[&str] = &[
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "contentMediaType",
    "contentEncoding",
    "contentSchema",
    "items",
    "prefixItems",
    "contains",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minContains",
    "maxContains",
    "unevaluatedItems",
    "properties",
    "patternProperties",
    "additionalProperties",
    "unevaluatedProperties",
    "propertyNames",
    "required",
    "minProperties",
    "maxProperties",
    "dependentRequired",
    "dependentSchemas",
];

/// Keywords that constrain a value (what MCP Inspector's schema lint counts as typed).
pub(crate) const CONSTRAINING: &[&str] = &[
    "type",
    "enum",
    "const",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "format",
    "contentMediaType",
    "contentEncoding",
    "contentSchema",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxContains",
    "minContains",
    "maxProperties",
    "minProperties",
    "required",
    "dependentRequired",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "items",
    "prefixItems",
    "contains",
    "additionalItems",
    "unevaluatedItems",
    "properties",
    "patternProperties",
    "additionalProperties",
    "unevaluatedProperties",
    "propertyNames",
    "dependentSchemas",
    "dependencies",
    "$ref",
    "$dynamicRef",
    "$recursiveRef",
    "if",
];
