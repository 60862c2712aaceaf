//! Files named by a shell command line, conservatively: precision over recall.
//!
//! The rule: a command line is split into simple commands (at `&&`, `||`, `;`, `|`, `&`, new
//! lines and parentheses; quotes and escapes respected, heredoc bodies skipped). Of each simple
//! command only the programs of [`rules::SHELL`] (and `git` subcommands of [`rules::GIT`], and a
//! program run by its path, `./x.sh`) name files, through their operands as the table says;
//! option values are not operands ([`rules::VALUE_OPTIONS`]). Redirections name files too
//! (`> f` writes, `>> f` edits, `< f` reads). An operand counts only when it looks like a path:
//! no variable, substitution or glob character, no URL, not a bare number, not a device.
//! `cd dir` moves the base of the relative paths that follow; a `cd` to where cannot be known
//! (`cd -`, `cd $X`) stops relative paths from counting for the rest of the line.

use super::Action;
use super::rules::{self, ArgRule};

/// One word or operator of a command line.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Word(String),
    /// Ends a simple command.
    Sep,
    /// A redirection of the kind's action; its target is the next word.
    Redirect(Action),
    /// A redirection whose target is not a file (`2>&1`, `<<< text`): skip the next word.
    SkipNext,
}

fn tokenize(script: &str) -> Vec<Tok> {
    let chars: Vec<char> = script.chars().collect();
    let mut out = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut heredocs: Vec<(String, bool)> = Vec::new();
    let mut i = 0;
    macro_rules! end_word {
        () => {
            if in_word {
                out.push(Tok::Word(std::mem::take(&mut word)));
                in_word = false;
            }
        };
    }
    while i < chars.len() {
        let c = chars[i];
        match c {
            ' ' | '\t' | '\r' => end_word!(),
            '\n' => {
                end_word!();
                out.push(Tok::Sep);
                // Heredoc bodies are data, not commands.
                for (delim, strip_tabs) in std::mem::take(&mut heredocs) {
                    loop {
                        let start = i + 1;
                        if start >= chars.len() {
                            i = chars.len();
                            break;
                        }
                        let end = chars[start..]
                            .iter()
                            .position(|&c| c == '\n')
                            .map_or(chars.len(), |p| start + p);
                        let line: String = chars[start..end].iter().collect();
                        i = end;
                        let line = if strip_tabs {
                            line.trim_start_matches('\t')
                        } else {
                            line.as_str()
                        };
                        if line.trim_end() == delim {
                            break;
                        }
                    }
                }
            }
            '\'' => {
                in_word = true;
                i += 1;
                while i < chars.len() && chars[i] != '\'' {
                    word.push(chars[i]);
                    i += 1;
                }
            }
            '"' => {
                in_word = true;
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    if chars[i] == '\\' && i + 1 < chars.len() && "\"\\$`".contains(chars[i + 1]) {
                        i += 1;
                    }
                    word.push(chars[i]);
                    i += 1;
                }
            }
            '\\' => {
                if i + 1 < chars.len() && chars[i + 1] != '\n' {
                    in_word = true;
                    word.push(chars[i + 1]);
                }
                i += 1;
            }
            '#' if !in_word => {
                while i + 1 < chars.len() && chars[i + 1] != '\n' {
                    i += 1;
                }
            }
            '$' if chars.get(i + 1) == Some(&'(') => {
                // Kept whole inside the word (and so never a path): `$(...)` nests.
                in_word = true;
                let mut depth = 0;
                while i < chars.len() {
                    word.push(chars[i]);
                    match chars[i] {
                        '(' => depth += 1,
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
            }
            '`' => {
                in_word = true;
                word.push('`');
                i += 1;
                while i < chars.len() && chars[i] != '`' {
                    word.push(chars[i]);
                    i += 1;
                }
                word.push('`');
            }
            ';' | '|' | '&' | '(' | ')' => {
                if c == '&' && chars.get(i + 1) == Some(&'>') {
                    // `&> file`: both streams to a file.
                    end_word!();
                    i += 1;
                    let append = chars.get(i + 1) == Some(&'>');
                    if append {
                        i += 1;
                    }
                    out.push(Tok::Redirect(if append {
                        Action::Edit
                    } else {
                        Action::Write
                    }));
                } else {
                    end_word!();
                    out.push(Tok::Sep);
                    if chars
                        .get(i + 1)
                        .is_some_and(|&n| n == c && c != '(' && c != ')')
                    {
                        i += 1;
                    }
                }
            }
            '>' | '<' => {
                // A word of digits right before is the descriptor (`2>`), not an operand.
                if in_word && word.chars().all(|c| c.is_ascii_digit()) {
                    word.clear();
                    in_word = false;
                }
                end_word!();
                let twice = chars.get(i + 1) == Some(&c);
                if c == '<' && twice {
                    i += 1;
                    if chars.get(i + 1) == Some(&'<') {
                        i += 1;
                        out.push(Tok::SkipNext);
                    } else {
                        let strip = chars.get(i + 1) == Some(&'-');
                        if strip {
                            i += 1;
                        }
                        // The delimiter word, quotes dropped.
                        let mut j = i + 1;
                        while j < chars.len() && chars[j] == ' ' {
                            j += 1;
                        }
                        let mut delim = String::new();
                        while j < chars.len() && !" \t\n;|&<>".contains(chars[j]) {
                            if chars[j] != '\'' && chars[j] != '"' {
                                delim.push(chars[j]);
                            }
                            j += 1;
                        }
                        i = j - 1;
                        heredocs.push((delim, strip));
                    }
                } else if chars.get(i + 1) == Some(&'&') {
                    i += 1;
                    out.push(Tok::SkipNext);
                } else {
                    if twice {
                        i += 1;
                    }
                    out.push(Tok::Redirect(match (c, twice) {
                        ('<', _) => Action::Read,
                        (_, true) => Action::Edit,
                        _ => Action::Write,
                    }));
                }
            }
            _ => {
                in_word = true;
                word.push(c);
            }
        }
        i += 1;
    }
    if in_word {
        out.push(Tok::Word(word));
    }
    out
}

/// Whether a shell word can be taken for a path.
pub fn pathlike(w: &str) -> bool {
    !w.is_empty()
        && w.len() <= 1024
        && !w.starts_with('-')
        && !w.contains(|c: char| "$`*?[]{}<>|;&()\"'".contains(c) || c.is_control())
        && !w.contains("://")
        && !w
            .chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == ':' || c == ',')
        && !w.starts_with("/dev/")
        && !w.starts_with("/proc/")
}

