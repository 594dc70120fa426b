//! Checking data values against the schema IR, and filling in defaults.

use crate::last_map_keys::LastMapKeys;
use crate::report::{Failure, SourceLines};
use crate::schema::{is_nan, Field, FieldIndexes, Kind, Type};
use crate::template::tree::{Tree, TreeKind, TreeValue};
use crate::value::{Items, Key, MapEntry, Node, Pos, Value};

/// A value that does not conform to its declared type.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeViolation {
    pub pos: Pos,
    pub description: Option<String>,
    pub found: String,
    pub expected: String,
    pub hints: Vec<String>,
    /// A map or array where another type was declared: ytt then reports only such violations.
    pub collection_for_scalar: bool,
    /// The value is a whole document: its excerpt is its `---` line (or its first directive's,
    /// `%YAML 1.1`, where go-yaml starts a document that has some), or empty for a document
    /// that has none (a plain file's first document, as ytt shows it, `---@x` being no `---`;
    /// but a first line ` --- x` as it is, ytt seeing a `---` there).
    pub document: bool,
}

impl TypeViolation {
    fn excerpt_line<'a>(&self, sources: &'a SourceLines) -> &'a str {
        match self.document {
            true => document_line(sources, &self.pos),
            false => sources.line_at(&self.pos),
        }
    }

    /// About how many bytes its failure's text takes in a report.
    pub fn report_bytes(&self, sources: &SourceLines) -> usize {
        let hints: usize = self.hints.iter().map(String::len).sum();
        let description = self.description.as_ref().map_or(0, String::len);
        self.excerpt_line(sources).len()
            + self.found.len()
            + self.expected.len()
            + hints
            + description
            + self.pos.file.as_str().len()
            + 64
    }

    pub fn to_failure(&self, sources: &SourceLines) -> Failure {
        Failure {
            description: self.description.clone(),
            file: self.pos.file.to_string(),
            lines: vec![(self.pos.line, self.excerpt_line(sources).to_string())],
            found: Some(self.found.clone()),
            expected: Some(self.expected.clone()),
            hints: self.hints.clone(),
            apart: false,
        }
    }
}

/// Fills the schema's defaults into `node` and checks it against `ty` (see [`fill_and_check`]).
pub fn fill_and_check_node(node: &mut Node, ty: &Type) -> Vec<TypeViolation> {
    let filled = check_into_filled_node(Tree::document(node), ty, FieldIndexes::default());
    *node = filled.node;
    filled.violations
}

/// Adds the schema's defaults for every declared key that `tree` lacks (in schema order after
/// the keys given, and in array items the same way) and checks the values given against `ty`
/// (its annotations are not looked at). Returns the violations ytt would report, in ytt's
/// order: a depth-first walk in document order that reports a map's undeclared keys before
/// looking into its declared items. The defaults added are not checked: a schema's defaults
/// conform to their types (a `@schema/default` that does not is an error of the schema).
pub fn fill_and_check(tree: &mut Tree, ty: &Type) -> Vec<TypeViolation> {
    fill_and_check_indexed(tree, ty, &mut FieldIndexes::default())
}

/// [`fill_and_check`] with the indexes of `ty`'s map types kept in `indexes` for the next
/// check against the same schema.
pub fn fill_and_check_indexed(
    tree: &mut Tree,
    ty: &Type,
    indexes: &mut FieldIndexes,
) -> Vec<TypeViolation> {
    let mut walk = FillAndCheck {
        indexes: std::mem::take(indexes),
        ..FillAndCheck::default()
    };
    walk.nan_keys = walk.indexes.nan_keys(ty);
    walk.node(tree, ty, true, false);
    *indexes = std::mem::take(&mut walk.indexes);
    walk.violations()
}

/// [`fill_and_check`] on a tree it consumes, whose plain data it makes in the same walk: the
/// defaults go straight into the plain data (each map's entries made at their final number,
/// a default cloned as plain data), and each part of the tree is freed once walked. Filling
/// the tree first grew each map's vector and built a tree node for every default, and that
/// defaulted tree was the peak of a run's memory. The data is whole even with violations.
/// `indexes` holds the indexes of map types' fields made by earlier checks against `ty`.
pub fn check_into_filled_node(mut tree: Tree, ty: &Type, indexes: FieldIndexes) -> FilledNode {
    let mut walk = FillAndCheck {
        indexes,
        // A walk into plain data changes no shared default (only filling a tree does).
        defaults_changed: Some(crate::shared_defaults::changed_in_run()),
        ..FillAndCheck::default()
    };
    walk.nan_keys = walk.indexes.nan_keys(ty);
    let value = walk.node(&mut tree, ty, true, true);
    let indexes = std::mem::take(&mut walk.indexes);
    FilledNode {
        node: Node::new(value, tree.pos),
        keys_may_repeat: walk.keys_may_repeat,
        violations: walk.violations(),
        indexes,
    }
}

