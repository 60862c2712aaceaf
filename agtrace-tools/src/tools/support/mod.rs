//! What the trace tools share: wire types, error mapping, text shortening, page budgets and
//! the one way to call the (blocking) store from async code.

pub(crate) mod actions;
pub(crate) mod budget;
pub mod costs;
pub mod errors;
pub(crate) mod text;
pub mod wire;

pub(crate) use budget::{fit_items, json_len, page_budget};
pub(crate) use errors::{blocking, blocking_on_session, parse_time};
pub(crate) use text::Excerpt;
pub(crate) use wire::timestamp;
pub use wire::{EventType, TokenTotals};
