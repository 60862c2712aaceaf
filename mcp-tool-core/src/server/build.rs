//! `ToolServerBuilder::build`: every registry problem found and reported at once.

#[cfg(feature = "answer-check")]
use super::answer_check::AnswerCheck;
#[cfg(feature = "http")]
use super::http_guard::HttpSettings;
use super::{Inner, Prepared, ToolServer, families};
use crate::client_limits::ClientLimits;
use crate::envelope::{self, format_size};
use crate::registry::{self, ToolDef};
use crate::schema::{self, SchemaProfile};
use crate::state::States;
use rmcp::model::{Implementation, ServerCapabilities, ServerConfig, Tool, ToolAnnotations};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// Configures a [`ToolServer`]. Every setting has a working default but the name and version,
/// which default to the crate's own only as a last resort: pass them.
///
/// ```
/// use mcp_tool::ToolServer;
/// use std::time::Duration;
///
/// # fn main() -> Result<(), mcp_tool::BuildError> {
/// struct Store; // what the tools take as `&Store`
///
/// let server = ToolServer::builder()
///     .name("notes")
///     .version(env!("CARGO_PKG_VERSION"))
///     .instructions("`list_notes` pages through notes; `get_note` shows one.")
///     .state(Store)
///     .timeout(Duration::from_secs(30))
///     .build()?;
/// assert_eq!(server.unserved_tools(), &[]);
/// # Ok(()) }
/// ```
pub struct ToolServerBuilder {
    name: String,
    version: String,
    title: Option<String>,
    instructions: Option<String>,
    states: States,
    families: Option<Vec<String>>,
    excluded_families: Vec<String>,
    tools_page_size: usize,
    timeout: Option<Duration>,
    tools: Option<Vec<&'static ToolDef>>,
    check_answers: bool,
    client_limits: ClientLimits,
    schema_profile: SchemaProfile,
    #[cfg(feature = "http")]
    pub(super) http: HttpSettings,
    max_message_bytes: usize,
    pub(super) signing_keys: crate::seal::SigningKeys,
    #[cfg(feature = "http")]
    pub(super) stateless_http: bool,
    pub(super) list_caching: super::eras::ListCaching,
    pub(super) tasks: Option<super::tasks::TaskSettings>,
}

impl Default for ToolServerBuilder {
    fn default() -> Self {
        Self {
            name: "mcp-tool-server".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            title: None,
            instructions: None,
            states: States::default(),
            families: None,
            excluded_families: Vec::new(),
            tools_page_size: 100,
            timeout: None,
            tools: None,
            check_answers: cfg!(debug_assertions),
            client_limits: ClientLimits::defaults(),
            schema_profile: SchemaProfile::default(),
            #[cfg(feature = "http")]
            http: HttpSettings::default(),
            max_message_bytes: Self::DEFAULT_MAX_MESSAGE_BYTES,
            signing_keys: crate::seal::SigningKeys::default(),
            #[cfg(feature = "http")]
            stateless_http: false,
            list_caching: Default::default(),
            tasks: None,
        }
    }
}

impl ToolServerBuilder {
    /// How long a connection may take to send a request's headers, and how long a kept-alive
    /// connection may sit idle before its next request.
    pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(10);

