//! What `schemac gen`, `build`, `inspect` and `include_schema!` read a schema into
//! ([`super::load_schema_for`]).

use super::{CheckError, ErrorKind, Type};

/// A schema as read.
pub struct LoadedSchema {
    /// Its IR (none when the files declare no schema).
    pub schema: Option<Type>,
    /// Every file given, as `(name, text)`: a file no template loaded is read only when asked
    /// for ([`LoadedSchema::sources`]; `schemac inspect` never is, as ytt never opens it).
    pub files: Vec<(String, crate::inputs::FileText)>,
    /// How many values its templates kept for annotations (see [`crate::template::functions::Functions`]).
    pub functions: usize,
    /// How many templates its evaluation compiled (see [`super::Backend::schema_templates`]).
    pub templates: u32,
    /// Whether its evaluation called a `@ytt:math` function: ytt warns after every run that
    /// evaluates the schema, so a validator built from it warns too (the values its calls
    /// made are built in).
    pub calls_math: bool,
    /// The places in [`LoadedSchema::files`] of the package's data values files: a validator
    /// reads them before each run's files (see [`super::package_values`]). Only for
    /// [`SchemaUse::Validator`].
    pub values_files: Vec<usize>,
    /// Whether some of [`LoadedSchema::values_files`] has template code, which the validator
    /// needs the Starlark interpreter to evaluate.
    pub values_need_starlark: bool,
}

impl LoadedSchema {
    /// The text of every file, as `(name, text)`, to build in: a file no template loaded is
    /// read now (see [`crate::inputs::FileText::get_to_build_in`]).
    pub fn sources(&self) -> Result<Vec<(String, String)>, CheckError> {
        self.files
            .iter()
            .map(|(name, text)| {
                let text = text
                    .get_to_build_in()
                    .map_err(|e| CheckError::new(ErrorKind::Io, e))?;
                Ok((name.clone(), text.to_string()))
            })
            .collect()
    }
}

/// What a schema is read for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum SchemaUse {
    /// A validator (`schemac build`, `include_schema!`): the files holding data values
    /// documents (a package's `values.yml`) are set apart, built in, and read before each
    /// run's files (see [`super::package_values`]).
    Validator,
    /// An export of the schema alone (`schemac inspect`): the files are read as ytt's
    /// `--data-values-schema-inspect` reads them, so that the `-f` arguments of a package's
    /// `ytt` run (a whole `config/` with templates and data values files) give its schema;
    /// data values documents are not evaluated.
    Export,
}
