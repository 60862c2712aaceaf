//! The files one tool call names, from its tool name and arguments (see [`super::rules`]).

use serde_json::{Map, Value};

use super::Action;
use super::paths::Glob;
use super::rules::{self, ToolKind};
use super::shell;

/// What a tool name says the tool does, by [`rules::TOOLS`], then by [`rules::NAME_WORDS`].
/// MCP tools (`mcp__server__read_file`) are known by their last part.
pub fn tool_kind(tool: &str) -> Option<ToolKind> {
    let lower = tool.to_ascii_lowercase();
    let short = lower.rsplit("__").next().unwrap_or(&lower);
    for name in [lower.as_str(), short] {
        if let Some(&(_, kind)) = rules::TOOLS.iter().find(|(n, _)| *n == name) {
            return Some(kind);
        }
    }
    rules::NAME_WORDS
        .iter()
        .find(|(w, _)| short.contains(w))
        .map(|&(_, a)| ToolKind::Paths(a))
}

/// The paths (as written, joined onto the call's own working directory when it gives one) and
/// what the call did to each, for a call of `tool` with argument text `args`.
pub fn call_touches(tool: Option<&str>, args: &str) -> Vec<(String, Action)> {
    let parsed: Option<Map<String, Value>> = match serde_json::from_str::<Value>(args) {
        Ok(Value::Object(m)) => Some(m),
        _ => None,
    };
    let kind = tool.and_then(tool_kind);
    let mut out = match (kind, &parsed) {
        (Some(ToolKind::Paths(action)), Some(obj)) => {
            path_args(obj, editor_action(obj).unwrap_or(action))
        }
        (Some(ToolKind::Patch), Some(obj)) => rules::PATCH_KEYS
            .iter()
            .filter_map(|k| obj.get(*k).and_then(Value::as_str))
            .flat_map(|p| patch_touches(p, None))
            .collect(),
        // A custom tool call's input is the raw patch text.
        (Some(ToolKind::Patch), None) => patch_touches(args, None),
        (Some(ToolKind::Shell), Some(obj)) => shell_args(obj),
        (Some(ToolKind::Shell), None) => shell::script_touches(args, None),
        // Arguments that are not an object name no file.
        (Some(ToolKind::Paths(_)), None) | (None, _) => Vec::new(),
    };
    // A URL is no file, in a path argument or a patch as in a shell operand
    // (`shell::pathlike`); normalized as a path it would also lose the `//` after which
    // secret masking looks for a password, and show it.
    out.retain(|(p, _)| !p.contains("://"));
    out.sort();
    out.dedup();
    out
}

/// Anthropic's and Copilot's editor tools say in `command` what they do.
fn editor_action(obj: &Map<String, Value>) -> Option<Action> {
    match obj.get("command")?.as_str()? {
        "view" => Some(Action::Read),
        "create" => Some(Action::Write),
        "str_replace" | "insert" | "undo_edit" | "edit" => Some(Action::Edit),
        _ => None,
    }
}

fn path_args(obj: &Map<String, Value>, action: Action) -> Vec<(String, Action)> {
    let literal = |s: &&str| !s.trim().is_empty() && !Glob::is_glob(s);
    let mut out: Vec<(String, Action)> = rules::PATH_KEYS
        .iter()
        .filter_map(|k| obj.get(*k).and_then(Value::as_str))
        .filter(literal)
        .map(|p| (p.to_owned(), action))
        .collect();
    for key in rules::PATH_LIST_KEYS {
        if let Some(Value::Array(items)) = obj.get(*key) {
            out.extend(
                items
                    .iter()
                    .filter_map(Value::as_str)
                    .filter(literal)
                    .map(|p| (p.to_owned(), action)),
            );
        }
    }
    out
}

fn shell_args(obj: &Map<String, Value>) -> Vec<(String, Action)> {
    let workdir = rules::WORKDIR_KEYS
        .iter()
        .find_map(|k| obj.get(*k).and_then(Value::as_str))
        .filter(|w| !w.trim().is_empty());
    let Some(command) = rules::COMMAND_KEYS.iter().find_map(|k| obj.get(*k)) else {
        return Vec::new();
    };
    match command {
        Value::String(script) => {
            let mut out = shell::script_touches(script, workdir);
            if script.contains("*** Begin Patch") {
                out.extend(patch_touches(script, workdir));
            }
            out
        }
        Value::Array(items) => {
            let argv: Vec<String> = items
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect();
            // Early Codex: `["apply_patch", "*** Begin Patch ..."]`.
            if argv.first().is_some_and(|a| a == "apply_patch") {
                return argv
                    .get(1)
                    .map_or_else(Vec::new, |p| patch_touches(p, workdir));
            }
            let mut out = shell::argv_touches(&argv, workdir);
            if let Some(script) = argv.last().filter(|s| s.contains("*** Begin Patch")) {
                out.extend(patch_touches(script, workdir));
            }
            out
        }
        _ => Vec::new(),
    }
}