/// What [`check_into_filled_node`] makes.
pub struct FilledNode {
    /// The plain data, its defaults filled in.
    pub node: Node,
    pub violations: Vec<TypeViolation>,
    /// Whether some map of `node` may hold a key twice, so that [`Node::first_repeated_key`]
    /// has to look. When false, none does: each map the walk made holds its declared fields
    /// once each, and every part taken as it is (a value of type `any`, an undeclared item, a
    /// value of the wrong type) and every default filled in is a scalar or a collection
    /// checked here.
    pub keys_may_repeat: bool,
    /// `indexes` as given, with those this check made: for the next check against the schema.
    pub indexes: FieldIndexes,
}

/// The state of [`fill_and_check`]'s walk.
#[derive(Default)]
struct FillAndCheck {
    out: Vec<TypeViolation>,
    /// See [`FilledNode::keys_may_repeat`].
    keys_may_repeat: bool,
    /// The defaults filled in that are collections (by address: each field's default is one
    /// node of the schema, filled into many maps) and whether one of their maps holds a key
    /// twice, looked at once each.
    collection_defaults: std::collections::HashMap<*const Node, bool, crate::value::FxBuild>,
    /// The field of each item of the maps being walked, a map's after its parents' (`NONE` for
    /// an undeclared key, marked `REPEATED` after the field's first item): one buffer for the
    /// whole walk.
    fields: Vec<u32>,
    /// The indexes of the map types' fields, kept from walk to walk by the caller.
    indexes: FieldIndexes,
    /// [`crate::shared_defaults::changed_in_run`], asked once for a walk that cannot change
    /// it (one into plain data), `None` for one that asks each time.
    defaults_changed: Option<bool>,
    /// How many maps the node being walked is in.
    depth: usize,
    /// The keys of the last map walked at each depth and their fields (see
    /// [`LastMapKeys`]; a key held, so that no other key takes its address while it is here).
    orders: Vec<LastMapKeys<Key>>,
    /// Whether some map type of the schema has a NaN key
    /// ([`crate::schema::FieldIndexes::nan_keys`]): only then are a map's missing fields looked
    /// at for them.
    nan_keys: bool,
}

/// An item of [`FillAndCheck::fields`] whose key its map does not declare.
const NONE: u32 = u32::MAX;
/// The mark of an item of [`FillAndCheck::fields`] whose field an earlier item has.
const REPEATED: u32 = 1 << 31;

