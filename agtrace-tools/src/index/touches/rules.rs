//! The one table of names file history is extracted by: tool names, argument keys and shell
//! commands, across providers. A provider whose tools use these names (or name words) and keys
//! needs no change here; one that does not is taught here, and only here.

use super::Action;

/// What a tool does with the paths its arguments name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolKind {
    /// Does `Action` to every path in its [`PATH_KEYS`] / [`PATH_LIST_KEYS`] arguments.
    Paths(Action),
    /// Applies a Codex patch (`*** Update File: <path>` ...) given as its raw text or in a
    /// [`PATCH_KEYS`] argument.
    Patch,
    /// Runs a shell command ([`COMMAND_KEYS`], relative to [`WORKDIR_KEYS`]); see [`SHELL`].
    Shell,
}

/// Tool names, compared lower-cased: Claude Code, Codex, Gemini CLI / Qwen Code, Copilot CLI,
/// OpenCode.
pub const TOOLS: &[(&str, ToolKind)] = &[
    ("read", ToolKind::Paths(Action::Read)),
    ("read_file", ToolKind::Paths(Action::Read)),
    ("read_many_files", ToolKind::Paths(Action::Read)),
    ("view", ToolKind::Paths(Action::Read)),
    ("notebookread", ToolKind::Paths(Action::Read)),
    ("edit", ToolKind::Paths(Action::Edit)),
    ("multiedit", ToolKind::Paths(Action::Edit)),
    ("notebookedit", ToolKind::Paths(Action::Edit)),
    ("replace", ToolKind::Paths(Action::Edit)),
    ("str_replace", ToolKind::Paths(Action::Edit)),
    ("str_replace_editor", ToolKind::Paths(Action::Edit)),
    ("str_replace_based_edit_tool", ToolKind::Paths(Action::Edit)),
    ("edit_file", ToolKind::Paths(Action::Edit)),
    ("write", ToolKind::Paths(Action::Write)),
    ("write_file", ToolKind::Paths(Action::Write)),
    ("create", ToolKind::Paths(Action::Write)),
    ("create_file", ToolKind::Paths(Action::Write)),
    ("delete_file", ToolKind::Paths(Action::Delete)),
    ("grep", ToolKind::Paths(Action::Search)),
    ("glob", ToolKind::Paths(Action::Search)),
    ("search_file_content", ToolKind::Paths(Action::Search)),
    ("ls", ToolKind::Paths(Action::List)),
    ("list", ToolKind::Paths(Action::List)),
    ("list_directory", ToolKind::Paths(Action::List)),
    ("apply_patch", ToolKind::Patch),
    ("bash", ToolKind::Shell),
    ("shell", ToolKind::Shell),
    ("shell_command", ToolKind::Shell),
    ("exec_command", ToolKind::Shell),
    ("local_shell_call", ToolKind::Shell),
    ("container.exec", ToolKind::Shell),
    ("run_shell_command", ToolKind::Shell),
    ("powershell", ToolKind::Shell),
];

/// For a tool not in [`TOOLS`] that has a path argument: the first word of its lower-cased
/// name found here says what it does (`notebook_read` reads). A tool with none is left out.
pub const NAME_WORDS: &[(&str, Action)] = &[
    ("delete", Action::Delete),
    ("remove", Action::Delete),
    ("write", Action::Write),
    ("create", Action::Write),
    ("edit", Action::Edit),
    ("replace", Action::Edit),
    ("patch", Action::Edit),
    ("read", Action::Read),
    ("view", Action::Read),
    ("grep", Action::Search),
    ("search", Action::Search),
    ("glob", Action::Search),
    ("find", Action::Search),
    ("list", Action::List),
];

/// Argument keys holding one path.
pub const PATH_KEYS: &[&str] = &[
    "file_path",
    "filePath",
    "absolute_path",
    "notebook_path",
    "path",
    "dir_path",
    "target_file",
    "filename",
];