/// The files of a Codex patch: `*** Add File:` writes, `*** Update File:` edits (moves, with
/// `*** Move to:`), `*** Delete File:` deletes.
pub fn patch_touches(patch: &str, workdir: Option<&str>) -> Vec<(String, Action)> {
    let join = |p: &str| match workdir {
        Some(w) if !super::paths::is_absolute(p) && !p.starts_with('/') => format!("{w}/{p}"),
        _ => p.to_owned(),
    };
    let mut out: Vec<(String, Action)> = Vec::new();
    for line in patch.lines() {
        let line = line.trim_end();
        let found = [
            ("*** Add File: ", Action::Write),
            ("*** Update File: ", Action::Edit),
            ("*** Delete File: ", Action::Delete),
            ("*** Move to: ", Action::Move),
        ]
        .into_iter()
        .find_map(|(tag, a)| line.strip_prefix(tag).map(|p| (p.trim(), a)));
        let Some((path, action)) = found else {
            continue;
        };
        if path.is_empty() {
            continue;
        }
        if action == Action::Move
            && let Some(last) = out.last_mut()
            && last.1 == Action::Edit
        {
            // The file updated just before is the one moved.
            last.1 = Action::Move;
        }
        out.push((join(path), action));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str, a: Action) -> (String, Action) {
        (s.to_owned(), a)
    }

    #[test]
    fn claude_code_calls() {
        // Shapes from tests/real_logs/claude and the Claude Code tool set.
        assert_eq!(
            call_touches(
                Some("Write"),
                r#"{"file_path":"/Users/test_user/agent-sample/myapp/hoge.py","content":"print(1+1)\n"}"#
            ),
            vec![p(
                "/Users/test_user/agent-sample/myapp/hoge.py",
                Action::Write
            )]
        );
        assert_eq!(
            call_touches(
                Some("MultiEdit"),
                r#"{"file_path":"e:\\w\\a.py","edits":[]}"#
            ),
            vec![p("e:\\w\\a.py", Action::Edit)]
        );
        assert_eq!(
            call_touches(Some("Read"), r#"{"file_path":"src/lib.rs","offset":3}"#),
            vec![p("src/lib.rs", Action::Read)]
        );
        assert_eq!(
            call_touches(Some("NotebookEdit"), r#"{"notebook_path":"n.ipynb"}"#),
            vec![p("n.ipynb", Action::Edit)]
        );
        assert_eq!(
            call_touches(
                Some("Grep"),
                r#"{"pattern":"data-border-color","output_mode":"files_with_matches"}"#
            ),
            vec![]
        );
        assert_eq!(
            call_touches(Some("Grep"), r#"{"pattern":"x","path":"src"}"#),
            vec![p("src", Action::Search)]
        );
        assert_eq!(
            call_touches(Some("Glob"), r#"{"pattern":"**/*.rs"}"#),
            vec![]
        );
        assert_eq!(
            call_touches(
                Some("Bash"),
                r#"{"command":"mkdir -p myapp","description":"Create myapp directory"}"#
            ),
            vec![p("myapp", Action::Write)]
        );
        assert_eq!(
            call_touches(
                Some("Task"),
                r#"{"prompt":"read src/lib.rs","description":"x"}"#
            ),
            vec![]
        );
    }

    #[test]
    fn codex_calls() {
        // tests/real_logs/codex: a custom tool call's raw patch, shell_command with a workdir.
        assert_eq!(
            call_touches(
                Some("apply_patch"),
                "*** Begin Patch\n*** Add File: myapp/hoge.py\n+print(1 + 1)\n*** End Patch"
            ),
            vec![p("myapp/hoge.py", Action::Write)]
        );
        assert_eq!(
            call_touches(
                Some("shell_command"),
                r#"{"command":"python hoge.py","workdir":"/Users/test_user/agent-sample/myapp"}"#
            ),
            vec![p(
                "/Users/test_user/agent-sample/myapp/hoge.py",
                Action::Run
            )]
        );
        assert_eq!(
            call_touches(
                Some("shell"),
                r#"{"command":["bash","-lc","sed -n '1,80p' src/main.rs"],"workdir":"/r"}"#
            ),
            vec![p("/r/src/main.rs", Action::Read)]
        );
        let patch = "*** Begin Patch\n*** Update File: a.rs\n*** Move to: b.rs\n@@\n-x\n+y\n*** Delete File: c.rs\n*** Update File: d.rs\n*** End Patch";
        assert_eq!(
            call_touches(
                Some("shell"),
                &serde_json::json!({"command": ["apply_patch", patch], "workdir": "/r"})
                    .to_string()
            ),
            vec![
                p("/r/a.rs", Action::Move),
                p("/r/b.rs", Action::Move),
                p("/r/c.rs", Action::Delete),
                p("/r/d.rs", Action::Edit)
            ]
        );
        assert_eq!(
            call_touches(
                Some("exec_command"),
                &serde_json::json!({"cmd": format!("apply_patch <<'EOF'\n{patch}\nEOF")})
                    .to_string()
            )
            .len(),
            4
        );
    }

    #[test]
    fn gemini_and_other_providers() {
        // tests/real_logs/gemini: relative write_file path, run_shell_command with cwd.
        assert_eq!(
            call_touches(
                Some("write_file"),
                r#"{"content":"print(1+1)","file_path":"myapp/hoge.py"}"#
            ),
            vec![p("myapp/hoge.py", Action::Write)]
        );
        assert_eq!(
            call_touches(
                Some("run_shell_command"),
                r#"{"command":"cd myapp && python3 hoge.py","description":"x"}"#
            ),
            vec![p("myapp/hoge.py", Action::Run)]
        );
        assert_eq!(
            call_touches(
                Some("run_shell_command"),
                r#"{"command":"ls /non-existent-directory","cwd":"/tmp"}"#
            ),
            vec![p("/non-existent-directory", Action::List)]
        );
        assert_eq!(
            call_touches(
                Some("replace"),
                r#"{"file_path":"/a/b.ts","old_string":"x","new_string":"y"}"#
            ),
            vec![p("/a/b.ts", Action::Edit)]
        );
        assert_eq!(
            call_touches(
                Some("read_many_files"),
                r#"{"paths":["a.md","src/**/*.ts"]}"#
            ),
            vec![p("a.md", Action::Read)]
        );
        assert_eq!(
            call_touches(Some("list_directory"), r#"{"dir_path":"/p/src"}"#),
            vec![p("/p/src", Action::List)]
        );
        assert_eq!(
            call_touches(Some("read_file"), r#"{"absolute_path":"/p/a.rs"}"#),
            vec![p("/p/a.rs", Action::Read)]
        );
        // OpenCode / Copilot: keyed on argument names.
        assert_eq!(
            call_touches(Some("edit"), r#"{"filePath":"/p/x.go","oldString":"a"}"#),
            vec![p("/p/x.go", Action::Edit)]
        );
        assert_eq!(
            call_touches(
                Some("str_replace_editor"),
                r#"{"command":"view","path":"/p/y"}"#
            ),
            vec![p("/p/y", Action::Read)]
        );
        assert_eq!(
            call_touches(Some("create"), r#"{"path":"/p/new.txt","file_text":""}"#),
            vec![p("/p/new.txt", Action::Write)]
        );
        // An unknown tool is known by its name's words, or left out.
        assert_eq!(
            call_touches(Some("mcp__fs__read_text_file"), r#"{"path":"/p/z"}"#),
            vec![p("/p/z", Action::Read)]
        );
        assert_eq!(
            call_touches(Some("WebFetch"), r#"{"url":"https://x","path":"/p/z"}"#),
            vec![]
        );
    }

    #[test]
    fn a_url_given_as_a_path_is_no_touch() {
        assert_eq!(
            call_touches(
                Some("Read"),
                r#"{"file_path":"postgres://app:pw@db/app","paths":["s3://b/k","/p/a"]}"#
            ),
            vec![p("/p/a", Action::Read)]
        );
        assert_eq!(
            call_touches(
                Some("apply_patch"),
                "*** Begin Patch\n*** Add File: https://app:pw@h/x.py\n+1\n*** Add File: b.py\n+2\n*** End Patch"
            ),
            vec![p("b.py", Action::Write)]
        );
    }
}
