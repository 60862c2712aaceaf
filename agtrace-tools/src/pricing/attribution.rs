//! Who spent the tokens: per request, per model, per tool call.
//!
//! # Counting
//!
//! Providers report usage per model request (a `token_usage` event); Claude repeats it on each
//! streamed line of a message, the last one final. [`UsageWalker`] turns the events into what
//! each adds to the session's totals, with the same rule as [`TokenAccumulator`] (lines sharing
//! a message id replace each other), so the parts always sum to the session's tokens. A part
//! can be negative (a later line reporting less than an earlier one); sums are clamped at zero
//! only when shown.
//!
//! # Attribution to tools
//!
//! A step (one generation) made the tool calls it contains, so its tokens go to those calls,
//! split evenly among them (integer tokens: the remainder goes to the first calls, so the parts
//! sum to the step; cost: split in equal shares). A step without tool calls counts as
//! [`ToolKey::NoToolCall`] (text or reasoning only); usage logged outside any step (for
//! example a Codex `token_count` before the turn's first generation) as
//! [`ToolKey::OutsideSteps`]. The tokens of a tool call are those of the generation that
//! decided to call it, not the cost of reading its result: that is paid by the next
//! generation, whose prompt includes it.

use std::collections::HashMap;

use super::{PriceTable, PromptClass, prompt_class};
use crate::model::{Event, TokenAccumulator, TokenUsage, Turn};

/// Signed token counts: what one usage event adds to a session's totals.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Delta {
    /// Input tokens, cached part included.
    pub input: i64,
    /// Cache reads.
    pub cached_input: i64,
    /// Cache writes.
    pub cache_creation_input: i64,
    /// Output tokens, reasoning included.
    pub output: i64,
    /// Reasoning tokens.
    pub reasoning_output: i64,
}

impl Delta {
    fn between(before: &TokenUsage, after: &TokenUsage) -> Self {
        let d = |a: u64, b: u64| a as i64 - b as i64;
        Delta {
            input: d(after.input, before.input),
            cached_input: d(after.cached_input, before.cached_input),
            cache_creation_input: d(after.cache_creation_input, before.cache_creation_input),
            output: d(after.output, before.output),
            reasoning_output: d(after.reasoning_output, before.reasoning_output),
        }
    }

    /// Adds `o`.
    pub fn add(&mut self, o: &Delta) {
        self.input += o.input;
        self.cached_input += o.cached_input;
        self.cache_creation_input += o.cache_creation_input;
        self.output += o.output;
        self.reasoning_output += o.reasoning_output;
    }

    /// The counts, negative ones shown as 0.
    pub fn usage(&self) -> TokenUsage {
        let c = |v: i64| v.max(0) as u64;
        TokenUsage::new(
            c(self.input),
            c(self.cached_input),
            c(self.cache_creation_input),
            c(self.output),
            c(self.reasoning_output),
        )
    }

    /// `input + output`.
    pub fn total(&self) -> i64 {
        self.input + self.output
    }

    /// The `i`-th of `n` even parts (integer: the remainder goes to the first parts).
    fn share(&self, i: i64, n: i64) -> Delta {
        let part = |v: i64| v.div_euclid(n) + i64::from(i < v.rem_euclid(n));
        Delta {
            input: part(self.input),
            cached_input: part(self.cached_input),
            cache_creation_input: part(self.cache_creation_input),
            output: part(self.output),
            reasoning_output: part(self.reasoning_output),
        }
    }
}

/// What one `token_usage` event adds.
#[derive(Debug, Clone, PartialEq)]
pub struct Counted {
    /// The tokens it adds to the session's totals.
    pub delta: Delta,
    /// The prompt size class of its request (from the request's whole input).
    pub class: PromptClass,
    /// Whether it starts a new request (not a repeat of the previous message's usage).
    pub new_request: bool,
}

/// Turns usage events into [`Counted`] parts; see the module notes.
#[derive(Debug, Clone, Default)]
pub struct UsageWalker {
    acc: TokenAccumulator,
    last_message: Option<String>,
}

impl UsageWalker {
    /// A walker continuing from `acc`, the accumulator of the events already counted (when
    /// the indexer resumes an appended file).
    pub fn resume(acc: TokenAccumulator) -> Self {
        let last_message = acc.open_message().map(str::to_string);
        UsageWalker { acc, last_message }
    }

    /// What `ev` adds, if it reports usage.
    pub fn count(&mut self, ev: &Event) -> Option<Counted> {
        let usage = ev.tokens.as_ref()?;
        let before = self.acc.total();
        self.acc.push(usage, ev.message_id.as_deref());
        let new_request = ev.message_id.is_none() || ev.message_id != self.last_message;
        self.last_message.clone_from(&ev.message_id);
        Some(Counted {
            delta: Delta::between(&before, &self.acc.total()),
            class: prompt_class(usage.input),
            new_request,
        })
    }
}

/// Tokens and estimated cost of a group of requests.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tally {
    /// The tokens.
    pub tokens: Delta,
    /// Estimated USD of the tokens whose model has a price.
    pub cost_usd: f64,
    /// Tokens (`input + output`) whose model has no price: not in `cost_usd`.
    pub unpriced_tokens: i64,
    /// Model requests (streamed repeats of one message count once).
    pub requests: u32,
}

impl Tally {
    /// Adds a counted usage event of `model`.
    pub fn add(&mut self, prices: &PriceTable, model: Option<&str>, c: &Counted) {
        self.add_tokens(prices, model, c.class, &c.delta);
        self.requests += u32::from(c.new_request);
    }

