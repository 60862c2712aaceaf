//! The rules over the neutral model, and the escape hatch.

use crate::text;
use crate::{
    AcceptedAllow, Allow, Args, Finding, Lint, OutputShape, Param, Report, Target, Tool, TypeClass,
};

/// `too_many_params` fires above this many parameters.
pub const MAX_PARAMS: usize = 8;

/// The default `description_budget`, in estimated tokens.
pub const DEFAULT_DESCRIPTION_BUDGET: usize = 250;

/// Estimated tokens of English text: one per four characters, rounded up. An estimate, so the
/// lint's message says "estimated"; the runtime measures real responses separately.
pub fn estimate_tokens(text: &str) -> usize {
    text.chars().count().div_ceil(4)
}

fn described(doc: &Option<String>) -> Option<&str> {
    doc.as_deref().map(str::trim).filter(|d| !d.is_empty())
}

fn is_stringish(ty: &TypeClass) -> bool {
    match ty {
        TypeClass::String => true,
        TypeClass::Array(inner) => **inner == TypeClass::String,
        _ => false,
    }
}

fn is_integer(ty: &TypeClass) -> bool {
    matches!(ty, TypeClass::Integer | TypeClass::Number)
}

pub(crate) fn check_args(args: &Args) -> Report {
    let mut findings = Vec::new();
    let names: Vec<&str> = args.params.iter().map(|p| p.name.as_str()).collect();
    for (i, p) in args.params.iter().enumerate() {
        param_findings(i, p, args, &names, &mut findings);
    }
    if args.params.len() > MAX_PARAMS {
        findings.push(Finding::new(
            Lint::TooManyParams,
            Target::Args,
            format!(
                "the arguments have {} parameters, more than {MAX_PARAMS}: every call makes the model fill a long form",
                args.params.len()
            ),
            "split the tool by task, so that each tool takes only the parameters its task needs",
        ));
    }
    if args.deny_unknown_fields {
        findings.push(Finding::new(
            Lint::FalseStrictness,
            Target::Args,
            "the arguments reject unknown fields (`#[serde(deny_unknown_fields)]`): a harmless extra key from a model fails the whole call",
            "remove `#[serde(deny_unknown_fields)]`; the declared fields are still validated",
        ));
    }
    let mut report = Report {
        findings,
        accepted_allows: Vec::new(),
    };
    let mut scopes: Vec<(Option<usize>, &[Allow])> = vec![(None, args.allows.as_slice())];
    scopes.extend(
        args.params
            .iter()
            .enumerate()
            .map(|(i, p)| (Some(i), p.allows.as_slice())),
    );
    apply_allows(&mut report, &scopes, Target::Args, true);
    report
}

