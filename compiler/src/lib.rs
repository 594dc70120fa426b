//! schemac: compile Carvel ytt data-values schemas into fast validators.

pub mod check;
pub mod export;
pub mod lower;
