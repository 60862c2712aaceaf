//! Estimated cost of token usage, from the price table in `data/prices.toml`.
//!
//! The table is compiled in and parsed once; [`prices`] returns it. A model is priced when its
//! id, normalized by [`normalize_model_id`], is one of a table entry's `ids`. A model that is
//! not in the table has no price: its cost is unknown, never 0.
//!
//! Prompt-size tiers: some providers bill every token of a request at higher rates when its
//! prompt is long. The index cannot keep each request, so it keeps the request's
//! [`PromptClass`] (how many of [`PROMPT_BOUNDS`] its prompt exceeds); a tier's bound must be one
//! of those bounds, which the table's validation checks.

use std::sync::OnceLock;

use serde::Deserialize;

use crate::model::TokenUsage;

pub mod attribution;

/// The price table as shipped.
pub const PRICES_TOML: &str = include_str!("../../data/prices.toml");

/// Prompt sizes (input tokens of one request, cached part included) at which a provider's
/// long-context rates can start.
pub const PROMPT_BOUNDS: [u64; 3] = [100_000, 200_000, 272_000];

/// How many of [`PROMPT_BOUNDS`] a request's prompt exceeds (0 to 3).
pub type PromptClass = u8;

/// The [`PromptClass`] of a request with `input` prompt tokens.
pub fn prompt_class(input: u64) -> PromptClass {
    PROMPT_BOUNDS.iter().filter(|b| input > **b).count() as PromptClass
}

/// USD per million tokens of each kind.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rates {
    /// Input not read from or written to the prompt cache.
    pub input: f64,
    /// Input read from the prompt cache.
    pub cached_input: f64,
    /// Input written to the prompt cache.
    pub cache_write: f64,
    /// Output, reasoning included.
    pub output: f64,
}

impl Rates {
    /// Cost in USD of `u` at these rates.
    pub fn cost(&self, u: &TokenUsage) -> f64 {
        let fresh = u
            .input
            .saturating_sub(u.cached_input)
            .saturating_sub(u.cache_creation_input);
        (fresh as f64 * self.input
            + u.cached_input as f64 * self.cached_input
            + u.cache_creation_input as f64 * self.cache_write
            + u.output as f64 * self.output)
            / 1e6
    }

    fn all(&self) -> [f64; 4] {
        [self.input, self.cached_input, self.cache_write, self.output]
    }
}

/// Rates for requests whose prompt is over `above_input_tokens`.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LongContext {
    /// The prompt size above which these rates apply; one of [`PROMPT_BOUNDS`].
    pub above_input_tokens: u64,
    /// See [`Rates::input`].
    pub input: f64,
    /// See [`Rates::cached_input`].
    pub cached_input: f64,
    /// See [`Rates::cache_write`].
    pub cache_write: f64,
    /// See [`Rates::output`].
    pub output: f64,
}

impl LongContext {
    /// The rates.
    pub fn rates(&self) -> Rates {
        Rates {
            input: self.input,
            cached_input: self.cached_input,
            cache_write: self.cache_write,
            output: self.output,
        }
    }
}

/// One entry of the table: a model family sharing one price.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelPrice {
    /// Display name.
    pub name: String,
    /// Normalized model ids (see [`normalize_model_id`]).
    pub ids: Vec<String>,
    /// See [`Rates::input`].
    pub input: f64,
    /// See [`Rates::cached_input`].
    pub cached_input: f64,
    /// See [`Rates::cache_write`].
    pub cache_write: f64,
    /// See [`Rates::output`].
    pub output: f64,
    /// Where the numbers were read.
    pub source: String,
    /// Higher rates for long prompts, where the provider has them.
    pub long_context: Option<LongContext>,
}

impl ModelPrice {
    /// The standard rates.
    pub fn rates(&self) -> Rates {
        Rates {
            input: self.input,
            cached_input: self.cached_input,
            cache_write: self.cache_write,
            output: self.output,
        }
    }

    /// The rates for a request of prompt class `class`.
    pub fn rates_for(&self, class: PromptClass) -> Rates {
        match &self.long_context {
            // A prompt of exactly the bound has the class below the tier's.
            Some(l) if class > prompt_class(l.above_input_tokens) => l.rates(),
            _ => self.rates(),
        }
    }
}

/// The whole table.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PriceTable {
    /// The day the prices were checked (YYYY-MM-DD).
    pub date: String,
    /// Always "USD".
    pub currency: String,
    /// The entries.
    #[serde(rename = "model")]
    pub models: Vec<ModelPrice>,
}

impl PriceTable {
    /// Parses and validates a table.
    pub fn parse(text: &str) -> Result<Self, String> {
        let table: PriceTable = toml::from_str(text).map_err(|e| e.to_string())?;
        table.validate()?;
        Ok(table)
    }

