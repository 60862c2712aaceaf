//! `hidden_coupling`: a parameter whose meaning depends on another parameter or on its value,
//! as its doc says. (Unions without a discriminator, the other half of this lint, are only
//! visible in a schema: `crate::schema` reports them.)

use super::{ParamCx, Rule};
use crate::text::sentences::{find_word, sentences};
use crate::{Finding, Lint, TypeClass};

pub(crate) const RULE: Rule = Rule {
    param: Some(check),
    ..Rule::NONE
};

fn check(cx: &ParamCx<'_>, out: &mut Vec<Finding>) {
    let name = cx.param.name.as_str();
    let Some(c) = cx.doc.and_then(|d| coupling(d, name, cx.names)) else {
        return;
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
    ));
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
];

#[derive(Debug, Clone, PartialEq)]
struct Coupling {
    /// The sentence that states the dependency, as written.
    evidence: String,
    /// The other parameter it names, if any.
    other: Option<String>,
}


/// Finds a statement that the parameter's meaning depends on another parameter or its value.
fn coupling(doc: &str, own: &str, siblings: &[&str]) -> Option<Coupling> {
    let others: Vec<&str> = siblings.iter().copied().filter(|s| *s != own).collect();
    for sentence in sentences(doc) {
        let lower = sentence.to_ascii_lowercase();
        let named = |from: usize| {
            others
                .iter()
                .filter_map(|o| find_word(&lower, &o.to_ascii_lowercase(), from).map(|p| (p, *o)))
                .min()
                .map(|(_, o)| o.to_string())
        };
        if let Some(p) = COUPLING_PHRASES
            .iter()
            .filter_map(|p| find_word(&lower, p, 0))
            .min()
        {
            return Some(Coupling {
                evidence: sentence.clone(),
                other: named(p).or_else(|| named(0)),
            });
        }
        // `detail_level='turns'`, `format == "json"`: a condition on another parameter's value.
        for o in &others {
            let o = o.to_ascii_lowercase();
            if let Some(p) = find_word(&lower, &o, 0) {
                let rest = lower[p + o.len()..].trim_start_matches(['`', ' ']);
                if rest.starts_with('=') || rest.starts_with("!=") {
                    return Some(Coupling {
                        evidence: sentence.clone(),
                        other: Some(o.clone()),
                    });
                }
            }
        }
        for cue in CONDITION_CUES {
            if let Some(p) = find_word(&lower, cue, 0)
                && let Some(other) = named(p + cue.len())
            {
                return Some(Coupling {
                    evidence: sentence.clone(),
                    other: Some(other),
                });
            }
        }
    }
    None
}


#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coupling_reports_the_other_parameter() {
        let c = coupling(
            "WARNING: Only valid when detail_level='turns'. Ignored otherwise.",
            "x",
            &["detail_level", "x"],
        );
        assert_eq!(c.unwrap().other.as_deref(), Some("detail_level"));
        // A parameter mentioning itself is not coupled to anything.
        assert_eq!(
            coupling("Ignored if limit is 0.", "limit", &["limit"]),
            None
        );
    }
}
