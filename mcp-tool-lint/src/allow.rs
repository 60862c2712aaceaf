//! The escape hatch: `allow(lint = "reason")` validated, applied and recorded.

use crate::{AcceptedAllow, Allow, Finding, Lint, Report, Target};

/// Validates the allows, drops the findings they silence and records them as accepted allows.
/// `scopes` pairs each list of allows with the parameter it is written on (`None`: the item).
/// An item-level allow covers the whole item; a field's allow covers only that field.
pub(crate) fn apply_allows(
    report: &mut Report,
    scopes: &[(Option<usize>, &[Allow])],
    item: Target,
    params: bool,
) {
    let mut errors = Vec::new();
    for (param, allows) in scopes {
        for (index, allow) in allows.iter().enumerate() {
            let at = Target::Allow {
                param: *param,
                index,
            };
            let Some(lint) = Lint::from_name(allow.lint.trim()) else {
                let help = match Lint::suggest(&allow.lint) {
                    Some(l) => format!(
                        "did you mean `{}`? The lints are listed in docs/lints.md",
                        l.name()
                    ),
                    None => format!(
                        "the lints are: {}",
                        Lint::ALL
                            .iter()
                            .map(|l| l.name())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                };
                errors.push(Finding {
                    level: crate::Level::Error,
                    lint: None,
                    target: at,
                    message: format!("unknown lint `{}` in `allow`", allow.lint),
                    help,
                    schema_fix: None,
                });
                continue;
            };
            if allow.reason.trim().is_empty() {
                errors.push(Finding {
                    level: crate::Level::Error,
                    lint: None,
                    target: at,
                    message: format!("`allow({})` needs a reason", lint.name()),
                    help: format!(
                        "say why the design is right here: `allow({} = \"...\")`",
                        lint.name()
                    ),
                    schema_fix: None,
                });
                continue;
            }
            let covers = |t: &Target| match param {
                Some(p) => *t == Target::Param(*p),
                None => true,
            };
            let before = report.findings.len();
            report
                .findings
                .retain(|f| !(f.lint == Some(lint) && covers(&f.target)));
            let suppressed = before - report.findings.len();
            let target = match param {
                Some(p) if params => Target::Param(*p),
                _ => item,
            };
            report.accepted_allows.push(AcceptedAllow {
                lint,
                target,
                reason: allow.reason.trim().to_string(),
                suppressed,
            });
        }
    }
    report.findings.extend(errors);
}

/// The accepted allow for `lint` in `allows`, if any (for checks done outside this crate,
/// such as the macros' cross-item pagination check).
pub fn find_allow(allows: &[Allow], lint: Lint) -> Option<&Allow> {
    allows
        .iter()
        .find(|a| a.lint == lint.name() && !a.reason.trim().is_empty())
}
