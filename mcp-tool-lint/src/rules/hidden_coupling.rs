//! `hidden_coupling`: a parameter whose meaning depends on another parameter or on its value,
//! as its doc says, or two optional parameters of which the tool's description says one must
//! be given ("Provide either `url` or `scrapeId`"). (Unions without a discriminator, the other
//! half of this lint, are only visible in a schema: `crate::schema` reports them.)

use super::{ParamCx, Rule};
use crate::text::identifiers::{segments, snake_case};
use crate::text::sentences::{find_word, sentences};
use crate::{Args, Finding, Lint, Origin, Param, Target, TypeClass};

pub(crate) const RULE: Rule = Rule {
    param: Some(check),
    args: Some(check_alternatives),
    ..Rule::NONE
};

/// Words that open a choice between parameters: "either `a` or `b`", "one of `a` or `b`".
/// "At least one of `paths` or `data`" is no choice: both may be given, and a model that
/// means to act gives one of them anyway.
const CHOICE_CUES: &[&str] = &["either", "one of"];

/// The tool's description states a choice between two optional parameters that the schema
/// shows as independent: reported on the first of them, unless its own doc already says so.
fn check_alternatives(args: &Args, out: &mut Vec<Finding>) {
    let Some(doc) = args.tool_description.as_deref() else {
        return;
    };
    let names: Vec<&str> = args.params.iter().map(|p| p.name.as_str()).collect();
    let mut reported: Vec<(String, String)> = Vec::new();
    for sentence in sentences(doc) {
        for (a, b) in choices(&sentence, &names) {
            let (pa, pb) = (&args.params[a], &args.params[b]);
            // A required one is no choice: the schema already says it must be there.
            if pa.required || pb.required {
                continue;
            }
            let own_doc_says = pa
                .description
                .as_deref()
                .and_then(|d| {
                    let siblings: Vec<&Param> = args.params.iter().collect();
                    coupling(d, &pa.name, &siblings, args.origin == Origin::Schema)
                })
                .is_some();
            let pair = (pa.name.clone(), pb.name.clone());
            if own_doc_says || reported.contains(&pair) {
                continue;
            }
            reported.push(pair);
            let (x, y) = (&pa.name, &pb.name);
            out.push(
                Finding::new(
                    Lint::HiddenCoupling,
                    Target::Param(a),
                    format!(
                        "`{x}` only means something depending on `{y}`: the tool's description makes them a choice the schema does not show: \"{sentence}\""
                    ),
                    format!(
                        "make the choice an enum: a `#[tool_args(tag = \"..\")]` enum with one variant carrying `{x}` and one carrying `{y}`; or split the tool in two"
                    ),
                )
                .with_schema_fix(format!(
                    "make the choice part of the schema: a `oneOf` of two objects, one requiring `{x}` and one requiring `{y}`; or split the tool in two"
                )),
            );
        }
    }
}

/// A parameter's name as a whole word of prose: not part of a hyphenated word
/// ("natural-language" does not name `language`).
fn find_name(hay: &str, name: &str, from: usize) -> Option<usize> {
    let mut from = from;
    while let Some(p) = find_word(hay, name, from) {
        let hyphen_before = hay[..p].ends_with('-');
        let hyphen_after = hay[p + name.len()..].starts_with('-');
        if !hyphen_before && !hyphen_after {
            return Some(p);
        }
        from = p + name.len();
    }
    None
}

