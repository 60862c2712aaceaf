//! The project identity the providers share. (The agents themselves, [`Provider`], are listed
//! once, in the provider table of [`crate::providers`].)

use sha2::{Digest, Sha256};

pub use crate::providers::Provider;

/// Lower-case hex sha256 of a project root path, as Gemini names its project directories,
/// so that the providers agree on a project's identity.
pub fn project_hash(root: &str) -> String {
    let digest = Sha256::digest(root.as_bytes());
    let mut out = String::with_capacity(64);
    for b in digest {
        out.push_str(&format!("{b:02x}"));
    }
    out
}