impl FillAndCheck {
    /// Checks what `tree` holds and fills in its defaults (unless `fill` is false: the second
    /// item of a repeated key, which ytt leaves as it is): into the tree, or, if `plain`, into
    /// the plain data of the tree that it returns, taking the tree's contents (and freeing its
    /// maps and arrays). Returns null when not `plain`.
    fn node(&mut self, tree: &mut Tree, ty: &Type, fill: bool, plain: bool) -> Value {
        if matches!(ty.kind, Kind::Any)
            || (ty.nullable && matches!(tree.value, TreeValue::Scalar(Value::Null)))
        {
            return self.take(&mut tree.value, plain);
        }
        if let Some(go_type) = go_value_type(tree) {
            self.out.push(TypeViolation {
                found: go_type.to_string(),
                collection_for_scalar: false,
                ..mismatch(tree, ty)
            });
            return self.take(&mut tree.value, plain);
        }
        // Keys filled into a map of the tree (not its plain data), which may be a shared default.
        let mut filled = false;
        let value = match (&ty.kind, &mut tree.value) {
            (Kind::Scalar(s), TreeValue::Scalar(v)) if s.accepts(v) => {
                self.take(&mut tree.value, plain)
            }
            (Kind::Map(fields), TreeValue::Map(items)) => {
                // Made only for a key the last map of this type did not hold at its place.
                let mut declared = None;
                let (mut order, repeats) = self.take_order(fields);
                let base = self.fields.len();
                let mut seen = FieldSet::new(fields.len());
                for (k, item) in items.iter().enumerate() {
                    let key = match &item.kind {
                        TreeKind::MapItem(key) => Some(key),
                        _ => None,
                    };
                    let known = key.and_then(|key| order.known(k, key));
                    let found = known.unwrap_or_else(|| {
                        let found = declared
                            .get_or_insert_with(|| self.indexes.fields(ty, items.len()))
                            .position(key_of(item));
                        // Kept only where the last map was of this type too: a depth whose
                        // maps are of another type each time (the groups of a map of many
                        // groups) would keep keys it never uses.
                        if let Some(key) = key.filter(|_| repeats) {
                            order.record(k, key.clone(), found);
                        }
                        found
                    });
                    match found {
                        Some(i) => {
                            let repeated = if seen.insert(i) {
                                0
                            } else {
                                self.keys_may_repeat = true;
                                REPEATED
                            };
                            self.fields.push(i as u32 | repeated);
                        }
                        None => {
                            self.fields.push(NONE);
                            self.out.push(undeclared(item, ty, fields));
                        }
                    }
                }
                self.orders[self.depth] = order;
                let missing = if fill { fields.len() - seen.len } else { 0 };
                // A NaN key equals no key, not even the schema's own: ytt fills the field's
                // default in beside a given one and finds that undeclared too.
                let nan_fields = if self.nan_keys && missing > 0 {
                    fields.as_slice()
                } else {
                    &[]
                };
                for (i, field) in nan_fields.iter().enumerate() {
                    if is_nan(&field.key) && !seen.contains(i) {
                        let item = crate::shared_defaults::default_item(field);
                        self.out.push(undeclared(&item, ty, fields));
                    }
                }
                let mut entries = crate::value::Entries::with_capacity(if plain {
                    items.len() + missing
                } else {
                    0
                });
                // The maps under this one are the next depth's.
                self.depth += 1;
                for (k, item) in items.iter_mut().enumerate() {
                    let field = self.fields[base + k];
                    let value = if field == NONE {
                        self.take(&mut item.value, plain)
                    } else {
                        let first = field & REPEATED == 0;
                        let ty = &fields[(field & !REPEATED) as usize].ty;
                        self.node(item, ty, fill && first, plain)
                    };
                    if plain {
                        let key = match &mut item.kind {
                            // A declared string key is the schema's own (the same text): shared.
                            TreeKind::MapItem(key) if field != NONE && key.as_str().is_some() => {
                                fields[(field & !REPEATED) as usize].key.clone()
                            }
                            TreeKind::MapItem(key) => std::mem::take(key),
                            _ => Key::default(),
                        };
                        entries.push(MapEntry {
                            key,
                            value: Node::new(value, item.pos),
                        });
                    }
                }
                self.depth -= 1;
                self.fields.truncate(base);
                let defaults = fields
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| missing > 0 && !seen.contains(i));
                if plain {
                    for (_, field) in defaults {
                        let value = self.default_value(field);
                        entries.push(MapEntry {
                            key: field.key.clone(),
                            value,
                        });
                    }
                    // The tree's items are walked: freed now rather than with the whole tree.
                    *items = Vec::new();
                    Value::Map(entries)
                } else {
                    items.reserve(missing);
                    filled = missing > 0;
                    for (_, field) in defaults {
                        let mut item = crate::shared_defaults::default_item(field);
                        if crate::shared_defaults::changed_in_run() {
                            self.node(&mut item, &field.ty, true, false);
                        }
                        items.push(item);
                    }
                    Value::Null
                }
            }
            (Kind::Array(item_ty), TreeValue::Array(items)) if plain => {
                Value::Array(self.array_into_plain(std::mem::take(items), item_ty, fill))
            }
            (Kind::Array(item_ty), TreeValue::Array(items)) => {
                for item in items.iter_mut() {
                    self.node(item, item_ty, fill, false);
                }
                Value::Null
            }
            _ => {
                self.out.push(mismatch(tree, ty));
                self.take(&mut tree.value, plain)
            }
        };
        // ytt fills the keys into the shared node itself: every map that holds it, and every
        // map filled with it later, holds them too, and a later overlay finds them there.
        if let Some(key) = filled
            .then(|| crate::shared_defaults::shared_key(tree))
            .flatten()
        {
            crate::shared_defaults::put(key, &tree.value);
        }
        value
    }

    /// What the last map at this depth held (see [`LastMapKeys`]), started for a map of type
    /// `fields`, and whether the last map there was of this type; put back once its items are
    /// looked up.
    fn take_order(&mut self, fields: &[Field]) -> (LastMapKeys<Key>, bool) {
        if self.orders.len() <= self.depth {
            self.orders
                .resize_with(self.depth + 1, LastMapKeys::default);
        }
        let mut order = std::mem::take(&mut self.orders[self.depth]);
        let repeats = order.start(fields);
        (order, repeats)
    }

    /// The plain data of an array's items, checked against `item_ty`, the tree's vector given
    /// back as it is consumed: the items are taken from its back and the pages of its emptied
    /// tail are returned to the system (see [`crate::spare_pages`]; a large array's emptied
    /// vector of 64-byte trees was a tenth of the peak), not copied into a smaller block (which
    /// raised the resident peak under mimalloc). The nodes are made back to front and
    /// reversed; each item's violations are put back in the walk's order (ytt's: front to back).
    fn array_into_plain(&mut self, mut items: Vec<Tree>, item_ty: &Type, fill: bool) -> Items {
        let mut nodes = Items::with_capacity(items.len());
        let first_violation = self.out.len();
        // Where each item's violations end in `out`, from the last item's: only for items
        // with some, so that an array that conforms records nothing.
        let mut ends = Vec::new();
        let mut spare = crate::spare_pages::SparePages::new(&items);
        while let Some(mut item) = items.pop() {
            let value = self.node(&mut item, item_ty, fill, true);
            nodes.push(Node::new(value, item.pos));
            if self.out.len() > ends.last().copied().unwrap_or(first_violation) {
                ends.push(self.out.len());
            }
            spare.release(&items);
        }
        nodes.reverse();
        if !ends.is_empty() {
            // The items' runs of violations, last item's first: the whole reversed, then each
            // run reversed back, puts the runs in the items' order and each run in its own.
            let walked = &mut self.out[first_violation..];
            walked.reverse();
            let total = walked.len();
            let mut start = 0;
            let mut previous_end = first_violation;
            for end in ends {
                let len = end - previous_end;
                // Run `k` (last item's first) lands at the reversed slice's end.
                walked[total - start - len..total - start].reverse();
                start += len;
                previous_end = end;
            }
        }
        nodes
    }

    /// The plain data of a part taken as it is (if `plain`; else null), which may hold a map
    /// with a key twice: not looked at here.
    fn take(&mut self, value: &mut TreeValue, plain: bool) -> Value {
        if !plain {
            return Value::Null;
        }
        let value = value.take_value();
        self.keys_may_repeat |= value.is_collection();
        value
    }

    /// A field's default as plain data (see [`crate::shared_defaults`]), and whether a map in
    /// it holds a key twice.
    fn default_value(&mut self, field: &Field) -> Node {
        let default = &field.ty.default;
        if default.value.is_collection() {
            let repeats = *self
                .collection_defaults
                .entry(default as *const Node)
                .or_insert_with(|| default.first_repeated_key().is_some());
            self.keys_may_repeat |= repeats;
        }
        let changed = self
            .defaults_changed
            .unwrap_or_else(crate::shared_defaults::changed_in_run);
        if changed {
            // A shared default an overlay changed may lack a key or hold one twice: walked as
            // ytt's type check walks the shared node it fills in.
            let mut item = crate::shared_defaults::default_item(field);
            let value = self.node(&mut item, &field.ty, true, true);
            return Node::new(value, item.pos);
        }
        if !default.value.is_collection() {
            // A scalar's default is no shared node: the schema's value (what `default_node`
            // gives, without the call).
            return default.clone();
        }
        crate::shared_defaults::default_node(field)
    }

    /// The violations found, as ytt reports them: only those of collections given for a
    /// scalar, when there are some.
    fn violations(self) -> Vec<TypeViolation> {
        let mut out = self.out;
        if out.iter().any(|v| v.collection_for_scalar) {
            out.retain(|v| v.collection_for_scalar);
        }
        out
    }
}