    /// Adds tokens `d` of `model`, from requests of prompt class `class`.
    pub fn add_tokens(
        &mut self,
        prices: &PriceTable,
        model: Option<&str>,
        class: PromptClass,
        d: &Delta,
    ) {
        self.tokens.add(d);
        match prices.cost_signed(model, class, d) {
            Some(c) => self.cost_usd += c,
            None => self.unpriced_tokens += d.total(),
        }
    }

    /// Adds another tally.
    pub fn merge(&mut self, o: &Tally) {
        self.tokens.add(&o.tokens);
        self.cost_usd += o.cost_usd;
        self.unpriced_tokens += o.unpriced_tokens;
        self.requests += o.requests;
    }

    /// The estimated cost; `None` when the tokens are all of models without a price.
    pub fn cost(&self) -> Option<f64> {
        if self.unpriced_tokens > 0 && self.unpriced_tokens >= self.tokens.total() {
            None
        } else {
            Some(self.cost_usd)
        }
    }

    /// The `i`-th of `n` even parts (see the module notes).
    fn share(&self, i: usize, n: usize) -> Tally {
        let (i, n) = (i as i64, n as i64);
        Tally {
            tokens: self.tokens.share(i, n),
            cost_usd: self.cost_usd / n as f64,
            unpriced_tokens: self.unpriced_tokens.div_euclid(n)
                + i64::from(i < self.unpriced_tokens.rem_euclid(n)),
            requests: 0,
        }
    }
}

impl PriceTable {
    /// Cost in USD of a signed part (see [`Delta`]); `None` when the model is unknown. Costs
    /// are linear in the counts, so the parts of one message sum to the price of its last line.
    pub fn cost_signed(&self, model: Option<&str>, class: PromptClass, d: &Delta) -> Option<f64> {
        let r = self.find(model?)?.rates_for(class);
        let fresh = d.input - d.cached_input - d.cache_creation_input;
        Some(
            (fresh as f64 * r.input
                + d.cached_input as f64 * r.cached_input
                + d.cache_creation_input as f64 * r.cache_write
                + d.output as f64 * r.output)
                / 1e6,
        )
    }
}

/// Where a tool-attributed part of a session's tokens went.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ToolKey {
    /// Calls of this tool (`None`: the log names no tool).
    Tool(Option<String>),
    /// Steps that called no tool (text or reasoning only).
    NoToolCall,
    /// Usage logged outside any step.
    OutsideSteps,
}

/// A session's tokens and estimated cost, whole and broken down.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SessionCosts {
    /// The whole session.
    pub total: Tally,
    /// Per model (`None`: the log names none), most expensive first; models without tokens are
    /// left out.
    pub by_model: Vec<(Option<String>, Tally)>,
    /// Per tool, with the number of calls, most expensive first.
    pub by_tool: Vec<(ToolKey, Tally, u32)>,
}

/// The costs of one session from its events and their turns (see the module notes).
pub fn session_costs(prices: &PriceTable, events: &[Event], turns: &[Turn]) -> SessionCosts {
    let mut walker = UsageWalker::default();
    let mut total = Tally::default();
    let mut by_model: HashMap<Option<String>, Tally> = HashMap::new();
    let mut by_step: HashMap<(u32, u32), Tally> = HashMap::new();
    let mut outside = Tally::default();
    for ev in events {
        let Some(c) = walker.count(ev) else { continue };
        let model = ev.model.as_deref();
        total.add(prices, model, &c);
        by_model
            .entry(ev.model.clone())
            .or_default()
            .add(prices, model, &c);
        match ev.step {
            Some(step) => by_step
                .entry((ev.turn, step))
                .or_default()
                .add(prices, model, &c),
            None => outside.add(prices, model, &c),
        }
    }
    let mut by_tool: HashMap<ToolKey, (Tally, u32)> = HashMap::new();
    for turn in turns {
        for step in &turn.steps {
            // A step without usage still counts its calls, with no tokens.
            let none = Tally::default();
            let t = by_step.get(&(turn.index, step.index)).unwrap_or(&none);
            if step.tool_calls.is_empty() {
                if *t == none {
                    continue;
                }
                let slot = by_tool.entry(ToolKey::NoToolCall).or_default();
                slot.0.merge(t);
                continue;
            }
            let n = step.tool_calls.len();
            for (i, call) in step.tool_calls.iter().enumerate() {
                let slot = by_tool.entry(ToolKey::Tool(call.name.clone())).or_default();
                let mut part = t.share(i, n);
                // A step's requests count once, with its first call.
                part.requests = if i == 0 { t.requests } else { 0 };
                slot.0.merge(&part);
                slot.1 += 1;
            }
        }
    }
    if outside.tokens != Delta::default() || outside.requests > 0 {
        by_tool.insert(ToolKey::OutsideSteps, (outside, 0));
    }
    let by_cost = |a: &Tally, b: &Tally| {
        b.cost_usd
            .total_cmp(&a.cost_usd)
            .then(b.tokens.total().cmp(&a.tokens.total()))
    };
    // A model whose requests report no tokens (Claude's `<synthetic>` messages) is no cost line.
    let mut by_model: Vec<_> = by_model
        .into_iter()
        .filter(|(_, t)| t.tokens != Delta::default())
        .collect();
    by_model.sort_by(|a, b| by_cost(&a.1, &b.1).then_with(|| a.0.cmp(&b.0)));
    let mut by_tool: Vec<_> = by_tool.into_iter().map(|(k, (t, n))| (k, t, n)).collect();
    by_tool.sort_by(|a, b| by_cost(&a.1, &b.1).then_with(|| a.0.cmp(&b.0)));
    SessionCosts {
        total,
        by_model,
        by_tool,
    }
}