    fn validate(&self) -> Result<(), String> {
        if chrono::NaiveDate::parse_from_str(&self.date, "%Y-%m-%d").is_err() {
            return Err(format!("date '{}' is not YYYY-MM-DD", self.date));
        }
        if self.currency != "USD" {
            return Err(format!(
                "currency '{}': only USD is supported",
                self.currency
            ));
        }
        let mut seen = std::collections::HashSet::new();
        for m in &self.models {
            let bad_rate = m
                .rates()
                .all()
                .into_iter()
                .chain(m.long_context.iter().flat_map(|l| l.rates().all()));
            if bad_rate.into_iter().any(|r| !r.is_finite() || r < 0.0) {
                return Err(format!("{}: a rate is negative or not a number", m.name));
            }
            if !m.source.starts_with("https://") {
                return Err(format!("{}: source must be an https URL", m.name));
            }
            if m.ids.is_empty() {
                return Err(format!("{}: no ids", m.name));
            }
            if let Some(l) = &m.long_context
                && !PROMPT_BOUNDS.contains(&l.above_input_tokens)
            {
                return Err(format!(
                    "{}: above_input_tokens {} is not one of {PROMPT_BOUNDS:?}",
                    m.name, l.above_input_tokens
                ));
            }
            for id in &m.ids {
                if normalize_model_id(id) != *id {
                    return Err(format!(
                        "{}: id '{id}' is not normalized (expected '{}')",
                        m.name,
                        normalize_model_id(id)
                    ));
                }
                if !seen.insert(id.as_str()) {
                    return Err(format!("id '{id}' is listed twice"));
                }
            }
        }
        Ok(())
    }

    /// The entry pricing `model` (any spelling a log uses), if any.
    pub fn find(&self, model: &str) -> Option<&ModelPrice> {
        let id = normalize_model_id(model);
        self.models.iter().find(|m| m.ids.contains(&id))
    }

    /// Cost in USD of `usage` made by `model` in requests of prompt class `class`; `None` when
    /// the model is unknown.
    pub fn cost(&self, model: Option<&str>, class: PromptClass, usage: &TokenUsage) -> Option<f64> {
        Some(self.find(model?)?.rates_for(class).cost(usage))
    }
}

/// The table shipped in `data/prices.toml`.
pub fn prices() -> &'static PriceTable {
    static TABLE: OnceLock<PriceTable> = OnceLock::new();
    // Validated by the unit tests: a table that does not parse fails the build's tests.
    TABLE.get_or_init(|| PriceTable::parse(PRICES_TOML).expect("data/prices.toml is valid"))
}

/// A model id as the table lists it: lowercase, without provider prefix (`models/`,
/// `openai/`, `anthropic.`, `google.`), Vertex `@date`, Bedrock `-v1:0`, a `[1m]` context tag,
/// or a trailing date (`-20250929`, `-2025-08-07`, `-06-05`) or `-latest`.
pub fn normalize_model_id(model: &str) -> String {
    let mut id = model.trim().to_ascii_lowercase();
    if let Some(i) = id.rfind('/') {
        id = id[i + 1..].to_string();
    }
    for vendor in [
        "anthropic.",
        "google.",
        "openai.",
        "us.anthropic.",
        "eu.anthropic.",
    ] {
        if let Some(rest) = id.strip_prefix(vendor) {
            id = rest.to_string();
        }
    }
    id = id.replace('@', "-");
    if let Some(i) = id.find('[') {
        id.truncate(i);
    }
    // Bedrock version suffix: `-v1:0`, `-v2:0`.
    if let Some(i) = id.rfind("-v")
        && id[i + 2..]
            .split(':')
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    {
        id.truncate(i);
    }
    strip_date(&id).to_string()
}

