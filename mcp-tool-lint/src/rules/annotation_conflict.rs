//! `annotation_conflict`: annotations that contradict each other or the tool's own verb.

use super::{Rule, ToolCx};
use crate::text::verbs::{is_read_verb, is_verb, is_write_verb};
use crate::{Finding, Lint, Target};

pub(crate) const RULE: Rule = Rule {
    tool: Some(check),
    ..Rule::NONE
};

fn check(cx: &ToolCx<'_>, out: &mut Vec<Finding>) {
    let name = cx.tool.name.as_str();
    // The tool's verb: the first segment that is one, so that a namespace before it
    // (`github_delete_issue`) or an object (`issue_write`) does not hide it.
    let first = name
        .split(['_', '-'])
        .find(|s| is_verb(s))
        .unwrap_or_else(|| name.split('_').next().unwrap_or(""));
    let a = cx.tool.annotations;
    if a.read_only && a.destructive {
        out.push(Finding::new(
            Lint::AnnotationConflict,
            Target::ToolAnnotations,
            format!("`{name}` is both `read_only` and `destructive`: a read-only tool modifies nothing, so it cannot destroy anything"),
            "remove `destructive` if the tool only reads, or `read_only` if it modifies state",
        ).with_schema_fix("set `destructiveHint: false` if the tool only reads, or `readOnlyHint: false` if it modifies state"));
    }
    if a.read_only && is_write_verb(first) {
        out.push(Finding::new(
            Lint::AnnotationConflict,
            Target::ToolAnnotations,
            format!("`{name}` is marked `read_only` but its verb `{first}` modifies state"),
            format!("remove `read_only` (and say `destructive` if `{first}` deletes or overwrites), or rename the tool if it only reads"),
        ).with_schema_fix(format!("set `readOnlyHint: false` (and `destructiveHint: true` if `{first}` deletes or overwrites), or rename the tool if it only reads")));
    }
    if a.destructive && !a.read_only && is_read_verb(first) {
        out.push(Finding::new(
            Lint::AnnotationConflict,
            Target::ToolAnnotations,
            format!("`{name}` is marked `destructive` but its verb `{first}` only reads"),
            "replace `destructive` with `read_only`, or rename the tool after what it destroys",
        ).with_schema_fix("set `readOnlyHint: true` and `destructiveHint: false`, or rename the tool after what it destroys"));
    }
}
