//! The rules, one file each, and the table that declares them.
//!
//! Adding a lint is one rule file here (its check, word lists and unit tests), one line in
//! [`declare_lints!`]'s table below, one UI pair in `tests/ui` and one section in
//! `docs/lints.md`. The table gives the [`Lint`] enum, [`Lint::ALL`], the names and a short
//! doc per lint; the order of the table is the order of the docs and of findings on one item.

use crate::{Args, Finding, Level, Origin, Param, Report, Target, Tool};

/// Declares the lints: the rule modules, the [`Lint`] enum with one variant per row, and the
/// name (the module's name) and summary (the row's doc) of each.
macro_rules! declare_lints {
    ($( #[doc = $summary:literal] $module:ident => $Variant:ident; )*) => {
        $( pub(crate) mod $module; )*

        /// A design lint. Its [`Lint::name`] is stable: error messages, `allow(..)` and the
        /// docs use it.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Lint {
            $(
                #[doc = concat!("`", stringify!($module), "`:", $summary)]
                $Variant,
            )*
        }

        impl Lint {
            /// Every lint, in the order of the table in `docs/lints.md`.
            pub const ALL: [Lint; [$(stringify!($Variant)),*].len()] = [$(Lint::$Variant),*];

            /// The stable snake_case name: what error messages, `allow(..)` and the docs use.
            pub fn name(self) -> &'static str {
                match self {
                    $( Lint::$Variant => stringify!($module), )*
                }
            }

            /// What the lint rejects, in a few words (the table of `docs/lints.md`).
            pub fn summary(self) -> &'static str {
                match self {
                    $( Lint::$Variant => $summary.trim_ascii(), )*
                }
            }

            pub(crate) fn rule(self) -> &'static Rule {
                match self {
                    $( Lint::$Variant => &$module::RULE, )*
                }
            }
        }
    };
}

declare_lints! {
    /// more than 8 parameters
    too_many_params => TooManyParams;
    /// a `String` whose doc shows a closed set of values, or whose name cannot be open
    closed_domain_string => ClosedDomainString;
    /// a string that holds a JSON document
    json_string => JsonString;
    /// a parameter whose meaning depends on another one, or an untagged union
    hidden_coupling => HiddenCoupling;
    /// a bool that switches the shape of the response
    mode_toggle => ModeToggle;
    /// a tool, parameter or enum value without a doc comment
    missing_description => MissingDescription;
    /// a default that the schema does not show
    implicit_default => ImplicitDefault;
    /// a result count without `max`
    unbounded_limit => UnboundedLimit;
    /// a `cursor` without a `Page` output, or the reverse
    pagination_mismatch => PaginationMismatch;
    /// names about the implementation (`pattern`, `data`) or that say nothing (`do_it`)
    vague_name => VagueName;
    /// a malformed tool name, or one that names an object but no action
    tool_name => ToolName;
    /// annotations that contradict each other or the tool's verb
    annotation_conflict => AnnotationConflict;
    /// `deny_unknown_fields`, which the schema cannot tell clients
    false_strictness => FalseStrictness;
    /// a tool description over its token budget
    description_budget => DescriptionBudget;
}

impl Lint {
    /// The least its findings are reported as, by origin: a rule's own evidence may make a
    /// finding advice below that, never an error above it.
    ///
    /// On a schema (another server's catalog) a lint is an error only where its precision on
    /// servers it was not tuned on is at least 90% (`docs/lints.md`, from
    /// `cargo run -p mcp-tool-lint-cli --example lint_eval`). In code the author controls the
    /// names and docs the rules read, so each plain breach of a stated rule is an error;
    /// `description_budget` stays advice there, as its token count is an estimate.
    pub fn level(self, origin: Origin) -> Level {
        use Lint::*;
        match (origin, self) {
            (_, DescriptionBudget) => Level::Advice,
            (Origin::Code, _) => Level::Error,
            (
                Origin::Schema,
                ClosedDomainString | JsonString | HiddenCoupling | ModeToggle | ImplicitDefault
                | UnboundedLimit | PaginationMismatch | VagueName,
            ) => Level::Advice,
            (
                Origin::Schema,
                TooManyParams | MissingDescription | ToolName | AnnotationConflict
                | FalseStrictness,
            ) => Level::Error,
        }
    }
}

