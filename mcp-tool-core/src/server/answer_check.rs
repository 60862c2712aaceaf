//! Answers checked against the `outputSchema` they are advertised with.
//!
//! A client that validates (the Python and TypeScript SDKs, MCP Inspector, Gemini CLI) rejects
//! a whole answer over one field that breaks the schema, and one that does not validate passes
//! the broken answer on to its model. Checking on the server turns such a bug into an
//! `internal` tool error that names the tool and the JSON path: never a lie on the wire.

use jsonschema::Validator;
use serde_json::{Map, Value};

/// The compiled `outputSchema` of one tool.
pub(crate) struct AnswerCheck {
    validator: Validator,
}

/// Where an answer breaks its schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Mismatch {
    /// JSON pointer into the envelope, e.g. `/data/0/is_error`.
    pub path: String,
    /// What the schema wanted there.
    pub message: String,
}

impl AnswerCheck {
    /// Compiles `schema` as JSON Schema 2020-12; an error says why it is not a valid schema.
    pub fn new(schema: &Map<String, Value>) -> Result<Self, String> {
        jsonschema::draft202012::new(&Value::Object(schema.clone()))
            .map(|validator| Self { validator })
            .map_err(|e| e.to_string())
    }

    /// The first place where `answer` breaks the schema, if any.
    pub fn mismatch(&self, answer: &Value) -> Option<Mismatch> {
        self.validator.validate(answer).err().map(|e| Mismatch {
            path: e.instance_path().to_string(),
            message: e.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(schema: Value) -> AnswerCheck {
        let Value::Object(map) = schema else {
            panic!("not an object")
        };
        AnswerCheck::new(&map).expect("valid schema")
    }

    #[test]
    fn a_missing_required_field_is_named_by_its_path() {
        let c = check(json!({
            "type": "object",
            "properties": {"data": {"type": "array", "items": {
                "type": "object", "required": ["is_error"],
                "properties": {"is_error": {"type": "boolean"}}}}}
        }));
        assert_eq!(c.mismatch(&json!({"data": [{"is_error": false}]})), None);
        let m = c
            .mismatch(&json!({"data": [{"is_error": true}, {}]}))
            .expect("mismatch");
        assert_eq!(m.path, "/data/1");
        assert!(m.message.contains("is_error"), "{}", m.message);
    }

    #[test]
    fn an_invalid_schema_is_refused() {
        let Value::Object(map) = json!({"type": 7}) else {
            unreachable!()
        };
        assert!(AnswerCheck::new(&map).is_err());
    }
}
