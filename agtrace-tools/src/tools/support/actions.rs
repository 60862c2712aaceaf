//! One-line descriptions of tool calls ("Bash `cargo test` failed"), built from the call's
//! arguments, for turn summaries and the analysis.

use serde_json::Value;

use super::text::fold_whitespace;

/// Argument keys that say what a call did, most telling first, across the three providers.
const KEY_ARGS: &[&str] = &[
    "command",
    "cmd",
    "file_path",
    "absolute_path",
    "filePath",
    "path",
    "pattern",
    "query",
    "url",
    "prompt",
    "description",
];

/// The argument that best says what the call did, folded to one line of at most `max_chars`.
pub fn key_argument(arguments: &str, max_chars: usize) -> Option<String> {
    let value: Value = serde_json::from_str(arguments).ok()?;
    let obj = value.as_object()?;
    let found = KEY_ARGS
        .iter()
        .find_map(|k| obj.get(*k))
        .or_else(|| obj.values().find(|v| v.is_string()))?;
    let text = match found {
        Value::String(s) => s.clone(),
        // Codex shells: ["bash", "-lc", "cargo test"] -> the script itself.
        Value::Array(parts) => {
            let parts: Vec<&str> = parts.iter().filter_map(Value::as_str).collect();
            match parts.as_slice() {
                [shell, flag, script] if shell.ends_with("sh") && flag.starts_with('-') => {
                    (*script).to_owned()
                }
                _ => parts.join(" "),
            }
        }
        _ => return None,
    };
    let mut line = fold_whitespace(&text, max_chars + 1);
    if line.chars().count() > max_chars {
        line = line
            .chars()
            .take(max_chars.saturating_sub(1))
            .collect::<String>()
            + "…";
    }
    (!line.is_empty()).then_some(line)
}

/// "Bash `cargo test`", or just the tool's name when its arguments say nothing short.
pub fn describe_call(tool_name: Option<&str>, arguments: &str, max_chars: usize) -> String {
    let name = tool_name.unwrap_or("tool");
    match key_argument(arguments, max_chars) {
        Some(arg) => format!("{name} `{}`", arg.replace('`', "'")),
        None => name.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_the_telling_argument() {
        assert_eq!(
            describe_call(Some("Bash"), r#"{"command":"cargo test","timeout":5}"#, 40),
            "Bash `cargo test`"
        );
        assert_eq!(
            describe_call(Some("shell"), r#"{"command":["bash","-lc","ls -la"]}"#, 40),
            "shell `ls -la`"
        );
        assert_eq!(
            describe_call(Some("Read"), r#"{"file_path":"/a/b.rs"}"#, 40),
            "Read `/a/b.rs`"
        );
        assert_eq!(describe_call(Some("Task"), "not json", 40), "Task");
        assert_eq!(
            describe_call(Some("Bash"), r#"{"command":"a very long command line"}"#, 8),
            "Bash `a very …`"
        );
    }
}