fn is_absolute_raw(p: &str) -> bool {
    p.starts_with('/') || p.starts_with('~') || super::paths::is_absolute(p)
}

/// Where relative paths are from, as the command line moves it with `cd`.
#[derive(Debug, Clone)]
struct Base {
    dir: Option<String>,
    /// A `cd` went where cannot be known: relative paths no longer count.
    lost: bool,
}

impl Base {
    fn join(&self, p: &str) -> Option<String> {
        if is_absolute_raw(p) {
            return Some(p.to_owned());
        }
        if self.lost {
            return None;
        }
        Some(match &self.dir {
            Some(d) => format!("{d}/{p}"),
            None => p.to_owned(),
        })
    }

    fn cd(&mut self, to: Option<&str>) {
        match to.filter(|t| pathlike(t)).and_then(|t| self.join(t)) {
            Some(d) => {
                self.dir = Some(d);
                self.lost = false;
            }
            None => self.lost = true,
        }
    }
}

/// The files a command line names, each joined onto `workdir` when relative.
pub fn script_touches(script: &str, workdir: Option<&str>) -> Vec<(String, Action)> {
    let mut base = Base {
        dir: workdir.map(str::to_owned),
        lost: false,
    };
    let mut out = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut redirects: Vec<(Action, String)> = Vec::new();
    let mut pending: Option<Option<Action>> = None;
    let toks = tokenize(script);
    for tok in toks.into_iter().chain([Tok::Sep]) {
        match tok {
            Tok::Word(w) => match pending.take() {
                Some(Some(a)) => redirects.push((a, w)),
                Some(None) => {}
                None => words.push(w),
            },
            Tok::Redirect(a) => pending = Some(Some(a)),
            Tok::SkipNext => pending = Some(None),
            Tok::Sep => {
                pending = None;
                for (a, target) in redirects.drain(..) {
                    if pathlike(&target)
                        && let Some(p) = base.join(&target)
                    {
                        out.push((p, a));
                    }
                }
                command(&std::mem::take(&mut words), &mut base, &mut out);
            }
        }
    }
    out
}

