//! The environment variables that set schemac's budgets (`SCHEMAC_MAX_DEPTH`,
//! `SCHEMAC_STARLARK_STEPS`, ...): every one of them, with its default, in one table
//! ([`ALL`]), and the one rule they are all read by ([`BudgetVar::parse`]).
//!
//! A value is a whole number written in ASCII digits, spaces and tabs around it ignored
//! (`" 5000 "`); leading zeros are allowed, a sign (`+5`, `-1`), a fraction, an exponent
//! (`1e3`) or separators (`1_000`, `1,000`) are not. `0` is a budget of nothing (for
//! `SCHEMAC_SCHEMA_CACHE_BYTES` it turns the cache off), except where a budget has a least
//! value ([`BudgetVar::at_least`]: Starlark's call depth, which the interpreter cannot set to
//! 0), below which a value is refused as one past the largest is. An unset variable, and one set to
//! nothing (`SCHEMAC_MAX_DEPTH=`, or spaces only), is the default. A value past what the
//! budget's integer holds is refused, never cut down.
//!
//! Budgets are read lazily, deep in the pipeline, once each (into a `OnceLock`): a bad value
//! cannot be reported from there. So every entry point checks them all first, before any
//! work ([`check_env`]): `schemac` (each subcommand), built validators' `main`, the typed API's
//! load functions and `include_schema!`. A bad value stops the run there, with a message
//! naming the variable, its value and what is expected, exit status 2 (a value only schemac
//! takes, as a misspelled flag's value). The lazy readers ([`BudgetVar::get`]) parse the same
//! way; past that check they meet only valid values (a value changed since is read as the
//! default: never a panic).

use std::ffi::OsStr;

/// One budget's variable: its name, its default, the least value it takes and the largest
/// (what its integer holds, or less: see [`BudgetVar::at_most`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BudgetVar {
    pub name: &'static str,
    pub default: u64,
    pub min: u64,
    pub max: u64,
    /// Why the largest value is `max`, when it is less than the integer holds.
    pub max_reason: Option<&'static str>,
}

impl BudgetVar {
    /// A budget held in a `usize` (sizes, depths, counts the pipeline indexes by).
    pub const fn size(name: &'static str, default: usize) -> BudgetVar {
        BudgetVar {
            name,
            default: default as u64,
            min: 0,
            max: usize::MAX as u64,
            max_reason: None,
        }
    }

    /// A budget held in a `u64`.
    pub const fn count(name: &'static str, default: u64) -> BudgetVar {
        BudgetVar {
            name,
            default,
            min: 0,
            max: u64::MAX,
            max_reason: None,
        }
    }

    /// The budget with `min` its least value: a smaller one is refused (see the module's rule).
    pub const fn at_least(self, min: u64) -> BudgetVar {
        BudgetVar { min, ..self }
    }

    /// The budget with `max` its largest value, for `reason`: a larger one is refused.
    pub const fn at_most(self, max: u64, reason: &'static str) -> BudgetVar {
        BudgetVar {
            max,
            max_reason: Some(reason),
            ..self
        }
    }

    /// The budget's default as a `usize` (for [`BudgetVar::size`] budgets).
    pub const fn default_size(&self) -> usize {
        self.default as usize
    }