    /// How long an HTTP request's body may take to arrive, counted from the end of its headers.
    pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);

    /// The largest message read, over stdio (one line) or HTTP (one body): 4 MiB, far above
    /// any tool call's arguments, and small enough that many connections sending that much at
    /// once stay within memory.
    pub const DEFAULT_MAX_MESSAGE_BYTES: usize = 4 * 1024 * 1024;

    /// How many connections are served at once. Well under the usual limit of 1,024 open
    /// files; a lower limit lowers it.
    pub const DEFAULT_MAX_CONNECTIONS: usize = 256;

    /// How long a session may go without a request before it is closed.
    pub const DEFAULT_SESSION_IDLE_TIMEOUT: Duration = Duration::from_secs(300);

    /// The `Origin` values browsers send from pages served by this machine.
    pub const DEFAULT_ALLOWED_ORIGINS: &[&str] = &[
        "http://localhost:*",
        "http://127.0.0.1:*",
        "http://[::1]:*",
        "https://localhost:*",
        "https://127.0.0.1:*",
        "https://[::1]:*",
    ];

    /// The server name clients show (sent as `serverInfo.name`).
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// The server version clients show (sent as `serverInfo.version`); usually
    /// `env!("CARGO_PKG_VERSION")`.
    pub fn version(mut self, version: impl Into<String>) -> Self {
        self.version = version.into();
        self
    }

    /// A human-readable server name for client UIs (`serverInfo.title`).
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Text the client may give the model about how to use this server's tools together.
    pub fn instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }

    /// A value tools receive as `&T`. One state per type; any number of types.
    pub fn state<T: Send + Sync + 'static>(mut self, state: T) -> Self {
        self.states.insert(state);
        self
    }

    /// Serve only the tools of these families (default: every registered tool).
    ///
    /// A family named here without any registered tool fails [`build`](Self::build). A
    /// registered family left out is logged as a warning and listed by
    /// [`ToolServer::unserved_tools`], unless it is named in
    /// [`exclude_families`](Self::exclude_families).
    pub fn families<I, S>(mut self, families: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.families = Some(families.into_iter().map(Into::into).collect());
        self
    }

    /// Families linked into this binary that this server leaves out on purpose (e.g. another
    /// server's tools in a crate that builds two servers). Their tools are not served and not
    /// reported as unserved; with no [`families`](Self::families) call, every other family is
    /// served.
    ///
    /// A family named here without any registered tool, or also named in `families`, fails
    /// [`build`](Self::build).
    pub fn exclude_families<I, S>(mut self, families: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.excluded_families
            .extend(families.into_iter().map(Into::into));
        self
    }

    /// How many tools one `tools/list` page holds (default 100).
    pub fn tools_page_size(mut self, size: usize) -> Self {
        self.tools_page_size = size.max(1);
        self
    }

    /// Fails a call with the `timeout` tool error when it runs longer than this.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    #[cfg(feature = "http")]
    /// The browser origins allowed to call the server over HTTP, replacing the default
    /// [`DEFAULT_ALLOWED_ORIGINS`](Self::DEFAULT_ALLOWED_ORIGINS) (pages on this
    /// machine: `http://localhost:*`, `http://127.0.0.1:*`, `http://[::1]:*` and their https
    /// forms). A request whose `Origin` is not listed gets `403` and no data, as the MCP spec
    /// requires against DNS rebinding; a request without `Origin` (any non-browser client)
    /// passes. Entries are `scheme://host:port`, `:*` for any port, `scheme://host` for the
    /// scheme's default port, or `null`; an empty list refuses every request that carries an
    /// `Origin`. Matching is exact on scheme, host and port.
    pub fn allowed_origins<I, S>(mut self, origins: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.http.allowed_origins = origins.into_iter().map(Into::into).collect();
        self
    }

    #[cfg(feature = "http")]
    /// Host names and addresses the server answers to over HTTP besides this machine's
    /// loopback names (`localhost`, `127.0.0.1`, `::1`) and the address each connection
    /// arrived at, which are always allowed. Needed when clients reach the server by a DNS
    /// name, or through a proxy that forwards its own `Host`. Entries are `name`, `address`,
    /// `[v6]`, each with an optional `:port` (without one, any port). Any other `Host` gets
    /// `403`: DNS rebinding sends a browser's requests under the attacker's name.
    pub fn allowed_hosts<I, S>(mut self, hosts: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.http.allowed_hosts = hosts.into_iter().map(Into::into).collect();
        self
    }

    #[cfg(feature = "http")]
    /// How long an HTTP connection may take to send a request's headers, and how long a
    /// kept-alive connection may stay idle before its next request; the connection is closed
    /// after that. Default [`DEFAULT_HEADER_TIMEOUT`](Self::DEFAULT_HEADER_TIMEOUT).
    pub fn http_header_timeout(mut self, timeout: Duration) -> Self {
        self.http.header_timeout = timeout;
        self
    }

    #[cfg(feature = "http")]
    /// How long an HTTP request's body may take to arrive once its headers are in. A client
    /// that trickles the body or stalls in the middle of it gets `408` with a JSON-RPC error
    /// and the connection is closed. Default
    /// [`DEFAULT_BODY_TIMEOUT`](Self::DEFAULT_BODY_TIMEOUT).
    pub fn http_body_timeout(mut self, timeout: Duration) -> Self {
        self.http.body_timeout = timeout;
        self
    }

    /// The largest message the server reads, in bytes: one line over stdio, one request body
    /// over HTTP. A larger one is answered with a JSON-RPC error (`-32600`, `"id": null`; over
    /// HTTP with status `413`) without being held in memory; on stdio the server then reads on
    /// from the next line. Default
    /// [`DEFAULT_MAX_MESSAGE_BYTES`](Self::DEFAULT_MAX_MESSAGE_BYTES).
    pub fn max_message_bytes(mut self, max: usize) -> Self {
        self.max_message_bytes = max.max(1);
        self
    }

    #[cfg(feature = "http")]
    /// How many HTTP connections are served at once (at least one), lowered to what the
    /// open-file limit leaves room for (the soft limit is raised to the hard one first). When
    /// all are taken, the connection idle longest is closed for a newcomer; when all are busy,
    /// newcomers wait until one finishes. Default
    /// [`DEFAULT_MAX_CONNECTIONS`](Self::DEFAULT_MAX_CONNECTIONS).
    pub fn http_max_connections(mut self, max: usize) -> Self {
        self.http.max_connections = max.max(1);
        self
    }

    #[cfg(feature = "http")]
    /// How long an HTTP session may go without a request before it is closed and its memory
    /// freed. Default
    /// [`DEFAULT_SESSION_IDLE_TIMEOUT`](Self::DEFAULT_SESSION_IDLE_TIMEOUT).
    pub fn http_session_idle_timeout(mut self, timeout: Duration) -> Self {
        self.http.session_idle_timeout = timeout;
        self
    }

    /// Checks every answer against the tool's `outputSchema` before it is sent (default: on
    /// in debug builds, off in release builds). An answer that breaks its schema becomes an
    /// `internal` tool error naming the tool and the JSON path, so a client that validates
    /// never rejects it and one that does not never passes a broken answer to its model.
    #[cfg(feature = "answer-check")]
    pub fn check_answers(mut self, check: bool) -> Self {
        self.check_answers = check;
        self
    }

    /// Sets how much of an answer clients named `name` keep, in bytes (a trailing `*` matches
    /// a name prefix), replacing the default for that name. Tools then get
    /// [`ToolContext::size_hint`](crate::ToolContext::size_hint) no larger than this, so they
    /// page before the client would cut. E.g. Claude Code users who set
    /// `MAX_MCP_OUTPUT_TOKENS=50000`, or Codex CLI with catalog models only:
    ///
    /// ```
    /// # fn main() -> Result<(), mcp_tool::BuildError> {
    /// use mcp_tool::client_limits::{CLAUDE_CODE, CODEX_CLI};
    ///
    /// let server = mcp_tool::ToolServer::builder()
    ///     .client_limit(CLAUDE_CODE, 80_000)
    ///     .client_limit(CODEX_CLI, 40_000)
    ///     .build()?;
    /// # Ok(()) }
    /// ```
    pub fn client_limit(mut self, name: impl Into<String>, max_bytes: usize) -> Self {
        self.client_limits.set(name, max_bytes);
        self
    }

    /// Replaces the whole table of client limits (default:
    /// [`ClientLimits::defaults`], Codex CLI, Claude Code and Gemini CLI);
    /// `ClientLimits::empty()` gives every client each tool's own `size_hint`.
    pub fn client_limits(mut self, limits: ClientLimits) -> Self {
        self.client_limits = limits;
        self
    }

    /// The JSON Schema dialect of the input schemas in `tools/list` (default
    /// [`SchemaProfile::Portable`]: accepted as it is by OpenAI function calling, Anthropic tool
    /// use, Gemini function declarations and MCP Inspector `--strict`).
    /// [`SchemaProfile::OpenAiStrict`] suits clients that call OpenAI with `"strict": true`;
    /// [`SchemaProfile::JsonSchema`] keeps `$defs`, `$ref` and `oneOf`. Output schemas are the
    /// same in every profile (see [`schema::output_schema`]). Argument validation does not
    /// change: what any profile's schema allows, the tool accepts.
    ///
    /// ```
    /// use mcp_tool::{SchemaProfile, ToolServer};
    ///
    /// let server = ToolServer::builder()
    ///     .name("notes")
    ///     .schema_profile(SchemaProfile::OpenAiStrict)
    ///     .build()
    ///     .unwrap();
    /// # let _ = server;
    /// ```
    pub fn schema_profile(mut self, profile: SchemaProfile) -> Self {
        self.schema_profile = profile;
        self
    }

    /// Serve exactly these tools instead of the registry's (tests, embedding).
    #[doc(hidden)]
    pub fn with_definitions(mut self, tools: Vec<&'static ToolDef>) -> Self {
        self.tools = Some(tools);
        self
    }

    /// Checks the tool set and prepares everything calls need.
    ///
    /// What cannot fail is left out of the wait: the tools as `tools/list` lists them (their
    /// output schemas, most of a build) are derived on a thread this starts, so that a server
    /// answers `initialize` sooner; the first call that needs one before that thread got to it
    /// derives it itself. With `check_answers` on (feature `answer-check`; the default in
    /// debug builds) they are derived here, since the answer checks are compiled from them.
    ///
    /// Registered families that are neither served nor excluded are logged as warnings and
    /// kept in [`ToolServer::unserved_tools`]; see [`families`](Self::families).
    ///
    /// # Errors
    ///
    /// A [`BuildError`] listing every problem at once: a tool name registered twice (both
    /// locations), an injected `&T` without a matching [`state`](Self::state), a family
    /// setting that names no registered tool, an input schema that is not an object, an
    /// allowed host or origin that cannot be read.
    pub fn build(self) -> Result<ToolServer, BuildError> {
        let registered = self.tools.unwrap_or_else(registry::all_tools);
        let families::Selection {
            served: selected,
            unserved,
            mut problems,
        } = families::select(
            registered,
            self.families.as_deref(),
            &self.excluded_families,
        );

        let mut by_name: HashMap<&'static str, usize> = HashMap::new();
        let mut tools = Vec::with_capacity(selected.len());
        for def in selected {
            if let Some(&first) = by_name.get(def.name) {
                let other: &Prepared = &tools[first];
                problems.push(format!(
                    "tool name `{}` is registered twice: at {} and at {}; tool names must be unique",
                    def.name,
                    other.def.location(),
                    def.location()
                ));
                continue;
            }
            for injected in def.injected {
                if !self.states.contains((injected.type_id)()) {
                    problems.push(format!(
                        "tool `{}` ({}) takes `&{}`, but the server has no state of that type; \
                         add `.state(..)` with a `{}` to the builder",
                        def.name,
                        def.location(),
                        injected.type_name,
                        injected.type_name
                    ));
                }
            }
            match prepare(def, self.check_answers, self.schema_profile) {
                Ok(prepared) => {
                    by_name.insert(def.name, tools.len());
                    tools.push(prepared);
                }
                Err(problem) => problems.push(problem),
            }
        }
        #[cfg(feature = "http")]
        let admission = {
            let (admission, unreadable) = super::host_origin::Admission::read(
                &self.http.allowed_hosts,
                &self.http.allowed_origins,
            );
            problems.extend(unreadable);
            admission
        };
        if !problems.is_empty() {
            return Err(BuildError { problems });
        }
        let served: Vec<&'static ToolDef> = tools.iter().map(|p| p.def).collect();
        families::warn_unserved(&unserved, &served);

        let mut server_info = Implementation::new(self.name, self.version);
        server_info.title = self.title;
        let mut capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_logging()
            .build();
        if self.tasks.is_some() {
            capabilities.extensions = ServerCapabilities::builder()
                .enable_tasks()
                .build()
                .extensions;
        }
        let mut config = ServerConfig::new(capabilities).with_server_info(server_info);
        config.instructions = self.instructions;
        let server = ToolServer {
            inner: Arc::new(Inner {
                tools,
                by_name,
                states: Arc::new(self.states),
                config,
                tools_page_size: self.tools_page_size,
                timeout: self.timeout,
                lint_warnings: std::sync::OnceLock::new(),
                unserved,
                client_limits: self.client_limits,
                #[cfg(feature = "http")]
                http: self.http,
                #[cfg(feature = "http")]
                admission: Arc::new(admission),
                max_message_bytes: self.max_message_bytes,
                signing_keys: self.signing_keys,
                #[cfg(feature = "http")]
                stateless_http: self.stateless_http,
                list_caching: self.list_caching,
                tasks: self.tasks.map(super::task_store::TaskStore::new),
            }),
        };
        server.finish_tools_in_background();
        // The schema lints cost more than the rest of the build (they re-derive every schema
        // and scan every description): a release server with `release-lints` runs them after
        // its first answers (`ToolServer::serve`), a debug build here, where its author looks.
        if cfg!(debug_assertions) {
            server.lint_warnings();
        }
        Ok(server)
    }
}

