//! `mode_toggle`: a bool that switches the shape or size of the answer (previews or full
//! payloads, text or JSON, URLs or content) rather than what the tool does or which records
//! it returns (`recursive`, `include_hidden`, `dry_run`, `case_sensitive`, `full_page`).
//!
//! Two kinds of evidence: a name made of shape words (`verbose`, `raw`, `include_full_payload`,
//! `minimal_output`), or a doc that contrasts two forms of the answer ("instead of a short
//! summary", "rather than id and title pairs", "not as text").

use super::{ParamCx, Rule};
use crate::text::identifiers::segments;
use crate::text::sentences::sentences;
use crate::{Finding, Lint, Origin, TypeClass};

pub(crate) const RULE: Rule = Rule {
    param: Some(check),
    ..Rule::NONE
};

fn check(cx: &ParamCx<'_>, out: &mut Vec<Finding>) {
    let name = &cx.param.name;
    if cx.param.ty != TypeClass::Bool {
        return;
    }
    // In another server's schema a verbosity flag (`verbose`, `detailed`, `debug`) adds detail
    // to the same answer, the conventional design; only a doc that contrasts two forms of
    // the answer, or a name about its form (`raw`, `include_full_payload`), is evidence.
    let by_name = is_mode_toggle_name(name)
        && !(cx.args.origin == Origin::Schema && only_verbosity(name));
    if by_name || cx.doc.is_some_and(contrasts_answer_forms) {
        out.push(Finding::new(
            Lint::ModeToggle,
            cx.target,
            format!("`{name}` is a bool that switches the shape of the response"),
            "split the tool into two, each named for the one shape it returns (e.g. `list_order_summaries` for short entries and `get_order` for one full record)",
        ));
    }
}

/// Words that name the shape of an answer whatever follows them: `verbose`, `raw_events`.
const SHAPE_WORDS: &[&str] = &[
    "verbose",
    "raw",
    "detailed",
    "expand",
    "expanded",
    "brief",
    "concise",
    "terse",
    "pretty",
    "untruncated",
    "markdown",
    "json",
    "html",
    "xml",
];

/// Words that name a shape only about the answer itself (`full`, `full_text`, `compact`,
/// `minimal_output`), not about an action or a scope (`full_scan`, `full_page`,
/// `compact_database`).
const WEAK_SHAPE_WORDS: &[&str] = &[
    "full",
    "compact",
    "minimal",
    "truncate",
    "truncated",
    "summary",
    "summaries",
    "summarize",
    "summarized",
    "preview",
    "previews",
    "payload",
    "payloads",
    "detail",
    "details",
    "debug",
];

/// What a weak shape word may describe: the answer or a part of it.
const ANSWER_NOUNS: &[&str] = &[
    "output", "response", "result", "results", "text", "content", "payload", "payloads",
    "details", "detail", "body", "record", "records", "info", "listing", "view", "format",
    "json", "html", "markdown", "answer",
];

/// Prefixes of filters and predicates: they choose records, not the response's shape.
const FILTER_PREFIXES: &[&str] = &["has", "is", "only", "exclude", "skip", "without", "hide"];

fn is_mode_toggle_name(name: &str) -> bool {
    let segs = segments(name);
    let Some(first) = segs.first() else {
        return false;
    };
    if FILTER_PREFIXES.contains(&first.as_str()) {
        return false;
    }
    let strong = |s: &String| SHAPE_WORDS.contains(&s.as_str());
    let weak = |s: &String| WEAK_SHAPE_WORDS.contains(&s.as_str());
    let answer = |s: &String| ANSWER_NOUNS.contains(&s.as_str());
    let rest = &segs[1..];
    // `full`, `full_text`, `minimal_output`; not `full_scan`.
    let shape_first = strong(first) || (weak(first) && rest.iter().all(|s| weak(s) || answer(s)));
    // `include_*`, `show_*`, `return_*`, `with_*`, `as_*`: look at what is included.
    let prefixed = matches!(
        first.as_str(),
        "include" | "show" | "return" | "with" | "as" | "use" | "output" | "print" | "convert"
            | "render" | "format"
    );
    shape_first || (prefixed && rest.iter().any(|s| strong(s) || weak(s)))
}