    /// The budget that `value` (the variable's value, `None` when unset) sets, or the error
    /// naming the variable, the value and what is expected (see the module's rule).
    pub fn parse(&self, value: Option<&OsStr>) -> Result<u64, String> {
        let Some(value) = value else {
            return Ok(self.default);
        };
        let text = value.to_string_lossy();
        let trimmed = text.trim_matches([' ', '\t']);
        if trimmed.is_empty() {
            return Ok(self.default);
        }
        let unset = format!("unset it for the default {}", self.default);
        if !trimmed.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!(
                "{}: {text:?} is not a whole number (digits only; {unset})",
                self.name
            ));
        }
        match trimmed.parse::<u64>() {
            Ok(n) if n < self.min => Err(format!(
                "{}: {text:?} is smaller than the least budget it takes, {} ({unset})",
                self.name, self.min
            )),
            Ok(n) if n <= self.max => Ok(n),
            _ => Err(format!(
                "{}: {text:?} is larger than the largest budget it takes, {} ({}{unset})",
                self.name,
                self.max,
                self.max_reason
                    .map_or(String::new(), |why| format!("{why}; "))
            )),
        }
    }

    /// The variable's budget in the process's environment, or its error.
    pub fn read(&self) -> Result<u64, String> {
        self.parse(std::env::var_os(self.name).as_deref())
    }

    /// The budget in force, for the lazy readers: [`check_env`] has refused a bad value
    /// before any work (one set since is read as the default).
    pub fn get(&self) -> u64 {
        self.read().unwrap_or(self.default)
    }

    /// [`BudgetVar::get`] for a [`BudgetVar::size`] budget.
    pub fn get_size(&self) -> usize {
        usize::try_from(self.get()).unwrap_or(usize::MAX)
    }
}

/// Why a budget of nesting has a ceiling: each level is a frame of a recursive walk on the
/// pipeline's stack (`crate::cli::STACK_BYTES`, 512 MiB), and a stack overflow aborts the
/// process. Each ceiling is about a third to half the depth at which the costliest walk measured
/// overflowed it (`SCHEMAC_MAX_DEPTH`: a map of maps overlaid onto another, 150,000–200,000
/// levels; `SCHEMAC_MAX_VALUE_DEPTH`: `json.encode` and `yaml.encode` of nested lists and data
/// values made of them, about 470,000; `SCHEMAC_STARLARK_EXPRESSION_DEPTH`: nested dict
/// displays, about 155,000; `SCHEMAC_STARLARK_FUNCTION_DEPTH`: nested lambdas, about 51,000;
/// method chains and blocks ran at 50,000 and 20,000 without overflowing, taking seconds;
/// `SCHEMAC_STARLARK_CALL_DEPTH`: a recursive rule, between 1,000,000 and 2,000,000 calls, also
/// when each level went through `sorted(key=...)`, and the interpreter reserves 16 bytes a call
/// before the first one: 2^31 aborted, failing to allocate 32 GiB).
const STACK: &str = "a deeper one overflows the stack";

/// Collections nested in one another in files and flags' values (ytt reads 1,000 and more).
pub const MAX_DEPTH: BudgetVar = BudgetVar::size("SCHEMAC_MAX_DEPTH", 2_000).at_most(50_000, STACK);
/// Starlark values nested in one another (see `yaml::parse::budget::DEFAULT_MAX_VALUE_DEPTH`).
pub const MAX_VALUE_DEPTH: BudgetVar =
    BudgetVar::size("SCHEMAC_MAX_VALUE_DEPTH", 100_000).at_most(200_000, STACK);
/// Nodes that aliases copy in one file.
pub const MAX_ALIAS_NODES: BudgetVar = BudgetVar::size("SCHEMAC_MAX_ALIAS_NODES", 1_000_000);
/// Bytes of text that aliases copy in one file.
pub const MAX_ALIAS_BYTES: BudgetVar = BudgetVar::size("SCHEMAC_MAX_ALIAS_BYTES", 256 << 20);
/// Bytes of one input file.
pub const MAX_INPUT_BYTES: BudgetVar = BudgetVar::size("SCHEMAC_MAX_INPUT_BYTES", 256 << 20);
/// Bytes of YAML text read again to patch go-yaml's readings.
pub const MAX_REREAD_BYTES: BudgetVar = BudgetVar::size("SCHEMAC_MAX_REREAD_BYTES", 64 << 20);
/// Bytes of the YAML text of one run's data values (and of exports).
pub const MAX_OUTPUT_BYTES: BudgetVar = BudgetVar::count("SCHEMAC_MAX_OUTPUT_BYTES", 4 << 30);
/// Bytes of the text of one error report.
pub const MAX_ERROR_BYTES: BudgetVar = BudgetVar::size("SCHEMAC_MAX_ERROR_BYTES", 256 << 20);
/// Bytes of a compiled regular expression.
pub const MAX_REGEX_BYTES: BudgetVar = BudgetVar::size("SCHEMAC_MAX_REGEX_BYTES", 64 << 20);
/// Array items `#@overlay/match by=` may test in one run.
pub const MAX_OVERLAY_MATCHES: BudgetVar =
    BudgetVar::count("SCHEMAC_MAX_OVERLAY_MATCHES", 100_000_000);
