// `max_depth` means something only for one value of `traversal`; the schema cannot say so.
use mcp_tool::prelude::*;

/// How to walk the tree.
#[tool_args]
pub enum Traversal {
    /// Only the given node.
    Node,
    /// The node and its descendants.
    Subtree,
}

#[tool_args]
pub struct GetTreeArgs {
    /// Path of the node to start from.
    pub path: String,
    /// What to return.
    pub traversal: Traversal,
    /// How many levels to descend. Ignored unless traversal is subtree.
    pub max_depth: Option<u32>,
}

fn main() {}
