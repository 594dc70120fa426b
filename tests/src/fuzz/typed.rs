//! The `typed` target: data values through generated code. Each schema of [`SCHEMAS`] is
//! compiled by `include_schema!` (typed structs, defaults, conversions, the schema IR and its
//! rules translated to Rust, as `schemac build` compiles them), and a fuzz input is one values
//! file for one of them. The contract, besides no panic and no hang:
//!
//! - the generated validator answers as the interpreter (`schemac check` given the schema's
//!   files) answers, output or error, byte for byte, plain (`--data-values-file`) and, when the
//!   input has a `#@data/values` document, as a `-f` file;
//! - every error names a place: a position, or the file it is about;
//! - values the typed API loads convert to the generated structs (an integer the field's Rust
//!   type cannot hold excepted: an error naming its position), hold the values loaded, and
//!   pass `validate()` again.

use schemac::check::INTERPRETER;

use super::typed_values;
use schemac_runtime::__private::exact_f64;
use schemac_runtime::engine::{self, Backend};
use schemac_runtime::error::CheckError;
use schemac_runtime::inputs::{self, InputFile};
use schemac_runtime::report::multi_line;
use schemac_runtime::request::{DataValues, Request};
use schemac_runtime::typed::Violations;
use schemac_runtime::validator::Validator;
use schemac_runtime::value::{MapEntry, Node, Value};

/// One schema compiled by `include_schema!`, and its typed API seen through closures (each
/// schema has its own root type).
pub struct Schema {
    pub name: &'static str,
    pub validator: &'static Validator,
    pub typed: TypedRoundTrip,
}

/// Converts checked values to a schema's root type, then back: the value the typed struct
/// holds, and its `validate()`.
pub type TypedRoundTrip = fn(&Node) -> Result<(Value, Result<(), Violations>), Violations>;

macro_rules! schemas {
    ($($module:ident: [$($file:literal),+]),+ $(,)?) => {
        $(
            #[allow(dead_code)]
            mod $module {
                schemac_macros::include_schema!($($file),+);
            }
        )+
        /// The schemas the target picks from (by the input's first byte).
        pub const SCHEMAS: &[Schema] = &[$(Schema {
            name: stringify!($module),
            validator: &$module::VALIDATOR,
            typed: |node| {
                let values: $module::DataValues = schemac_runtime::typed::convert(&$module::VALIDATOR, node)?;
                Ok((values.to_value(), values.validate()))
            },
        }),+];
    };
}

schemas! {
    // Nested maps, arrays of arrays and of maps, nullable maps, arrays and scalars, `any`,
    // `@schema/default`, named rules, rules beyond ytt, and custom rules translated or left to
    // the interpreter (a `for` loop, `type`), with `when=` and `ctx`.
    typed: ["fixtures/fuzz/typed.yml", "fixtures/fuzz/typed.star"],
    // Every rule translated: string methods, `format`, `ctx.root`, `fail`, `assert.fail`.
    lowered: ["fixtures/lowered/rules.yml", "fixtures/lowered/helpers.star"],
    web: ["fixtures/codegen/web.yml"],
    // `one_of` enums, names taken from paths.
    names: ["fixtures/codegen/names.yml"],
    // Keys that are not Rust identifiers.
    keys: ["fixtures/codegen/keys.yml"],
    // A rule in a fragment function used under two parents.
    fragments: ["fixtures/codegen/fragments.yml"],
    rules: ["fixtures/codegen/rules.yml"],
}

/// What a run printed, or its error: the two backends must give the same.
fn answer(result: &Result<String, CheckError>) -> String {
    match result {
        Ok(out) => format!("ok:\n{out}"),
        Err(e) => format!("error:\n{}", e.message()),
    }
}

/// The schema's files, in memory, as `-f` gives them to the interpreter.
fn schema_inputs(v: &Validator) -> Vec<InputFile> {
    v.sources
        .iter()
        .map(|(name, text)| inputs::decode(name.to_string(), text.as_bytes().to_vec()))
        .collect()
}

fn request(files: Vec<String>, data_values: Vec<DataValues>) -> Request {
    let mut request = Request::default();
    request.files = files;
    request.data_values = data_values;
    request
}

/// Runs the interpreter and the generated validator on the same values; they must agree.
fn compare(
    schema: &Schema,
    built: &dyn Backend,
    values: Option<&[u8]>,
    data_values: Vec<DataValues>,
) -> Result<String, CheckError> {
    let mut interpreted_inputs = schema_inputs(schema.validator);
    let mut generated_inputs = Vec::new();
    if let Some(values) = values {
        interpreted_inputs.push(inputs::decode("values.yml".into(), values.to_vec()));
        generated_inputs.push(inputs::decode("values.yml".into(), values.to_vec()));
    }
    let names = |inputs: &[InputFile]| inputs.iter().map(|f| f.name.clone()).collect();
    let interpreted_request = request(names(&interpreted_inputs), data_values.clone());
    let generated_request = request(names(&generated_inputs), data_values);
    let interpreted = engine::run_inputs(interpreted_inputs, &interpreted_request, &INTERPRETER);
    let generated = engine::run_inputs(generated_inputs, &generated_request, built);
    assert_eq!(
        answer(&generated),
        answer(&interpreted),
        "schema {}: the generated validator and the interpreter differ",
        schema.name
    );
    if let Err(e) = &generated {
        assert_place(e);
    }
    generated
}