/// Argument keys holding a list of paths.
pub const PATH_LIST_KEYS: &[&str] = &["paths", "file_paths", "filePaths"];

/// Argument keys of a patch's text.
pub const PATCH_KEYS: &[&str] = &["input", "patch"];

/// Argument keys of a shell command: a string, or an argv array.
pub const COMMAND_KEYS: &[&str] = &["command", "cmd", "argv"];

/// Argument keys of the directory a shell command runs in.
pub const WORKDIR_KEYS: &[&str] = &["workdir", "cwd", "directory", "dir_path"];

/// How a shell command's arguments name files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgRule {
    /// Every operand is a file the command does `Action` to (`cat a b`, `rm -f x`).
    Operands(Action),
    /// The first operand is a pattern or script (unless given by `-e`/`-f`), the others are
    /// files (`grep`, `rg`, `sed`, `awk`, `jq`); `sed -i`/`perl -i` edit them instead.
    AfterFirst(Action),
    /// The first operand is the script run (`python x.py`); the rest are its arguments, left
    /// out (what a script does with them is unknown).
    Script,
    /// Every operand is run as tests (`pytest tests/a.py`).
    Runs,
    /// All operands but the last are read, the last written (`cp`).
    Copy,
    /// Every operand is moved (`mv`).
    Move,
    /// The operands before the first option or expression are searched (`find src -name x`).
    Roots(Action),
}

/// Shell commands (by the base name of the program) and how their operands name files.
/// Commands not listed name no file: precision over recall (a test filter, a package name, a
/// branch are not paths).
pub const SHELL: &[(&str, ArgRule)] = &[
    ("cat", ArgRule::Operands(Action::Read)),
    ("head", ArgRule::Operands(Action::Read)),
    ("tail", ArgRule::Operands(Action::Read)),
    ("less", ArgRule::Operands(Action::Read)),
    ("more", ArgRule::Operands(Action::Read)),
    ("bat", ArgRule::Operands(Action::Read)),
    ("nl", ArgRule::Operands(Action::Read)),
    ("wc", ArgRule::Operands(Action::Read)),
    ("diff", ArgRule::Operands(Action::Read)),
    ("stat", ArgRule::Operands(Action::Read)),
    ("file", ArgRule::Operands(Action::Read)),
    ("md5sum", ArgRule::Operands(Action::Read)),
    ("sha256sum", ArgRule::Operands(Action::Read)),
    ("grep", ArgRule::AfterFirst(Action::Search)),
    ("egrep", ArgRule::AfterFirst(Action::Search)),
    ("fgrep", ArgRule::AfterFirst(Action::Search)),
    ("rg", ArgRule::AfterFirst(Action::Search)),
    ("ag", ArgRule::AfterFirst(Action::Search)),
    ("sed", ArgRule::AfterFirst(Action::Read)),
    ("awk", ArgRule::AfterFirst(Action::Read)),
    ("jq", ArgRule::AfterFirst(Action::Read)),
    ("find", ArgRule::Roots(Action::Search)),
    ("ls", ArgRule::Operands(Action::List)),
    ("tree", ArgRule::Operands(Action::List)),
    ("rm", ArgRule::Operands(Action::Delete)),
    ("rmdir", ArgRule::Operands(Action::Delete)),
    ("unlink", ArgRule::Operands(Action::Delete)),
    ("touch", ArgRule::Operands(Action::Write)),
    ("mkdir", ArgRule::Operands(Action::Write)),
    ("tee", ArgRule::Operands(Action::Write)),
    ("cp", ArgRule::Copy),
    ("mv", ArgRule::Move),
    ("python", ArgRule::Script),
    ("python3", ArgRule::Script),
    ("node", ArgRule::Script),
    ("ruby", ArgRule::Script),
    ("perl", ArgRule::Script),
    ("bash", ArgRule::Script),
    ("sh", ArgRule::Script),
    ("zsh", ArgRule::Script),
    ("deno", ArgRule::Script),
    ("bun", ArgRule::Script),
    ("tsx", ArgRule::Script),
    ("ts-node", ArgRule::Script),
    ("pytest", ArgRule::Runs),
    ("jest", ArgRule::Runs),
    ("vitest", ArgRule::Runs),
    ("rspec", ArgRule::Runs),
];

