//! The wire envelope: `{"status": "ok"|"error", data|error, pagination, hint, warnings, meta}`.

use crate::content::Content;
use crate::error::ToolError;
use crate::page::Page;
use rmcp::model::ContentBlock;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value, json};

/// What a tool produced, before the runtime adds cursors, warnings and sizes.
#[derive(Debug)]
pub struct Output {
    pub(crate) data: Value,
    pub(crate) page: Option<PageInfo>,
    pub(crate) hint: Option<String>,
    /// Rich content: sent to the client as content blocks instead of the envelope's `data`.
    pub(crate) blocks: Option<Vec<ContentBlock>>,
}

#[derive(Debug)]
pub(crate) struct PageInfo {
    pub total_in_page: usize,
    pub next: Option<Value>,
    pub total: Option<u64>,
}

impl Output {
    /// Wraps any serializable value as the `data` of a success.
    pub fn value<T: Serialize>(value: T) -> Result<Self, ToolError> {
        let data = serde_json::to_value(value).map_err(|e| {
            ToolError::internal(format!("the tool's answer did not serialize: {e}"))
        })?;
        Ok(Self {
            data,
            page: None,
            hint: None,
            blocks: None,
        })
    }

    /// Rich content (text, images, audio, resources) sent as content blocks.
    pub fn content(content: Content) -> Result<Self, ToolError> {
        let blocks = content.into_blocks();
        let data = serde_json::to_value(&blocks)
            .map_err(|e| ToolError::internal(format!("content did not serialize: {e}")))?;
        Ok(Self {
            data,
            page: None,
            hint: None,
            blocks: Some(blocks),
        })
    }

    /// Turns a page into `data` (the items) plus pagination facts.
    pub fn page<T: Serialize>(page: Page<T>) -> Result<Self, ToolError> {
        let total_in_page = page.items.len();
        let mut out = Self::value(page.items)?;
        out.page = Some(PageInfo {
            total_in_page,
            next: page.next,
            total: page.total,
        });
        out.hint = page.hint;
        Ok(out)
    }
}

/// A finished answer: the JSON value for `structuredContent` and the same JSON as text.
#[derive(Debug, Clone)]
pub struct Envelope {
    /// The envelope as JSON (`structuredContent`).
    pub value: Value,
    /// The same envelope as compact JSON text, whose length `meta.bytes` states.
    pub text: String,
    /// A tool error (`status: "error"`, `isError: true`).
    pub is_error: bool,
    /// For rich answers, the blocks the client receives; `value` then holds them under
    /// `content` for direct (non-MCP) callers.
    pub blocks: Option<Vec<ContentBlock>>,
}

impl Envelope {
    /// The size of the answer in bytes, as measured against the tool's `size_hint`.
    pub fn bytes(&self) -> usize {
        self.text.len()
    }
}

/// Rough token count for budgeting: JSON averages close to four bytes a token.
pub fn estimate_tokens(bytes: usize) -> usize {
    bytes.div_ceil(4)
}

/// Human form of a byte budget: 10240 -> "10KB".
pub fn format_size(bytes: usize) -> String {
    if bytes >= 1024 * 1024 && bytes.is_multiple_of(1024 * 1024) {
        format!("{}MB", bytes / (1024 * 1024))
    } else if bytes >= 1024 && bytes.is_multiple_of(1024) {
        format!("{}KB", bytes / 1024)
    } else {
        format!("{bytes}B")
    }
}

pub(crate) fn success(
    output: Output,
    next_cursor: Option<String>,
    mut warnings: Vec<String>,
    size_hint: usize,
) -> Envelope {
    let mut map = Map::new();
    map.insert("status".into(), Value::String("ok".into()));
    let data_key = if output.blocks.is_some() {
        "content"
    } else {
        "data"
    };
    map.insert(data_key.into(), output.data);
    if let Some(page) = output.page {
        let mut p = Map::new();
        p.insert("total_in_page".into(), json!(page.total_in_page));
        p.insert("has_more".into(), Value::Bool(page.next.is_some()));
        if let Some(cursor) = next_cursor {
            p.insert("next_cursor".into(), Value::String(cursor));
        }
        if let Some(total) = page.total {
            p.insert("total".into(), json!(total));
        }
        map.insert("pagination".into(), Value::Object(p));
    }
    if let Some(hint) = output.hint {
        map.insert("hint".into(), Value::String(hint));
    }
    let unmeasured = serde_json::to_string(&map).expect("a JSON map always serializes");
    // Warnings are part of the answer, so the size check runs before they are added and the
    // over-budget note is counted in the final size.
    if unmeasured.len() > size_hint {
        warnings.push(format!(
            "This answer is {} bytes, over its budget of {} (the tool's size hint, or the client's limit when smaller).",
            unmeasured.len(),
            format_size(size_hint)
        ));
    }
    if !warnings.is_empty() {
        map.insert("warnings".into(), json!(warnings));
    }
    let mut envelope = finish(map, false);
    envelope.blocks = output.blocks;
    envelope
}

pub(crate) fn failure(error: &ToolError) -> Envelope {
    let mut map = Map::new();
    map.insert("status".into(), Value::String("error".into()));
    map.insert(
        "error".into(),
        serde_json::to_value(error).expect("ToolError serializes"),
    );
    finish(map, true)
}