/// Bytes of program text parsed again to list starlark-go's resolver errors.
pub const MAX_REPARSE_BYTES: BudgetVar = BudgetVar::size("SCHEMAC_MAX_REPARSE_BYTES", 8 << 20);
/// Files loaded by one template, counting the loads of loaded files.
pub const MAX_LOADS: BudgetVar = BudgetVar::size("SCHEMAC_MAX_LOADS", 2_000);
/// Starlark statements per evaluation.
pub const STARLARK_STEPS: BudgetVar = BudgetVar::count("SCHEMAC_STARLARK_STEPS", 100_000_000);
/// Bytes of Starlark memory per evaluation.
pub const STARLARK_MEMORY: BudgetVar = BudgetVar::size("SCHEMAC_STARLARK_MEMORY", 2 << 30);
/// Bits of the integers a Starlark product, shift or `int()` makes. At 4,000,000 bits the
/// slowest `int()` (1,333,333 decimal digits) takes 2 s and `str` of its answer 1 s, where ytt
/// takes 3.6 s and 4.4 s; ytt answers `int("z" * 300000, 36)` (1.55 million bits) in 0.6 s.
pub const STARLARK_INT_BITS: BudgetVar = BudgetVar::count("SCHEMAC_STARLARK_INT_BITS", 4_000_000);
/// Starlark calls nested in one another (at least 1: the interpreter takes no budget of 0
/// calls, and one is the program's own).
pub const STARLARK_CALL_DEPTH: BudgetVar = BudgetVar::size("SCHEMAC_STARLARK_CALL_DEPTH", 10_000)
    .at_least(1)
    .at_most(500_000, STACK);
/// Starlark functions nested in one another.
pub const STARLARK_FUNCTION_DEPTH: BudgetVar =
    BudgetVar::size("SCHEMAC_STARLARK_FUNCTION_DEPTH", 1_000).at_most(10_000, STACK);
/// Starlark expressions nested in one another.
pub const STARLARK_EXPRESSION_DEPTH: BudgetVar =
    BudgetVar::size("SCHEMAC_STARLARK_EXPRESSION_DEPTH", 50_000).at_most(75_000, STACK);
/// Method calls chained in a Starlark program.
pub const STARLARK_METHOD_CHAIN: BudgetVar =
    BudgetVar::size("SCHEMAC_STARLARK_METHOD_CHAIN", 5_000).at_most(50_000, STACK);
/// Operators walked to compile a Starlark program's `and`s and `or`s.
pub const STARLARK_BOOL_OPERATORS: BudgetVar =
    BudgetVar::size("SCHEMAC_STARLARK_BOOL_OPERATORS", 12_500_000);
/// Blocks nested in one another in a template or a `.star` file.
pub const STARLARK_BLOCK_DEPTH: BudgetVar =
    BudgetVar::size("SCHEMAC_STARLARK_BLOCK_DEPTH", 2_000).at_most(20_000, STACK);