/// Words that ask for more or less detail of one answer rather than another form of it.
const VERBOSITY_WORDS: &[&str] = &[
    "verbose", "detailed", "detail", "details", "debug", "expand", "expanded", "timing",
];

/// A name whose shape words all ask for detail (`verbose`, `verbose_timing`, `detailed`).
fn only_verbosity(name: &str) -> bool {
    let segs = segments(name);
    let shape = |s: &String| SHAPE_WORDS.contains(&s.as_str()) || WEAK_SHAPE_WORDS.contains(&s.as_str());
    segs.iter().any(|s| VERBOSITY_WORDS.contains(&s.as_str()))
        && segs
            .iter()
            .filter(|s| shape(s))
            .all(|s| VERBOSITY_WORDS.contains(&s.as_str()))
}

/// Words after which a doc names the other form of the answer.
const CONTRASTS: &[&str] = &[
    "instead of ",
    "rather than ",
    "otherwise only ",
    "otherwise just ",
    ", not as ",
    ", not the ",
    ", not a ",
    "not as ",
];

/// Nouns that name a form of the answer, as the other side of a contrast: "instead of bare
/// names", "not as text", "instead of URLs". Not scopes or actions ("instead of only the
/// latest commit", "instead of the visible viewport").
const FORM_NOUNS: &[&str] = &[
    "text", "plain", "json", "fields", "field", "summary", "summaries", "preview", "previews",
    "names", "name", "ids", "id", "urls", "url", "links", "link", "content", "source",
    "markup", "html", "markdown", "payload", "object", "objects", "pairs", "image", "binary",
    "base64", "excerpt", "excerpts", "snippet", "snippets", "metadata", "truncated", "lines",
];

/// A sentence that contrasts the answer this bool asks for with another form of it.
fn contrasts_answer_forms(doc: &str) -> bool {
    sentences(doc).iter().any(|s| {
        let lower = s.to_ascii_lowercase();
        CONTRASTS.iter().any(|c| {
            lower.match_indices(c).any(|(p, _)| {
                lower[p + c.len()..]
                    .split_whitespace()
                    .take(6)
                    .map(|w| w.trim_matches(|c: char| !c.is_ascii_alphanumeric()))
                    .any(|w| FORM_NOUNS.contains(&w))
            })
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn docs_that_contrast_two_answer_forms() {
        for doc in [
            "Long listing: one line per file with size and owner, instead of bare names.",
            "Send back complete event objects rather than id and title pairs.",
            "Give each line as a JSON object with level and time, not as text.",
            "Include the whole inspect payload instead of a short summary.",
            "Strip the markup and return just the readable text, not the page source.",
            "Return the invoice as a base64 PDF instead of JSON fields.",
            "Returns actual log content instead of URLs",
            "Return every field of the record; otherwise only name, email and plan.",
        ] {
            assert!(contrasts_answer_forms(doc), "{doc}");
        }
        for doc in [
            "Scan every file in the history instead of only the latest commit (slower).",
            "Screenshot the full scrollable page instead of the visible viewport.",
            "Show what would change instead of changing anything.",
            "Run VACUUM after the import to reclaim space.",
        ] {
            assert!(!contrasts_answer_forms(doc), "{doc}");
        }
    }

    #[test]
    fn shape_names_but_not_actions_or_scopes() {
        for name in [
            "full",
            "full_text",
            "minimal_output",
            "verbose",
            "raw_events",
            "convert_to_markdown",
        ] {
            assert!(is_mode_toggle_name(name), "{name}");
        }
        for name in ["full_scan", "full_page", "compact_database", "debug_mode_server"] {
            assert!(!is_mode_toggle_name(name), "{name}");
        }
    }

    #[test]
    fn verbosity_names_are_told_from_form_names() {
        for name in ["verbose", "verbose_timing", "detailed", "include_details"] {
            assert!(only_verbosity(name), "{name}");
        }
        for name in ["raw", "include_raw_content", "full_text", "verbose_json"] {
            assert!(!only_verbosity(name), "{name}");
        }
    }
}
