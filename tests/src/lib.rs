//! Workspace-level integration tests live in `tests/tests/`; the fuzz targets they share with
//! `fuzz/` live here.

pub mod fuzz;
