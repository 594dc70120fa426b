//! The crates `vendor/` holds in place of crates.io's (`[patch.crates-io]` in the workspace's
//! manifest and in a validator's: vendor/README.md). Shared with `build.rs`, which packs
//! their sources into the `schemac` binary.

/// Each vendored crate's name, which is also its folder under `vendor/`.
pub const VENDORED_CRATES: &[&str] = &["libyaml-safer", "starlark_syntax", "starlark_derive"];

/// Those of [`VENDORED_CRATES`] only the Starlark interpreter uses: a validator built without
/// it patches only the others (cargo warns of a patch it does not use).
pub const STARLARK_CRATES: &[&str] = &["starlark_syntax", "starlark_derive"];