/// The `_meta` key under which each listed tool states its size hint in bytes, for clients
/// and test harnesses that budget answers.
pub const SIZE_HINT_META: &str = "mcp-tool/size_hint_bytes";

fn prepare(
    def: &'static ToolDef,
    check_answers: bool,
    profile: SchemaProfile,
) -> Result<Prepared, String> {
    let input = (def.input_schema)();
    let Value::Object(input) = input else {
        return Err(format!(
            "tool `{}` ({}): input schema is not a JSON object",
            def.name,
            def.location()
        ));
    };
    match input.get("type") {
        Some(Value::String(t)) if t == "object" => {}
        other => {
            return Err(format!(
                "tool `{}` ({}): input schema root must be `\"type\": \"object\"`, found {}; \
                 take arguments as one `#[tool_args]` struct",
                def.name,
                def.location(),
                other.map_or("no type".to_owned(), |t| t.to_string())
            ));
        }
    }
    let properties = input.get("properties").and_then(Value::as_object);
    let parameters: Vec<String> = properties
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default();
    let defaults: Map<String, Value> = properties
        .map(|p| {
            p.iter()
                .filter_map(|(k, v)| v.get("default").map(|d| (k.clone(), d.clone())))
                .collect()
        })
        .unwrap_or_default();
    // Defaults and parameter names come from the derived schema: a profile may move a
    // default into the description, but cursors stay bound to the same effective query.
    let listed = schema::input_schema(profile, &input)
        .map_err(|e| format!("tool `{}` ({}): {e}", def.name, def.location()))?;
    let prepared = Prepared {
        def,
        tool: OnceLock::new(),
        input: Arc::new(listed),
        defaults,
        parameters,
        #[cfg(feature = "answer-check")]
        answer_check: None,
    };
    with_answer_check(prepared, check_answers)
}

