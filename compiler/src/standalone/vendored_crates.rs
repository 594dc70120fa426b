//! The crates `vendor/` holds in place of crates.io's (`[patch.crates-io]` in the workspace's
//! manifest and in a validator's: vendor/README.md). Shared with `build.rs`, which packs
//! their sources into the `schemac` binary.

/// Each vendored crate's name, which is also its folder under `vendor/`.
pub const VENDORED_CRATES: &[&str] = &["starlark_syntax", "starlark_derive"];