/// Short options that take a value in the next word, per command (`head -n 5 f`, `grep -A 3 p
/// f`, `rg -g '*.rs' p`): the value is not an operand. Long options take theirs after `=` or,
/// where listed, in the next word.
pub const VALUE_OPTIONS: &[(&str, &[&str])] = &[
    ("head", &["-n", "-c"]),
    ("tail", &["-n", "-c"]),
    (
        "grep",
        &[
            "-A",
            "-B",
            "-C",
            "-m",
            "-e",
            "-f",
            "-d",
            "-D",
            "--include",
            "--exclude",
            "--exclude-dir",
        ],
    ),
    ("egrep", &["-A", "-B", "-C", "-m", "-e", "-f"]),
    ("fgrep", &["-A", "-B", "-C", "-m", "-e", "-f"]),
    (
        "rg",
        &[
            "-A",
            "-B",
            "-C",
            "-m",
            "-e",
            "-f",
            "-g",
            "-t",
            "-T",
            "-j",
            "-M",
            "--glob",
            "--type",
            "--type-not",
            "--max-count",
            "--max-columns",
            "--context",
            "--iglob",
        ],
    ),
    ("ag", &["-A", "-B", "-C", "-m", "-G", "--ignore"]),
    ("sed", &["-e", "-f", "-l"]),
    ("awk", &["-f", "-v", "-F"]),
    (
        "jq",
        &["--arg", "--argjson", "--slurpfile", "--rawfile", "-f"],
    ),
    ("tree", &["-L", "-I", "-P"]),
    ("ls", &["-I", "--ignore", "-w"]),
    ("diff", &["-U", "-C"]),
    ("cp", &["-t", "-S"]),
    ("mv", &["-t", "-S"]),
    ("mkdir", &["-m"]),
    ("python", &["-m", "-c", "-W", "-X"]),
    ("python3", &["-m", "-c", "-W", "-X"]),
    ("node", &["-e", "-r", "--require", "--eval"]),
    ("ruby", &["-e", "-r", "-I"]),
    ("perl", &["-e", "-E", "-I", "-M"]),
    ("bash", &["-c", "-o"]),
    ("sh", &["-c", "-o"]),
    ("zsh", &["-c", "-o"]),
    (
        "pytest",
        &[
            "-k",
            "-m",
            "-p",
            "-c",
            "-n",
            "--maxfail",
            "--rootdir",
            "--deselect",
            "-W",
        ],
    ),
    ("jest", &["-t", "--testNamePattern", "-c", "--config"]),
    ("vitest", &["-t", "--testNamePattern", "-c", "--config"]),
    ("rspec", &["-e", "--example", "-t", "--tag"]),
];

/// Options after which a script command runs no file operand: the program comes from the
/// option itself (`python -c '...'`, `python -m pkg`, `node -e '...'`, `bash -c '...'`).
pub const INLINE_PROGRAM: &[&str] = &["-c", "-m", "-e", "-E", "--eval"];

/// Words a command line may start with before the program (`sudo rm x`, `time cat x`).
pub const PREFIX_WORDS: &[&str] = &[
    "sudo", "time", "nice", "nohup", "env", "command", "exec", "xargs",
];

/// `git` subcommands whose operands are files: all of them (`true`), or only those after `--`
/// (`false`: before it they may be revisions or branches).
pub const GIT: &[(&str, Action, bool)] = &[
    ("diff", Action::Read, false),
    ("log", Action::Read, false),
    ("show", Action::Read, false),
    ("blame", Action::Read, true),
    ("checkout", Action::Edit, false),
    ("restore", Action::Edit, true),
    ("rm", Action::Delete, true),
    ("mv", Action::Move, true),
];
