//! The reader's budgets, raised by environment variables.

use crate::budget_vars as vars;

/// Collections nested in one another (ytt reads 1,000 and more).
pub const DEFAULT_MAX_DEPTH: usize = vars::MAX_DEPTH.default_size();
pub const DEPTH_VAR: &str = vars::MAX_DEPTH.name;
/// Nodes that aliases copy in one file.
pub const DEFAULT_MAX_ALIAS_NODES: usize = vars::MAX_ALIAS_NODES.default_size();
pub const ALIAS_VAR: &str = vars::MAX_ALIAS_NODES.name;
/// Bytes of text (scalars' strings) that aliases copy in one file: a 1 MB string aliased
/// 10,000 times is 10,000 nodes but 10 GB (an abort).
pub const DEFAULT_MAX_ALIAS_BYTES: usize = vars::MAX_ALIAS_BYTES.default_size();
pub const ALIAS_BYTES_VAR: &str = vars::MAX_ALIAS_BYTES.name;

/// Bytes of one input file (what the pipeline holds of a file is tens of times its size).
pub const DEFAULT_MAX_INPUT_BYTES: usize = vars::MAX_INPUT_BYTES.default_size();
pub const INPUT_VAR: &str = vars::MAX_INPUT_BYTES.name;

/// Bytes read again to find the double-quoted scalars that hold the escape `\'` (one more
/// scan of the text up to each such scalar: see `yaml::apostrophe`).
pub const DEFAULT_MAX_REREAD_BYTES: usize = vars::MAX_REREAD_BYTES.default_size();
pub const REREAD_VAR: &str = vars::MAX_REREAD_BYTES.name;

pub fn max_input_bytes() -> usize {
    static V: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *V.get_or_init(|| vars::MAX_INPUT_BYTES.get_size())
}

pub fn max_reread_bytes() -> usize {
    static V: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *V.get_or_init(|| vars::MAX_REREAD_BYTES.get_size())
}

/// The error of a text read again past [`max_reread_bytes`] to patch `what`, at the
/// 1-based `line`.
pub fn reread_exceeded(what: &str, line: usize) -> super::SyntaxError {
    super::SyntaxError {
        line: u32::try_from(line).unwrap_or(u32::MAX),
        message: format!(
            "{what}: reading the text again passed {} bytes (raise the budget with {REREAD_VAR})",
            max_reread_bytes()
        ),
        strict: None,
    }
}

pub fn max_depth() -> usize {
    static V: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *V.get_or_init(|| vars::MAX_DEPTH.get_size())
}

/// How deep a reader nests collections, and the variable that raises it (its error names
/// both).
#[derive(Clone, Copy, Debug)]
pub struct Depth {
    pub levels: usize,
    pub var: &'static str,
}

impl Depth {
    /// Files and flags' values: [`max_depth`].
    pub fn files() -> Depth {
        Depth {
            levels: max_depth(),
            var: DEPTH_VAR,
        }
    }

    /// Text that `yaml.decode` makes a Starlark value: as deep as such values go
    /// ([`max_value_depth`]; ytt decodes 20,000 levels in 7 s, and runs past a minute on
    /// 100,000).
    pub fn starlark_values() -> Depth {
        Depth {
            levels: max_value_depth(),
            var: VALUE_DEPTH_VAR,
        }
    }
}

/// Starlark values nested in one another (lists of lists...), as templates make them and
/// `str`, `json.encode` and the conversion to YAML go through them; deeper than YAML
/// reads (ytt handles values 5,000 deep), within what the 512 MiB stack takes.
pub const DEFAULT_MAX_VALUE_DEPTH: usize = vars::MAX_VALUE_DEPTH.default_size();
pub const VALUE_DEPTH_VAR: &str = vars::MAX_VALUE_DEPTH.name;

pub fn max_value_depth() -> usize {
    static V: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *V.get_or_init(|| vars::MAX_VALUE_DEPTH.get_size())
}

pub fn max_alias_nodes() -> usize {
    static V: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *V.get_or_init(|| vars::MAX_ALIAS_NODES.get_size())
}

pub fn max_alias_bytes() -> usize {
    static V: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *V.get_or_init(|| vars::MAX_ALIAS_BYTES.get_size())
}