/// Types and default values' nodes of a schema, for generated code (the compiler's).
pub const MAX_CODEGEN_NODES: BudgetVar = BudgetVar::size("SCHEMAC_MAX_CODEGEN_NODES", 20_000);
/// Bytes of a schema's text (keys, default values' strings, documentation), for generated
/// code (the compiler's).
pub const MAX_CODEGEN_BYTES: BudgetVar = BudgetVar::size("SCHEMAC_MAX_CODEGEN_BYTES", 16 << 20);
/// Levels a schema nests, for generated code (the compiler's).
pub const MAX_CODEGEN_DEPTH: BudgetVar = BudgetVar::size("SCHEMAC_MAX_CODEGEN_DEPTH", 64);
/// Bytes of paths the Markdown and HTML references hold (the compiler's).
pub const MAX_REFERENCE_BYTES: BudgetVar = BudgetVar::size("SCHEMAC_MAX_REFERENCE_BYTES", 64 << 20);
/// Bytes of lowered schemas `schemac check` keeps (the compiler's; `0` turns the cache off).
pub const SCHEMA_CACHE_BYTES: BudgetVar = BudgetVar::count("SCHEMAC_SCHEMA_CACHE_BYTES", 64 << 20);

/// Every budget variable, the runtime's and the compiler's.
pub const ALL: &[BudgetVar] = &[
    MAX_DEPTH,
    MAX_VALUE_DEPTH,
    MAX_ALIAS_NODES,
    MAX_ALIAS_BYTES,
    MAX_INPUT_BYTES,
    MAX_REREAD_BYTES,
    MAX_OUTPUT_BYTES,
    MAX_ERROR_BYTES,
    MAX_REGEX_BYTES,
    MAX_OVERLAY_MATCHES,
    MAX_REPARSE_BYTES,
    MAX_LOADS,
    STARLARK_STEPS,
    STARLARK_MEMORY,
    STARLARK_INT_BITS,
    STARLARK_CALL_DEPTH,
    STARLARK_FUNCTION_DEPTH,
    STARLARK_EXPRESSION_DEPTH,
    STARLARK_METHOD_CHAIN,
    STARLARK_BOOL_OPERATORS,
    STARLARK_BLOCK_DEPTH,
    MAX_CODEGEN_NODES,
    MAX_CODEGEN_BYTES,
    MAX_CODEGEN_DEPTH,
    MAX_REFERENCE_BYTES,
    SCHEMA_CACHE_BYTES,
];

/// Checks every budget variable of the environment ([`ALL`]): the error of the first one set
/// to a bad value. Entry points call it before any work.
pub fn check_env() -> Result<(), String> {
    ALL.iter().try_for_each(|v| v.read().map(|_| ()))
}

/// The exit status of a process stopped by a bad budget variable (a value only schemac takes).
pub const BAD_VALUE_STATUS: i32 = 2;

