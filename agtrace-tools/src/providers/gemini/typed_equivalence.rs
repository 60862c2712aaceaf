//! The typed message reader gives exactly the events (and parse state) the `Value`-based code
//! it replaced gave ([`super::value_oracle`]), with and without `raw`, in both layouts: on every
//! Gemini file of the shared fixtures and the real-log set, a generated corpus, hand-written odd
//! shapes and generated message shapes.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use serde_json::{Map, Value, json};

use super::value_oracle;
use crate::model::{Event, EventKind, Provider};
use crate::providers::{FileHint, ParseState};

fn state(path: &Path) -> ParseState {
    ParseState::new(Provider::Gemini, &FileHint::from_path(Provider::Gemini, path))
}

type Parsed = (ParseState, Option<Vec<Event>>);

/// The document parsed by both readers, with and without `raw`, must agree. Returns whether
/// the document was read (so callers can tell a refusal from a parse).
fn same_document(bytes: &[u8], what: &str) -> bool {
    let path = Path::new("tmp/h/chats/session-x.json");
    let mut read = None;
    for keep_raw in [false, true] {
        let mut st = state(path);
        let typed = super::parse_document(&mut st, bytes, keep_raw);
        let typed: Parsed = (st, typed);
        let mut st = state(path);
        let old = value_oracle::parse_document(&mut st, bytes, keep_raw);
        let old: Parsed = (st, old);
        assert_eq!(typed, old, "{what} (keep_raw {keep_raw})");
        if !keep_raw {
            same_when_capped(bytes, &typed, what);
        }
        read = Some(typed.1.is_some());
    }
    read.unwrap()
}

/// A parse that keeps at most `cap` bytes of each tool output (decoding them from the bytes
/// itself) gives the events of the whole parse, each longer output cut to its first `cap`
/// bytes or less, with the whole one's length.
fn same_when_capped(bytes: &[u8], whole: &Parsed, what: &str) {
    let Some(whole_events) = &whole.1 else {
        return;
    };
    let path = Path::new("tmp/h/chats/session-x.json");
    for cap in [0, 5, 300] {
        let mut st = state(path);
        st.result_text_cap = Some(cap);
        let capped = super::parse_document(&mut st, bytes, false)
            .unwrap_or_else(|| panic!("{what}: refused with a cap of {cap}"));
        st.result_text_cap = None;
        assert_eq!(st, whole.0, "{what} (cap {cap})");
        assert_eq!(capped.len(), whole_events.len(), "{what} (cap {cap})");
        for (c, w) in capped.iter().zip(whole_events) {
            let mut uncut = c.clone();
            if c.kind == EventKind::ToolResult && w.text.len() > cap {
                assert!(c.text.len() <= cap && w.text.starts_with(&c.text), "{what} (cap {cap})");
                assert_eq!(c.whole_text_chars, Some(w.text.chars().count()), "{what} (cap {cap})");
                uncut.text.clone_from(&w.text);
                uncut.whole_text_chars = None;
            }
            assert_eq!(&uncut, w, "{what} (cap {cap})");
        }
    }
}

type Chunk = Result<(Vec<Event>, u64), ()>;

/// The journal parsed by both readers, whole and in two reads split at `split` (a line
/// boundary), with and without `raw`, must agree.
fn same_journal(bytes: &[u8], what: &str) {
    let path = Path::new("tmp/h/chats/session-x.jsonl");
    let chunk = |r: Result<crate::providers::ParsedChunk, super::Restart>| -> Chunk {
        r.map(|c| (c.events, c.end_offset)).map_err(|_| ())
    };
    let mid = bytes[..bytes.len() / 2]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    for keep_raw in [false, true] {
        for split in [bytes.len(), mid] {
            let run = |typed: bool| {
                let mut st = state(path);
                let mut reads = Vec::new();
                let mut at = 0;
                for end in [split, bytes.len()] {
                    let part = &bytes[at..end];
                    let r = if typed {
                        super::parse_journal(&mut st, part, at as u64, keep_raw)
                    } else {
                        value_oracle::parse_journal(&mut st, part, at as u64, keep_raw)
                    };
                    let r = chunk(r);
                    if let Ok((_, end_offset)) = &r {
                        at = *end_offset as usize;
                    }
                    reads.push(r);
                }
                (st, reads)
            };
            assert_eq!(
                run(true),
                run(false),
                "{what} as a journal (keep_raw {keep_raw}, split at {split})"
            );
        }
    }
}