/// `prepared` with its compiled `outputSchema` when answers are to be checked.
#[cfg(feature = "answer-check")]
fn with_answer_check(prepared: Prepared, check_answers: bool) -> Result<Prepared, String> {
    let def = prepared.def;
    if !check_answers || def.output_schema.is_none() {
        return Ok(prepared);
    }
    let answer_check = match &prepared.tool().output_schema {
        Some(schema) => Some(AnswerCheck::new(schema).map_err(|e| {
            format!(
                "tool `{}` ({}): its outputSchema is not valid JSON Schema 2020-12: {e}",
                def.name,
                def.location()
            )
        })?),
        None => None,
    };
    Ok(Prepared {
        answer_check,
        ..prepared
    })
}

/// Without the `answer-check` feature no answer is checked.
#[cfg(not(feature = "answer-check"))]
fn with_answer_check(prepared: Prepared, _check_answers: bool) -> Result<Prepared, String> {
    Ok(prepared)
}

/// The tool as `tools/list` shows it, from its listed input schema: the rest of what
/// [`prepare`] would compute, none of which can fail (the output schema is the larger part of
/// a build).
pub(super) fn finish(def: &'static ToolDef, input: Arc<Map<String, Value>>) -> Tool {
    let mut tool = Tool::new(def.name, describe(def), input);
    if let Some(data_schema) = def.output_schema {
        let output = envelope::output_schema(data_schema(), def.paginated);
        tool = tool.with_raw_output_schema(Arc::new(schema::spelled_out(output)));
    }
    let mut annotations = ToolAnnotations::from_raw(
        def.title.map(str::to_owned),
        Some(def.read_only),
        Some(def.destructive),
        Some(def.idempotent),
        Some(def.open_world),
    );
    if def.read_only {
        // Per the MCP spec these two are meaningful only for tools that modify their world.
        annotations.destructive_hint = Some(false);
        annotations.idempotent_hint = Some(true);
    }
    tool = tool.with_annotations(annotations);
    if let Some(title) = def.title {
        tool = tool.with_title(title);
    }
    let mut meta = rmcp::model::MetaObject::new();
    meta.insert(SIZE_HINT_META.into(), serde_json::json!(def.size_hint));
    tool.with_meta(meta)
}

