//! Hand-written text helpers that several rules share: splitting names, reading docs, verbs.
//!
//! A false positive is a compile error in a user's crate, so the rules built on these helpers
//! demand concrete evidence (a cue word, quoted values, a sibling parameter's name) rather than
//! a loose keyword. Word lists that only one rule uses live in that rule's file.

pub(crate) mod identifiers;
pub(crate) mod sentences;
pub(crate) mod tokens;
pub(crate) mod verbs;
