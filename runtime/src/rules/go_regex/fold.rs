//! Case-insensitive matching (`(?i)`) as Go folds case. Go's tables are Unicode 13.0's
//! (`crate::go_unicode`), the crate's later: a pair completed since (`ɤ` and `Ꞌ` U+A7CB, `ƛ`
//! and U+A7DC) or a letter assigned since (Glagolitic `Ⱟ` U+2C2F, whose lowercase is U+2C5F)
//! folds to nothing in Go, so `(?i)ɤ` does not match `Ꞌ` and `(?i)Ⱟ` matches only `Ⱟ`. Where
//! the crate's folding of a literal or a class under the `i` flag differs from Go's, the
//! node is written as the class Go matches, case-sensitively (`(?-i:[...])`).
//!
//! Go folds each class item, then negates it (`\PL`, `[^a]`), and a class's literals and
//! ranges with the whole class: the crate does the same with its own tables, so the class Go
//! matches is computed here in the same order with Go's folding ([`go_fold`]).

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::LazyLock;

use regex_syntax::ast::{self, Ast, ClassSet, ClassSetBinaryOpKind, ClassSetItem, Flag, GroupKind};
use regex_syntax::hir::{Class, ClassUnicode, ClassUnicodeRange, HirKind};

/// How deep [`go_case_folding`] follows groups: past Go's own bound on nesting (1000, which
/// `go_error` reports first), a pattern is left to the crate's folding.
const MAX_FOLD_DEPTH: usize = 1000;

/// The characters Go's tables know (`crate::go_unicode::GO_UNICODE`).
static GO_ASSIGNED: LazyLock<ClassUnicode> =
    LazyLock::new(|| class_of(crate::go_unicode::GO_UNICODE).unwrap_or_else(empty));

/// `pattern` (the crate's syntax, written by `super::syntax`) with each literal and class under
/// the `i` flag whose folding differs between Go's tables and the crate's written as Go folds
/// it; `pattern` itself where none does or it does not parse (the crate reports that).
pub(super) fn go_case_folding(pattern: &str) -> Cow<'_, str> {
    if !pattern.contains("(?") || !pattern.contains('i') {
        return Cow::Borrowed(pattern);
    }
    let parsed = ast::parse::ParserBuilder::new()
        .nest_limit(u32::try_from(pattern.len()).unwrap_or(u32::MAX))
        .build()
        .parse(pattern);
    let Ok(mut tree) = parsed else {
        return Cow::Borrowed(pattern);
    };
    let mut insensitive = false;
    if !rewrite(&mut tree, &mut insensitive, 0) {
        return Cow::Borrowed(pattern);
    }
    let mut out = String::with_capacity(pattern.len() + 32);
    match ast::print::Printer::new().print(&tree, &mut out) {
        Ok(()) => Cow::Owned(out),
        Err(_) => Cow::Borrowed(pattern),
    }
}

/// Rewrites the nodes of `node` under the `i` flag (`insensitive`, as the flags before leave
/// it; flags set in a group end with it) that Go folds otherwise; whether any was.
fn rewrite(node: &mut Ast, insensitive: &mut bool, depth: usize) -> bool {
    if depth > MAX_FOLD_DEPTH {
        return false;
    }
    match node {
        Ast::Flags(set) => {
            if let Some(on) = set.flags.flag_state(Flag::CaseInsensitive) {
                *insensitive = on;
            }
            false
        }
        Ast::Group(group) => {
            let mut inside = *insensitive;
            if let GroupKind::NonCapturing(flags) = &group.kind {
                if let Some(on) = flags.flag_state(Flag::CaseInsensitive) {
                    inside = on;
                }
            }
            rewrite(&mut group.ast, &mut inside, depth + 1)
        }
        Ast::Repetition(rep) => rewrite(&mut rep.ast, insensitive, depth + 1),
        Ast::Alternation(alt) => {
            let mut changed = false;
            for branch in &mut alt.asts {
                changed |= rewrite(branch, insensitive, depth + 1);
            }
            changed
        }
        Ast::Concat(concat) => {
            let mut changed = false;
            for part in &mut concat.asts {
                changed |= rewrite(part, insensitive, depth + 1);
            }
            changed
        }
        Ast::Literal(_) | Ast::ClassUnicode(_) | Ast::ClassPerl(_) | Ast::ClassBracketed(_)
            if *insensitive =>
        {
            match go_written(node) {
                Some(written) => {
                    *node = written;
                    true
                }
                None => false,
            }
        }
        _ => false,
    }
}

