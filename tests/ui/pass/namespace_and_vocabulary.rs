// Sound designs that the name rules must not reject: a namespace prefix (the tool's family,
// or a server prefix before the verb), a report noun, and a domain's own vocabulary explained
// by its doc.
use mcp_tool::prelude::*;

#[tool_output]
pub struct Done {
    /// Whether it worked.
    pub ok: bool,
}

#[tool_args]
pub struct NavigateArgs {
    /// The address to open.
    pub url: String,
}

/// Opens a page in the browser.
#[mcp_tool(family = "browser", size_hint = "1KB")]
pub async fn browser_navigate(args: NavigateArgs) -> ToolResult<Done> {
    let _ = args.url;
    Ok(Done { ok: true })
}

#[tool_args]
pub struct SearchFilesArgs {
    /// Glob pattern matched against paths relative to the root, e.g. `src/**/*.rs`.
    pub pattern: String,
    /// SQL `WHERE` clause that filters the rows.
    pub sql: Option<String>,
}

/// Finds files by a glob pattern.
#[mcp_tool(family = "files", size_hint = "4KB", read_only)]
pub async fn github_search_files(args: SearchFilesArgs) -> ToolResult<Done> {
    let _ = (args.pattern, args.sql);
    Ok(Done { ok: true })
}

/// The state of the working tree.
#[mcp_tool(family = "git", size_hint = "4KB", read_only)]
pub async fn git_status() -> ToolResult<Done> {
    Ok(Done { ok: true })
}

fn main() {}