/// The files an argv names (Codex `{"command": ["bash", "-lc", "..."]}`).
pub fn argv_touches(argv: &[String], workdir: Option<&str>) -> Vec<(String, Action)> {
    let mut base = Base {
        dir: workdir.map(str::to_owned),
        lost: false,
    };
    let mut out = Vec::new();
    command(argv, &mut base, &mut out);
    out
}

fn base_name(program: &str) -> &str {
    program.rsplit('/').next().unwrap_or(program)
}

/// One simple command's files.
fn command(words: &[String], base: &mut Base, out: &mut Vec<(String, Action)>) {
    let mut rest = words;
    // Assignments and wrappers before the program.
    loop {
        match rest.split_first() {
            Some((w, more)) if is_assignment(w) => rest = more,
            Some((w, more)) if rules::PREFIX_WORDS.contains(&w.as_str()) => {
                rest = more;
                while rest
                    .first()
                    .is_some_and(|w| w.starts_with('-') || is_assignment(w))
                {
                    rest = &rest[1..];
                }
            }
            _ => break,
        }
    }
    let Some((program, args)) = rest.split_first() else {
        return;
    };
    let name = base_name(program);
    let push = |p: &str, a: Action, out: &mut Vec<(String, Action)>| {
        if pathlike(p)
            && let Some(joined) = base.join(p)
        {
            out.push((joined, a));
        }
    };
    if name == "cd" || name == "pushd" {
        let to = args
            .iter()
            .find(|a| !a.starts_with('-') || a.as_str() == "-");
        base.cd(to.map(String::as_str));
        return;
    }
    if name == "git" {
        git(args, &mut |p, a| push(p, a, out));
        return;
    }
    let Some(&(_, rule)) = rules::SHELL.iter().find(|(n, _)| *n == name) else {
        // A program run by its path: `./build.sh`, `scripts/gen.py`.
        if program.contains('/') {
            push(program, Action::Run, out);
        }
        return;
    };
    let value_opts: &[&str] = rules::VALUE_OPTIONS
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(&[], |(_, o)| o);
    let is_shell = matches!(name, "bash" | "sh" | "zsh");
    let mut operands: Vec<&str> = Vec::new();
    let mut first_given = false;
    let mut in_place = false;
    let mut inline = false;
    let mut it = args.iter();
    let mut options_done = false;
    while let Some(a) = it.next() {
        if options_done || !a.starts_with('-') || a == "-" {
            operands.push(a);
            if rule == ArgRule::Script {
                // The script's own arguments follow.
                break;
            }
            continue;
        }
        if a == "--" {
            options_done = true;
            continue;
        }
        if matches!(rule, ArgRule::Roots(_)) {
            // `find`: the roots end at the first option or expression.
            break;
        }
        if is_shell && !a.starts_with("--") && a.contains('c') {
            // `bash -lc 'script'`: the script is a command line of its own.
            if let Some(script) = it.next() {
                out.extend(script_touches(script, base.dir.as_deref()));
            }
            return;
        }
        if rule == ArgRule::Script && (rules::INLINE_PROGRAM.contains(&a.as_str())) {
            // `python -m pytest tests/x.py` runs those tests; other inline programs, nothing known.
            if a == "-m" && it.clone().next().is_some_and(|m| m == "pytest") {
                it.next();
                for t in it.by_ref().filter(|t| !t.starts_with('-')) {
                    push(t, Action::Run, out);
                }
            }
            inline = true;
            break;
        }
        if matches!(name, "sed" | "perl") && (a.starts_with("-i") || a == "--in-place") {
            in_place = true;
        }
        if matches!(a.as_str(), "-e" | "-f" | "--regexp" | "--file")
            && matches!(rule, ArgRule::AfterFirst(_))
        {
            first_given = true;
        }
        if value_opts.contains(&a.as_str()) {
            it.next();
        }
    }
    if inline {
        return;
    }
    match rule {
        ArgRule::Operands(a) => operands.iter().for_each(|p| push(p, a, out)),
        ArgRule::AfterFirst(a) => {
            let a = if in_place { Action::Edit } else { a };
            let skip = usize::from(!first_given);
            operands.iter().skip(skip).for_each(|p| push(p, a, out));
        }
        ArgRule::Script => {
            if let Some(p) = operands.first() {
                push(p, Action::Run, out);
            }
        }
        ArgRule::Runs => operands.iter().for_each(|p| push(p, Action::Run, out)),
        ArgRule::Copy => {
            if let Some((last, sources)) = operands.split_last() {
                sources.iter().for_each(|p| push(p, Action::Read, out));
                if !sources.is_empty() {
                    push(last, Action::Write, out);
                }
            }
        }
        ArgRule::Move => {
            if operands.len() >= 2 {
                operands.iter().for_each(|p| push(p, Action::Move, out));
            }
        }
        ArgRule::Roots(a) => {
            // `find` options and expressions come after the roots; a word that starts with `-`
            // already ended the operands above, but `!` and `(` may too.
            for p in operands
                .iter()
                .take_while(|p| !matches!(p.chars().next(), Some('!' | '(')))
            {
                push(p, a, out);
            }
        }
    }
}