/// The pairs of parameters (indexes into `names`) that a sentence offers as a choice: a
/// choice cue, then within three words a parameter's name, then "or", "and", "/" or a comma
/// and, within three more words, another one ("either a natural-language `prompt` or
/// executable `code`").
fn choices(sentence: &str, names: &[&str]) -> Vec<(usize, usize)> {
    let lower = sentence.to_ascii_lowercase();
    let next_name = |from: usize| -> Option<(usize, usize, usize)> {
        names
            .iter()
            .enumerate()
            .filter_map(|(i, n)| {
                find_name(&lower, &n.to_ascii_lowercase(), from).map(|p| (p, i, p + n.len()))
            })
            .min()
            .map(|(p, i, end)| (i, lower[from..p].split_whitespace().count(), end))
    };
    let mut out = Vec::new();
    for cue in CHOICE_CUES {
        let mut from = 0;
        while let Some(p) = find_word(&lower, cue, from) {
            from = p + cue.len();
            if lower[..p].ends_with("at least ") || lower[..p].ends_with("at most ") {
                continue;
            }
            let Some((a, gap, end)) = next_name(from) else {
                break;
            };
            if gap > MAX_GAP_WORDS {
                continue;
            }
            let rest = lower[end..].trim_start_matches(['`', '"', '\'', ')', ' ']);
            let after_join = [",", "/", "or ", "and "]
                .iter()
                .find_map(|j| rest.strip_prefix(j));
            let Some(after_join) = after_join else {
                continue;
            };
            let at = lower.len() - after_join.len();
            if let Some((b, gap, _)) = next_name(at)
                && gap <= MAX_GAP_WORDS
                && b != a
                && !out.contains(&(a, b))
            {
                out.push((a, b));
            }
        }
    }
    out
}

fn check(cx: &ParamCx<'_>, out: &mut Vec<Finding>) {
    let name = cx.param.name.as_str();
    let siblings: Vec<&Param> = cx.args.params.iter().collect();
    let strict = cx.args.origin == Origin::Schema;
    let Some(c) = cx.doc.and_then(|d| coupling(d, name, &siblings, strict)) else {
        return;
    };
    // In another server's schema the statement must name the parameter this one depends on:
    // "specify either position or line, not both" about the fields inside `comments` is a
    // rule of the value itself, not a dependency between parameters.
    if cx.args.origin == Origin::Schema && c.other.is_none() {
        return;
    }
    let schema_fix = match &c.other {
        Some(other) => format!(
            "split the tool so that `{name}` belongs only to the tool it applies to; or make the cases a `oneOf` of objects told apart by a `const` `{other}`, with `{name}` only in the case it applies to"
        ),
        None => format!(
            "split the tool so that `{name}` belongs only to the tool it applies to; or make the cases a `oneOf` of objects told apart by a `const` tag, with `{name}` only in the case it applies to"
        ),
    };
    let help = match &c.other {
        Some(other) => {
            let other_is_enum = cx
                .args
                .params
                .iter()
                .find(|q| q.name == *other)
                .is_some_and(|q| matches!(q.ty, TypeClass::Enum { .. } | TypeClass::Other(_)));
            if other_is_enum {
                format!(
                    "split the tool into one tool per `{other}` value, giving `{name}` only to the tool it applies to; or replace `{other}` with a `#[tool_args(tag = \"{other}\")]` enum whose variant carries `{name}`"
                )
            } else {
                format!(
                    "split the tool so that `{name}` belongs only to the tool it applies to; or group `{other}` and `{name}` in a tagged enum variant"
                )
            }
        }
        None => format!(
            "split the tool so that `{name}` belongs only to the tool it applies to; or make the case it depends on a tagged enum variant that carries `{name}`"
        ),
    };
    out.push(Finding::new(
        Lint::HiddenCoupling,
        cx.target,
        match &c.other {
            Some(other) => format!(
                "`{name}` only means something depending on `{other}`: \"{}\"",
                c.evidence
            ),
            None => format!(
                "`{name}` only means something depending on another parameter: \"{}\"",
                c.evidence
            ),
        },
        help,
    ).with_schema_fix(schema_fix));
}

