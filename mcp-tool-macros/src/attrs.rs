//! Attribute values read the same way by both macros.

use crate::model::Allow;
use std::collections::HashMap;
use syn::{Ident, LitStr};

/// The `allow(lint = "reason", ..)` list as darling reads it, in a stable order (by lint name),
/// so that errors and registered exceptions come out the same on every build.
pub fn allows(map: HashMap<Ident, LitStr>) -> Vec<Allow> {
    let mut allows: Vec<Allow> = map
        .into_iter()
        .map(|(lint, reason)| Allow { lint, reason })
        .collect();
    allows.sort_by_key(Allow::lint_name);
    allows
}