/// Whether this build runs the design rules on the served schemas: debug builds, where the
/// author looks, and release builds with the `release-lints` feature. A release server without
/// it does not carry the rules' code (0.38 MB of a 5.0 MB stripped stdio server): its author saw
/// their findings in debug builds, and the attributes check the rest at compile time.
pub(super) const SCHEMA_LINTS: bool = cfg!(any(debug_assertions, feature = "release-lints"));

/// The design rules on what the client will see (the schemas), for what syntax could not
/// check: nested types, enum values, output shapes. Findings are warnings, minus the lints the
/// author silenced with a reason.
#[cfg(any(debug_assertions, feature = "release-lints"))]
pub(super) fn lint_schema(prepared: &Prepared) -> Vec<LintWarning> {
    let def = prepared.def;
    let annotations = mcp_tool_lint::Annotations {
        read_only: def.read_only,
        destructive: def.destructive,
        idempotent: def.idempotent,
        open_world: def.open_world,
    };
    // The schemas as derived: the lints judge the design, and a profile's spelling (an
    // any-value schema listing the JSON types as `anyOf`) is not a design.
    let input = (def.input_schema)();
    let output = def
        .output_schema
        .map(|data| Value::Object(envelope::output_schema(data(), def.paginated)));
    let silenced: Vec<&'static str> = (def.exceptions)().iter().map(|e| e.lint).collect();
    let report = mcp_tool_lint::schema::check_schema_tool(
        def.name,
        Some(def.description).filter(|d| !d.trim().is_empty()),
        annotations,
        &input,
        output.as_ref(),
    );
    report
        .findings
        .into_iter()
        .filter(|f| !silenced.contains(&f.code()))
        .map(|f| {
            let warning = LintWarning {
                tool: def.name,
                lint: f.code(),
                message: f.render(),
            };
            super::heard::warn(&format!(
                "tool `{}` [{}]: {}",
                def.name, warning.lint, warning.message
            ));
            warning
        })
        .collect()
}