fn is_assignment(w: &str) -> bool {
    w.split_once('=').is_some_and(|(k, _)| {
        !k.is_empty()
            && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !k.starts_with(|c: char| c.is_ascii_digit())
    })
}

fn git(args: &[String], push: &mut dyn FnMut(&str, Action)) {
    // Global options before the subcommand (`git -C dir diff`): give up on `-C`, whose
    // directory would move the base.
    let mut i = 0;
    while i < args.len() && args[i].starts_with('-') {
        if args[i] == "-C" {
            return;
        }
        i += 1;
    }
    let Some(sub) = args.get(i) else { return };
    let Some(&(_, action, all)) = rules::GIT.iter().find(|(n, _, _)| n == sub) else {
        return;
    };
    let mut after_dashes = false;
    for a in &args[i + 1..] {
        if a == "--" {
            after_dashes = true;
        } else if a.starts_with('-') {
            continue;
        } else if all || after_dashes {
            push(a, action);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(script: &str) -> Vec<(String, Action)> {
        script_touches(script, None)
    }

    fn p(s: &str, a: Action) -> (String, Action) {
        (s.to_owned(), a)
    }

    #[test]
    fn reads_searches_and_lists() {
        assert_eq!(
            t("cat src/a.rs | head -n 5"),
            vec![p("src/a.rs", Action::Read)]
        );
        assert_eq!(t("head -n 20 a.txt"), vec![p("a.txt", Action::Read)]);
        assert_eq!(
            t("rg -n -g '*.rs' 'fn main' src tests"),
            vec![p("src", Action::Search), p("tests", Action::Search)]
        );
        assert_eq!(t("grep -rn TODO"), vec![]);
        assert_eq!(
            t("grep -A 3 -e foo lib.rs"),
            vec![p("lib.rs", Action::Search)]
        );
        assert_eq!(t("ls -la docs"), vec![p("docs", Action::List)]);
        assert_eq!(t("find src -name '*.rs'"), vec![p("src", Action::Search)]);
        assert_eq!(t("find . -name foo.rs"), vec![]);
        assert_eq!(t("sed -n '1,20p' x.rs"), vec![p("x.rs", Action::Read)]);
    }

    #[test]
    fn writes_edits_moves_and_deletes() {
        assert_eq!(t("sed -i 's/a/b/' x.rs"), vec![p("x.rs", Action::Edit)]);
        assert_eq!(
            t("rm -rf build out.log"),
            vec![p("build", Action::Delete), p("out.log", Action::Delete)]
        );
        assert_eq!(
            t("cp a b"),
            vec![p("a", Action::Read), p("b", Action::Write)]
        );
        assert_eq!(
            t("mv a b"),
            vec![p("a", Action::Move), p("b", Action::Move)]
        );
        assert_eq!(
            t("echo hi > out.txt 2>&1"),
            vec![p("out.txt", Action::Write)]
        );
        assert_eq!(
            t("echo hi >> log.txt 2>/dev/null"),
            vec![p("log.txt", Action::Edit)]
        );
        assert_eq!(
            t("cat > notes.md <<'EOF'\nrm -rf everything\nEOF\nls"),
            vec![p("notes.md", Action::Write)]
        );
        assert_eq!(t("git diff -- src/a.rs"), vec![p("src/a.rs", Action::Read)]);
        assert_eq!(t("git diff main"), vec![]);
        assert_eq!(t("git rm old.rs"), vec![p("old.rs", Action::Delete)]);
    }

    #[test]
    fn runs_and_directories() {
        assert_eq!(
            t("cd myapp && python hoge.py"),
            vec![p("myapp/hoge.py", Action::Run)]
        );
        assert_eq!(
            script_touches("python3 hoge.py --flag x.txt", Some("/w/myapp")),
            vec![p("/w/myapp/hoge.py", Action::Run)]
        );
        assert_eq!(t("python -c 'print(1)'"), vec![]);
        assert_eq!(
            t("python -m pytest tests/test_a.py -q"),
            vec![p("tests/test_a.py", Action::Run)]
        );
        assert_eq!(
            t("./scripts/build.sh --release"),
            vec![p("./scripts/build.sh", Action::Run)]
        );
        assert_eq!(t("cd $DIR && cat a"), vec![]);
        assert_eq!(t("cd $DIR && cat /abs/a"), vec![p("/abs/a", Action::Read)]);
        assert_eq!(t("bash -lc 'cat a.txt'"), vec![p("a.txt", Action::Read)]);
        assert_eq!(
            t("FOO=1 sudo cat /etc/hosts"),
            vec![p("/etc/hosts", Action::Read)]
        );
    }

    #[test]
    fn leaves_out_what_is_not_a_path() {
        assert_eq!(t("cargo test parser::tests"), vec![]);
        assert_eq!(t("cat $HOME/x `pwd`/y \"$(pwd)/z\""), vec![]);
        assert_eq!(t("cat *.rs https://x.y/z"), vec![]);
        assert_eq!(t("echo 'cat secret.txt'"), vec![]);
        assert_eq!(t("mkdir -p myapp"), vec![p("myapp", Action::Write)]);
    }

    #[test]
    fn argv_form() {
        let argv: Vec<String> = ["bash", "-lc", "cat README.md"].map(String::from).to_vec();
        assert_eq!(
            argv_touches(&argv, Some("/r")),
            vec![p("/r/README.md", Action::Read)]
        );
        let argv: Vec<String> = ["ls"].map(String::from).to_vec();
        assert_eq!(argv_touches(&argv, None), vec![]);
    }
}