/// Phrases that by themselves make a parameter conditional on something else.
const COUPLING_PHRASES: &[&str] = &[
    "only applies",
    "applies only",
    "only apply",
    "only valid when",
    "only valid if",
    "only valid with",
    "only valid for",
    "valid only when",
    "valid only if",
    "valid only with",
    "ignored unless",
    "ignored otherwise",
    "otherwise ignored",
    "otherwise it is ignored",
    "has no effect unless",
    "no effect unless",
    "only takes effect",
    "takes effect only",
    "only meaningful",
    "meaningful only",
    "only relevant",
    "relevant only",
    "only used with",
    "used only with",
    "only used together",
    "only works with",
    "only works when",
    "only works if",
    "mutually exclusive",
    "cannot be combined",
    "can't be combined",
    "cannot be used with",
    "can't be used with",
    "must be used with",
    "only allowed when",
    "only allowed if",
    "only honoured",
    "only honored",
    "honoured only",
    "honored only",
    "applies solely",
    "used solely",
    "not both",
    "exactly one of",
    "mandatory when",
    "mandatory if",
    "must accompany",
    "must be set together",
    "must be given together",
    // "The only supported value is" states a value, not a dependency.
    "only supported when",
    "only supported with",
    "only supported for",
    "only supported if",
    "only supported by",
    "supported only",
    "only used by",
    "used only by",
    "only used for",
    "used only for",
];

/// Condition words that make a parameter conditional only when followed, in the same
/// sentence, by another parameter's name ("requires `detail_level`", "when format is ...").
const CONDITION_CUES: &[&str] = &[
    "requires",
    "require",
    "required when",
    "required if",
    "when",
    "if",
    "unless",
    "only used if",
    "only used when",
    "used only if",
    "used only when",
    "ignored if",
    "ignored when",
    "has no effect when",
    "has no effect if",
    "depends on",
    "use with",
    "used with",
    "together with",
    "in combination with",
    "combined with",
    "only with",
    "only for",
    "whenever",
    "accompany",
    "alongside",
    "along with",
    "provided with",
    "used by",
    "used for",
    "honoured for",
    "honored for",
    "applies to",
    "apply to",
    "applies when",
    "has no effect if",
    "no effect without",
    "needed when",
    "needed if",
    "needed whenever",
    // A value read off another parameter when unset ("inferred from the filename extension"):
    // the two can contradict each other.
    "inferred from",
    "derived from",
    "deduced from",
    "determined by",
    "guessed from",
];

#[derive(Debug, Clone, PartialEq)]
struct Coupling {
    /// The sentence that states the dependency, as written.
    evidence: String,
    /// The other parameter it names, if any.
    other: Option<String>,
}


/// A name the doc may use for another parameter: the parameter's own name, or one of its
/// enum values ("Only honoured for PDF exports" names `file_kind` by its value `pdf`).
struct Mention {
    /// As it appears in lowercase prose.
    word: String,
    /// The parameter it points to.
    param: String,
    /// Whether it names the parameter even unmarked in prose: a name of two words or more
    /// (`resourceType`, `page_size`) is no word of English, and an enum value stands for its
    /// parameter as it is ("Honoured for PDF exports").
    bare: bool,
}

/// How many words may sit between a condition word and the parameter it is about: "If
/// provided with repo" is a condition on `repo`; "when you only need specific fields, e.g.
/// just 'sha'" is not one on `sha`.
const MAX_GAP_WORDS: usize = 3;

/// Enum values too common in prose to stand for their parameter.
const COMMON_VALUES: &[&str] = &[
    "all", "any", "none", "true", "false", "default", "other", "auto", "yes", "no", "on",
    "off", "new", "get", "set", "list", "text", "one", "both", "each", "first", "last",
];

fn mentions(own: &str, siblings: &[&Param]) -> Vec<Mention> {
    let mut out = Vec::new();
    for p in siblings.iter().filter(|p| p.name != own) {
        out.push(Mention {
            word: p.name.to_ascii_lowercase(),
            param: p.name.clone(),
            bare: segments(&snake_case(&p.name)).len() > 1,
        });
        if let TypeClass::Enum { variants } = &p.ty {
            for v in variants {
                let word = v.name.to_ascii_lowercase();
                if word.len() >= 3 && !COMMON_VALUES.contains(&word.as_str()) {
                    out.push(Mention {
                        word,
                        param: p.name.clone(),
                        bare: true,
                    });
                }
            }
        }
    }
    out
}

