//! `agtrace tools`: the catalog a client receives, and what each entry costs in its context.
//!
//! A model pays for the two halves of a `tools/list` entry differently: the input side (what
//! it reads to choose a tool and write its arguments) sits in its context on every request,
//! while the output schema only matters to clients that validate answers, and most do not
//! forward it to the model. So the two are counted, and can be printed, separately.

use super::output::outln;
use super::{Failure, Roots, open_store};
use mcp_tool::rmcp::model::Tool;
use serde_json::{Value, json};

#[derive(clap::Args)]
pub struct ToolsArgs {
    #[command(flatten)]
    pub roots: super::Roots,
    /// Print JSON instead of the table: `all` (the default) is the `tools/list` answer as sent,
    /// `input` only each tool's name, description and input schema, `output` only each tool's
    /// name and output schema.
    #[arg(long, value_name = "PART", num_args = 0..=1, default_missing_value = "all")]
    json: Option<Part>,
}

/// Which part of each `tools/list` entry to print.
#[derive(Clone, Copy, clap::ValueEnum)]
enum Part {
    All,
    Input,
    Output,
}

/// The input side of an entry: what a model reads to pick the tool and fill in its arguments.
/// Exactly name, description and input schema (the definition); the title, annotations
/// and `_meta` are left out because clients turn them into UI and hints, not model text.
fn input_side(tool: &Tool) -> Value {
    json!({
        "name": tool.name,
        "description": tool.description,
        "inputSchema": tool.input_schema,
    })
}

/// The output schema of an entry, `null` for a tool without one.
fn output_side(tool: &Tool) -> Value {
    json!(tool.output_schema)
}

/// What the columns count, and its name: o200k_base tokens in a build with the `dev` feature,
/// whose tokenizer tables an installed agtrace does without (3.6 MB); bytes otherwise.
#[cfg(feature = "dev")]
fn measure() -> Result<(impl Fn(&str) -> usize, &'static str), Failure> {
    let bpe = tiktoken_rs::o200k_base().map_err(|e| format!("tokenizer: {e}"))?;
    Ok((
        move |text: &str| bpe.encode_with_special_tokens(text).len(),
        "o200k_base tokens",
    ))
}

#[cfg(not(feature = "dev"))]
fn measure() -> Result<(impl Fn(&str) -> usize, &'static str), Failure> {
    Ok((
        |text: &str| text.len(),
        "bytes (o200k_base tokens in a build with `--features dev`)",
    ))
}

pub async fn run(roots: &Roots, args: ToolsArgs) -> Result<(), Failure> {
    let server = agtrace_tools::server::build(open_store(roots.config())?)?;
    let tools: Vec<&Tool> = server.tools().collect();
    if let Some(part) = args.json {
        let listed = match part {
            Part::All => json!({"tools": tools}),
            Part::Input => {
                json!({"tools": tools.iter().map(|t| input_side(t)).collect::<Vec<_>>()})
            }
            Part::Output => json!({"tools": tools
                .iter()
                .map(|t| json!({"name": t.name, "outputSchema": output_side(t)}))
                .collect::<Vec<_>>()}),
        };
        outln!("{}", serde_json::to_string_pretty(&listed)?)?;
        return Ok(());
    }
    let (measure, unit) = measure()?;
    let count = |v: &Value| -> Result<usize, Failure> { Ok(measure(&serde_json::to_string(v)?)) };
    outln!(
        "{:<24} {:>6} {:>7} {:>7} {:>7} {:>10}  annotations",
        "tool",
        "input",
        "output",
        "listed",
        "bytes",
        "budget"
    )?;
    let mut totals = [0usize; 4];
    for (tool, def) in tools.iter().zip(server.definitions()) {
        let listed = serde_json::to_string(tool)?;
        let row = [
            count(&input_side(tool))?,
            count(&output_side(tool))?,
            measure(&listed),
            listed.len(),
        ];
        for (t, r) in totals.iter_mut().zip(row) {
            *t += r;
        }
        let budget = format!(
            "{}{}",
            mcp_tool::format_size(def.size_hint),
            if def.paginated { "/page" } else { "" }
        );
        let hints = [
            (def.read_only, "read_only"),
            (def.destructive, "destructive"),
            (def.idempotent, "idempotent"),
            (def.open_world, "open_world"),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, n)| *n)
        .collect::<Vec<_>>()
        .join(", ");
        outln!(
            "{:<24} {:>6} {:>7} {:>7} {:>7} {:>10}  {}",
            tool.name,
            row[0],
            row[1],
            row[2],
            row[3],
            budget,
            hints
        )?;
    }
    outln!(
        "{:<24} {:>6} {:>7} {:>7} {:>7}",
        format!("{} tools", tools.len()),
        totals[0],
        totals[1],
        totals[2],
        totals[3]
    )?;
    outln!(
        "({unit} of compact JSON. input: name, description and inputSchema, what a \
         model reads on every request; output: the outputSchema; listed: the whole entry as \
         sent, also title, annotations and _meta; bytes: of the whole entry. \
         `--json=input` / `--json=output` print the two sides.)"
    )?;
    for (tool, e) in server.exceptions() {
        outln!(
            "silenced: {tool}: [{}] on {}: {}",
            e.lint,
            e.target,
            e.reason
        )?;
    }
    for w in server.lint_warnings() {
        outln!("design warning: {}: {}", w.tool, w.message)?;
    }
    Ok(())
}
