//! schemac: compile Carvel ytt data-values schemas into fast validators.

pub mod check;
pub mod codegen;
pub mod export;
pub mod lower;
pub mod macro_support;
pub mod rules;
#[cfg(feature = "cli")]
pub mod standalone;
