//! Byte-order marks as ytt reads them.
//!
//! ytt puts `---` and a line break before a file that does not start with `---`, so go-yaml
//! never sees a byte-order mark at the start of the text, and reads one as any other
//! character: `\u{feff}#@data/values` is a plain scalar (a string), not an annotation, and
//! `\u{feff}a: 1` has the key `"\u{feff}a"`. saphyr-parser and libyaml skip the mark; a
//! private-use character stands in for it while they read the text.

use super::parse::{Comment, RawNode, RawValue};
use crate::value::{Key, Value};

const STAND_IN: char = '\u{e000}';
const BOM: char = '\u{feff}';

/// `src` with its byte-order marks replaced, if it has any (and no stand-in of its own, whose
/// marks are then left to the readers).
pub(super) fn stand_in(src: &str) -> Option<String> {
    (src.contains(BOM) && !src.contains(STAND_IN)).then(|| src.replace(BOM, "\u{e000}"))
}

/// Puts the byte-order marks back in the strings (keys included) and comments read from a
/// text that [`stand_in`] replaced.
pub(super) fn restore<'a>(docs: &mut [RawNode], comments: impl Iterator<Item = &'a mut Comment>) {
    docs.iter_mut().for_each(restore_node);
    for c in comments {
        restore_string(&mut c.text);
    }
}

fn restore_string<S: std::ops::Deref<Target = str> + From<String>>(s: &mut S) {
    if s.contains(STAND_IN) {
        *s = s.replace(STAND_IN, "\u{feff}").into();
    }
}

fn restore_node(node: &mut RawNode) {
    if let Some(key) = node.key_mut() {
        if let Some(text) = key.as_str().filter(|text| text.contains(STAND_IN)) {
            *key = Key::new(Value::Str(text.replace(STAND_IN, "\u{feff}").into()));
        }
    }
    match &mut node.value {
        RawValue::Scalar(Value::Str(s)) => restore_string(s),
        RawValue::Scalar(_) => {}
        RawValue::Map(items) | RawValue::Array(items) => items.iter_mut().for_each(restore_node),
    }
}

#[cfg(test)]
mod tests {
    use crate::value::Value;
    use crate::yaml::parse::{parse_file, RawKind, RawValue};

    #[test]
    fn a_leading_mark_starts_a_plain_scalar() {
        let f = parse_file("t.yml", "\u{feff}#@data/values\n---\na: 1\n", false).unwrap();
        assert_eq!(f.docs.len(), 2);
        assert!(f.docs.iter().all(|d| d.comments.is_empty()));
        assert_eq!(
            f.docs[0].value,
            RawValue::Scalar(Value::Str("\u{feff}#@data/values".into()))
        );
    }

    #[test]
    fn marks_stay_in_keys_values_and_comments() {
        let src = "\u{feff}a: x\u{feff}\nb: 1 #@ \"\u{feff}\"\n";
        let f = parse_file("t.yml", src, false).unwrap();
        let RawValue::Map(items) = &f.docs[0].value else {
            panic!("{f:?}")
        };
        assert_eq!(
            items[0].kind(),
            RawKind::MapItem(Value::Str("\u{feff}a".into()).into())
        );
        assert_eq!(
            items[0].value,
            RawValue::Scalar(Value::Str("x\u{feff}".into()))
        );
        assert_eq!(items[1].comments[0].text, " \"\u{feff}\"");
    }
}
