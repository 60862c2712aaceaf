//! Each subcommand lists the flags it uses: the log roots and the index flags appear in the
//! help of the commands that read them, not in `demo`'s or `gen-corpus`'s, and are accepted
//! before the subcommand or after it (after wins).

use std::process::Command;

fn agtrace(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_agtrace"))
        .args(args)
        .env_remove("AGTRACE_DATA_DIR")
        .output()
        .unwrap()
}

fn help(subcommand: &str) -> String {
    let output = agtrace(&[subcommand, "--help"]);
    assert!(output.status.success(), "{subcommand} --help");
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn only_the_commands_that_read_logs_or_the_index_list_their_flags() {
    for subcommand in ["serve", "call", "index", "tools"] {
        let text = help(subcommand);
        for flag in [
            "--data-dir",
            "--claude-dir",
            "--copilot-dir",
            "--show-secrets",
        ] {
            assert!(
                text.contains(flag),
                "{subcommand} --help lacks {flag}:\n{text}"
            );
        }
    }
    for subcommand in ["demo", "gen-corpus"] {
        let text = help(subcommand);
        for flag in ["--data-dir", "--claude-dir", "--show-secrets", "--archive"] {
            assert!(
                !text.contains(flag),
                "{subcommand} --help lists {flag}:\n{text}"
            );
        }
    }
}

#[test]
fn roots_are_read_before_or_after_the_subcommand_and_after_wins() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).display().to_string();
    let logs: Vec<String> = ["claude", "codex", "gemini", "qwen", "opencode", "copilot"]
        .iter()
        .map(|agent| format!("--{agent}-dir={}", path("no-logs")))
        .collect();
    let logs: Vec<&str> = logs.iter().map(String::as_str).collect();
    let before = format!("--data-dir={}", path("before"));
    let after = format!("--data-dir={}", path("after"));

    let mut args = vec![before.as_str(), "index"];
    args.extend(&logs);
    assert!(agtrace(&args).status.success());
    assert!(dir.path().join("before/index.sqlite").exists());

    let mut args = vec![before.as_str(), "index", after.as_str()];
    args.extend(&logs);
    let output = agtrace(&args);
    assert!(output.status.success(), "{output:?}");
    assert!(dir.path().join("after/index.sqlite").exists());
}
