//! `unbounded_list`: a tool that lists or searches inside a scope its caller names (a
//! directory, a repository, a query) and takes nothing that bounds the answer: no result
//! count, no page, offset or cursor, and no bound stated in its description or its
//! parameters' docs. The answer is as large as what the scope holds.
//!
//! The evidence is the tool's verb (`list`, `search`: the first segment of the name that is a
//! verb, so `brave_web_search` and `API-list-users` have theirs) and the schema's parameters.
//! A list tool without parameters lists one fixed collection of the server's own (its
//! configured roots, its open tabs, its tables), whose size the server knows; it is not
//! reported. The check spans the tool and its arguments, so it runs on a schema, where both
//! are known ([`crate::schema::check_schema_tool`]).

use super::Rule;
use super::pagination_mismatch::{takes_offset, takes_page_token};
use super::unbounded_limit::{is_page_size_name, states_bound};
use crate::text::identifiers::snake_case;
use crate::text::verbs::is_verb;
use crate::{Args, Finding, Lint, OutputShape, Target, Tool, TypeClass};

pub(crate) const RULE: Rule = Rule::NONE;

/// Verbs whose answer is a collection of any size.
const LIST_VERBS: &[&str] = &["list", "search"];

/// Words that say the answer is bounded or comes in pages, whatever the number.
const BOUND_WORDS: &[&str] = &["truncat", "paginat", "per page", "limited to", "capped"];

/// The finding on `tool` with `args`, if it lists an open collection with no bound.
pub(crate) fn check_schema(tool: &Tool, args: &Args) -> Option<Finding> {
    let name = tool.name.as_str();
    let snake = snake_case(name).replace('-', "_");
    let verb = snake.split('_').find(|s| is_verb(s))?;
    if !LIST_VERBS.contains(&verb) || tool.output == OutputShape::Page || args.params.is_empty() {
        return None;
    }
    let bounding = args.params.iter().any(|p| {
        (is_page_size_name(&p.name) && matches!(p.ty, TypeClass::Integer | TypeClass::Number))
            || takes_page_token(p)
            || takes_offset(p)
    });
    let docs = tool
        .description
        .iter()
        .chain(args.params.iter().filter_map(|p| p.description.as_ref()));
    let stated = docs.into_iter().any(|d| {
        let lower = d.to_ascii_lowercase();
        states_bound(d) || BOUND_WORDS.iter().any(|w| lower.contains(w))
    });
    if bounding || stated {
        return None;
    }
    Some(
        Finding::new(
            Lint::UnboundedList,
            Target::ToolOutput,
            format!(
                "`{name}` returns every result of its {verb}: it takes no result count, page or cursor and states no bound, so the answer is as large as what the scope holds"
            ),
            "add a `limit` with `#[arg(default = 20, max = 100)]` and a `cursor`, and return `ToolResult<Page<T>>`",
        )
        .with_schema_fix(
            "add a `limit` parameter with a `maximum` and a way to the next page (a cursor or an offset), or state in the description how many results the tool returns at most",
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Origin, Param};

    fn tool(name: &str, description: &str, params: &[(&str, TypeClass, &str)]) -> Option<Finding> {
        let tool = Tool {
            origin: Origin::Schema,
            output: OutputShape::Unknown,
            ..Tool::new(name, Some(description))
        };
        let args = Args {
            params: params
                .iter()
                .map(|(n, ty, doc)| Param {
                    required: false,
                    description: Some(doc.to_string()),
                    ..Param::new(*n, ty.clone())
                })
                .collect(),
            origin: Origin::Schema,
            ..Args::default()
        };
        check_schema(&tool, &args)
    }

    #[test]
    fn a_list_or_search_in_a_named_scope_without_a_bound_fires() {
        let s = TypeClass::String;
        let f = tool("list_directory", "List the entries of a directory.", &[("path", s.clone(), "Directory.")]);
        assert_eq!(f.unwrap().lint, Some(Lint::UnboundedList));
        assert!(tool("search_nodes", "Search the graph.", &[("query", s.clone(), "Text.")]).is_some());
        assert!(tool("brave_web_search", "Web search.", &[("query", s.clone(), "Text.")]).is_some());
        assert!(tool("API-list-users", "Users.", &[("team", s.clone(), "Team id.")]).is_some());
        assert!(tool("searchFiles", "Find files.", &[("glob", s, "A glob.")]).is_some());
    }

    #[test]
    fn a_bound_a_page_or_a_fixed_collection_is_silent() {
        let (s, i) = (TypeClass::String, TypeClass::Integer);
        // A count, a page token, an offset.
        assert!(tool("search_code", "Search.", &[("q", s.clone(), "Query."), ("per_page", i.clone(), "Results per page.")]).is_none());
        assert!(tool("list_issues", "Issues.", &[("repo", s.clone(), "Repo."), ("page_token", s.clone(), "Token of the next page.")]).is_none());
        assert!(tool("list_commits", "Commits.", &[("repo", s.clone(), "Repo."), ("offset", i.clone(), "Skip this many.")]).is_none());
        // A bound stated in prose.
        assert!(tool("search_docs", "Returns at most 10 matches.", &[("query", s.clone(), "Text.")]).is_none());
        assert!(tool("list_logs", "Log lines, truncated to the last screen.", &[("job", s.clone(), "Job id.")]).is_none());
        // No parameters: one fixed collection of the server's own.
        assert!(tool("list_allowed_directories", "Directories this server may read.", &[]).is_none());
        // Another verb, or a page answer.
        assert!(tool("get_issue", "One issue.", &[("id", s.clone(), "Id.")]).is_none());
        let paged = Tool {
            output: OutputShape::Page,
            ..Tool::new("list_sessions", Some("Sessions."))
        };
        let args = Args {
            params: vec![Param::new("project", s)],
            ..Args::default()
        };
        assert!(check_schema(&paged, &args).is_none());
    }
}
