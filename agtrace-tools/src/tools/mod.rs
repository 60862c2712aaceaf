//! The trace tools, one file each. `build.rs` declares every file of this folder as a module:
//! a new tool is a new file, nothing else to edit. What they share is in [`support`].

pub mod support;

include!(concat!(env!("OUT_DIR"), "/tool_modules.rs"));