/// Adds `meta` with the size of the final text, including the meta object itself.
fn finish(mut map: Map<String, Value>, is_error: bool) -> Envelope {
    let body = serde_json::to_string(&map).expect("a JSON map always serializes");
    // `,"meta":{"bytes":N,"estimated_tokens":M}` grows with the digits of N and M, so settle
    // the count by iterating; it converges in at most two rounds.
    let mut bytes = body.len();
    loop {
        let suffix = meta_suffix(bytes);
        let total = body.len() - 1 + suffix.len();
        if total == bytes {
            let mut text = body;
            text.pop();
            text.push_str(&suffix);
            map.insert(
                "meta".into(),
                json!({"bytes": bytes, "estimated_tokens": estimate_tokens(bytes)}),
            );
            return Envelope {
                value: Value::Object(map),
                text,
                is_error,
                blocks: None,
            };
        }
        bytes = total;
    }
}

fn meta_suffix(bytes: usize) -> String {
    format!(
        ",\"meta\":{{\"bytes\":{bytes},\"estimated_tokens\":{}}}}}",
        estimate_tokens(bytes)
    )
}

/// JSON Schema of what `T` serializes to, as a standalone 2020-12 document: the schema of an
/// answer. A field the serializer may leave out (`skip_serializing_if`) is not `required`, so
/// an answer cannot break the `outputSchema` it is advertised with.
pub fn output_schema_of<T: JsonSchema>() -> Value {
    let generator = schemars::generate::SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator();
    generator.into_root_schema_for::<T>().to_value()
}

/// JSON Schema of what `T` deserializes from, as a standalone 2020-12 document: the schema of
/// arguments, where a field with a default may be left out.
pub fn input_schema_of<T: JsonSchema>() -> Value {
    let generator = schemars::generate::SchemaSettings::draft2020_12().into_generator();
    generator.into_root_schema_for::<T>().to_value()
}

/// The `outputSchema` a client sees: the envelope around the data schema, `$defs` hoisted.
pub(crate) fn output_schema(data_schema: Value, paginated: bool) -> Map<String, Value> {
    let mut data = data_schema;
    let mut defs = Map::new();
    if let Value::Object(obj) = &mut data {
        if let Some(Value::Object(d)) = obj.remove("$defs") {
            defs = d;
        }
        obj.remove("$schema");
        obj.remove("title");
    }
    let mut properties = Map::new();
    properties.insert(
        "status".into(),
        json!({"type": "string", "enum": ["ok", "error"]}),
    );
    properties.insert("data".into(), data);
    if paginated {
        properties.insert(
            "pagination".into(),
            json!({
                "type": "object",
                "properties": {
                    "total_in_page": {"type": "integer", "minimum": 0},
                    "has_more": {"type": "boolean"},
                    "next_cursor": {"type": "string", "description": "Pass as `cursor` to get the next page."},
                    "total": {"type": "integer", "minimum": 0}
                },
                "required": ["total_in_page", "has_more"]
            }),
        );
    }
    properties.insert("hint".into(), json!({"type": "string"}));
    properties.insert(
        "warnings".into(),
        json!({"type": "array", "items": {"type": "string"}}),
    );
    properties.insert(
        "meta".into(),
        json!({
            "type": "object",
            "properties": {
                "bytes": {"type": "integer", "minimum": 0},
                "estimated_tokens": {"type": "integer", "minimum": 0}
            },
            "required": ["bytes", "estimated_tokens"]
        }),
    );
    properties.insert(
        "error".into(),
        json!({
            "type": "object",
            "properties": {
                "code": {"type": "string"},
                "message": {"type": "string"},
                "details": {},
                "retryable": {"type": "boolean"}
            },
            "required": ["code", "message", "retryable"]
        }),
    );
    let mut root = Map::new();
    root.insert(
        "$schema".into(),
        json!("https://json-schema.org/draft/2020-12/schema"),
    );
    root.insert("type".into(), json!("object"));
    root.insert("properties".into(), Value::Object(properties));
    root.insert("required".into(), json!(["status", "meta"]));
    if !defs.is_empty() {
        root.insert("$defs".into(), Value::Object(defs));
    }
    root
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meta_bytes_is_the_exact_length_of_the_text() {
        for n in [0usize, 5, 50, 500, 5000] {
            let out = Output::value("x".repeat(n)).unwrap();
            let env = success(out, None, vec![], 1 << 20);
            let parsed: Value = serde_json::from_str(&env.text).unwrap();
            assert_eq!(parsed, env.value);
            assert_eq!(
                parsed["meta"]["bytes"].as_u64().unwrap() as usize,
                env.text.len()
            );
        }
    }

    #[test]
    fn over_budget_answers_carry_a_warning() {
        let env = success(Output::value("y".repeat(300)).unwrap(), None, vec![], 100);
        let w = env.value["warnings"][0].as_str().unwrap();
        assert!(w.contains("over its budget of 100B"), "{w}");
        let env = success(Output::value("y").unwrap(), None, vec![], 100);
        assert!(env.value.get("warnings").is_none());
    }

    #[test]
    fn page_becomes_data_and_pagination() {
        let page = Page::new(vec![1, 2, 3]).with_next(3).with_hint("more");
        let env = success(
            Output::page(page).unwrap(),
            Some("CUR".into()),
            vec![],
            1000,
        );
        assert_eq!(env.value["data"], json!([1, 2, 3]));
        assert_eq!(
            env.value["pagination"],
            json!({"total_in_page": 3, "has_more": true, "next_cursor": "CUR"})
        );
        assert_eq!(env.value["hint"], "more");
    }

    #[test]
    fn sizes_format_readably() {
        assert_eq!(format_size(10 * 1024), "10KB");
        assert_eq!(format_size(1024 * 1024), "1MB");
        assert_eq!(format_size(1500), "1500B");
    }
}
