//! `missing_description`: a tool without a description, everywhere; in the author's code, a
//! field without a doc comment and an enum value left undocumented next to documented ones; in
//! another server's schema, an undocumented value whose structure leaves a model guessing
//! ([`schema_unexplained`], advice).
//!
//! Precision first on schemas: `path`, `mobile`, `includeTags`, `context_lines = 3` explain
//! themselves, and on real servers most undocumented values are like them. A value is reported
//! when what a model needs is stated nowhere and its name cannot state it: a unit, a format, a
//! syntax, the keys of an object, or what a name that holds anything holds.

use super::{ParamCx, Rule, ToolCx, described, quote_list};
use crate::text::identifiers::{is_abbreviation, segments, snake_case};
use crate::text::sentences::find_word;
use crate::{Finding, Lint, Origin, Target, TypeClass, Variant};

pub(crate) const RULE: Rule = Rule {
    param: Some(check_param),
    tool: Some(check_tool),
    ..Rule::NONE
};

/// Last words of a name that do not say what the value is: the same name could hold anything.
const OPEN_HEADS: &[&str] = &[
    "target",
    "type",
    "kind",
    "mode",
    "data",
    "value",
    "values",
    "val",
    "input",
    "inputs",
    "options",
    "opts",
    "param",
    "params",
    "parameters",
    "arg",
    "args",
    "arguments",
    "config",
    "configuration",
    "settings",
    "spec",
    "info",
    "payload",
    "object",
    "obj",
    "flag",
    "flags",
    "level",
    "style",
    "scope",
    "extra",
    "misc",
    "meta",
    "metadata",
];

/// Last words of a name whose value is written in some syntax that the name does not give.
/// (A `selector` is not among them: in the browser tools that take one it is CSS, the
/// domain's own.)
const SYNTAX_HEADS: &[&str] = &[
    "pattern",
    "patterns",
    "expression",
    "expressions",
    "expr",
    "template",
    "filter",
];

/// Words that, in the tool's description, say which syntax its patterns use.
const SYNTAX_NAMES: &[&str] = &[
    "glob",
    "globs",
    "regex",
    "regexes",
    "regexp",
    "regular expression",
    "wildcard",
    "syntax",
    "xpath",
    "css",
    "jsonpath",
    "jmespath",
    "jq",
    "cron",
    "sql",
];

/// What a value's schema shows of it, for [`schema_unexplained`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape<'a> {
    /// A number or an integer; `bounded` when the schema gives it a maximum.
    Number { bounded: bool },
    /// A string, or a list of strings.
    Text,
    /// An object that lists no properties (or no type at all): nothing shows its keys.
    Untyped,
    /// Objects (one, or a list of them) whose required `tag` picks one of `kinds` values and
    /// whose `fields` other properties are all optional, none of them described: which fields
    /// go with which kind is stated nowhere (`{type: click|scroll|press.., selector, key,
    /// direction, ..}`).
    Kinded {
        tag: &'a str,
        kinds: usize,
        fields: usize,
    },
    /// A list whose items can take one value only (`parsers: ["pdf"]`): a switch written as a
    /// list, whose name does not say what listing the value turns on, or what is done without.
    OneValueList { value: &'a str },
    /// Anything else: a bool, an enum (its values name themselves, or the property's doc names
    /// them: undescribed options misled a model about as often as not on the servers the rules
    /// were tuned on), an object with properties.
    Other,
}

/// Words of a name that make a number a span of time.
const DURATION_WORDS: &[&str] = &[
    "age", "wait", "delay", "timeout", "interval", "ttl", "duration", "period", "expiry",
    "backoff", "debounce", "lifetime", "retention",
];

/// Words of a name that give a span of time its unit.
const UNIT_WORDS: &[&str] = &[
    "ms", "millis", "milliseconds", "millisecond", "msec", "us", "ns", "s", "sec", "secs",
    "second", "seconds", "min", "mins", "minute", "minutes", "hour", "hours", "h", "day",
    "days", "week", "weeks",
];

/// Words of a name that make a number a position on some scale, whose range the name does
/// not give (0-1? 1-100?): without a maximum or a description a model has to guess it.
const SCALE_WORDS: &[&str] = &[
    "quality",
    "priority",
    "score",
    "weight",
    "threshold",
    "confidence",
    "importance",
    "severity",
    "rating",
    "strength",
    "intensity",
    "similarity",
];

/// First words of a name that make a list of paths a filter (`includePaths`,
/// `exclude_urls`): a filter's entries may be literal prefixes, globs or regexes, and the
/// name does not say which. (`includeTags` is not one: a tag is matched by its name.)
const FILTER_WORDS: &[&str] = &[
    "include", "exclude", "ignore", "allow", "deny", "skip", "select", "only", "included",
    "excluded", "ignored", "allowed", "denied", "blocked",
];

/// Last words of a name of a filter whose entries are paths or addresses.
const PATH_HEADS: &[&str] = &[
    "path",
    "paths",
    "url",
    "urls",
    "file",
    "files",
    "dirs",
    "directories",
    "folders",
];