/// Lowers each finding to at least its lint's level for `origin`.
pub(crate) fn settle_levels(origin: Origin, findings: &mut [Finding]) {
    for f in findings {
        if let Some(lint) = f.lint {
            f.level = f.level.max(lint.level(origin));
        }
    }
}

/// What a rule checks, by scope; a rule fills the hooks it needs.
pub(crate) struct Rule {
    /// Runs on each parameter, in declaration order.
    pub param: Option<fn(&ParamCx<'_>, &mut Vec<Finding>)>,
    /// Runs once on the whole arguments, after every parameter.
    pub args: Option<fn(&Args, &mut Vec<Finding>)>,
    /// Runs once on the tool.
    pub tool: Option<fn(&ToolCx<'_>, &mut Vec<Finding>)>,
}

impl Rule {
    /// No hooks: the base of a rule's `RULE`, and the whole of a rule checked elsewhere.
    pub(crate) const NONE: Rule = Rule {
        param: None,
        args: None,
        tool: None,
    };
}

/// One parameter, with what a rule needs to know of its siblings.
pub(crate) struct ParamCx<'a> {
    /// Where its findings point.
    pub target: Target,
    pub param: &'a Param,
    pub args: &'a Args,
    /// The names of every parameter, this one included.
    pub names: &'a [&'a str],
    /// Its description, unless missing or blank.
    pub doc: Option<&'a str>,
}

/// The tool, with the description budget it is checked against.
pub(crate) struct ToolCx<'a> {
    pub tool: &'a Tool,
    /// Its description, unless missing or blank.
    pub doc: Option<&'a str>,
    /// `description_budget`'s limit, in estimated tokens.
    pub budget: usize,
}

/// A doc that says something: `None` when missing or blank.
pub(crate) fn described(doc: &Option<String>) -> Option<&str> {
    doc.as_deref().map(str::trim).filter(|d| !d.is_empty())
}

/// `` `a`, `b` `` for messages.
pub(crate) fn quote_list<S: AsRef<str>>(values: &[S]) -> String {
    values
        .iter()
        .map(|v| format!("`{}`", v.as_ref()))
        .collect::<Vec<_>>()
        .join(", ")
}

pub(crate) fn check_args(args: &Args) -> Report {
    let mut findings = Vec::new();
    let names: Vec<&str> = args.params.iter().map(|p| p.name.as_str()).collect();
    for (i, param) in args.params.iter().enumerate() {
        let cx = ParamCx {
            target: Target::Param(i),
            param,
            args,
            names: &names,
            doc: described(&param.description),
        };
        for lint in Lint::ALL {
            if let Some(check) = lint.rule().param {
                check(&cx, &mut findings);
            }
        }
    }
    for lint in Lint::ALL {
        if let Some(check) = lint.rule().args {
            check(args, &mut findings);
        }
    }
    settle_levels(args.origin, &mut findings);
    let mut report = Report {
        findings,
        accepted_allows: Vec::new(),
    };
    let mut scopes: Vec<(Option<usize>, &[crate::Allow])> = vec![(None, args.allows.as_slice())];
    scopes.extend(
        args.params
            .iter()
            .enumerate()
            .map(|(i, p)| (Some(i), p.allows.as_slice())),
    );
    crate::allow::apply_allows(&mut report, &scopes, Target::Args, true);
    report
}

pub(crate) fn check_tool(tool: &Tool, budget: usize) -> Report {
    let cx = ToolCx {
        tool,
        doc: described(&tool.description),
        budget,
    };
    let mut findings = Vec::new();
    for lint in Lint::ALL {
        if let Some(check) = lint.rule().tool {
            check(&cx, &mut findings);
        }
    }
    settle_levels(tool.origin, &mut findings);
    let mut report = Report {
        findings,
        accepted_allows: Vec::new(),
    };
    crate::allow::apply_allows(
        &mut report,
        &[(None, tool.allows.as_slice())],
        Target::Tool,
        false,
    );
    report
}
