//! The command line end to end: the saved `tools/list` dumps of seven public servers (exact
//! findings and exit codes), the three output formats, allows from flags and config files,
//! usage errors, and a stdio server that pages its `tools/list`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const SERVERS: [&str; 7] = [
    "filesystem",
    "memory",
    "everything",
    "playwright",
    "git",
    "fetch",
    "time",
];

fn dumps() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/dumps")
}

fn dump(server: &str) -> String {
    dumps()
        .join(format!("{server}.json"))
        .to_string_lossy()
        .into_owned()
}

/// Runs the CLI in `dir` (a fresh temporary directory when `None`, so no config is found).
fn run_in(dir: Option<&Path>, args: &[&str]) -> Output {
    let tmp = tempfile::tempdir().unwrap();
    Command::new(env!("CARGO_BIN_EXE_mcp-tool-lint"))
        .args(args)
        .current_dir(dir.unwrap_or(tmp.path()))
        .output()
        .expect("run mcp-tool-lint")
}

fn run(args: &[&str]) -> Output {
    run_in(None, args)
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

fn json_of(o: &Output) -> Value {
    serde_json::from_str(&stdout(o)).unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(o)))
}

/// `location [lint]` per finding, the format of `tests/dumps/<server>.expected`.
fn finding_lines(report: &Value) -> Vec<String> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let locations: Vec<&str> = f["locations"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| l.as_str().unwrap())
                .collect();
            format!("{} [{}]", locations.join(", "), f["lint"].as_str().unwrap())
        })
        .collect()
}

/// The findings on each dump are judged one by one in `docs/lints.md` ("mcp-tool-lint on real
/// servers"); `<server>.expected` holds them. After a rule change, rewrite them with
/// `MCP_TOOL_LINT_BLESS=1 cargo test -p mcp-tool-lint-cli --test cli` and judge the diff.
#[test]
fn each_saved_server_gives_exactly_its_judged_findings() {
    let bless = std::env::var_os("MCP_TOOL_LINT_BLESS").is_some();
    for server in SERVERS {
        let out = run(&["--file", &dump(server), "--format", "json"]);
        let report = json_of(&out);
        let expected_path = dumps().join(format!("{server}.expected"));
        if bless {
            let mut text = finding_lines(&report).join("\n");
            if !text.is_empty() {
                text.push('\n');
            }
            std::fs::write(&expected_path, text).unwrap();
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap();
        let expected: Vec<&str> = expected.lines().filter(|l| !l.is_empty()).collect();
        assert_eq!(finding_lines(&report), expected, "{server}");
        // Errors fail the run; advice fails it only with `--deny-advice`.
        let errors = report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["level"] == "error");
        assert_eq!(out.status.code(), Some(u8::from(errors).into()), "{server}");
        let denied = run(&["--file", &dump(server), "--deny-advice"]);
        assert_eq!(
            denied.status.code(),
            Some(u8::from(!expected.is_empty()).into()),
            "{server}"
        );
        let listed: Value =
            serde_json::from_str(&std::fs::read_to_string(dump(server)).unwrap()).unwrap();
        assert_eq!(report["tools"], listed["tools"].as_array().unwrap().len());
        assert_eq!(report["server"], listed["serverInfo"]);
    }
}

#[test]
fn text_output_reads_like_the_compile_errors() {
    let out = run(&["--file", &dump("fetch")]);
    // Advice is a note: it does not fail the run.
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    let first = text.lines().next().unwrap();
    assert!(
        first.starts_with("fetch/raw: note[mode_toggle] `raw` is a bool"),
        "{text}"
    );
    assert!(
        text.lines().nth(1).unwrap().starts_with("  help: "),
        "{text}"
    );
    assert!(
        text.ends_with("1 finding(s) (0 error(s), 1 note(s)) on 1 tool(s) (mode_toggle: 1); 227 of 2000 catalog tokens\n"),
        "{text}"
    );
    let clean = run(&["--file", &dump("time")]);
    assert_eq!(clean.status.code(), Some(0));
    assert!(stdout(&clean).starts_with("0 finding(s) (0 error(s), 0 note(s)) on 2 tool(s);"));
}

