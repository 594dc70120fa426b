//! Rust names for YAML keys: fields in snake_case, types in UpperCamelCase, never colliding.

use std::collections::BTreeSet;

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

/// Hands out names that are unique within one scope.
#[derive(Default)]
pub struct Scope(BTreeSet<String>);

impl Scope {
    /// `wanted`, or `wanted_2`, `wanted_3`... (fields).
    pub fn claim(&mut self, wanted: String) -> String {
        self.claim_with(wanted, "_")
    }

    /// `Wanted`, or `Wanted2`, `Wanted3`... (types).
    pub fn claim_type(&mut self, wanted: String) -> String {
        self.claim_with(wanted, "")
    }

    fn claim_with(&mut self, wanted: String, sep: &str) -> String {
        let mut name = wanted.clone();
        let mut n = 2;
        while !self.0.insert(name.clone()) {
            name = format!("{}{sep}{n}", wanted.trim_start_matches("r#"));
            n += 1;
        }
        name
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
    }
}