/// How many nodes' and class items' foldings [`go_written`] and [`leaf`] keep per thread (a
/// pattern repeating `\pL` folds Unicode's letters once; past this many, they start again).
const FOLDINGS_KEPT: usize = 256;

thread_local! {
    static WRITTEN: RefCell<HashMap<String, Option<Ast>>> = RefCell::new(HashMap::new());
    static LEAVES: RefCell<HashMap<(String, bool), Option<ClassUnicode>>> =
        RefCell::new(HashMap::new());
}

/// `compute` of `key`, kept in `memo` (at most [`FOLDINGS_KEPT`] entries).
fn kept<K: std::hash::Hash + Eq, V: Clone>(
    memo: &'static std::thread::LocalKey<RefCell<HashMap<K, V>>>,
    key: K,
    compute: impl FnOnce() -> V,
) -> V {
    if let Some(found) = memo.with_borrow(|m| m.get(&key).cloned()) {
        return found;
    }
    let value = compute();
    memo.with_borrow_mut(|m| {
        if m.len() >= FOLDINGS_KEPT {
            m.clear();
        }
        m.insert(key, value.clone());
    });
    value
}

/// A literal or class `node` under the `i` flag, written as the class Go matches, when the
/// crate would match another.
fn go_written(node: &Ast) -> Option<Ast> {
    if matches!(node, Ast::Literal(lit) if lit.c.is_ascii()) {
        return None;
    }
    let mut text = String::new();
    ast::print::Printer::new().print(node, &mut text).ok()?;
    kept(&WRITTEN, text.clone(), || go_written_anew(node, &text))
}

/// [`go_written`] of `node`, whose text is `text`, without the kept foldings.
fn go_written_anew(node: &Ast, text: &str) -> Option<Ast> {
    let go = match node {
        Ast::Literal(lit) => go_fold(&single(lit.c)),
        Ast::ClassBracketed(class) => bracketed(class)?,
        Ast::ClassUnicode(class) => {
            let mut positive = (**class).clone();
            positive.negated = false;
            leaf(&Ast::ClassUnicode(Box::new(positive)), class.negated)?
        }
        Ast::ClassPerl(class) => {
            let mut positive = (**class).clone();
            positive.negated = false;
            leaf(&Ast::ClassPerl(Box::new(positive)), class.negated)?
        }
        _ => return None,
    };
    let crate_folded = class_of(&format!("(?i:{text})"))?;
    if crate_folded == go {
        return None;
    }
    let mut ranges = String::new();
    for r in go.iter() {
        match r.start() == r.end() {
            true => ranges.push_str(&format!(r"\x{{{:X}}}", r.start() as u32)),
            false => ranges.push_str(&format!(
                r"\x{{{:X}}}-\x{{{:X}}}",
                r.start() as u32,
                r.end() as u32
            )),
        }
    }
    let class = match ranges.is_empty() {
        true => r"[^\x{0}-\x{10FFFF}]".to_string(),
        false => format!("[{ranges}]"),
    };
    ast::parse::Parser::new()
        .parse(&format!("(?-i:{class})"))
        .ok()
}

/// The characters a bracketed class matches under Go's folding: its items folded, then
/// negated when it is.
fn bracketed(class: &ast::ClassBracketed) -> Option<ClassUnicode> {
    let mut set = go_fold(&set_of(&class.kind)?);
    if class.negated {
        set.negate();
    }
    Some(set)
}

