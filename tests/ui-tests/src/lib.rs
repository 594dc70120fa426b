//! Nothing: this crate holds `include_schema!`'s trybuild cases (`tests/ui.rs`, `ui/`).