/// Which fields of a map type its items have met.
struct FieldSet {
    /// Fields 0 to 127 (most maps); `more` holds the rest.
    bits: u128,
    more: Vec<bool>,
    len: usize,
}

impl FieldSet {
    fn new(fields: usize) -> FieldSet {
        FieldSet {
            bits: 0,
            more: vec![false; fields.saturating_sub(128)],
            len: 0,
        }
    }

    fn contains(&self, i: usize) -> bool {
        match i.checked_sub(128) {
            None => self.bits & (1 << i) != 0,
            Some(j) => self.more[j],
        }
    }

    /// Records field `i`; whether it is new.
    fn insert(&mut self, i: usize) -> bool {
        if self.contains(i) {
            return false;
        }
        match i.checked_sub(128) {
            None => self.bits |= 1 << i,
            Some(j) => self.more[j] = true,
        }
        self.len += 1;
        true
    }
}

/// The Go type of a value an overlay's `via=` function gave as a Starlark collection (see
/// [`crate::template::GO_VALUE`]): ytt's type check finds neither a map nor an array there,
/// whatever the type.
fn go_value_type(tree: &Tree) -> Option<&'static str> {
    tree.ann(crate::template::GO_VALUE)?;
    crate::template::go_value::go_type_name(&tree.value)
}

