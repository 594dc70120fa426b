//! Rust names for YAML keys: fields in snake_case, types in UpperCamelCase, never colliding.

use std::collections::{BTreeSet, HashMap};

const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for",
    "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
    "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where",
    "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];

/// Splits a key into words at separators and lower-to-upper case changes.
fn words(key: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in key.chars() {
        if !c.is_ascii_alphanumeric() {
            if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && prev_lower && !cur.is_empty() {
            words.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        cur.push(c);
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}

/// `tlsCert` → `tls_cert`, `db-conn` → `db_conn`, `type` → `r#type`, `1x` → `_1x`.
pub fn field_name(key: &str) -> String {
    let name = words(key)
        .iter()
        .map(|w| w.to_ascii_lowercase())
        .collect::<Vec<_>>()
        .join("_");
    if name.is_empty() {
        return "_field".into();
    }
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        return format!("_{name}");
    }
    if KEYWORDS.contains(&name.as_str()) {
        return if matches!(name.as_str(), "self" | "Self" | "super" | "crate") {
            format!("{name}_")
        } else {
            format!("r#{name}")
        };
    }
    name
}

/// `db-conn` → `DbConn`.
pub fn type_name(key: &str) -> String {
    let name: String = words(key)
        .iter()
        .map(|w| {
            let mut c = w.chars();
            c.next().map_or(String::new(), |f| {
                f.to_ascii_uppercase().to_string() + &c.as_str().to_ascii_lowercase()
            })
        })
        .collect();
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        format!("T{name}")
    } else {
        name
    }
}

/// Hands out field names that are unique within one struct: `wanted`, or `wanted_2`,
/// `wanted_3`... (two keys of one map whose snake_case names are the same).
#[derive(Default)]
pub struct Scope(BTreeSet<String>);

impl Scope {
    pub fn claim(&mut self, wanted: String) -> String {
        let mut name = wanted.clone();
        let mut n = 2;
        while !self.0.insert(name.clone()) {
            // `self_` (a keyword's name) goes on as `self_2`, not `self__2`.
            let stem = wanted.trim_start_matches("r#").trim_end_matches('_');
            name = format!("{stem}_{n}");
            n += 1;
        }
        name
    }
}

/// Names a generated type must not take: the prelude's (the generated code uses them) and the
/// internals module's.
const RESERVED_TYPES: &[&str] = &[
    "Option", "Some", "None", "Result", "Ok", "Err", "String", "Vec", "Box", "Default", "Self",
];

/// The names of the structs generated for a schema's map types (keyed by the type's address).
///
/// A map's name is made of the last segments of its path, in UpperCamelCase: a key is a
/// segment (`tls` → `Tls`) and an array's items are its key's segment with `Item`
/// (`ports[]` → `PortsItem`). Every map starts with its last segment; while two maps (or a
/// map and the root type or a reserved name) have the same name, each of them that can takes
/// one more segment from its path (`server.tls` and `client.tls` → `ServerTls`, `ClientTls`;
/// a root-level `tls` beside `server.tls` keeps `Tls`). Names that are still the same when the
/// whole path is used (keys of one map differing only in case or punctuation: `a-b` and `A_b`)
/// get `2`, `3`... in schema order.
pub fn type_names(
    entries: &[(*const schemac_runtime::schema::Type, Vec<String>)],
    taken: &[String],
) -> HashMap<*const schemac_runtime::schema::Type, String> {
    let mut used = vec![1usize; entries.len()];
    let name = |i: usize, k: usize| entries[i].1[entries[i].1.len() - k..].concat();
    let reserved = |n: &str| RESERVED_TYPES.contains(&n) || taken.iter().any(|t| t == n);
    loop {
        let mut groups: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, k) in used.iter().enumerate() {
            groups.entry(name(i, *k)).or_default().push(i);
        }
        let mut grew = false;
        for (n, members) in &groups {
            if members.len() > 1 || reserved(n) {
                for &i in members {
                    if used[i] < entries[i].1.len() {
                        used[i] += 1;
                        grew = true;
                    }
                }
            }
        }
        if !grew {
            break;
        }
    }
    let mut taken: BTreeSet<String> = taken.iter().cloned().collect();
    taken.extend(RESERVED_TYPES.iter().map(|s| s.to_string()));
    let mut out = HashMap::new();
    for (i, (ty, _)) in entries.iter().enumerate() {
        let wanted = name(i, used[i]);
        let mut n = 1;
        let mut candidate = wanted.clone();
        while !taken.insert(candidate.clone()) {
            n += 1;
            candidate = format!("{wanted}{n}");
        }
        out.insert(*ty, candidate);
    }
    out
}

