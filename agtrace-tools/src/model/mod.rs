//! The normalized vocabulary every provider is translated into: events, providers, token
//! usage, and the assembly of events into turns and steps. The bottom layer: it depends on no
//! other module of the crate, except for [`Provider`], which the provider table defines.

mod event;
mod provider;
mod tokens;
mod turns;

pub use event::{Event, EventKind, RESULT_TEXT_KEPT, SourceSpan};
pub(crate) use event::{parse_ts, ts_from_ms};
pub use provider::{Provider, project_hash};
pub use tokens::{TokenAccumulator, TokenUsage};
pub(crate) use turns::Positioner;
pub use turns::{Step, ToolCallSummary, Turn, assemble};
