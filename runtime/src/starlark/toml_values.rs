//! `toml.decode`'s values as BurntSushi's parser (v1.2.1, ytt's decoder) makes them from the
//! items its checks let by, and its table of keys made data as ytt converts it: tables as maps
//! with sorted keys (ytt sorts the Go maps it is given), arrays, and scalars.

use super::toml_keys::{Entry, Keys, Scalar};
use super::toml_lexer::{Item, Kind};
use super::toml_syntax::{burntsushi_multiline, go_integer, unescaped};
use crate::value::{MapEntry, Node, Pos, Value as Data};

/// How deep [`document`] follows tables and arrays: the parser counts each key of a header
/// (and each array) once where an array of tables (`[[a.b]]`) is two levels of the value, so
/// its budget is doubled here; this only keeps a mistake from recursing without end.
fn max_depth() -> usize {
    2 * crate::yaml::parse::budget::max_value_depth() + 2
}

/// The value of a scalar item the parser's checks let by (BurntSushi's `value`).
pub(super) fn scalar(item: &Item) -> Result<Scalar, String> {
    let text = || String::from_utf8_lossy(&item.val).into_owned();
    let data = match item.kind {
        Kind::Str => Data::Str(unescaped(&item.val).as_str().into()),
        Kind::RawStr => Data::Str(text().as_str().into()),
        Kind::MultilineStr => Data::Str(
            burntsushi_multiline(&item.val)
                .unwrap_or_default()
                .as_str()
                .into(),
        ),
        Kind::RawMultilineStr => Data::Str(strip_first_newline(&text()).into()),
        Kind::Bool => Data::Bool(item.val == b"true"),
        Kind::Integer => match go_integer(&text()) {
            Some(i) => Data::Int(i),
            None => return Err(format!("bug: invalid integer {}", text())),
        },
        Kind::Float => {
            Data::Float(float(&text()).ok_or_else(|| format!("Invalid float value: {:?}", text()))?)
        }
        Kind::Datetime => return Ok(Scalar::Datetime(text())),
        kind => return Err(format!("bug: expected a value, got {kind:?}")),
    };
    Ok(Scalar::Data(data))
}

/// BurntSushi's `stripFirstNewline`: a `'''` string's text without the line break after its
/// opening quotes.
fn strip_first_newline(text: &str) -> &str {
    text.strip_prefix('\n')
        .or_else(|| text.strip_prefix("\r\n"))
        .unwrap_or(text)
}

/// Go's `ParseFloat` of a float the lexer read, its underscores taken out (`+nan` and `-nan`
/// are NaN).
fn float(text: &str) -> Option<f64> {
    let value = text.replace('_', "");
    match value.as_str() {
        "nan" | "+nan" | "-nan" => Some(f64::NAN),
        value => value.parse().ok(),
    }
}

/// The document's value: its top-level table as ytt converts it; a date or time is an error,
/// the first one ytt's conversion meets (ytt's panic: it cannot make a Go `time.Time` a
/// Starlark value).
pub(super) fn document(keys: &Keys) -> Result<Data, String> {
    table(keys, 0, 0)
}

fn table(keys: &Keys, index: usize, depth: usize) -> Result<Data, String> {
    let mut members: Vec<(&String, &Entry)> = keys.tables[index].iter().collect();
    members.sort_unstable_by(|a, b| a.0.cmp(b.0));
    let entries = members
        .into_iter()
        .map(|(key, value)| {
            Ok(MapEntry {
                key: Data::Str(key.as_str().into()).into(),
                value: Node::new(entry(keys, value, depth + 1)?, Pos::unknown()),
            })
        })
        .collect::<Result<_, String>>()?;
    Ok(Data::Map(entries))
}

fn entry(keys: &Keys, value: &Entry, depth: usize) -> Result<Data, String> {
    if depth > max_depth() {
        return Err("the document is nested too deep".into());
    }
    let items = |values: &mut dyn Iterator<Item = Result<Data, String>>| -> Result<_, String> {
        values
            .map(|v| Ok(Node::new(v?, Pos::unknown())))
            .collect::<Result<_, String>>()
    };
    Ok(match value {
        Entry::Table(index) => table(keys, *index, depth)?,
        Entry::Tables(indexes) => Data::Array(items(
            &mut indexes.iter().map(|&t| table(keys, t, depth + 1)),
        )?),
        Entry::Array(values) => Data::Array(items(
            &mut values.iter().map(|v| entry(keys, v, depth + 1)),
        )?),
        Entry::Scalar(Scalar::Data(data)) => data.clone(),
        Entry::Scalar(Scalar::Datetime(text)) => {
            return Err(format!(
                "the date or time {text} has no Starlark value (ytt fails with a Go panic here: unknown type time.Time)"
            ))
        }
    })
}