/// Words of a name that make a string a point in time, written in some format.
const TIME_POINT_WORDS: &[&str] = &[
    "since", "until", "date", "timestamp", "datetime", "before", "after",
];

/// Words of a name that make a string a code of some standard (ISO 3166, BCP 47, ...). Time
/// zones are not among them: their names (`Europe/Paris`) are the one format everyone uses.
const CODE_WORDS: &[&str] = &[
    "country", "countries", "language", "languages", "locale", "locales", "lang", "currency",
];

/// Words of a name that make an object a map whose keys are the caller's own: an untyped
/// `headers`, `metadata` or JSON `schema` hides nothing.
const MAP_WORDS: &[&str] = &[
    "headers", "header", "metadata", "meta", "schema", "env", "environment", "variables",
    "vars", "labels", "tags", "attributes", "annotations", "properties", "args", "arguments",
];

/// Why an undocumented value of another server's schema leaves a model guessing, or `None`
/// when its name and schema say enough. Only the schema's structure and what the name's
/// words cannot leave open count: a span of time without a unit, a point in time or a
/// standard code without a format, a pattern without a syntax, an object without keys, a name
/// that could hold anything. On real servers most undocumented values (`path`, `mobile`,
/// `includeTags`) explain themselves, and reporting them buries the few that do not.
pub(crate) fn schema_unexplained(
    name: &str,
    shape: Shape<'_>,
    tool_description: Option<&str>,
) -> Option<String> {
    let words = segments(&snake_case(name.rsplit(['.', '[']).next().unwrap_or(name)));
    let has = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
    let head = words.last().map(String::as_str).unwrap_or_default();
    let first = words.first().map(String::as_str).unwrap_or_default();
    let filter = words.len() > 1 && FILTER_WORDS.contains(&first) && PATH_HEADS.contains(&head);
    match shape {
        Shape::Kinded { tag, kinds, fields } => Some(format!(
            "`{name}` takes objects whose `{tag}` is one of {kinds} kinds, with {fields} optional fields and no description: nothing says which fields go with which `{tag}`"
        )),
        Shape::Untyped if !has(MAP_WORDS) => Some(format!(
            "`{name}` is an object with no properties and no description: nothing shows which keys it takes"
        )),
        Shape::OneValueList { value } => Some(format!(
            "`{name}` is a list that can hold only `{value}`, with no description: nothing says what listing it turns on, or what happens without it"
        )),
        Shape::Number { .. } if has(DURATION_WORDS) && !has(UNIT_WORDS) => Some(format!(
            "`{name}` is a span of time with no unit and no description: milliseconds? seconds?"
        )),
        Shape::Number { bounded: false } if SCALE_WORDS.contains(&head) => Some(format!(
            "`{name}` is a number on some scale with no maximum and no description: nothing says its range (0-1? 1-100?)"
        )),
        Shape::Text if filter && !names_a_syntax(tool_description) => Some(format!(
            "`{name}` filters by paths with no description, and nothing says how its entries match (prefixes? globs? regexes?)"
        )),
        Shape::Text if SYNTAX_HEADS.contains(&head) && !names_a_syntax(tool_description) => {
            Some(format!(
                "`{name}` has no description, and nothing says its syntax (a glob? a regex? relative to what?)"
            ))
        }
        Shape::Text if has(TIME_POINT_WORDS) => Some(format!(
            "`{name}` is a point in time with no description: nothing says its format (ISO 8601? a relative date?)"
        )),
        Shape::Text if has(CODE_WORDS) => Some(format!(
            "`{name}` is a code with no description: nothing says which standard (an ISO code? a name?)"
        )),
        Shape::Text | Shape::Number { .. } if OPEN_HEADS.contains(&head) => Some(format!(
            "`{name}` has no description, and its name does not say what it holds"
        )),
        Shape::Text | Shape::Number { .. }
            if words.len() == 1 && head.len() > 1 && is_abbreviation(head) =>
        {
            Some(format!(
            "`{name}` has no description, and its name is an abbreviation a model has to guess"
            ))
        }
        _ => None,
    }
}

/// The values of an enum left undocumented next to values documented on their own; empty
/// when none has a description of its own. A plain list of values (`asc`, `desc`; a JSON
/// Schema `enum`) has nowhere to put one and usually needs none: the values and the
/// parameter's doc say what they mean, and a value that doc merely names (`own_doc`, which
/// the JSON front-end copies onto it) is not documented on its own.
pub(crate) fn forgotten_values<'v>(variants: &'v [Variant], own_doc: Option<&str>) -> Vec<&'v str> {
    let own = |v: &Variant| {
        described(&v.description).is_some_and(|d| own_doc.is_none_or(|o| d != o.trim()))
    };
    if !variants.iter().any(own) {
        return Vec::new();
    }
    variants
        .iter()
        .filter(|v| described(&v.description).is_none())
        .map(|v| v.name.as_str())
        .collect()
}

/// The help of a finding on undocumented enum values.
pub(crate) const VALUES_FIX: &str = "add a doc comment on each enum variant saying when to choose it";