/// `id` without a trailing date or `-latest`.
fn strip_date(id: &str) -> &str {
    let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    if let Some(rest) = id.strip_suffix("-latest") {
        return rest;
    }
    let parts: Vec<&str> = id.rsplitn(4, '-').collect();
    // parts[0] is the last segment.
    if parts.len() >= 2 && digits(parts[0], 8) {
        return &id[..id.len() - parts[0].len() - 1];
    }
    if parts.len() >= 4 && digits(parts[2], 4) && digits(parts[1], 2) && digits(parts[0], 2) {
        return &id[..id.len() - 11];
    }
    if parts.len() >= 3 && digits(parts[1], 2) && digits(parts[0], 2) {
        return &id[..id.len() - 6];
    }
    id
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_table_parses_and_validates() {
        let t = PriceTable::parse(PRICES_TOML).unwrap();
        assert!(t.models.len() >= 15);
        for family in [
            "claude-sonnet-4-5",
            "claude-opus-4-5",
            "claude-haiku-4-5",
            "gpt-5",
            "gpt-5.1-codex",
            "gemini-2.5-pro",
            "gemini-3-pro-preview",
            "gemini-2.5-flash",
        ] {
            assert!(t.find(family).is_some(), "{family} has no price");
        }
    }

    #[test]
    fn ids_match_with_dates_prefixes_and_tags() {
        let t = prices();
        let name = |m: &str| t.find(m).map(|p| p.name.as_str());
        assert_eq!(
            name("claude-sonnet-4-5-20250929"),
            name("claude-sonnet-4-5")
        );
        assert_eq!(
            name("claude-sonnet-4-5-20250929"),
            Some("Claude Sonnet 4 to 4.6")
        );
        assert_eq!(
            name("anthropic.claude-sonnet-4-5-20250929-v1:0"),
            Some("Claude Sonnet 4 to 4.6")
        );
        assert_eq!(
            name("claude-sonnet-4-5@20250929"),
            Some("Claude Sonnet 4 to 4.6")
        );
        assert_eq!(name("claude-opus-4-6[1m]"), Some("Claude Opus 4.5 to 4.8"));
        assert_eq!(
            name("claude-opus-4-1-20250805"),
            Some("Claude Opus 4 and 4.1")
        );
        assert_eq!(
            name("claude-opus-4-20250514"),
            Some("Claude Opus 4 and 4.1")
        );
        assert_eq!(name("claude-3-5-haiku-20241022"), Some("Claude Haiku 3.5"));
        assert_eq!(name("models/gemini-2.5-pro"), Some("Gemini 2.5 Pro"));
        assert_eq!(name("gemini-2.5-pro-preview-06-05"), Some("Gemini 2.5 Pro"));
        assert_eq!(
            name("gpt-5-2025-08-07"),
            Some("GPT-5, GPT-5.1 and their Codex models")
        );
        assert_eq!(
            name("openai/gpt-5.1-codex"),
            Some("GPT-5, GPT-5.1 and their Codex models")
        );
        assert_eq!(
            name("GPT-5.1-Codex-Mini"),
            Some("GPT-5 mini and GPT-5.1 Codex mini")
        );
        // Near misses stay unknown rather than borrowing a neighbour's price.
        assert_eq!(name("claude-opus-4-9"), None);
        assert_eq!(name("gpt-5.1-codex-ultra"), None);
        assert_eq!(name("gemini-2.5-pro-x"), None);
        assert_eq!(name(""), None);
    }

    #[test]
    fn costs_split_input_by_cache_use_and_apply_long_context_rates() {
        let t = prices();
        // 1M input of which 600K cache reads and 100K cache writes, 10K output, Sonnet 4.5.
        let u = TokenUsage::new(1_000_000, 600_000, 100_000, 10_000, 2_000);
        let short = t.cost(Some("claude-sonnet-4-5"), 0, &u).unwrap();
        let want = (300_000.0 * 3.0 + 600_000.0 * 0.30 + 100_000.0 * 3.75 + 10_000.0 * 15.0) / 1e6;
        assert!((short - want).abs() < 1e-9, "{short} != {want}");
        let long = t
            .cost(Some("claude-sonnet-4-5"), prompt_class(250_000), &u)
            .unwrap();
        let want_long =
            (300_000.0 * 6.0 + 600_000.0 * 0.60 + 100_000.0 * 7.5 + 10_000.0 * 22.5) / 1e6;
        assert!((long - want_long).abs() < 1e-9);
        // A model without tiers keeps its rates for long prompts.
        assert_eq!(t.cost(Some("gpt-5"), 3, &u), t.cost(Some("gpt-5"), 0, &u));
        assert_eq!(t.cost(Some("no-such-model"), 0, &u), None);
        assert_eq!(t.cost(None, 0, &u), None);
    }

    #[test]
    fn prompt_classes_follow_the_bounds() {
        assert_eq!(prompt_class(0), 0);
        assert_eq!(prompt_class(100_000), 0);
        assert_eq!(prompt_class(100_001), 1);
        assert_eq!(prompt_class(200_001), 2);
        assert_eq!(prompt_class(272_001), 3);
    }

    #[test]
    fn invalid_tables_are_refused_with_the_reason() {
        let entry = |extra: &str| {
            format!(
                "date = \"2026-01-01\"\ncurrency = \"USD\"\n[[model]]\nname = \"m\"\nids = [\"m\"]\ninput = 1.0\ncached_input = 0.1\ncache_write = 1.0\noutput = 2.0\nsource = \"https://x\"\n{extra}"
            )
        };
        assert!(PriceTable::parse(&entry("")).is_ok());
        let err = PriceTable::parse(&entry("[model.long_context]\nabove_input_tokens = 150000\ninput = 1.0\ncached_input = 1.0\ncache_write = 1.0\noutput = 1.0\n")).unwrap_err();
        assert!(err.contains("150000"), "{err}");
        let err = PriceTable::parse(&entry("").replace("2026-01-01", "yesterday")).unwrap_err();
        assert!(err.contains("YYYY-MM-DD"), "{err}");
        let err = PriceTable::parse(&entry("").replace("input = 1.0", "input = -1.0")).unwrap_err();
        assert!(err.contains("negative"), "{err}");
        let err = PriceTable::parse(&entry("").replace("[\"m\"]", "[\"M-20250101\"]")).unwrap_err();
        assert!(err.contains("not normalized"), "{err}");
        let err =
            PriceTable::parse(&entry("").replace("output = 2.0", "outptu = 2.0")).unwrap_err();
        assert!(err.contains("outptu"), "{err}");
    }
}