/// Words after a name that mark it as a parameter's: "the `format` field", "format is json",
/// "format = json".
const NAME_MARKS: &[&str] = &[
    "parameter", "param", "field", "argument", "arg", "option", "flag", "property", "key",
    "is", "are", "equals", "=", "!=", "==",
];

/// Where `m` stands in `lower` (a sentence in lowercase) as the parameter it names, at or
/// after `from`. In the author's own docs any whole word counts. In another server's schema
/// (`strict`) a name inside a compound does not (`collection-indexes`, `metadata.name`,
/// `a/b`), and a one-word name (`collection`, `command`, `validate`) is read as the
/// parameter's only where the prose marks it so: quoted, followed by "parameter", "field",
/// "is", "=" ([`NAME_MARKS`]), or joined by "or"/"and" to another name of `names` ("either
/// manifest or filename", "if both code and filename are given"). As plain words such names
/// are the sentence's own nouns and verbs ("when exporting collection data", "only validate
/// the resource").
fn find_ref(lower: &str, m: &Mention, from: usize, strict: bool, names: &[String]) -> Option<usize> {
    let mut from = from;
    while let Some(p) = find_word(lower, &m.word, from) {
        from = p + m.word.len();
        if !strict {
            return Some(p);
        }
        let before = lower[..p].chars().next_back();
        let after = lower[from..].chars().next();
        let joined = |c: Option<char>| matches!(c, Some('-' | '.' | '/' | ':' | '$'));
        // A `.` that ends the sentence ends the name too.
        let ends_sentence = lower[from..].starts_with('.') && from + 1 == lower.len();
        if joined(before) || (joined(after) && !ends_sentence) {
            continue;
        }
        let quoted = matches!(before, Some('`' | '\'' | '"')) && matches!(after, Some('`' | '\'' | '"'));
        let rest = lower[from..].trim_start_matches(['`', '\'', '"']);
        let next = rest.trim_start();
        // A word mark stands apart ("format is"); `=` may touch the name ("format=json").
        let marked = NAME_MARKS.iter().any(|w| {
            let symbol = w.starts_with(['=', '!']);
            next.strip_prefix(w).is_some_and(|t| {
                symbol || !t.starts_with(|c: char| c.is_ascii_alphanumeric())
            }) && (symbol || rest.starts_with(' '))
        });
        let joined_to_name = ["or ", "and "].iter().any(|j| {
            next.strip_prefix(j)
                .map(|t| t.trim_start_matches(['`', '\'', '"']))
                .is_some_and(|t| {
                    names.iter().any(|n| {
                        *n != m.word
                            && t.strip_prefix(n.as_str()).is_some_and(|u| {
                                !u.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
                            })
                    })
                })
        });
        if m.bare || quoted || marked || joined_to_name {
            return Some(p);
        }
    }
    None
}

