//! Exports of the schema IR to other formats.

pub mod openapi;
