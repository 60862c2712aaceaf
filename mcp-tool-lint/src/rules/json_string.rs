//! `json_string`: a string parameter that holds a JSON document, as its own doc says ("JSON
//! string", "JSON-encoded", "as JSON", "a JSON object") or its name does (`filters_json`).
//!
//! The model then writes a JSON document and escapes it into a string by hand, and the schema
//! shows none of the document's keys. Typed as an object (or an array), the same value is
//! plain JSON in the call and its keys are in the schema.
//!
//! Only the parameter's own statement counts, and only one about the value itself: "Return
//! results as JSON", "Path to a JSON file", "A JSONPath expression" and "Format: json or
//! text" are about the answer, a file or a syntax, and raise nothing.

use super::{ParamCx, Rule};
use crate::text::identifiers::snake_case;
use crate::text::sentences::{find_word, sentences};
use crate::{Finding, Lint, TypeClass};

pub(crate) const RULE: Rule = Rule {
    param: Some(check),
    ..Rule::NONE
};

fn check(cx: &ParamCx<'_>, out: &mut Vec<Finding>) {
    if cx.param.ty != TypeClass::String {
        return;
    }
    let name = &cx.param.name;
    let evidence = match cx.doc.and_then(says_json) {
        Some(sentence) => format!("its description says so: \"{sentence}\""),
        None if names_json(name) => "its name says so".to_string(),
        None => return,
    };
    out.push(
        Finding::new(
            Lint::JsonString,
            cx.target,
            format!(
                "`{name}` is a string that holds a JSON document ({evidence}): the model has to escape a document into a string, and the schema shows none of its keys"
            ),
            format!(
                "type `{name}` as a `#[tool_args]` struct (or a `Vec` of one) with a documented field per key, so the schema lists them; `serde_json::Value` if its keys really are free"
            ),
        )
        .with_schema_fix(format!(
            "type `{name}` as an `object` (or an `array`) with its `properties` described, so the model sends structured JSON instead of escaping a document into a string"
        )),
    );
}

/// Phrases that say the value itself is JSON text.
const JSON_VALUE_PHRASES: &[&str] = &[
    "json string",
    "json-string",
    "json encoded",
    "json-encoded",
    "json serialized",
    "json-serialized",
    "serialized json",
    "serialized as json",
    "encoded as json",
    "stringified json",
    "json stringified",
    "json-stringified",
    "json.stringify",
    "json formatted",
    "json-formatted",
    "in json format",
    "as json",
    "as a json",
    "valid json",
    "a json object",
    "a json array",
    "an json object",
    "json object string",
    "json document",
];

/// Words that put a sentence about something else than the value: the answer ("Return
/// results as JSON"), a file or address that holds the document ("Path to a JSON file"), or
/// a syntax over JSON ("JSONPath", "a JSON pointer").
const OTHER_SUBJECTS: &[&str] = &[
    "return",
    "returns",
    "returned",
    "response",
    "responses",
    "respond",
    "output",
    "outputs",
    "result",
    "results",
    "reply",
    "file",
    "files",
    "path",
    "url",
    "uri",
    "link",
    "jsonpath",
    "pointer",
];

/// The sentence of `doc` that says the value is a JSON document, if any.
fn says_json(doc: &str) -> Option<String> {
    sentences(doc).into_iter().find(|sentence| {
        let lower = sentence.to_ascii_lowercase();
        JSON_VALUE_PHRASES
            .iter()
            .any(|p| find_word(&lower, p, 0).is_some())
            && !OTHER_SUBJECTS
                .iter()
                .any(|w| find_word(&lower, w, 0).is_some())
    })
}

/// A name whose last word is `json` (`filters_json`, `argsJson`): it cannot hold anything
/// but a JSON document.
fn names_json(name: &str) -> bool {
    let lower = snake_case(name);
    lower.ends_with("_json") && lower.len() > "_json".len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Args, Origin, Param, check_args};

    fn lints(name: &str, ty: TypeClass, doc: &str, origin: Origin) -> Vec<Lint> {
        let args = Args {
            params: vec![Param {
                description: Some(doc.into()),
                ..Param::new(name, ty)
            }],
            origin,
            ..Args::default()
        };
        check_args(&args).lints()
    }

    fn fires(name: &str, doc: &str) {
        for origin in [Origin::Code, Origin::Schema] {
            assert!(
                lints(name, TypeClass::String, doc, origin).contains(&Lint::JsonString),
                "`{name}` ({doc:?}) should be json_string ({origin:?})"
            );
        }
    }

    fn silent(name: &str, ty: TypeClass, doc: &str) {
        assert!(
            !lints(name, ty, doc, Origin::Schema).contains(&Lint::JsonString),
            "`{name}` ({doc:?}) should not be json_string"
        );
    }

    #[test]
    fn a_string_whose_doc_says_it_holds_json_fires() {
        fires("metadata", "Metadata as a JSON string.");
        fires("filters", "JSON-encoded filter object, e.g. {\"status\": \"open\"}.");
        fires("body", "The request body as JSON.");
        fires("arguments", "A JSON object with the tool's arguments.");
        fires("rows", "Rows to insert, as a JSON array of objects.");
        fires("config", "Stringified JSON of the settings. Keys: name, size.");
        fires("filter_json", "Which records to keep.");
        fires("argsJson", "The arguments of the call.");
    }

    #[test]
    fn json_about_something_else_than_the_value_is_silent() {
        silent("format", TypeClass::String, "Output format: json or text.");
        silent("mode", TypeClass::String, "Return results as JSON or markdown.");
        silent("path", TypeClass::String, "Path to a JSON file to load.");
        silent("selector", TypeClass::String, "A JSONPath expression, e.g. $.items[0].");
        silent("jq", TypeClass::String, "A jq filter applied to the JSON object.");
        silent("url", TypeClass::String, "URL of a JSON document.");
        silent("query", TypeClass::String, "Search text; JSON is not supported.");
        silent("json", TypeClass::String, "Output format.");
        // Already structured: an object, or an enum that only names JSON as one value.
        silent("metadata", TypeClass::Object, "Metadata as a JSON object.");
        silent(
            "format",
            TypeClass::Enum { variants: vec![] },
            "Output format, as JSON or text.",
        );
    }
}