/// Finds a statement that the parameter's meaning depends on another parameter or its value.
/// `strict` for another server's schema: see [`find_ref`].
fn coupling(doc: &str, own: &str, siblings: &[&Param], strict: bool) -> Option<Coupling> {
    let mentions = mentions(own, siblings);
    let names: Vec<&Mention> = mentions.iter().filter(|m| m.word == m.param.to_ascii_lowercase()).collect();
    // Every parameter's name, this one's too: a name joined to another marks both.
    let all_names: Vec<String> = siblings.iter().map(|p| p.name.to_ascii_lowercase()).chain([own.to_ascii_lowercase()]).collect();
    for sentence in sentences(doc) {
        let lower = sentence.to_ascii_lowercase();
        // The first parameter mentioned at or after `from`, with how many words precede it.
        let named_as = |from: usize, strict: bool| {
            mentions
                .iter()
                .filter_map(|m| find_ref(&lower, m, from, strict, &all_names).map(|p| (p, m)))
                .min_by_key(|(p, _)| *p)
                .map(|(p, m)| (lower[from..p].split_whitespace().count(), m.param.clone()))
        };
        let named = |from: usize| named_as(from, strict);
        if let Some(p) = COUPLING_PHRASES
            .iter()
            .filter_map(|p| find_word(&lower, p, 0))
            .min()
        {
            return Some(Coupling {
                evidence: sentence.clone(),
                // The phrase itself states the dependency: its partner may be named bare.
                other: named_as(p, false)
                    .or_else(|| named_as(0, false))
                    .map(|(_, o)| o),
            });
        }
        // `detail_level='turns'`, `format == "json"`: a condition on another parameter's value.
        for o in &names {
            if let Some(p) = find_ref(&lower, o, 0, strict, &all_names) {
                let rest = lower[p + o.word.len()..].trim_start_matches(['`', ' ']);
                if rest.starts_with('=') || rest.starts_with("!=") {
                    return Some(Coupling {
                        evidence: sentence.clone(),
                        other: Some(o.word.clone()),
                    });
                }
            }
        }
        // "Either this or `other`": a choice, named by the other parameter's name only (an
        // enum value after "either" is a value of this one: "either newest or oldest").
        if let Some(p) = find_word(&lower, "either", 0) {
            let from = p + "either".len();
            let other = names
                .iter()
                .filter_map(|m| find_ref(&lower, m, from, strict, &all_names).map(|q| (q, m)))
                .min_by_key(|(q, _)| *q)
                .filter(|(q, _)| lower[from..*q].split_whitespace().count() <= MAX_GAP_WORDS);
            if let Some((_, m)) = other {
                return Some(Coupling {
                    evidence: sentence.clone(),
                    other: Some(m.param.clone()),
                });
            }
        }
        for cue in CONDITION_CUES {
            let mut from = 0;
            while let Some(p) = find_word(&lower, cue, from) {
                from = p + cue.len();
                if let Some((gap, other)) = named(from)
                    && gap <= MAX_GAP_WORDS
                {
                    return Some(Coupling {
                        evidence: sentence.clone(),
                        other: Some(other),
                    });
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(names: &[&str]) -> Vec<Param> {
        names
            .iter()
            .map(|n| Param::new(*n, TypeClass::String))
            .collect()
    }

    #[test]
    fn coupling_reports_the_other_parameter() {
        let ps = params(&["detail_level", "x"]);
        let refs: Vec<&Param> = ps.iter().collect();
        let c = coupling(
            "WARNING: Only valid when detail_level='turns'. Ignored otherwise.",
            "x",
            &refs,
            true,
        );
        assert_eq!(c.unwrap().other.as_deref(), Some("detail_level"));
        // A parameter mentioning itself is not coupled to anything.
        let ps = params(&["limit"]);
        let refs: Vec<&Param> = ps.iter().collect();
        assert_eq!(coupling("Ignored if limit is 0.", "limit", &refs, true), None);
    }

    #[test]
    fn a_sibling_enum_value_names_its_parameter() {
        let kind = Param::new(
            "file_kind",
            TypeClass::Enum {
                variants: ["pdf", "csv"]
                    .map(|v| crate::Variant {
                        name: v.into(),
                        description: None,
                    })
                    .into(),
            },
        );
        let orientation = Param::new("orientation", TypeClass::String);
        let c = coupling(
            "Page orientation. Honoured for PDF exports.",
            "orientation",
            &[&kind, &orientation],
            true,
        );
        assert_eq!(c.unwrap().other.as_deref(), Some("file_kind"));
    }

    fn alternatives(doc: &str, params: Vec<Param>) -> Vec<String> {
        let args = Args {
            params,
            tool_description: Some(doc.into()),
            origin: Origin::Schema,
            ..Args::default()
        };
        let mut out = Vec::new();
        check_alternatives(&args, &mut out);
        out.into_iter().map(|f| f.message).collect()
    }

    fn optional(names: &[&str]) -> Vec<Param> {
        names
            .iter()
            .map(|n| Param {
                required: false,
                description: Some("A value.".into()),
                ..Param::new(*n, TypeClass::String)
            })
            .collect()
    }

    #[test]
    fn a_choice_in_the_tool_description_between_optional_parameters_fires() {
        // "At least one of" is not a choice (the second case below).
        let got = alternatives(
            "Open a page. Provide either `url` or `scrapeId`, and either a natural-language `prompt` or executable `code`.",
            optional(&["url", "scrapeId", "prompt", "code", "language"]),
        );
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(got[0].starts_with("`url` only means something depending on `scrapeId`"));
        assert!(got[1].starts_with("`prompt` only means something depending on `code`"));
        let got = alternatives(
            "Drop files. At least one of \"paths\" or \"data\" must be provided.",
            optional(&["paths", "data", "element"]),
        );
        assert!(got.is_empty(), "{got:?}");
        let got = alternatives(
            "Exactly one of `paths` or `data` must be given.",
            optional(&["paths", "data"]),
        );
        assert_eq!(got.len(), 1, "{got:?}");
    }

    #[test]
    fn a_choice_the_schema_shows_or_that_names_no_two_parameters_is_silent() {
        // One of the two is required: the schema already says it must be there.
        let mut ps = optional(&["url", "path"]);
        ps[0].required = true;
        assert!(alternatives("Give either url or path.", ps).is_empty());
        // Values, not parameters; one parameter only; parameters far from the cue.
        assert!(alternatives("Returns either a link or the data.", optional(&["url", "path"])).is_empty());
        assert!(alternatives("Set either `url` or a local file.", optional(&["url", "path"])).is_empty());
        assert!(
            alternatives(
                "Either way, the url you give is fetched and the path is where it is saved.",
                optional(&["url", "path"])
            )
            .is_empty()
        );
        // The first parameter's own doc already says so: reported there, once.
        let mut ps = optional(&["text", "regex"]);
        ps[0].description = Some("Text to find. Provide either text or regex, not both.".into());
        assert!(alternatives("Provide either text or regex.", ps).is_empty());
    }

    #[test]
    fn either_in_a_parameter_doc_names_the_other_by_its_name_only() {
        let ps = params(&["url", "path"]);
        let refs: Vec<&Param> = ps.iter().collect();
        let c = coupling("Either this or path must be set.", "url", &refs, false);
        assert_eq!(c.unwrap().other.as_deref(), Some("path"));
        let order = Param::new(
            "order",
            TypeClass::Enum {
                variants: ["newest", "oldest"]
                    .map(|v| crate::Variant {
                        name: v.into(),
                        description: None,
                    })
                    .into(),
            },
        );
        let sort = Param::new("sort", TypeClass::String);
        assert_eq!(
            coupling("Sort key, either newest or oldest.", "sort", &[&order, &sort], true),
            None
        );
    }

    #[test]
    fn in_a_schema_a_one_word_name_is_a_parameter_only_where_the_prose_marks_it() {
        let ps = params(&["collection", "command", "name", "manifest", "filename", "resourceType"]);
        let refs: Vec<&Param> = ps.iter().collect();
        let other = |doc: &str, own: &str, strict: bool| coupling(doc, own, &refs, strict).and_then(|c| c.other);
        // Plain nouns and verbs, compounds and paths.
        for doc in [
            "The format to be used when exporting collection data.",
            "If unsure, use the collection-indexes tool to find it.",
            "If true, run the command across all namespaces.",
            "Filter by field selector (e.g. 'metadata.name=my-pod').",
        ] {
            assert_eq!(other(doc, "x", true), None, "{doc}");
        }
        // The author's own docs are read loosely.
        assert_eq!(other("If true, run the command across all namespaces.", "x", false).as_deref(), Some("command"));
        // Quoted, marked, joined to another name, or a name of two words.
        assert_eq!(other("Only read when `collection` is set.", "x", true).as_deref(), Some("collection"));
        assert_eq!(other("Required if the command parameter is `exec`.", "x", true).as_deref(), Some("command"));
        assert_eq!(other("Use either manifest or filename.", "filename", true).as_deref(), Some("manifest"));
        assert_eq!(other("Required when resourceType is pod.", "x", true).as_deref(), Some("resourceType"));
        assert_eq!(other("Target URL (only command=run).", "x", true).as_deref(), Some("command"));
    }
}