#[test]
fn sarif_declares_every_lint_and_locates_results_logically() {
    let out = run(&[
        "--file",
        &dump("filesystem"),
        "--format",
        "sarif",
        "--deny-advice",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let sarif = json_of(&out);
    assert_eq!(sarif["version"], "2.1.0");
    assert!(sarif["$schema"].as_str().unwrap().contains("sarif-2.1.0"));
    let run = &sarif["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "mcp-tool-lint");
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
    for lint in mcp_tool_lint::Lint::ALL {
        assert!(ids.contains(&lint.name()), "{lint}");
    }
    for catalog in ["catalog_tokens", "indistinct_tools", "inconsistent_naming"] {
        assert!(ids.contains(&catalog), "{catalog}");
    }
    for r in rules {
        assert!(!r["shortDescription"]["text"].as_str().unwrap().is_empty());
        assert!(!r["help"]["text"].as_str().unwrap().is_empty());
    }
    let results = run["results"].as_array().unwrap();
    let json_report = json_of(&super_run_json("filesystem"));
    assert_eq!(
        results.len(),
        json_report["findings"].as_array().unwrap().len()
    );
    for r in results {
        let index = r["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], r["ruleId"]);
        assert!(r["message"]["text"].as_str().unwrap().contains("\nhelp: "));
        let locations = r["locations"][0]["logicalLocations"].as_array().unwrap();
        assert!(!locations.is_empty());
        for l in locations {
            assert!(!l["fullyQualifiedName"].as_str().unwrap().is_empty());
        }
    }
    let param = results
        .iter()
        .find(|r| r["ruleId"] == "missing_description")
        .unwrap();
    assert_eq!(
        param["locations"][0]["logicalLocations"][0]["fullyQualifiedName"],
        "directory_tree/excludePatterns"
    );
    assert_eq!(
        param["locations"][0]["logicalLocations"][0]["kind"],
        "parameter"
    );
}

fn super_run_json(server: &str) -> Output {
    run(&["--file", &dump(server), "--format", "json"])
}

#[test]
fn allow_flags_silence_a_lint_everywhere_and_are_checked() {
    let out = run(&[
        "--file",
        &dump("git"),
        "--format",
        "json",
        "--allow",
        "missing_description",
        "--allow",
        "tool_name",
    ]);
    let report = json_of(&out);
    let lints: Vec<&str> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["lint"].as_str().unwrap())
        .collect();
    assert!(!lints.contains(&"missing_description") && !lints.contains(&"tool_name"));
    assert!(!lints.is_empty());
    assert_eq!(out.status.code(), Some(0), "advice only");
    let allows = report["allows"].as_array().unwrap();
    assert_eq!(allows[0]["lint"], "missing_description");
    assert_eq!(allows[0]["origin"], "flag");
    assert!(allows[0]["suppressed"].as_u64().unwrap() > 0);

    let clean = run(&["--file", &dump("fetch"), "--allow", "mode_toggle"]);
    assert_eq!(clean.status.code(), Some(0), "{}", stdout(&clean));

    let typo = run(&["--file", &dump("fetch"), "--allow", "mode-togle"]);
    assert_eq!(typo.status.code(), Some(2));
    assert_eq!(
        stderr(&typo),
        "mcp-tool-lint: --allow: unknown lint `mode-togle`: did you mean `mode_toggle`?\n"
    );
    assert!(typo.stdout.is_empty());
}

#[test]
fn a_config_in_the_working_directory_allows_per_tool_with_reasons() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("mcp-tool-lint.toml"),
        "[tools.git_log.allow]\nunbounded_limit = \"git caps the log itself\"\n\n[tools.git_nope.allow]\ntool_name = \"a renamed tool\"\n",
    )
    .unwrap();
    let out = run_in(
        Some(dir.path()),
        &["--file", &dump("git"), "--format", "json"],
    );
    let report = json_of(&out);
    let lines = finding_lines(&report);
    assert!(
        !lines
            .iter()
            .any(|l| l.starts_with("git_log/") && l.ends_with("[unbounded_limit]"))
    );
    assert!(!lines.is_empty());
    let allows = report["allows"].as_array().unwrap();
    assert_eq!(allows[0]["tool"], "git_log");
    assert_eq!(allows[0]["suppressed"], 1);
    assert_eq!(allows[0]["origin"], "config");
    assert_eq!(allows[1]["suppressed"], 0);
    assert!(
        stderr(&out).contains("the config allows `tool_name` on `git_nope`, but the server has no tool named `git_nope`"),
        "{}",
        stderr(&out)
    );
    // --config names another file; the same allows by another name.
    let other = dir.path().join("other.toml");
    std::fs::write(&other, "token_budget = 100\n").unwrap();
    let out = run(&[
        "--file",
        &dump("time"),
        "--config",
        other.to_str().unwrap(),
        "--deny-advice",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out)
            .starts_with("(catalog): note[catalog_tokens] the input side of `tools/list` (2 tools")
    );
}

#[test]
fn a_config_allow_without_a_reason_or_with_a_typo_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("lint.toml");
    std::fs::write(&config, "[allow]\ntool_name = \"\"\n").unwrap();
    let out = run(&["--file", &dump("git"), "--config", config.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("[allow] tool_name: an allow needs a reason"),
        "{}",
        stderr(&out)
    );
    std::fs::write(&config, "[allow]\ntool_nam = \"fixed upstream\"\n").unwrap();
    let out = run(&["--file", &dump("git"), "--config", config.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("did you mean `tool_name`?"),
        "{}",
        stderr(&out)
    );
    std::fs::write(&config, "[allow\n").unwrap();
    let out = run(&["--file", &dump("git"), "--config", config.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("mcp-tool-lint: config `"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn usage_errors_exit_2_with_a_message() {
    let no_source = run(&[]);
    assert_eq!(no_source.status.code(), Some(2));
    assert!(stderr(&no_source).contains("say which server to lint"));
    let two = run(&["--file", &dump("time"), "--url", "http://127.0.0.1:9/mcp"]);
    assert_eq!(two.status.code(), Some(2));
    assert!(stderr(&two).contains("give only one of"));
    let bad_flag = run(&["--fiel", "x.json"]);
    assert_eq!(bad_flag.status.code(), Some(2));
    assert!(
        stderr(&bad_flag).contains("--fiel"),
        "{}",
        stderr(&bad_flag)
    );
    let bad_format = run(&["--file", &dump("time"), "--format", "xml"]);
    assert_eq!(bad_format.status.code(), Some(2));
    let missing = run(&["--file", "/nonexistent/tools.json"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("cannot read `/nonexistent/tools.json`"));
    let dir = tempfile::tempdir().unwrap();
    let not_tools = dir.path().join("t.json");
    std::fs::write(&not_tools, "{\"tool\": []}").unwrap();
    let out = run(&["--file", not_tools.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no `tools` array"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_bare_array_of_tools_is_a_catalog_too() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tools.json");
    std::fs::write(
        &path,
        r#"[{"name": "get_weather", "description": "Current weather for a city.", "inputSchema": {"type": "object", "properties": {"since": {"type": "string"}}}}]"#,
    )
    .unwrap();
    let out = run(&["--file", path.to_str().unwrap(), "--format", "json"]);
    assert_eq!(
        finding_lines(&json_of(&out)),
        ["get_weather/since [missing_description]"]
    );
}

#[test]
fn connection_errors_exit_2_with_a_message() {
    let out = run(&["--", "/nonexistent/mcp-server"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("cannot start `/nonexistent/mcp-server`"),
        "{}",
        stderr(&out)
    );
    // A process that exits at once, saying why on stderr.
    let out = run(&["--", "sh", "-c", "echo 'no config found' >&2; exit 3"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("cannot initialize an MCP session with the server `sh -c"),
        "{err}"
    );
    assert!(err.contains("no config found"), "{err}");
    let out = run(&["--url", "http://127.0.0.1:9/mcp", "--timeout", "10"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("the server at http://127.0.0.1:9/mcp"),
        "{}",
        stderr(&out)
    );
}

/// A stdio server in a few lines of shell: answers `initialize` as `name`, then each line
/// through the `case` arms of `cases`; `id "$line"` is the request's id.
fn shell_server(name: &str, cases: &str) -> String {
    format!(
        r#"
id() {{ printf '%s' "$1" | sed -n 's/.*"id":\([0-9]*\).*/\1/p'; }}
read -r line
printf '{{"jsonrpc":"2.0","id":%s,"result":{{"protocolVersion":"2025-06-18","capabilities":{{"tools":{{}}}},"serverInfo":{{"name":"{name}","version":"1.0"}}}}}}\n' "$(id "$line")"
while read -r line; do
  case $line in{cases}  esac
done
"#
    )
}

/// A stdio server in a few lines of shell: answers `initialize`, then two pages of
/// `tools/list` (the first with a `nextCursor`), echoing each request's id.
fn paged_server() -> String {
    shell_server(
        "paged",
        r#"
    *'"tools/list"'*'"cursor"'*)
      printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"getWeather","description":"Current weather for a city.","inputSchema":{"type":"object","properties":{"city":{"type":"string","description":"City name."}}}}]}}\n' "$(id "$line")" ;;
    *'"tools/list"'*)
      printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"get_forecast","description":"Forecast for a city, by day.","inputSchema":{"type":"object","properties":{"city":{"type":"string","description":"City name."}}}},{"name":"get_alerts","description":"Weather alerts in force for a region.","inputSchema":{"type":"object","properties":{"region":{"type":"string","description":"Region code."}}}}],"nextCursor":"page2"}}\n' "$(id "$line")" ;;
"#,
    )
}

#[test]
fn a_stdio_server_is_paged_through_and_dumped() {
    let dir = tempfile::tempdir().unwrap();
    let dumped = dir.path().join("paged.json");
    let out = run(&[
        "--format",
        "json",
        "--dump",
        dumped.to_str().unwrap(),
        "--",
        "sh",
        "-c",
        &paged_server(),
    ]);
    // The one finding is advice.
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report = json_of(&out);
    assert_eq!(report["tools"], 3);
    assert_eq!(report["server"]["name"], "paged");
    // The camelCase tool on a snake_case server breaks its naming (`tool_name` may judge the
    // name on its own too).
    let lines = finding_lines(&report);
    let catalog: Vec<&String> = lines
        .iter()
        .filter(|l| !l.ends_with("[tool_name]"))
        .collect();
    assert_eq!(catalog, ["getWeather [inconsistent_naming]"]);
    // The dump reads back as the same catalog.
    let again = run(&["--file", dumped.to_str().unwrap(), "--format", "json"]);
    assert_eq!(json_of(&again), report);
}

/// A stdio server with a tool that refuses unknown keys (as zod's `.strict()` words it), one
/// that ignores them, and one with nothing to make invalid; it records every call it gets.
fn probed_server() -> String {
    shell_server(
        "probed",
        r#"
    *'"tools/list"'*)
      printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"get_page","description":"One page by id.","inputSchema":{"type":"object","required":["page_id"],"properties":{"page_id":{"type":"string","description":"Page id."}},"additionalProperties":false}},{"name":"search_pages","description":"Pages whose title matches.","inputSchema":{"type":"object","properties":{"query":{"type":"string","description":"Words of the title."}},"additionalProperties":false}},{"name":"list_pages","description":"Every open page.","inputSchema":{"type":"object","properties":{}}}]}}\n' "$(id "$line")" ;;
    *'"tools/call"'*)
      echo "$line" >> "$CALLS"
      case $line in
        *'"get_page"'*) text='Input validation error: page_id: expected string, received undefined, Unrecognized key: \"mcp_tool_lint_probe\"' ;;
        *) text='Input validation error: query: expected string, received object' ;;
      esac
      printf '{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"%s"}],"isError":true}}\n' "$(id "$line")" "$text" ;;