/// An error about the input names where: a position, the file it is about, or the path of
/// the data value (`Validating a.b: Failure evaluating when=: ...`).
fn assert_place(e: &CheckError) {
    super::assert_message(e.message(), "generated validator");
    let placed = e.pos.is_some()
        || ["values.yml", "line ", "\nValidating "]
            .iter()
            .any(|place| e.message().contains(place));
    assert!(placed, "an error without a place: {}", e.message());
}

/// The `typed` target. The input's first byte picks the schema (its low 7 bits) and the mode
/// (its high bit): the rest is a values file, or (high bit set) the choices of a value made
/// from the schema's types ([`typed_values::sample`]), written as YAML.
pub fn typed(data: &[u8]) {
    super::set_budgets();
    let Some((pick, rest)) = data.split_first() else {
        return;
    };
    let schema = &SCHEMAS[usize::from(pick & 0x7f) % SCHEMAS.len()];
    let sampled = pick & 0x80 != 0;
    let rest = rest.to_vec();
    super::on_large_stack(move || {
        let built = schema
            .validator
            .built()
            .unwrap_or_else(|e| panic!("schema {}: {e}", schema.name));
        let values = match sampled {
            true => {
                let ty = (schema.validator.schema)();
                let value = typed_values::sample(&ty, &mut typed_values::Choices::new(&rest), 6);
                schemac_runtime::yaml::emit::to_yaml(&value).into_bytes()
            }
            false => rest,
        };
        let text = String::from_utf8_lossy(&values).into_owned();
        let plain = vec![DataValues::Inline {
            name: "values.yml".into(),
            text: text.clone(),
        }];
        let generated = compare(schema, built, None, plain);
        check_typed_api(schema, &text, &generated);
        // A built validator refuses schema documents given with -f (its schema is built in).
        if text.contains("#@data/values") && !text.contains("#@data/values-schema") {
            // Checked inside: the same answer from both, an error with a place.
            let _ = compare(schema, built, Some(&values), Vec::new());
        }
    });
}

/// The typed API on the same text: it loads what the validator passes, and what it loads
/// converts to the generated types, holds what the validator printed and validates again.
fn check_typed_api(schema: &Schema, text: &str, generated: &Result<String, CheckError>) {
    let loaded = schemac_runtime::typed::load_str(schema.validator, "values.yml", text);
    let node = match (&loaded, generated) {
        (Ok(node), Ok(_)) => node,
        (Err(e), Err(g)) => {
            // Failed rules are the validator's report; other errors, in ytt's multi-line form.
            let expected = match e.violations.is_empty() {
                true => multi_line(g.message()),
                false => g.message().to_string(),
            };
            assert_eq!(
                e.report().trim_end(),
                expected.trim_end(),
                "schema {}: the typed API's error differs from the validator's",
                schema.name
            );
            return;
        }
        _ => panic!(
            "schema {}: the typed API loads {:?}, the validator answers {}",
            schema.name,
            loaded.as_ref().map(|_| ()),
            answer(generated)
        ),
    };
    match (schema.typed)(node) {
        Ok((value, validated)) => {
            let (held, loaded) = (numbers_as_floats(&value), numbers_as_floats(&node.value));
            assert_eq!(
                held, loaded,
                "schema {}: the typed values hold other values than were loaded",
                schema.name
            );
            if let Err(e) = validated {
                panic!(
                    "schema {}: loaded values fail validate(): {e}\n{held}",
                    schema.name
                );
            }
        }
        Err(e) => {
            let msg = e.to_string();
            super::assert_message(&msg, "typed conversion");
            assert!(
                msg.contains("values.yml:"),
                "schema {}: a conversion error without a position: {msg}",
                schema.name
            );
        }
    }
}

/// `value` as JSON (keys sorted: a struct keeps the schema's order, the data values their own)
/// with every number a float: an `f64` field holds the integer ytt keeps as one, and prints it
/// as a float.
fn numbers_as_floats(value: &Value) -> String {
    fn floats(value: &Value) -> Value {
        match value {
            Value::Int(_) | Value::UInt(_) => match exact_f64(value) {
                Some(f) => Value::Float(f),
                None => value.clone(),
            },
            Value::Map(entries) => Value::Map(
                entries
                    .iter()
                    .map(|e| MapEntry {
                        key: e.key.clone(),
                        value: Node::new(floats(&e.value.value), e.value.pos),
                    })
                    .collect(),
            ),
            Value::Array(items) => Value::Array(
                items
                    .iter()
                    .map(|i| Node::new(floats(&i.value), i.pos))
                    .collect(),
            ),
            other => other.clone(),
        }
    }
    schemac_runtime::yaml::json::to_json(&floats(value))
}