/// The violation of a value whose kind is not its type's.
fn mismatch(tree: &Tree, ty: &Type) -> TypeViolation {
    let collection = matches!(tree.value, TreeValue::Map(_) | TreeValue::Array(_));
    // A collection is quoted at its own node where that differs from its item's; one that
    // Starlark code gave as a list or dict has no position in ytt.
    let value_pos = tree.ann(crate::template::VALUE_POS).filter(|_| collection);
    let from_code = collection && tree.ann(crate::template::STARLARK_COLLECTION).is_some();
    // A fragment function's collection is at the document of its `def`.
    let def_document = tree
        .ann(crate::template::VALUE_DOCUMENT_POS)
        .filter(|_| collection);
    TypeViolation {
        pos: match (value_pos, def_document) {
            _ if from_code => Pos::unknown(),
            (_, Some(a)) | (Some(a), None) => a.pos,
            (None, None) => tree.pos,
        },
        description: None,
        found: tree.value.type_name().to_string(),
        expected: format!("{} (by {})", ty.name(), ty.pos),
        hints: Vec::new(),
        collection_for_scalar: collection,
        document: tree.kind == TreeKind::Document || def_document.is_some(),
    }
}

/// The line ytt quotes for a document at `pos`: ytt reads a text that does not start with `---`
/// as one that has a `---` line first
/// ([`crate::yaml::parse::starts_with_document_marker`]), and quotes that line, empty.
pub fn document_line<'a>(sources: &'a SourceLines, pos: &Pos) -> &'a str {
    let line = sources.line_at(pos);
    let own_start = crate::yaml::parse::starts_document(line) || line.starts_with('%');
    if !own_start && !crate::yaml::parse::starts_with_document_marker(sources.text_at(pos)) {
        ""
    } else {
        line
    }
}

/// Whether a map of `ty`'s defaults (its map fields, and theirs, down to a nullable type) has
/// a NaN key.
pub fn defaults_nan_key(ty: &Type) -> bool {
    match &ty.kind {
        Kind::Map(fields) if !ty.nullable => fields
            .iter()
            .any(|f| is_nan(&f.key) || defaults_nan_key(&f.ty)),
        _ => false,
    }
}

/// A map item's key (`null` for a node that is not a map item).
fn key_of(item: &Tree) -> &Value {
    static NO_KEY: Value = Value::Null;
    item.key().unwrap_or(&NO_KEY)
}

/// The violation of a map item whose key `map` does not declare.
fn undeclared(item: &Tree, map: &Type, fields: &[Field]) -> TypeViolation {
    let key = key_of(item).go_percent_v();
    // As ytt, the declared keys sorted, as Go's `%s` writes them.
    let mut names: Vec<String> = fields.iter().map(|f| f.key.go_percent_s()).collect();
    names.sort();
    let expected = match names.len() {
        1 => format!(
            "a map item with the key named \"{}\" (from {})",
            names[0], map.pos
        ),
        2..=9 => format!("one of {{ {} }} (from {})", names.join(", "), map.pos),
        _ => format!("a key declared in map (from {})", map.pos),
    };
    // ytt's hint is starlark-go's spelling hint (its `spell.Nearest`).
    let candidates: Vec<&str> = names.iter().map(String::as_str).collect();
    let hints = crate::spell::nearest(&key, &candidates)
        .map(|best| format!("did you mean \"{best}\"?"))
        .into_iter()
        .collect();
    TypeViolation {
        pos: item.pos,
        description: Some("Given data value is not declared in schema".into()),
        found: key,
        expected,
        hints,
        collection_for_scalar: false,
        document: false,
    }
}

#[cfg(test)]
mod tests;