fn param_findings(i: usize, p: &Param, args: &Args, names: &[&str], out: &mut Vec<Finding>) {
    let target = Target::Param(i);
    let name = p.name.as_str();
    let doc = described(&p.description);

    // The field's own name refers to it, not to a value, so it never counts as a quoted value.
    let mut ignore: Vec<&str> = names.to_vec();
    ignore.push("next_cursor");
    if is_stringish(&p.ty) {
        let by_name = text::closed_domain_by_name(name);
        let by_doc = doc.and_then(|d| text::enumerated_values(d, &ignore));
        if by_name || by_doc.is_some() {
            let ty = text::type_name(name);
            let variants = match &by_doc {
                Some(list) => list
                    .values
                    .iter()
                    .map(|v| text::variant_name(v))
                    .collect::<Vec<_>>()
                    .join(", "),
                None => "..".to_string(),
            };
            let why = match &by_doc {
                Some(list) => format!(
                    "its description enumerates values ({})",
                    quote_list(&list.values)
                ),
                None => "its name says it takes one of a fixed set of values".to_string(),
            };
            let wrap = if p.required {
                ty.clone()
            } else {
                format!("Option<{ty}>")
            };
            let wrap = if matches!(p.ty, TypeClass::Array(_)) {
                format!("Vec<{ty}>")
            } else {
                wrap
            };
            out.push(Finding::new(
                Lint::ClosedDomainString,
                target,
                format!("`{name}` lists a closed set of values but is a `String`: {why}"),
                format!(
                    "declare the values as an enum so the schema lists them: `#[tool_args] pub enum {ty} {{ {variants} }}` and `{name}: {wrap}`"
                ),
            ));
        }
    }

    if let Some(c) = doc.and_then(|d| text::coupling(d, name, names)) {
        let help = match &c.other {
            Some(other) => {
                let other_is_enum = args
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
            target,
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

    if p.ty == TypeClass::Bool && text::is_mode_toggle_name(name) {
        out.push(Finding::new(
            Lint::ModeToggle,
            target,
            format!("`{name}` is a bool that switches the shape of the response"),
            "split the tool into two tools named for what each returns (e.g. `search_event_previews` for previews and `get_event_details` for one full payload)",
        ));
    }

    if doc.is_none() {
        out.push(Finding::new(
            Lint::MissingDescription,
            target,
            format!("`{name}` has no description"),
            format!(
                "add a doc comment on `{name}` saying what the value is and how the tool uses it"
            ),
        ));
    }
    if let TypeClass::Enum { variants } = &p.ty {
        let undocumented: Vec<&str> = variants
            .iter()
            .filter(|v| described(&v.description).is_none())
            .map(|v| v.name.as_str())
            .collect();
        if !undocumented.is_empty() {
            out.push(Finding::new(
                Lint::MissingDescription,
                target,
                format!(
                    "the values of `{name}` have no description: {}",
                    quote_list(&undocumented)
                ),
                "add a doc comment on each enum variant saying when to choose it",
            ));
        }
    }

    if p.default.is_none() {
        let stated = if p.required {
            None
        } else {
            doc.and_then(text::stated_default)
        };
        if p.serde_default || stated.is_some() {
            let why = if p.serde_default {
                "`#[serde(default)]` supplies it".to_string()
            } else {
                "its description states it".to_string()
            };
            let value = stated
                .filter(|v| !v.is_empty())
                .unwrap_or_else(|| "..".to_string());
            let value = if value.parse::<f64>().is_ok()
                || value == ".."
                || matches!(value.as_str(), "true" | "false")
            {
                value
            } else {
                format!("\"{value}\"")
            };
            // The help must lead to code that compiles: `#[arg(default)]` next to
            // `#[serde(default)]` is a duplicate serde attribute, and on an `Option` it is a
            // contradiction the macro refuses.
            let help = if p.serde_default {
                format!(
                    "replace `#[serde(default)]` with `#[arg(default = {value})]` so the default is in the schema and checked"
                )
            } else {
                format!(
                    "declare it with `#[arg(default = {value})]` and drop the `Option` (a field with a default always has a value), so it is in the schema and checked"
                )
            };
            out.push(Finding::new(
                Lint::ImplicitDefault,
                target,
                format!("`{name}` has a default the schema does not show: {why}"),
                help,
            ));
        }
    }

    if is_integer(&p.ty) && p.max.is_none() && text::is_page_size_name(name) {
        // An optional page size without a default is an `Option`, where `#[arg(default)]` is
        // refused: suggest only the bound there.
        let attr = match p.default.as_deref() {
            Some(default) => format!("#[arg(default = {default}, max = 100)]"),
            None if !p.required => "#[arg(max = 100)]".to_string(),
            None => "#[arg(default = 20, max = 100)]".to_string(),
        };
        out.push(Finding::new(
            Lint::UnboundedLimit,
            target,
            format!("`{name}` sets a page size but has no maximum: a model can ask for everything at once"),
            format!("bound it: `{attr}`, with a maximum that keeps a page within the tool's size_hint"),
        ));
    }

    if let Some(suggestion) = text::vague_param_name(name) {
        out.push(Finding::new(
            Lint::VagueName,
            target,
            format!("`{name}` names how the implementation uses the value, not what the value is"),
            format!("rename it to say what the value is: {suggestion}"),
        ));
    }
}

fn quote_list<S: AsRef<str>>(values: &[S]) -> String {
    values
        .iter()
        .map(|v| format!("`{}`", v.as_ref()))
        .collect::<Vec<_>>()
        .join(", ")
}

pub(crate) fn check_tool(tool: &Tool, budget: usize) -> Report {
    let mut findings = Vec::new();
    let name = tool.name.as_str();
    let first = name.split('_').next().unwrap_or("");

    if !text::is_valid_tool_name(name) {
        let fixed = text::snake_case(name);
        // The suggestion must pass the verb-first check too, or following it fails again.
        let fixed = if fixed.is_empty() {
            "get_..".to_string()
        } else if !text::is_verb(fixed.split('_').next().unwrap_or("")) {
            format!("get_{fixed}").chars().take(64).collect()
        } else {
            fixed
        };
        findings.push(Finding::new(
            Lint::ToolName,
            Target::ToolName,
            format!("`{name}` is not a valid tool name: it must match `^[a-z][a-z0-9_]{{0,63}}$`"),
            format!("use lowercase snake_case that starts with a verb, e.g. `{fixed}`"),
        ));
    } else if !text::is_verb(first) && !text::is_vague_tool_name(name) {
        findings.push(Finding::new(
            Lint::ToolName,
            Target::ToolName,
            format!("`{name}` does not start with a verb: a model picks tools by what they do"),
            format!("start the name with what the tool does, e.g. `get_{name}`, `list_{name}` or `search_{name}`"),
        ));
    }

    if text::is_vague_tool_name(name) {
        findings.push(Finding::new(
            Lint::VagueName,
            Target::ToolName,
            format!("`{name}` does not say what the tool does"),
            "name the action and its object, e.g. `search_event_previews`, `get_session_summary`",
        ));
    }

    match described(&tool.description) {
        None => findings.push(Finding::new(
            Lint::MissingDescription,
            Target::ToolDescription,
            format!("the tool `{name}` has no description"),
            "add a doc comment on the fn: what the tool returns, when to use it, and which tool to call next",
        )),
        Some(d) => {
            let tokens = estimate_tokens(d);
            if tokens > budget {
                findings.push(Finding::new(
                    Lint::DescriptionBudget,
                    Target::ToolDescription,
                    format!(
                        "the description of `{name}` is about {tokens} estimated tokens, over its budget of {budget}: it is sent with every request"
                    ),
                    "keep what a model needs to choose and call the tool; move details into the parameters' docs or the response's `hint`",
                ));
            }
        }
    }

    let a = tool.annotations;
    if a.read_only && a.destructive {
        findings.push(Finding::new(
            Lint::AnnotationConflict,
            Target::ToolAnnotations,
            format!("`{name}` is both `read_only` and `destructive`: a read-only tool modifies nothing, so it cannot destroy anything"),
            "remove `destructive` if the tool only reads, or `read_only` if it modifies state",
        ));
    }
    if a.read_only && text::is_write_verb(first) {
        findings.push(Finding::new(
            Lint::AnnotationConflict,
            Target::ToolAnnotations,
            format!("`{name}` is marked `read_only` but its verb `{first}` modifies state"),
            format!("remove `read_only` (and say `destructive` if `{first}` deletes or overwrites), or rename the tool if it only reads"),
        ));
    }
    if a.destructive && !a.read_only && text::is_read_verb(first) {
        findings.push(Finding::new(
            Lint::AnnotationConflict,
            Target::ToolAnnotations,
            format!("`{name}` is marked `destructive` but its verb `{first}` only reads"),
            "replace `destructive` with `read_only`, or rename the tool after what it destroys",
        ));
    }
    let mut report = Report {
        findings,
        accepted_allows: Vec::new(),
    };
    apply_allows(
        &mut report,
        &[(None, tool.allows.as_slice())],
        Target::Tool,
        false,
    );
    report
}

pub(crate) fn check_pagination(has_cursor: bool, output: OutputShape) -> Option<Finding> {
    match (has_cursor, output) {
        (true, OutputShape::Single) => Some(Finding::new(
            Lint::PaginationMismatch,
            Target::ToolOutput,
            "the arguments take a `cursor` but the tool does not return `Page<T>`: there is no `next_cursor` to pass back",
            "return `ToolResult<Page<T>>`, or remove the `cursor` parameter",
        )),
        (false, OutputShape::Page) => Some(Finding::new(
            Lint::PaginationMismatch,
            Target::ToolOutput,
            "the tool returns `Page<T>` but its arguments take no `cursor`: the model cannot ask for the next page",
            "add `pub cursor: Option<Cursor>` to the arguments (documented as \"`next_cursor` from the previous page; omit for the first page.\"), or return a single value",
        )),
        _ => None,
    }
}

/// Validates the allows, drops the findings they silence and records them as accepted allows.
/// `scopes` pairs each list of allows with the parameter it is written on (`None`: the item).
/// An item-level allow covers the whole item; a field's allow covers only that field.
fn apply_allows(
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
                    lint: None,
                    target: at,
                    message: format!("unknown lint `{}` in `allow`", allow.lint),
                    help,
                });
                continue;
            };
            if allow.reason.trim().is_empty() {
                errors.push(Finding {
                    lint: None,
                    target: at,
                    message: format!("`allow({})` needs a reason", lint.name()),
                    help: format!(
                        "say why the design is right here: `allow({} = \"...\")`",
                        lint.name()
                    ),
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
