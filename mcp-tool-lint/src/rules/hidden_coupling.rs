//! `hidden_coupling`: a parameter whose meaning depends on another parameter or on its value,
//! as its doc says. (Unions without a discriminator, the other half of this lint, are only
//! visible in a schema: `crate::schema` reports them.)

use super::{ParamCx, Rule};
use crate::text::sentences::{find_word, sentences};
use crate::{Finding, Lint, Origin, Param, TypeClass};

pub(crate) const RULE: Rule = Rule {
    param: Some(check),
    ..Rule::NONE
};

fn check(cx: &ParamCx<'_>, out: &mut Vec<Finding>) {
    let name = cx.param.name.as_str();
    let siblings: Vec<&Param> = cx.args.params.iter().collect();
    let Some(c) = cx.doc.and_then(|d| coupling(d, name, &siblings)) else {
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
        });
        if let TypeClass::Enum { variants } = &p.ty {
            for v in variants {
                let word = v.name.to_ascii_lowercase();
                if word.len() >= 3 && !COMMON_VALUES.contains(&word.as_str()) {
                    out.push(Mention {
                        word,
                        param: p.name.clone(),
                    });
                }
            }
        }
    }
    out
}

/// Finds a statement that the parameter's meaning depends on another parameter or its value.
fn coupling(doc: &str, own: &str, siblings: &[&Param]) -> Option<Coupling> {
    let mentions = mentions(own, siblings);
    let names: Vec<&Mention> = mentions.iter().filter(|m| m.word == m.param.to_ascii_lowercase()).collect();
    for sentence in sentences(doc) {
        let lower = sentence.to_ascii_lowercase();
        // The first parameter mentioned at or after `from`, with how many words precede it.
        let named = |from: usize| {
            mentions
                .iter()
                .filter_map(|m| find_word(&lower, &m.word, from).map(|p| (p, m)))
                .min_by_key(|(p, _)| *p)
                .map(|(p, m)| (lower[from..p].split_whitespace().count(), m.param.clone()))
        };
        if let Some(p) = COUPLING_PHRASES
            .iter()
            .filter_map(|p| find_word(&lower, p, 0))
            .min()
        {
            return Some(Coupling {
                evidence: sentence.clone(),
                other: named(p).or_else(|| named(0)).map(|(_, o)| o),
            });
        }
        // `detail_level='turns'`, `format == "json"`: a condition on another parameter's value.
        for o in &names {
            if let Some(p) = find_word(&lower, &o.word, 0) {
                let rest = lower[p + o.word.len()..].trim_start_matches(['`', ' ']);
                if rest.starts_with('=') || rest.starts_with("!=") {
                    return Some(Coupling {
                        evidence: sentence.clone(),
                        other: Some(o.word.clone()),
                    });
                }
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
        );
        assert_eq!(c.unwrap().other.as_deref(), Some("detail_level"));
        // A parameter mentioning itself is not coupled to anything.
        let ps = params(&["limit"]);
        let refs: Vec<&Param> = ps.iter().collect();
        assert_eq!(coupling("Ignored if limit is 0.", "limit", &refs), None);
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
        );
        assert_eq!(c.unwrap().other.as_deref(), Some("file_kind"));
    }
}