/// With serde's derives, each field is named by its YAML key's text: two keys of one map
/// whose texts are the same (`true` and `"true"`, `1` and `"1"`) would make a type that writes
/// the name twice and refuses its own output (`duplicate field`). Such a schema is refused,
/// at the second key's value.
pub fn check_serde_names(
    t: &schemac_runtime::schema::Type,
) -> Result<(), schemac_runtime::error::CheckError> {
    use schemac_runtime::schema::Kind;
    match &t.kind {
        Kind::Map(fields) => {
            let mut seen: HashMap<String, &schemac_runtime::value::Value> = HashMap::new();
            for f in fields {
                if let Some(first) = seen.insert(f.key.key_string(), &f.key) {
                    let pos = f.ty.pos;
                    return Err(schemac_runtime::error::CheckError::new(
                        schemac_runtime::error::ErrorKind::Schema,
                        format!(
                            "{pos}: keys {} ({}) and {} ({}) of one map are written alike: serde \
                             names a field by its key's text, so `serde = \"true\"` cannot name both",
                            first.key_string(),
                            first.type_name(),
                            f.key.key_string(),
                            f.key.type_name(),
                        ),
                    )
                    .at(pos));
                }
            }
            fields.iter().try_for_each(|f| check_serde_names(&f.ty))
        }
        Kind::Array(item) => check_serde_names(item),
        Kind::Scalar(_) | Kind::Any => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields() {
        assert_eq!(field_name("tlsCert"), "tls_cert");
        assert_eq!(field_name("tls.crt"), "tls_crt");
        assert_eq!(field_name("db-conn"), "db_conn");
        assert_eq!(field_name("type"), "r#type");
        assert_eq!(field_name("self"), "self_");
        assert_eq!(field_name("1st"), "_1st");
        assert_eq!(field_name("HTTPProxy"), "httpproxy");
        assert_eq!(field_name("---"), "_field");
    }

    #[test]
    fn types_and_collisions() {
        assert_eq!(type_name("db-conn"), "DbConn");
        assert_eq!(type_name("9lives"), "T9lives");
        let mut s = Scope::default();
        assert_eq!(s.claim("a_b".into()), "a_b");
        assert_eq!(s.claim("a_b".into()), "a_b_2");
        assert_eq!(s.claim("self_".into()), "self_");
        assert_eq!(s.claim("self_".into()), "self_2");
        assert_eq!(s.claim("r#type".into()), "r#type");
        assert_eq!(s.claim("r#type".into()), "type_2");
    }

    #[test]
    fn type_names_take_path_segments_until_unique() {
        let ids: Vec<schemac_runtime::schema::Type> =
            (0..6).map(|_| crate::lower::empty_schema()).collect();
        let paths: &[&[&str]] = &[
            &["Tls"],
            &["Server", "Tls"],
            &["Client", "Tls"],
            &["Option"],
            &["AB"],
            &["AB"],
        ];
        let entries: Vec<_> = ids
            .iter()
            .zip(paths)
            .map(|(t, p)| (t as *const _, p.iter().map(|s| s.to_string()).collect()))
            .collect();
        let names = type_names(&entries, &["DataValues".to_string()]);
        let got: Vec<&str> = ids
            .iter()
            .map(|t| names[&(t as *const _)].as_str())
            .collect();
        assert_eq!(
            got,
            ["Tls", "ServerTls", "ClientTls", "Option2", "AB", "AB2"]
        );
    }
}