/// Without [`SCHEMA_LINTS`]: no findings, and none of the rules' code in the binary.
#[cfg(not(any(debug_assertions, feature = "release-lints")))]
pub(super) fn lint_schema(_: &Prepared) -> Vec<LintWarning> {
    Vec::new()
}

/// A design-rule finding on a served tool's schemas.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LintWarning {
    /// The tool's wire name.
    pub tool: &'static str,
    /// The lint's stable name.
    pub lint: &'static str,
    /// The rendered finding: `[lint] message`, a blank line, `help: fix`.
    pub message: String,
}

/// The description a client sees: the doc comment plus the size contract.
fn describe(def: &ToolDef) -> String {
    let size = format_size(def.size_hint);
    let contract = if def.paginated {
        format!(
            "Each page of the answer is at most about {size}; pass `next_cursor` as `cursor` for the next page."
        )
    } else {
        format!("The answer is at most about {size}.")
    };
    if def.description.trim().is_empty() {
        contract
    } else {
        format!("{}\n\n{contract}", def.description.trim_end())
    }
}

/// Everything wrong with a tool set, found in one pass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildError {
    /// One sentence per problem, each naming the tool and where it is defined.
    pub problems: Vec<String>,
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "the tool server could not be built ({} problem{}):",
            self.problems.len(),
            if self.problems.len() == 1 { "" } else { "s" }
        )?;
        for p in &self.problems {
            writeln!(f, "  - {p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for BuildError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::{BoxFuture, Invocation};
    use crate::{Output, ToolError};
    use serde_json::json;

    fn never_called(_: Invocation) -> BoxFuture<Result<Output, ToolError>> {
        Box::pin(async { Err(ToolError::internal("not called in this test")) })
    }

    /// `rows` states a default only in its description: the schema lint `implicit_default`.
    static STATED_DEFAULT: ToolDef = ToolDef {
        name: "list_rows",
        family: "build_test",
        title: None,
        description: "List the rows.",
        size_hint: 1024,
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: false,
        paginated: false,
        input_schema: || {
            json!({"type": "object", "properties": {
                "rows": {"type": "integer", "description": "How many rows. Defaults to 10."},
                "timeout": {"type": "integer"}
            }})
        },
        output_schema: None,
        injected: &[],
        exceptions: Vec::new,
        call: never_called,
        file: file!(),
        line: line!(),
    };

    #[test]
    fn schema_lint_findings_are_found_once_and_kept() {
        let server = ToolServer::builder()
            .with_definitions(vec![&STATED_DEFAULT])
            .build()
            .unwrap();
        let first = server.lint_warnings();
        assert!(
            first
                .iter()
                .any(|w| w.tool == "list_rows" && w.lint == "missing_description"),
            "{first:?}"
        );
        // Computed once: the second call hands back the same findings, not a new run.
        assert!(std::ptr::eq(first, server.lint_warnings()));
        // The catalog itself does not depend on when the lints run.
        let listed: Vec<_> = server.tools().map(|t| t.name.to_string()).collect();
        assert_eq!(listed, ["list_rows"]);
    }

    /// A paged tool with an output schema that has `$defs`, so the envelope hoists them.
    static WITH_OUTPUT: ToolDef = ToolDef {
        name: "list_rows",
        description: "List the rows, a page at a time.",
        paginated: true,
        input_schema: || json!({"type": "object", "properties": {"cursor": {"type": "string"}}}),
        output_schema: Some(|| {
            json!({"type": "object", "properties": {"rows": {"type": "array",
                "items": {"$ref": "#/$defs/Row"}}},
                "$defs": {"Row": {"type": "object", "properties": {
                    "id": {"type": "integer", "format": "uint32"}}}}})
        }),
        ..STATED_DEFAULT
    };

    static COUNT_ROWS: ToolDef = ToolDef {
        name: "count_rows",
        ..STATED_DEFAULT
    };

    #[test]
    fn the_listed_tools_are_the_same_whether_derived_at_build_or_after_it() {
        let listed = |check_answers: bool| {
            let server = ToolServer::builder()
                .with_definitions(vec![&WITH_OUTPUT, &COUNT_ROWS])
                .check_answers(check_answers)
                .build()
                .unwrap();
            serde_json::to_value(server.tools().collect::<Vec<_>>()).unwrap()
        };
        // Checking answers needs the output schema at build; otherwise the tools are derived
        // on the thread `build()` starts, or by the first caller.
        let after = listed(false);
        assert_eq!(after, listed(true));
        let output = &after[0]["outputSchema"];
        assert_eq!(output["properties"]["pagination"]["type"], "object");
        assert_eq!(
            output["$defs"]["Row"]["properties"]["id"]["maximum"],
            u32::MAX
        );
        assert_eq!(after[0]["_meta"][SIZE_HINT_META], 1024);
        assert_eq!(after[1]["annotations"]["readOnlyHint"], true);
    }
}