"#,
    )
}

#[test]
fn probe_finds_the_tools_that_refuse_an_unknown_key_without_running_any() {
    let dir = tempfile::tempdir().unwrap();
    let calls = dir.path().join("calls.log");
    let dumped = dir.path().join("probed.json");
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-tool-lint"))
        .args(["--probe", "--format", "json", "--dump"])
        .arg(&dumped)
        .args(["--", "sh", "-c", &probed_server()])
        .env("CALLS", &calls)
        .output()
        .unwrap();
    let report = json_of(&out);
    assert_eq!(
        finding_lines(&report),
        ["get_page [false_strictness]"],
        "{}",
        stderr(&out)
    );
    assert_eq!(report["findings"][0]["level"], "error");
    assert_eq!(out.status.code(), Some(1));
    // Each call carries the probe key and cannot run its tool; the tool with nothing to make
    // invalid is not called at all.
    let log = std::fs::read_to_string(&calls).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines.len(), 2, "{log}");
    assert!(lines.iter().all(|l| l.contains("mcp_tool_lint_probe")));
    assert!(lines[0].contains("get_page") && !lines[0].contains("page_id"));
    assert!(lines[1].contains("search_pages") && lines[1].contains(r#""query":{"#));
    assert!(!log.contains("list_pages"));
    // The dump keeps the evidence: linting it again gives the same finding.
    let again = run(&["--file", dumped.to_str().unwrap(), "--format", "json"]);
    assert_eq!(
        finding_lines(&json_of(&again)),
        ["get_page [false_strictness]"]
    );
    // Without --probe nothing is called and nothing is found.
    std::fs::remove_file(&calls).unwrap();
    let plain = Command::new(env!("CARGO_BIN_EXE_mcp-tool-lint"))
        .args(["--format", "json", "--", "sh", "-c", &probed_server()])
        .env("CALLS", &calls)
        .output()
        .unwrap();
    assert!(finding_lines(&json_of(&plain)).is_empty());
    assert!(!calls.exists());
}

#[test]
fn help_speaks_json_schema_not_rust() {
    // A server in TypeScript or Python has no `#[arg(..)]` to add and no doc comments: the
    // help names schema keywords and this tool's own allows.
    for server in ["filesystem", "everything", "playwright", "git", "fetch"] {
        let out = super_run_json(server);
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        for f in report["findings"].as_array().unwrap() {
            let help = f["help"].as_str().unwrap();
            for rust in ["#[", "Option<", "doc comment", "ToolResult", "serde"] {
                assert!(!help.contains(rust), "{server}: `{rust}` in {help}");
            }
            assert!(help.contains("allow it with a reason"), "{help}");
        }
    }
}
