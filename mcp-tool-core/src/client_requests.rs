//! Requests a tool makes to the client through its `ToolContext`: sampling and elicitation.