/// A document's messages as a journal: the header, then each message on its line (one
/// without a string id gets one, so that it is a message record), then the same messages
/// again as a `$set` checkpoint in a second journal.
fn as_journals(doc: &Value) -> Vec<Vec<u8>> {
    let mut header = doc.as_object().cloned().unwrap_or_default();
    let messages = match header.remove("messages") {
        Some(Value::Array(m)) => m,
        _ => Vec::new(),
    };
    header.insert("sessionId".into(), json!("s"));
    header.insert("projectHash".into(), json!("h"));
    let messages: Vec<Value> = messages
        .into_iter()
        .enumerate()
        .map(|(i, mut m)| {
            if let Some(o) = m.as_object_mut()
                && !o.get("id").is_some_and(Value::is_string)
            {
                o.insert("id".into(), json!(format!("m{i}")));
            }
            m
        })
        .collect();
    let mut lines = vec![Value::Object(header.clone())];
    lines.extend(messages.iter().cloned());
    let records = lines.iter().map(|l| format!("{l}\n")).collect::<String>();
    let checkpoint = format!(
        "{}\n{}\n",
        Value::Object(header),
        json!({"$set": {"messages": messages}})
    );
    vec![records.into_bytes(), checkpoint.into_bytes()]
}

/// Both layouts of one document, given as bytes (which may not be JSON at all).
fn same_everywhere(bytes: &[u8], what: &str) {
    same_document(bytes, what);
    if let Ok(doc) = serde_json::from_slice::<Value>(bytes) {
        for j in as_journals(&doc) {
            same_journal(&j, what);
        }
    }
    // A journal of the document's own bytes: one line, or several when it is pretty-printed.
    same_journal(bytes, what);
}

fn files_under(dir: &Path, keep: &dyn Fn(&Path) -> bool, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files_under(&p, keep, out);
        } else if keep(&p) {
            out.push(p);
        }
    }
}

fn is_gemini_file(p: &Path) -> bool {
    let name = p.to_string_lossy().to_lowercase();
    (name.ends_with(".json") || name.ends_with(".jsonl"))
        && (name.contains("gemini") || (super::SPEC.is_log)(p))
}

fn check_files(files: &[PathBuf]) {
    for f in files {
        let bytes = std::fs::read(f).unwrap();
        let what = f.display().to_string();
        if f.extension().is_some_and(|e| e == "jsonl") {
            same_journal(&bytes, &what);
        } else {
            assert!(same_document(&bytes, &what), "{what} is read");
            same_everywhere(&bytes, &what);
        }
    }
}

#[test]
fn shared_fixtures_and_real_logs_give_the_same_events() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut fixtures = Vec::new();
    files_under(
        &manifest.join("../../shared/fixtures"),
        &is_gemini_file,
        &mut fixtures,
    );
    assert!(!fixtures.is_empty(), "no Gemini file among the shared fixtures");
    let mut real = Vec::new();
    files_under(
        &manifest.join("tests/real_logs/gemini"),
        &is_gemini_file,
        &mut real,
    );
    assert!(real.len() >= 2, "the real-log set's Gemini files: {real:?}");
    check_files(&fixtures);
    check_files(&real);
}

#[cfg(feature = "corpus")]
#[test]
fn a_generated_corpus_gives_the_same_events() {
    let tmp = tempfile::tempdir().unwrap();
    let mut spec = crate::corpus::CorpusSpec::new(24, 16);
    spec.max_tool_output = 1 << 14;
    let stats = crate::corpus::generate(&spec, tmp.path()).unwrap();
    let gemini: Vec<PathBuf> = stats
        .paths
        .into_iter()
        .filter(|p| (super::SPEC.is_log)(p))
        .collect();
    assert_eq!(gemini.len(), 8);
    check_files(&gemini);
}