fn names_a_syntax(tool_description: Option<&str>) -> bool {
    let Some(doc) = tool_description else {
        return false;
    };
    let doc = doc.to_ascii_lowercase();
    SYNTAX_NAMES.iter().any(|s| find_word(&doc, s, 0).is_some())
}

fn check_param(cx: &ParamCx<'_>, out: &mut Vec<Finding>) {
    // A schema's parameters are judged where the schema is at hand (`schema.rs` calls
    // `schema_unexplained`); here the author's own fields, each of which needs a doc.
    if cx.args.origin == Origin::Schema {
        return;
    }
    let name = &cx.param.name;
    if cx.doc.is_none() {
        out.push(Finding::new(
            Lint::MissingDescription,
            cx.target,
            format!("`{name}` has no doc comment: its parameter has no description (a `//` comment is not one)"),
            format!("add a `///` doc comment on `{name}` saying what the value is, how the tool uses it, and what an absent value means"),
        ));
    }
    if let TypeClass::Enum { variants } = &cx.param.ty {
        let forgotten = forgotten_values(variants, cx.doc);
        if !forgotten.is_empty() {
            out.push(Finding::new(
                Lint::MissingDescription,
                cx.target,
                format!(
                    "the values of `{name}` have no description: {}",
                    quote_list(&forgotten)
                ),
                VALUES_FIX,
            ));
        }
    }
}

fn check_tool(cx: &ToolCx<'_>, out: &mut Vec<Finding>) {
    if cx.doc.is_none() {
        out.push(Finding::new(
            Lint::MissingDescription,
            Target::ToolDescription,
            format!("the tool `{}` has no description", cx.tool.name),
            "add a doc comment on the fn: what the tool returns, when to use it, and which tool to call next",
        ).with_schema_fix("give the tool a `description`: what it returns, when to use it, and which tool to call next"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NUMBER: Shape<'static> = Shape::Number { bounded: false };

    #[test]
    fn names_that_say_what_they_hold_need_no_description() {
        for name in ["path", "repo_path", "branch_name", "content", "includeTags", "mobile"] {
            assert_eq!(schema_unexplained(name, Shape::Text, None), None, "{name}");
        }
        assert_eq!(schema_unexplained("context_lines", NUMBER, None), None);
        assert_eq!(schema_unexplained("timeout_ms", NUMBER, None), None);
        assert_eq!(schema_unexplained("waitSeconds", NUMBER, None), None);
    }

    #[test]
    fn open_names_need_one_in_snake_and_camel_case() {
        for name in ["target", "resourceType", "event_kind", "data", "outputMode"] {
            assert!(schema_unexplained(name, Shape::Text, None).is_some(), "{name}");
        }
    }

    #[test]
    fn what_the_structure_leaves_open_needs_one() {
        let found = |name, shape| schema_unexplained(name, shape, None).is_some();
        assert!(found("maxAge", NUMBER));
        assert!(found("scrapeOptions.waitFor", NUMBER));
        assert!(found("since", Shape::Text));
        assert!(found("location.country", Shape::Text));
        assert!(found("link", Shape::Untyped));
        assert!(!found("recursive", Shape::Other));
    }

    #[test]
    fn a_pattern_is_explained_by_a_tool_description_that_names_its_syntax() {
        let excludes = |doc| schema_unexplained("excludePatterns", Shape::Text, Some(doc));
        assert!(excludes("Get a recursive tree view of files.").is_some());
        assert_eq!(excludes("The patterns should be glob-style patterns."), None);
    }

    #[test]
    fn a_scale_needs_a_maximum_or_a_description() {
        let quality = |bounded| schema_unexplained("screenshot.quality", Shape::Number { bounded }, None);
        assert!(quality(false).is_some_and(|m| m.contains("nothing says its range")));
        assert_eq!(quality(true), None);
        assert_eq!(schema_unexplained("qualityLevels", Shape::Text, None), None);
    }

    #[test]
    fn a_path_filter_needs_its_matching_stated() {
        let paths = |name, doc| schema_unexplained(name, Shape::Text, doc);
        assert!(paths("includePaths", None).is_some());
        assert!(paths("exclude_urls", None).is_some());
        assert_eq!(paths("includeTags", None), None);
        assert_eq!(paths("paths", None), None);
        assert_eq!(paths("excludePaths", Some("Entries are regex patterns.")), None);
    }

    #[test]
    fn kinded_objects_name_their_tag() {
        let shape = Shape::Kinded { tag: "type", kinds: 9, fields: 7 };
        let m = schema_unexplained("actions", shape, None).unwrap();
        assert!(m.contains("`type` is one of 9 kinds, with 7 optional fields"), "{m}");
    }

    #[test]
    fn a_list_of_one_possible_value_needs_a_description() {
        let m = schema_unexplained("scrapeOptions.parsers", Shape::OneValueList { value: "pdf" }, None);
        assert!(m.is_some_and(|m| m.starts_with("`scrapeOptions.parsers` is a list that can hold only `pdf`")));
    }
}
