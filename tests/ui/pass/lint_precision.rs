// Sound designs that name-only heuristics used to refuse: open strings whose names sound
// closed, examples that are not a closed set, bools that change what the tool does, a value
// next to the name it belongs to, and a namespaced tool name.
use mcp_tool::prelude::*;

#[tool_args]
pub struct ConvertDocumentArgs {
    /// Input file, relative to the workspace.
    pub path: String,
    /// Target format as a pandoc writer name, such as docx, odt or epub.
    pub format: String,
    /// Language of the document, e.g. en, de or pt-BR.
    pub language: Option<String>,
    /// Document type as defined by the organisation's templates (for example memo).
    pub document_type: Option<String>,
    /// Also convert the documents in subdirectories.
    #[arg(default = false)]
    pub recursive: bool,
    /// Report what would be written without writing anything.
    #[arg(default = false)]
    pub dry_run: bool,
    /// Name of a metadata field to set on the output.
    pub name: Option<String>,
    /// Value to give that metadata field.
    pub value: Option<String>,
}

#[tool_output]
pub struct Converted {
    /// Path of the converted file.
    pub output_path: String,
}

/// Convert a document with pandoc and return the path of the result.
#[mcp_tool(name = "pandoc_convert_document", family = "docs", size_hint = "1KB")]
pub async fn pandoc_convert_document(args: ConvertDocumentArgs) -> ToolResult<Converted> {
    let _ = args;
    Ok(Converted { output_path: String::new() })
}

fn main() {}
