//! `include_schema!` — typed, validated ytt data values for Rust services.
//!
//! Not implemented yet: the macro arrives with the codegen back end (see the project's issues).
//! The crate exists so that the workspace layout is final.
