//! Placeholder until the emitter lands.
use crate::value::Value;
pub fn to_json(_value: &Value) -> String { String::new() }
