//! The typed API behind `include_schema!`: load data values through the same engine as
//! `schemac check` and built validators, then convert them to the generated structs.

use std::fmt;
use std::path::Path;

use crate::cli::Options;
use crate::engine::{evaluate, CheckError, Outcome};
use crate::report::multi_line;
use crate::validate::Violation;
use crate::validator::{Built, Validator};
use crate::value::Node;

/// Why data values were rejected. `Display` is ytt's report (what `schemac check` prints
/// after `Error: `).
#[derive(Debug, Clone, PartialEq)]
pub struct Violations {
    report: String,
    /// The validation rules that failed (empty when loading failed earlier: a type error, an
    /// unknown key, bad YAML...).
    pub violations: Vec<Violation>,
}

impl Violations {
    fn message(msg: &str) -> Violations {
        Violations {
            report: multi_line(msg),
            violations: Vec::new(),
        }
    }

    /// The report, as ytt prints it.
    pub fn report(&self) -> &str {
        &self.report
    }
}

impl fmt::Display for Violations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.report.trim_end())
    }
}

impl std::error::Error for Violations {}

fn run(v: &Validator, opts: &Options) -> Result<Node, Violations> {
    let built = Built::new(v).map_err(|e| Violations::message(&e))?;
    match evaluate(opts, &built) {
        Ok(Outcome::DataValues(node)) => Ok(node),
        Ok(Outcome::OpenApi(node) | Outcome::JsonSchema(node)) => Ok(node),
        Ok(Outcome::Invalid(violations)) => Err(Violations {
            report: crate::validate::render(&violations),
            violations,
        }),
        Err(CheckError(msg)) => Err(Violations::message(&msg)),
    }
}

/// Loads data values files onto the schema's defaults. Files with `#@data/values` documents
/// are read as `ytt -f` reads them (overlays); plain YAML files as `--data-values-file`.
pub fn load<P: AsRef<Path>>(v: &Validator, files: &[P]) -> Result<Node, Violations> {
    let mut opts = Options::default();
    for f in files {
        let path = f.as_ref().to_string_lossy().to_string();
        // A file that cannot be read goes to the engine as `-f`, which reports why.
        let templated =
            std::fs::read(f.as_ref()).map_or(true, |bytes| bytes.windows(2).any(|w| w == b"#@"));
        if templated {
            opts.files.push(path);
        } else {
            opts.data_values_files.push(path);
        }
    }
    run(v, &opts)
}

/// Loads plain YAML data values given as a string (named `name` in messages).
pub fn load_str(v: &Validator, name: &str, yaml: &str) -> Result<Node, Violations> {
    let opts = Options {
        data_values_inline: vec![(name.to_string(), yaml.to_string())],
        ..Options::default()
    };
    run(v, &opts)
}

/// Converts checked data values to a generated type.
pub fn convert<T: crate::__private::FromValue>(node: &Node) -> Result<T, Violations> {
    T::from_value(&node.value).ok_or_else(|| {
        Violations::message("data values do not match the generated types (schemac internal error)")
    })
}
