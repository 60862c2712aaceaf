//! Runs every lint over a catalog and applies the allows.

use mcp_tool_lint::Level;
use serde_json::Value;

use crate::allow::{Allow, AllowUse};
use crate::catalog::Catalog;
use crate::rules;

/// One broken rule, located in the catalog.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// An error fails the run (exit 1); advice is a `note` unless `--deny-advice`.
    pub level: Level,
    /// The lint's stable name (one of [`rules::all`]).
    pub lint: &'static str,
    /// The tools it is about, in catalog order: one for a per-tool finding, two for a pair
    /// of alike tools, none for the catalog as a whole.
    pub tools: Vec<String>,
    /// The parameter it is about, for a per-parameter finding.
    pub param: Option<String>,
    /// What is wrong (without the `[lint]` prefix).
    pub message: String,
    /// The fix, as a sentence.
    pub help: String,
}

impl Finding {
    /// Advice about the catalog as a whole (no tool, no parameter).
    pub(crate) fn catalog_advice(lint: &'static str, message: String, help: String) -> Self {
        Finding {
            level: Level::Advice,
            lint,
            tools: Vec::new(),
            param: None,
            message,
            help,
        }
    }

    /// The logical locations, `tool` or `tool/param`; `["(catalog)"]` for the catalog.
    pub fn locations(&self) -> Vec<String> {
        if self.tools.is_empty() {
            return vec!["(catalog)".into()];
        }
        self.tools
            .iter()
            .map(|t| match &self.param {
                Some(p) => format!("{t}/{p}"),
                None => t.clone(),
            })
            .collect()
    }
}

/// What a run found.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The findings left after the allows: per tool in catalog order, then the catalog's.
    pub findings: Vec<Finding>,
    /// Every allow with how many findings it silenced.
    pub allows: Vec<AllowUse>,
    /// The o200k tokens of the catalog's input side.
    pub tokens: usize,
    /// The budget they were held to.
    pub token_budget: usize,
}

impl Outcome {
    /// 1 when an error was found (or any finding, with `deny_advice`), else 0.
    pub fn exit_code(&self, deny_advice: bool) -> u8 {
        u8::from(
            self.findings
                .iter()
                .any(|f| deny_advice || f.level == Level::Error),
        )
    }
}

/// Every finding of every lint on `catalog`, minus those `allows` silence.
pub fn check(catalog: &Catalog, allows: &[Allow], token_budget: usize) -> Outcome {
    let mut findings: Vec<Finding> = catalog
        .tools
        .iter()
        .flat_map(rules::tool_design::check)
        .collect();
    findings.extend(rules::probed_strictness::check(catalog));
    let tools: Vec<&Value> = catalog.tools.iter().collect();
    findings.extend(rules::inconsistent_naming::check(&tools));
    findings.extend(rules::indistinct_tools::check(&tools));
    findings.extend(rules::unannotated_destructive::check(&tools));
    let costs = rules::catalog_tokens::costs(&tools);
    let tokens = costs.iter().sum();
    findings.extend(rules::catalog_tokens::check(&tools, &costs, token_budget));
    let mut uses: Vec<AllowUse> = allows
        .iter()
        .map(|a| AllowUse {
            allow: a.clone(),
            suppressed: 0,
        })
        .collect();
    findings.retain(|f| match uses.iter_mut().find(|u| u.allow.matches(f)) {
        Some(u) => {
            u.suppressed += 1;
            false
        }
        None => true,
    });
    Outcome {
        findings,
        allows: uses,
        tokens,
        token_budget,
    }
}
