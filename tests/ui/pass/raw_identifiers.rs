// Raw identifiers name parameters, variants and tools without their `r#`, as serde does:
// the field `r#type` is the parameter `type`, the fn `r#match` the tool `match`.
use mcp_tool::prelude::*;

/// What a note is.
#[tool_args]
pub enum Kind {
    /// A thing to do.
    Todo,
    /// A thing to remember.
    r#Memo,
}

/// How much of each note to return.
#[tool_args(tag = "detail_level")]
pub enum Detail {
    /// Titles only.
    Titles,
    /// The text, cut after some lines.
    r#Text {
        /// Lines per note.
        #[arg(default = 20, min = 1, max = 100)]
        r#lines: u32,
    },
}

#[tool_args]
pub struct MatchNotesArgs {
    /// What kind of note to look at.
    #[arg(default = Kind::Todo)]
    pub r#type: Kind,
    /// Text the notes must contain.
    pub r#match: String,
    /// Most notes to count.
    #[arg(default = 10, min = 1, max = 50)]
    pub r#limit: u32,
    /// How much of each note to return.
    pub r#detail: Option<Detail>,
}

/// One note.
#[tool_output]
pub struct Note {
    /// The note's kind.
    pub r#type: String,
}

/// Find the notes that contain a text.
#[mcp_tool(family = "notes", size_hint = "4KB", read_only)]
pub async fn r#match(args: MatchNotesArgs) -> ToolResult<Vec<Note>> {
    let _ = (args.r#match, args.r#limit, args.r#detail);
    Ok(vec![Note { r#type: "todo".to_owned() }])
}

fn main() {}
