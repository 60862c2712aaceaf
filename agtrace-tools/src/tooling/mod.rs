//! What the trace tools share: wire enums, error mapping, text shortening, page budgets and
//! the one way to call the (blocking) store from async code.

pub mod actions;
pub mod budget;
pub mod errors;
pub mod text;
pub mod wire;

pub use budget::{fit_items, json_len, page_budget};
pub use errors::{blocking, parse_time, tool_error};
pub use text::Excerpt;
pub use wire::{EventType, Provider, TokenTotals, timestamp};