/// The characters of a class's set: literals and ranges as written (the class folds them),
/// each class item folded and negated on its own.
fn set_of(set: &ClassSet) -> Option<ClassUnicode> {
    match set {
        ClassSet::BinaryOp(op) => {
            let mut lhs = set_of(&op.lhs)?;
            let rhs = set_of(&op.rhs)?;
            match op.kind {
                ClassSetBinaryOpKind::Intersection => lhs.intersect(&rhs),
                ClassSetBinaryOpKind::Difference => lhs.difference(&rhs),
                ClassSetBinaryOpKind::SymmetricDifference => lhs.symmetric_difference(&rhs),
            }
            Some(lhs)
        }
        ClassSet::Item(item) => item_set(item),
    }
}

/// [`set_of`] for one item.
fn item_set(item: &ClassSetItem) -> Option<ClassUnicode> {
    let class_item = |positive: ClassSetItem, negated: bool| {
        let wrapped = ast::ClassBracketed {
            span: *positive.span(),
            negated: false,
            kind: ClassSet::Item(positive),
        };
        leaf(&Ast::ClassBracketed(Box::new(wrapped)), negated)
    };
    match item {
        ClassSetItem::Empty(_) => Some(empty()),
        ClassSetItem::Literal(lit) => Some(single(lit.c)),
        ClassSetItem::Range(range) => Some(ClassUnicode::new([ClassUnicodeRange::new(
            range.start.c,
            range.end.c,
        )])),
        ClassSetItem::Ascii(class) => {
            let mut positive = class.clone();
            positive.negated = false;
            class_item(ClassSetItem::Ascii(positive), class.negated)
        }
        ClassSetItem::Unicode(class) => {
            let mut positive = class.clone();
            positive.negated = false;
            class_item(ClassSetItem::Unicode(positive), class.negated)
        }
        ClassSetItem::Perl(class) => {
            let mut positive = class.clone();
            positive.negated = false;
            class_item(ClassSetItem::Perl(positive), class.negated)
        }
        ClassSetItem::Bracketed(class) => bracketed(class),
        ClassSetItem::Union(union) => {
            let mut all = empty();
            for item in &union.items {
                all.union(&item_set(item)?);
            }
            Some(all)
        }
    }
}

/// A class item (`positive`: not negated) as Go matches it under the `i` flag: folded, then
/// negated.
fn leaf(positive: &Ast, negated: bool) -> Option<ClassUnicode> {
    let mut text = String::new();
    ast::print::Printer::new().print(positive, &mut text).ok()?;
    kept(&LEAVES, (text.clone(), negated), || {
        let mut set = go_fold(&class_of(&text)?);
        if negated {
            set.negate();
        }
        Some(set)
    })
}

/// `set` with what Go's `unicode.SimpleFold` adds: the case variants of its characters that
/// Go's tables hold (a character they lack folds to nothing). Unicode's case folding is
/// stable, so Go's orbit of a character is the crate's, less the characters assigned since.
fn go_fold(set: &ClassUnicode) -> ClassUnicode {
    let mut folded = set.clone();
    folded.intersect(&GO_ASSIGNED);
    folded.case_fold_simple();
    folded.intersect(&GO_ASSIGNED);
    folded.union(set);
    folded
}

/// The characters `pattern` (one class or literal) matches, by the crate's reading.
fn class_of(pattern: &str) -> Option<ClassUnicode> {
    match regex_syntax::parse(pattern).ok()?.into_kind() {
        HirKind::Class(Class::Unicode(class)) => Some(class),
        HirKind::Literal(lit) => {
            let text = std::str::from_utf8(&lit.0).ok()?;
            let mut chars = text.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => Some(single(c)),
                _ => None,
            }
        }
        _ => None,
    }
}

fn single(c: char) -> ClassUnicode {
    ClassUnicode::new([ClassUnicodeRange::new(c, c)])
}

fn empty() -> ClassUnicode {
    ClassUnicode::empty()
}

#[cfg(test)]
mod tests {
    use super::go_case_folding;

    #[test]
    fn later_case_pairs_are_not_folded() {
        assert_eq!(go_case_folding("(?i)ɤ"), r"(?i)(?-i:[\x{264}])");
        assert_eq!(go_case_folding("(?i)abc"), "(?i)abc");
        assert_eq!(go_case_folding("ɤ(?i)"), "ɤ(?i)");
        assert_eq!(go_case_folding("(?i:x)ɤ"), "(?i:x)ɤ");
    }
}