/// Odd shapes, one message or document each.
#[test]
fn odd_shapes_give_the_same_events() {
    let call = |extra: Value| {
        let mut c = json!({"id": "c1", "name": "run_shell_command", "args": {"z": 1, "a": [1.5, "x"], "m": null}});
        c.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        c
    };
    let fr = |response: Value| json!([{"functionResponse": {"id": "c1", "response": response}}]);
    let messages = vec![
        // content
        json!({"type": "user", "content": [{"text": "a"}, "b", {"type": "image"}, {"type": "input_image"}, {"text": ""}, 3, null, {"text": 5, "type": "image"}, {"x": 1}]}),
        json!({"type": "user", "content": 12.5}),
        json!({"type": "user", "content": -3}),
        json!({"type": "user", "content": true}),
        json!({"type": "user", "content": {"text": "object content"}}),
        json!({"type": "user", "content": null}),
        json!({"type": "user"}),
        json!({"type": "user", "content": []}),
        json!({"type": "user", "content": [{"functionResponse": {"x": 1}}, {"functionResponse": null}]}),
        json!({"type": "user", "content": [{"functionResponse": {}}, {"text": "said"}]}),
        json!({"type": "user", "content": [{"functionResponse": {}}, "s"]}),
        json!({"type": "user", "content": "  <session_context> here"}),
        json!({"type": "user", "content": "[Function Response: x]"}),
        json!({"type": "user", "content": "quote \" backslash \\ tab \t newline \n é 日本語 🙂 \u{1}"}),
        json!({"type": "error", "content": "boom"}),
        json!({"type": "error"}),
        json!({"type": "info", "content": ["x"]}),
        json!({"type": 7, "content": "typed number"}),
        json!({"content": "no type"}),
        // thoughts
        json!({"type": "gemini", "id": "g1", "model": "m", "thoughts": [
            {"subject": "s", "description": "d", "timestamp": "2025-01-01T00:00:00Z"},
            {"subject": "only subject"}, {"description": "only description"}, {},
            {"subject": 1, "description": null, "timestamp": 5}, "a string", 3, null, [1]]}),
        json!({"type": "gemini", "thoughts": "not an array", "content": "c"}),
        json!({"type": "gemini", "thoughts": {"subject": "object"}}),
        // tool calls
        json!({"type": "gemini", "timestamp": "2025-01-01T00:00:01Z", "toolCalls": [
            call(json!({})),
            call(json!({"status": "success"})),
            call(json!({"status": "error"})),
            call(json!({"status": 3})),
            call(json!({"status": null})),
            call(json!({"result": null})),
            call(json!({"result": "text result"})),
            call(json!({"result": []})),
            call(json!({"result": [], "resultDisplay": "shown"})),
            call(json!({"result": [1, {"functionResponse": 2}, {"functionResponse": {"response": null}}], "resultDisplay": {"fileDiff": "d"}})),
            call(json!({"status": "success", "resultDisplay": ["a", {"text": "b"}]})),
            call(json!({"status": "success", "resultDisplay": null})),
            call(json!({"result": fr(json!({"output": "out\nExit code: 2"})), "status": "success", "timestamp": "2025-01-01T00:00:02Z"})),
            call(json!({"result": fr(json!({"output": "Exit Code: 0"}))})),
            call(json!({"result": fr(json!({"error": "bad", "zzz": 1}))})),
            call(json!({"result": fr(json!({"error": {"code": 1}, "output": ["p", {"text": "q"}]}))})),
            call(json!({"result": fr(json!({"neither": {"b": 2, "a": 1}, "c": [1.0, -0.5, 1e300]}))})),
            call(json!({"result": fr(json!({}))})),
            call(json!({"result": fr(json!("a string response"))})),
            call(json!({"result": fr(json!([1, 2]))})),
            call(json!({"result": fr(json!(null))})),
            call(json!({"result": fr(json!({"output": null}))})),
            call(json!({"result": fr(json!({"output": 42}))})),
            call(json!({"result": [fr(json!({"output": "one"}))[0].clone(), fr(json!({"output": ""}))[0].clone(), fr(json!({"error": "three"}))[0].clone()]})),
            json!({"name": 5, "id": ["x"], "args": null}),
            json!({"args": "string args"}),
            json!({}),
            json!("not an object"),
            json!(17),
        ]}),
        json!({"type": "gemini", "toolCalls": "not an array"}),
        json!({"type": "gemini", "toolCalls": {"name": "object"}}),
        // tokens
        json!({"type": "gemini", "id": "t1", "tokens": {"input": 10, "output": 2}}),
        json!({"type": "gemini", "id": "t2", "tokens": {"input": -1, "tool": 2.0, "cached": "3", "output": null, "thoughts": 18446744073709551615u64}}),
        json!({"type": "gemini", "id": "t3", "tokens": {}}),
        json!({"type": "gemini", "id": "t4", "tokens": 5}),
        json!({"type": "gemini", "id": "t5", "tokens": [1]}),
        json!({"type": "gemini", "id": 3, "model": {"name": "x"}, "timestamp": 12, "content": "odd ids"}),
        json!({"type": "gemini", "timestamp": "not a time", "content": "bad time", "unknown": {"deep": [[[{"a": 1}]]]}}),
        // not objects
        json!("a string message"),
        json!(1),
        json!(null),
        json!([{"type": "user", "content": "in an array"}]),
    ];
    for (i, m) in messages.iter().enumerate() {
        let doc = json!({"sessionId": "s", "projectHash": "h", "startTime": "2025-01-01T00:00:00Z", "messages": [m]});
        same_everywhere(&serde_json::to_vec(&doc).unwrap(), &format!("message {i}: {m}"));
    }
    let all = json!({"sessionId": "s", "messages": messages});
    same_everywhere(&serde_json::to_vec(&all).unwrap(), "all odd messages");
    same_everywhere(
        &serde_json::to_vec_pretty(&all).unwrap(),
        "all odd messages, pretty",
    );

    // Documents written by hand: what `Value` makes of them is the reference.
    let deep = format!(
        "{{\"sessionId\":\"deep\",\"messages\":[],\"x\":{}{}}}",
        "[".repeat(200),
        "]".repeat(200)
    );
    let deep_message = format!(
        "{{\"messages\":[{{\"type\":\"user\",\"content\":\"c\",\"x\":{}{}}}]}}",
        "{\"a\":".repeat(130),
        "}".repeat(130)
    );
    let nested_ok = format!(
        "{{\"messages\":[{{\"type\":\"user\",\"content\":\"c\",\"x\":{}1{}}}]}}",
        "[".repeat(100),
        "]".repeat(100)
    );
    let docs: Vec<(&str, String)> = vec![
        ("too deeply nested", deep),
        ("a message too deeply nested", deep_message),
        ("nested within the limit", nested_ok),
        (
            "duplicate keys, last wins",
            r#"{"sessionId":"a","sessionId":"b","messages":[{"type":"user","content":"x","content":"y","type":"gemini","toolCalls":[{"id":"1","result":[{"functionResponse":{"response":{"output":"o1","output":"o2"}}}],"status":"error","status":"success"}],"tokens":{"input":1,"input":2}}],"messages":[{"type":"user","content":"second list"}]}"#.into(),
        ),
        (
            "duplicate response keys",
            r#"{"messages":[{"type":"gemini","toolCalls":[{"result":[{"functionResponse":{"response":{"b":1,"output":"x","a":2},"response":{"z":1,"a":2}}}]}]}]}"#.into(),
        ),
        (
            "escaped keys",
            r#"{"session\u0049d":"esc","messages":[{"t\u0079pe":"user","cont\u0065nt":"escaped keys"}]}"#.into(),
        ),
        (
            "escaped strings",
            r#"{"messages":[{"type":"user","content":"caf\u00e9 \ud83d\ude42 \"q\" \\ \/ \b\f\n\r\t"}]}"#.into(),
        ),
        ("not an object", "[1, 2, 3]".into()),
        ("a string", "\"doc\"".into()),
        ("null", "null".into()),
        ("empty object", "{}".into()),
        ("messages not an array", r#"{"messages":{"a":1}}"#.into()),
        ("cut short", r#"{"messages":[{"type":"user","content":"x"}"#.into()),
        ("trailing garbage", r#"{"messages":[]} x"#.into()),
        ("trailing whitespace", "{\"messages\":[]} \n".into()),
        ("not JSON", "this is not JSON {".into()),
        ("empty", String::new()),
        (
            "numbers in odd places",
            r#"{"sessionId":1,"projectHash":[],"startTime":2,"messages":[{"type":"gemini","content":1e5,"toolCalls":[{"args":{"n":1E2,"m":-0,"k":0.1,"big":123456789012345678901234567890}}]}]}"#.into(),
        ),
        (
            "lone surrogate",
            r#"{"messages":[{"type":"user","content":"\ud800"}]}"#.into(),
        ),
    ];
    for (what, doc) in &docs {
        same_everywhere(doc.as_bytes(), what);
    }
    let invalid_utf8: [(&str, &[u8]); 4] = [
        (
            "invalid UTF-8 in a read string",
            b"{\"messages\":[{\"type\":\"user\",\"content\":\"a\xff\"}]}",
        ),
        (
            "invalid UTF-8 in a skipped field",
            b"{\"x\":\"\xc3\x28\",\"messages\":[{\"type\":\"user\",\"content\":\"a\"}]}",
        ),
        (
            "a surrogate encoded in UTF-8",
            b"{\"messages\":[{\"type\":\"user\",\"content\":\"\xed\xa0\x80\"}]}",
        ),
        ("invalid UTF-8 after the document", b"{\"messages\":[]}\xff"),
    ];
    for (what, bytes) in invalid_utf8 {
        same_everywhere(bytes, what);
        assert!(!same_document(bytes, what), "{what}");
    }
    // The typed reader refuses what `Value` refused and reads what it read.
    assert!(!same_document(docs[0].1.as_bytes(), docs[0].0));
    assert!(!same_document(docs[1].1.as_bytes(), docs[1].0));
    assert!(same_document(docs[2].1.as_bytes(), docs[2].0));
    assert!(same_document(docs[5].1.as_bytes(), docs[5].0));
}

// Generated message shapes: each field right-shaped most of the time and any JSON otherwise,
// so that every level of a message (down to a tool result's output) sees odd values.

fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("user".to_string()),
        Just("gemini".to_string()),
        Just("error".to_string()),
        Just("image".to_string()),
        Just("success".to_string()),
        Just("2025-03-09T23:18:19.589Z".to_string()),
        Just("<session_context> x".to_string()),
        Just("Exit code: 1".to_string()),
        Just("out\nExit code: 0\n".to_string()),
        Just("é \"q\" \\ 日本語 🙂\t".to_string()),
        "[a-z]{0,6}",
    ]
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "type",
            "id",
            "content",
            "text",
            "output",
            "error",
            "response",
            "functionResponse",
            "subject",
            "status",
            "input",
        ])
        .prop_map(str::to_string),
        "[a-z]{1,3}",
    ]
}

fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-1e6f64..1e6).prop_map(Value::from),
        word().prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..4)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// `s` most of the time, any JSON otherwise.
fn or_any(s: impl Strategy<Value = Value>) -> impl Strategy<Value = Value> {
    prop_oneof![4 => s, 1 => any_json()]
}

/// An object of the fields that are `Some`.
fn object(fields: Vec<(&'static str, Option<Value>)>) -> Value {
    Value::Object(
        fields
            .into_iter()
            .filter_map(|(k, v)| Some((k.to_string(), v?)))
            .collect::<Map<_, _>>(),
    )
}

fn text() -> impl Strategy<Value = Value> {
    or_any(word().prop_map(Value::String))
}

fn flat() -> impl Strategy<Value = Value> {
    let part = prop_oneof![
        word().prop_map(Value::String),
        (
            prop::option::of(text()),
            prop::option::of(text()),
            prop::option::of(any_json())
        )
            .prop_map(|(t, ty, f)| object(vec![
                ("text", t),
                ("type", ty),
                ("functionResponse", f)
            ])),
        any_json(),
    ];
    or_any(prop_oneof![
        word().prop_map(Value::String),
        prop::collection::vec(part, 0..4).prop_map(Value::Array),
    ])
}

fn tool_call() -> impl Strategy<Value = Value> {
    let response = or_any(
        (
            prop::option::of(flat()),
            prop::option::of(flat()),
            prop::option::of(any_json()),
        )
            .prop_map(|(o, e, x)| object(vec![("output", o), ("error", e), ("x", x)])),
    );
    let function_response = or_any(
        (prop::option::of(response), prop::option::of(text()))
            .prop_map(|(r, id)| object(vec![("response", r), ("id", id)])),
    );
    let result = or_any(
        prop::collection::vec(
            or_any(
                prop::option::of(function_response)
                    .prop_map(|f| object(vec![("functionResponse", f)])),
            ),
            0..3,
        )
        .prop_map(Value::Array),
    );
    or_any(
        (
            prop::option::of(text()),
            prop::option::of(text()),
            prop::option::of(any_json()),
            prop::option::of(result),
            prop::option::of(text()),
            prop::option::of(flat()),
            prop::option::of(text()),
        )
            .prop_map(|(name, id, args, result, status, display, ts)| {
                object(vec![
                    ("name", name),
                    ("id", id),
                    ("args", args),
                    ("result", result),
                    ("status", status),
                    ("resultDisplay", display),
                    ("timestamp", ts),
                ])
            }),
    )
}

fn message() -> impl Strategy<Value = Value> {
    let thought = or_any(
        (
            prop::option::of(text()),
            prop::option::of(text()),
            prop::option::of(text()),
        )
            .prop_map(|(s, d, t)| {
                object(vec![("subject", s), ("description", d), ("timestamp", t)])
            }),
    );
    let count = || or_any(prop_oneof![(0u64..1000).prop_map(Value::from)]);
    let tokens = or_any(
        (
            prop::option::of(count()),
            prop::option::of(count()),
            prop::option::of(count()),
            prop::option::of(count()),
            prop::option::of(count()),
        )
            .prop_map(|(i, t, c, o, th)| {
                object(vec![
                    ("input", i),
                    ("tool", t),
                    ("cached", c),
                    ("output", o),
                    ("thoughts", th),
                ])
            }),
    );
    let kind = or_any(
        prop::sample::select(vec!["user", "gemini", "error", "info"])
            .prop_map(|s| Value::String(s.into())),
    );
    or_any(
        (
            prop::option::of(kind),
            prop::option::of(text()),
            prop::option::of(text()),
            prop::option::of(text()),
            prop::option::of(flat()),
            prop::option::of(or_any(
                prop::collection::vec(thought, 0..3).prop_map(Value::Array),
            )),
            prop::option::of(or_any(
                prop::collection::vec(tool_call(), 0..3).prop_map(Value::Array),
            )),
            prop::option::of(tokens),
            prop::option::of(any_json()),
        )
            .prop_map(|(ty, id, model, ts, content, thoughts, calls, tokens, x)| {
                object(vec![
                    ("type", ty),
                    ("id", id),
                    ("model", model),
                    ("timestamp", ts),
                    ("content", content),
                    ("thoughts", thoughts),
                    ("toolCalls", calls),
                    ("tokens", tokens),
                    ("extra", x),
                ])
            }),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn generated_messages_give_the_same_events(
        messages in prop::collection::vec(message(), 0..6),
        start in prop::option::of(text()),
    ) {
        let doc = object(vec![
            ("sessionId", Some(json!("s"))),
            ("startTime", start),
            ("messages", Some(Value::Array(messages))),
        ]);
        same_everywhere(&serde_json::to_vec(&doc).unwrap(), &doc.to_string());
    }
}