/// [`check_env`] for a program's `main`: prints the error as schemac prints a usage error and
/// returns the exit status to stop with ([`BAD_VALUE_STATUS`]), or `None` when all is well.
pub fn check_env_for_main() -> Option<i32> {
    let e = check_env().err()?;
    crate::cli::output::stderr(&format!("schemac: Error: {e}\n"));
    Some(BAD_VALUE_STATUS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(var: BudgetVar, value: &str) -> Result<u64, String> {
        var.parse(Some(OsStr::new(value)))
    }

    #[test]
    fn digits_are_read_and_unset_or_empty_is_the_default() {
        assert_eq!(MAX_DEPTH.parse(None), Ok(2_000));
        assert_eq!(parse(MAX_DEPTH, ""), Ok(2_000));
        assert_eq!(parse(MAX_DEPTH, "  \t"), Ok(2_000));
        assert_eq!(parse(MAX_DEPTH, "5000"), Ok(5_000));
        assert_eq!(parse(MAX_DEPTH, " 5000\t"), Ok(5_000));
        assert_eq!(parse(MAX_DEPTH, "007"), Ok(7));
        assert_eq!(parse(MAX_DEPTH, "0"), Ok(0));
        assert_eq!(parse(STARLARK_STEPS, "18446744073709551615"), Ok(u64::MAX));
    }

    #[test]
    fn anything_else_is_an_error_naming_the_variable_and_the_default() {
        for bad in [
            "abc", "-1", "+5", "1e3", "1_000", "1,000", "1.5", "5 000", "٣",
        ] {
            let e = parse(MAX_DEPTH, bad).unwrap_err();
            assert_eq!(
                e,
                format!("SCHEMAC_MAX_DEPTH: {bad:?} is not a whole number (digits only; unset it for the default 2000)")
            );
        }
        let e = parse(STARLARK_STEPS, "99999999999999999999999").unwrap_err();
        assert_eq!(
            e,
            "SCHEMAC_STARLARK_STEPS: \"99999999999999999999999\" is larger than the largest budget it takes, 18446744073709551615 (unset it for the default 100000000)"
        );
    }

    #[test]
    fn a_value_is_held_to_its_integer() {
        let small = BudgetVar {
            name: "X",
            default: 1,
            min: 0,
            max: u64::from(u32::MAX),
            max_reason: None,
        };
        assert_eq!(parse(small, "4294967295"), Ok(u64::from(u32::MAX)));
        assert!(parse(small, "4294967296")
            .unwrap_err()
            .contains("4294967295"));
    }

    /// The call depth's 0 was the default in silence (the interpreter takes no budget of 0).
    #[test]
    fn a_value_below_the_least_is_refused() {
        assert_eq!(
            parse(STARLARK_CALL_DEPTH, "0").unwrap_err(),
            "SCHEMAC_STARLARK_CALL_DEPTH: \"0\" is smaller than the least budget it takes, 1 (unset it for the default 10000)"
        );
        assert_eq!(parse(STARLARK_CALL_DEPTH, "1"), Ok(1));
        assert_eq!(
            parse(STARLARK_CALL_DEPTH, " 000 ")
                .unwrap_err()
                .split(':')
                .next(),
            Some("SCHEMAC_STARLARK_CALL_DEPTH")
        );
    }

    /// A nesting budget past what the stack holds aborted the process on a deep input.
    #[test]
    fn a_value_above_the_ceiling_is_refused() {
        assert_eq!(parse(MAX_DEPTH, "50000"), Ok(50_000));
        assert_eq!(
            parse(MAX_DEPTH, "50001").unwrap_err(),
            "SCHEMAC_MAX_DEPTH: \"50001\" is larger than the largest budget it takes, 50000 (a deeper one overflows the stack; unset it for the default 2000)"
        );
    }

    #[test]
    fn every_variable_is_listed_once() {
        let mut names: Vec<_> = ALL.iter().map(|v| v.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ALL.len());
    }

    /// Every budget this module declares is in [`ALL`], so that the entry points check it: the
    /// variable names written in the module's source (test code aside), each in the table.
    #[test]
    fn every_declared_variable_is_in_the_table() {
        let source = include_str!("budget_vars.rs");
        let declarations = &source[..source.find("#[cfg(test)]").expect("tests at the end")];
        let declared: Vec<&str> = declarations
            .split('"')
            .filter(|s| {
                s.len() > "SCHEMAC_".len()
                    && s.starts_with("SCHEMAC_")
                    && s.bytes().all(|b| b.is_ascii_uppercase() || b == b'_')
            })
            .collect();
        assert!(declared.len() >= 25, "{declared:?}");
        for name in declared {
            assert!(ALL.iter().any(|v| v.name == name), "{name} is not in ALL");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_value_that_is_not_utf8_is_refused() {
        use std::os::unix::ffi::OsStrExt;
        let e = MAX_DEPTH
            .parse(Some(OsStr::from_bytes(b"1\xff")))
            .unwrap_err();
        assert!(e.starts_with("SCHEMAC_MAX_DEPTH: \"1\u{fffd}\" is not a whole number"));
    }
}
