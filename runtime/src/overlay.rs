//! Overlaying data values documents, with ytt's overlay semantics for data values.
//!
//! Maps merge item by item; a key that matches nothing is an error unless `missing_ok`;
//! arrays append (or, for plain values files and flags, replace); `#@overlay/match` (`by=`
//! keys, matchers or functions; `expects=`, `missing_ok=`), `#@overlay/merge`,
//! `#@overlay/replace` (`via=`, `or_add=`), `#@overlay/remove`, `#@overlay/insert`
//! (`before=`/`after=`, `via=`), `#@overlay/append`, `#@overlay/assert` (`via=`) and
//! `#@overlay/match-child-defaults` change that per node.

mod array_item;
mod assert;
mod expects;
mod kept;
mod matcher;
mod replaced;

use crate::shared_defaults;
use crate::template::tree::{Ann, Returned, Tree, TreeKind, TreeValue};
use crate::validate::Predicates;
use crate::value::{KeyIndex, Node, Pos, Value};
use array_item::merge_array_item;
use assert::{assert_matched, assertion, merge_after_assertion};
use expects::ChildDefaults;
pub use kept::KeptIndex;
use kept::{Below, MapMerge};
use matcher::{call, via_function, Matcher};
pub use matcher::{not_a_map, same_key, subset};
use replaced::{put_returned, replacement, take_value_marks};

/// What calls the functions overlay annotations take (`by=lambda ...`, `via=lambda ...`):
/// the run's interpreter, or none (overlays of schema documents).
pub type Calls<'c> = Option<&'c dyn Predicates>;

/// How many array items `#@overlay/match by=...` may test in one run (a call of a `by=`
/// function counts as ten): each item of an overlay is tested against every item of the array
/// it overlays, so 50,000 items matched by name onto 50,000 take 2.5 billion tests (67 s; ytt
/// takes 87 s for 5,000). Raised with `SCHEMAC_MAX_OVERLAY_MATCHES`.
pub const DEFAULT_MAX_OVERLAY_MATCHES: u64 = crate::budget_vars::MAX_OVERLAY_MATCHES.default;

thread_local! {
    /// The array items tested since the run started ([`start_run`]).
    static TESTED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Starts counting the array items a run's overlays test against the budget
/// ([`DEFAULT_MAX_OVERLAY_MATCHES`]).
pub fn start_run() {
    TESTED.with(|t| t.set(0));
}

fn max_overlay_matches() -> u64 {
    static MAX: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *MAX.get_or_init(|| crate::budget_vars::MAX_OVERLAY_MATCHES.get())
}

/// Charges the cost of the array items about to be tested by the matcher of the item at
/// `path` ([`Matcher::cost`] each).
fn charge_tests(cost: u64, path: &Path) -> Result<(), OverlayError> {
    let tested = TESTED.with(|t| {
        t.set(t.get().saturating_add(cost));
        t.get()
    });
    if tested > max_overlay_matches() {
        return Err(path.error(format!(
            "overlay stopped: more than {} array items tested by '@overlay/match' in this run (raise the budget with SCHEMAC_MAX_OVERLAY_MATCHES)",
            max_overlay_matches()
        )));
    }
    Ok(())
}

/// How a document is applied.
#[derive(Clone, Copy, Debug, Default)]
pub struct Mode {
    /// Keys that match nothing are added (flags, `--data-values-file`).
    pub missing_ok: bool,
    /// Arrays replace instead of appending (flags, `--data-values-file`).
    pub replace_arrays: bool,
    /// A matched node takes the `@assert/validate` of the node overlaid on it (data values
    /// without a schema; with a schema, ytt ignores those rules except on added array items).
    pub transfer_validations: bool,
}

fn transfer(left: &mut Tree, right_anns: &[Ann], mode: Mode) {
    if mode.transfer_validations {
        // The node that was there first keeps its rules (ytt ignores a later node's).
        if let Some(ann) = Ann::find(right_anns, crate::validate::ASSERT_VALIDATE) {
            if left.ann(crate::validate::ASSERT_VALIDATE).is_none() {
                left.anns.push(ann.clone());
            }
        }
    }
}

/// An overlay failure, with the chain of nodes that leads to it.
#[derive(Debug, Clone, PartialEq)]
pub struct OverlayError {
    /// `Document on line v.yml:2`, `Map item (key 'x') on line v.yml:3`, ...
    pub context: Vec<String>,
    pub message: String,
}

impl OverlayError {
    pub fn render(&self) -> String {
        let mut parts = self.context.clone();
        parts.push(self.message.clone());
        parts.join(": ")
    }
}

/// The nodes from the document down to the one being overlaid, described only when an error
/// names them.
struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    kind: &'a TreeKind,
    pos: &'a Pos,
}

impl<'a> Path<'a> {
    fn of(node: &'a Tree, parent: Option<&'a Path<'a>>) -> Path<'a> {
        Path::at(&node.kind, &node.pos, parent)
    }

    /// The path to a node of this kind at `pos` (borrowing only those fields of the node).
    fn at(kind: &'a TreeKind, pos: &'a Pos, parent: Option<&'a Path<'a>>) -> Path<'a> {
        Path { parent, kind, pos }
    }

    fn describe(&self) -> String {
        match self.kind {
            TreeKind::Document => format!("Document on line {}", self.pos),
            TreeKind::MapItem(k) => {
                format!("Map item (key '{}') on line {}", k.go_percent_s(), self.pos)
            }
            TreeKind::ArrayItem => format!("Array item on line {}", self.pos),
        }
    }

    fn error(&self, message: impl Into<String>) -> OverlayError {
        let mut context = Vec::new();
        let mut at = Some(self);
        while let Some(p) = at {
            context.push(p.describe());
            at = p.parent;
        }
        context.reverse();
        OverlayError {
            context,
            message: message.into(),
        }
    }
}

/// Whether the annotation was given the keyword argument `name`, data or not.
fn has_kwarg(ann: &Ann, name: &str) -> bool {
    ann.kwargs.iter().any(|(k, _)| k == name)
}

pub(super) fn kwarg<'a>(ann: &'a Ann, name: &str) -> Option<std::borrow::Cow<'a, Node>> {
    ann.kwargs
        .iter()
        .find(|(k, _)| k == name)
        .and_then(|(_, a)| a.to_data(ann.pos))
}

pub(super) fn truthy(node: Option<&Node>) -> bool {
    matches!(node.map(|n| &n.value), Some(Value::Bool(true)))
}

/// Applies a document onto `left` (the current result, or `None` for the first document). The
/// document's nodes move into the result.
pub fn apply_document(
    left: Option<Tree>,
    doc: Tree,
    mode: Mode,
    calls: Calls,
) -> Result<Tree, OverlayError> {
    apply_document_indexed(left, doc, mode, calls, &mut KeptIndex::default())
}

/// [`apply_document`] with the index of the result's top map kept in `kept`; every way of
/// applying the document but merging its map into the result's forgets it.
pub fn apply_document_indexed(
    left: Option<Tree>,
    mut doc: Tree,
    mode: Mode,
    calls: Calls,
    kept: &mut KeptIndex,
) -> Result<Tree, OverlayError> {
    let merges_maps = matches!(
        (&left, &doc.value),
        (
            Some(Tree {
                value: TreeValue::Map(_),
                ..
            }),
            TreeValue::Map(_)
        )
    ) && ![
        "overlay/replace",
        "overlay/insert",
        "overlay/append",
        "overlay/assert",
    ]
    .iter()
    .any(|op| doc.ann(op).is_some());
    if !merges_maps {
        kept.forget();
    }
    if let Some(current) = &left {
        check_annotations(&doc, None)?;
        // ytt matches the document with the one result so far, whatever its `by=`, and counts
        // that match as any node's (`#@overlay/append` matches nothing): a `when=` not met
        // leaves the document out.
        let counted = match doc.ann("overlay/append") {
            Some(_) => true,
            None => ChildDefaults::default()
                .expects(&doc, mode)
                .met(1, &|| vec![current.pos.to_string()], calls)
                .map_err(|e| Path::of(&doc, None).error(e))?,
        };
        if !counted {
            return Ok(left.unwrap_or(doc));
        }
    }
    // ytt overlays the document set and keeps its first document: one inserted before the
    // result takes its place, as a replacement does; one appended or inserted after it is
    // dropped.
    let insert = doc.ann("overlay/insert");
    if left.is_some() {
        insert_position_given(&doc, &Path::of(&doc, None))?;
    }
    let before = insert.is_some_and(|a| truthy(kwarg(a, "before").as_deref()));
    match left {
        None => Ok(doc),
        Some(_) if doc.ann("overlay/replace").is_some() => Ok(doc),
        Some(left) if before => {
            // Its value what `via=` (if given) makes of the result's and its own.
            let path = Path::at(&doc.kind, &doc.pos, None);
            let via = insert.map(via_function).transpose();
            if let Some(f) = via.map_err(|e| path.error(e))?.flatten() {
                let returned =
                    call(calls, &f, &[&left.value, &doc.value]).map_err(|e| path.error(e))?;
                put_returned(&mut doc, returned);
            }
            Ok(doc)
        }
        Some(left) if insert.is_some() || doc.ann("overlay/append").is_some() => Ok(left),
        Some(mut left) if doc.ann("overlay/assert").is_some() => {
            let path = Path::at(&doc.kind, &doc.pos, None);
            let assert = Ann::find(&doc.anns, "overlay/assert").expect("checked above");
            assertion(assert, &left.value, &doc.value, calls).map_err(|e| path.error(e))?;
            let old = std::mem::take(&mut left.value);
            let defaults = ChildDefaults::default();
            left.value = merge_after_assertion(
                old,
                doc.value.clone(),
                &doc.anns,
                mode,
                calls,
                &defaults,
                &path,
            )?;
            Ok(left)
        }
        Some(mut left) => {
            let right = std::mem::take(&mut doc.value);
            // A plain file's array or scalar replaces the whole document, and an array or a
            // map that replaces the document's value (a nullable schema's null) is a node of
            // the new document: the result is at its position (where the type check reports
            // it). Another scalar is the old document's value.
            let collection = matches!(right, TreeValue::Map(_) | TreeValue::Array(_));
            let new_collection = collection && !merges_in_place(&left.value, &right, mode);
            if new_collection || (!matches!(right, TreeValue::Map(_)) && mode.replace_arrays) {
                left.pos = doc.pos;
            }
            let path = Path::of(&doc, None);
            let defaults = ChildDefaults::default();
            left.value = match (std::mem::take(&mut left.value), right) {
                (TreeValue::Map(mut entries), TreeValue::Map(items)) if merges_maps => {
                    let defaults = defaults.under(&doc.anns);
                    let to = MapMerge {
                        mode,
                        calls,
                        defaults: &defaults,
                        path: &path,
                    };
                    to.items(&mut entries, items, Some(kept))?;
                    TreeValue::Map(entries)
                }
                (old, right) => {
                    merge_value(old, right, &doc.anns, mode, calls, &defaults, &path, None)?
                }
            };
            transfer(&mut left, &doc.anns, mode);
            Ok(left)
        }
    }
}

/// `overlay.apply(left, right)`: ytt's overlay of the documents it makes of two values (YAML
/// fragments or plain Starlark data): maps merge, arrays append, and the `#@overlay/...`
/// annotations of a fragment's nodes apply. At the top, a scalar `right` (`None` too) leaves
/// `left` as it is, and a collection needs a `left` of its type (`None` is no map here,
/// unlike a node's value inside). The documents themselves are not named in errors.
pub fn apply_values(
    left: TreeValue,
    right: TreeValue,
    calls: Calls,
) -> Result<TreeValue, OverlayError> {
    let expected = match &right {
        TreeValue::Scalar(_) => return Ok(left),
        TreeValue::Map(_) => "map",
        TreeValue::Array(_) => "array",
    };
    if let TreeValue::Scalar(Value::Null) = left {
        return Err(OverlayError {
            context: Vec::new(),
            message: format!("Expected {expected}, but was null"),
        });
    }
    let document = TreeKind::Document;
    let pos = Pos::unknown();
    let path = Path::at(&document, &pos, None);
    let defaults = ChildDefaults::default();
    merge_value(
        left,
        right,
        &[],
        Mode::default(),
        calls,
        &defaults,
        &path,
        None,
    )
    .map(|mut merged| {
        without_overlay_annotations(&mut merged);
        merged
    })
    .map_err(|mut e| {
        e.context.remove(0);
        e
    })
}

/// Drops the `#@overlay/...` annotations of every node of `value`, as ytt does to what an
/// overlay made (a document it appended is no longer `#@overlay/append` to the data values).
fn without_overlay_annotations(value: &mut TreeValue) {
    if let TreeValue::Map(items) | TreeValue::Array(items) = value {
        for item in items {
            item.anns.retain(|a| !a.name.starts_with("overlay/"));
            without_overlay_annotations(&mut item.value);
        }
    }
}

/// Overlays `right` (the value of the node at `path`, annotated with `right_anns`) onto `left`;
/// `kept` holds the index of `left`'s map when the caller keeps it.
#[allow(clippy::too_many_arguments)]
fn merge_value(
    left: TreeValue,
    right: TreeValue,
    right_anns: &[Ann],
    mode: Mode,
    calls: Calls,
    defaults: &ChildDefaults,
    path: &Path,
    kept: Option<&mut KeptIndex>,
) -> Result<TreeValue, OverlayError> {
    let (left_is_document_set, right_is_document_set) =
        (left.is_document_set(), right.is_document_set());
    match right {
        TreeValue::Map(items) => {
            let defaults = defaults.under(right_anns);
            let mut entries = match left {
                TreeValue::Map(entries) => entries,
                TreeValue::Scalar(Value::Null) => return Ok(TreeValue::Map(items)),
                other => {
                    return Err(path.error(format!("Expected map, but was {}", other.type_name())))
                }
            };
            let to = MapMerge {
                mode,
                calls,
                defaults: &defaults,
                path,
            };
            to.items(&mut entries, items, kept)?;
            Ok(TreeValue::Map(entries))
        }
        TreeValue::Array(mut items) => {
            let wanted = match right_is_document_set {
                true => "document set",
                false => "array",
            };
            if mode.replace_arrays {
                // A plain file's or a flag's array replaces whatever was there (a map or a
                // scalar too: the type check then reports it, as ytt does).
                return Ok(TreeValue::Array(items));
            }
            // (A document set onto an array, or an array onto one, is no array merge.)
            let mut elems = match left {
                TreeValue::Array(elems) if left_is_document_set == right_is_document_set => elems,
                TreeValue::Scalar(Value::Null) => return Ok(TreeValue::Array(items)),
                other => {
                    let found = other.type_name();
                    return Err(path.error(format!("Expected {wanted}, but was {found}")));
                }
            };
            if items.iter().all(array_item::appended_as_it_is) {
                // A values file's array onto the schema's default, most often empty, which
                // then takes the file's vector whole rather than growing a copy of it.
                if elems.is_empty() {
                    return Ok(TreeValue::Array(items));
                }
                elems.append(&mut items);
                return Ok(TreeValue::Array(elems));
            }
            let defaults = defaults.under(right_anns);
            elems.reserve(items.len());
            for item in items {
                merge_array_item(&mut elems, item, mode, calls, &defaults, path)?;
            }
            Ok(TreeValue::Array(elems))
        }
        scalar @ TreeValue::Scalar(_) => Ok(scalar),
    }
}

/// A map item's key (`null` for a node that is not a map item).
fn key_of(item: &Tree) -> &Value {
    static NO_KEY: Value = Value::Null;
    item.key().unwrap_or(&NO_KEY)
}

/// The keyword arguments each overlay annotation takes; ytt rejects any other.
const OVERLAY_KWARGS: &[(&str, &[&str])] = &[
    ("overlay/match", &["by", "expects", "missing_ok", "when"]),
    (
        "overlay/match-child-defaults",
        &["expects", "missing_ok", "when"],
    ),
    ("overlay/replace", &["via", "or_add"]),
    ("overlay/assert", &["via"]),
    ("overlay/insert", &["before", "after", "via"]),
];

/// The annotations that say what is done with a matched node; a node takes at most one.
const OPERATIONS: &[&str] = &[
    "overlay/merge",
    "overlay/remove",
    "overlay/replace",
    "overlay/insert",
    "overlay/append",
    "overlay/assert",
];

/// ytt's errors for the overlay annotations of `item`: more than one operation, a keyword
/// argument an annotation does not take, or a `via=` of `#@overlay/replace` that is no function.
fn check_annotations(item: &Tree, parent: Option<&Path>) -> Result<(), OverlayError> {
    // ytt keeps one annotation of each name (the last): an operation given twice is one.
    let operations = OPERATIONS
        .iter()
        .filter(|op| item.ann(op).is_some())
        .count();
    if operations > 1 {
        return Err(Path::of(item, parent).error("Expected to find only one overlay operation"));
    }
    for ann in Ann::counted(&item.anns) {
        let Some((_, known)) = OVERLAY_KWARGS.iter().find(|(name, _)| *name == ann.name) else {
            continue;
        };
        if let Some((k, _)) = ann
            .kwargs
            .iter()
            .find(|(k, _)| !known.contains(&k.as_str()))
        {
            return Err(Path::of(item, parent).error(format!(
                "Unknown '{}' annotation keyword argument '{k}'",
                ann.name
            )));
        }
    }
    // ytt reads `#@overlay/replace`'s `via=` when it reads the annotation, before anything is
    // matched (a `via=` that is no function fails even where nothing matches).
    if let Some(replace) = item.ann("overlay/replace") {
        via_function(replace).map_err(|e| Path::of(item, parent).error(e))?;
    }
    Ok(())
}

/// The new node's value for each of `n` matches: copies, and the value itself for the last
/// (made as they are taken: one match, the common case, copies nothing and allocates nothing).
fn one_per_match(value: TreeValue, n: usize) -> impl Iterator<Item = TreeValue> {
    let mut value = Some(value);
    (0..n).map(move |k| {
        if k + 1 == n {
            value.take().unwrap_or_default()
        } else {
            value.clone().unwrap_or_default()
        }
    })
}

/// The key under which the collection `value` is shared (see [`shared_defaults::new_key`])
/// when it matched `n` items: ytt sets its one node as the value of each matched item whose
/// value was null (any other is merged into, or an error).
fn shared_replacement(value: &TreeValue, n: usize) -> Option<usize> {
    let collection = matches!(value, TreeValue::Map(_) | TreeValue::Array(_));
    (n > 1 && collection)
        .then(shared_defaults::new_key)
        .flatten()
}

/// Merges `value` into the value of `node`, an item that an overlay item at `item_pos`
/// matched. A node whose value is a shared collection (see [`crate::shared_defaults`]) is
/// merged into where the collection is kept. A value that is replaced rather than merged takes
/// the overlay item's position, is no longer shared, is adjusted by `replaced`, and becomes the
/// shared collection `shared_new` if given (see [`shared_replacement`]). `merge` gets the old
/// value, the new one and whether the old one is the node's own (not a shared collection).
/// Returns whether the node's own value was merged in place.
fn merge_matched(
    node: &mut Tree,
    item_pos: Pos,
    value: TreeValue,
    shared_new: Option<usize>,
    mode: Mode,
    replaced: impl FnOnce(&mut Tree),
    merge: impl FnOnce(TreeValue, TreeValue, bool) -> Result<TreeValue, OverlayError>,
) -> Result<bool, OverlayError> {
    let left = std::mem::take(&mut node.value);
    let in_place = merges_in_place(&left, &value, mode);
    let shared = shared_defaults::shared_key(node).filter(|_| in_place);
    let (left, own) = match shared.and_then(shared_defaults::take) {
        Some(current) => (current, false),
        None => (left, true),
    };
    if !in_place {
        shared_defaults::unmark(node);
        node.pos = item_pos;
        replaced(node);
    }
    let merged = merge(left, value, own)?;
    if let Some(key) = shared {
        shared_defaults::put(key, &merged);
    }
    node.value = merged;
    if let Some(key) = shared_new.filter(|_| !in_place) {
        shared_defaults::share(node, key);
    }
    Ok(in_place && own)
}

/// The node's one operation (its last annotation of that name, as ytt keeps it).
fn operation(item: &Tree) -> Option<&Ann> {
    item.anns
        .iter()
        .rev()
        .find(|a| OPERATIONS.contains(&a.name.as_str()))
}

/// The value of the node added where `item` matched nothing, when it is not the node's own:
/// for a replacement (`or_add=True`), what its `via=` function makes of no value (None) and
/// the new one, as ytt replaces no node.
fn added_unmatched(
    item: &Tree,
    calls: Calls,
    path: &Path,
) -> Result<Option<Returned>, OverlayError> {
    if operation(item).is_none_or(|op| op.name != "overlay/replace") {
        return Ok(None);
    }
    let null = TreeValue::Scalar(Value::Null);
    replacement(item, &null, item.value.clone(), calls, path).map(Some)
}

/// Whether a node that matched nothing (and was allowed to) is added: a merge is, a
/// replacement only with `or_add=True`; a removal or an insertion does nothing.
fn added_when_unmatched(item: &Tree) -> bool {
    match operation(item) {
        None => true,
        Some(op) if op.name == "overlay/merge" => true,
        Some(op) if op.name == "overlay/replace" => truthy(kwarg(op, "or_add").as_deref()),
        Some(_) => false,
    }
}

/// Merges `item` into the map `entries`, whose keys `index` finds (and whose maps' kept
/// indexes are `below`, when they are kept).
#[allow(clippy::too_many_arguments)]
fn merge_map_item(
    entries: &mut Vec<Tree>,
    index: &mut KeyIndex,
    mut below: Option<&mut Below>,
    mut item: Tree,
    mode: Mode,
    calls: Calls,
    defaults: &ChildDefaults,
    parent: &Path,
) -> Result<(), OverlayError> {
    let path = Path::at(&item.kind, &item.pos, Some(parent));
    map_item_annotations_allowed(&item, &path)?;
    let expects = defaults.expects(&item, mode);
    // `by=` (`overlay.all`, `overlay.subset(...)`, `"name"`: the items' values compared on
    // their `name`, ...) is tried on every item of the map; without it the items with the same
    // key match.
    let by_key;
    let mut matched = Vec::new();
    let by = item.ann("overlay/match").map(Matcher::of);
    if let Some(by) = &by {
        by.check().map_err(|e| path.error(e))?;
    }
    let matches: &[usize] = match by {
        Some(Matcher::Nothing) | None => {
            let key = key_of(&item);
            by_key = index.find(entries, key);
            match by_key.and_then(|first| index.find_repeat(entries, key, first)) {
                // A map read from YAML may hold a key twice: each of its items matches.
                Some(second) => {
                    matched.extend(by_key);
                    matched.extend(std::iter::successors(Some(second), |&i| {
                        index.find_repeat(entries, key, i)
                    }));
                    &matched
                }
                None => by_key.as_slice(),
            }
        }
        Some(by) => {
            for (i, entry) in entries.iter().enumerate() {
                if by
                    .matches(key_of(entry), &entry.value, &item.value, calls)
                    .map_err(|e| path.error(e))?
                {
                    matched.push(i);
                }
            }
            &matched
        }
    };
    let lines = || {
        matches
            .iter()
            .map(|&i| entries[i].pos.to_string())
            .collect()
    };
    if !expects
        .met(matches.len(), &lines, calls)
        .map_err(|e| path.error(e))?
    {
        return Ok(());
    }
    if matches.is_empty() {
        if added_when_unmatched(&item) {
            if let Some(returned) = added_unmatched(&item, calls, &path)? {
                put_returned(&mut item, returned);
            }
            entries.push(item);
            index.pushed(entries);
        }
        return Ok(());
    }
    // The kept indexes of the matched maps are taken out (below): only a merge in place puts
    // them back.
    if item.ann("overlay/assert").is_some() {
        if let Some(below) = below {
            matches.iter().for_each(|&i| drop(below.take(i)));
        }
        return assert_matched(entries, matches, &item, mode, calls, defaults, &path);
    }
    if item.ann("overlay/remove").is_some() {
        for &i in matches.iter().rev() {
            entries.remove(i);
        }
        index.removed(entries, matches.len());
        if let Some(below) = below {
            below.clear();
        }
        return Ok(());
    }
    let replace = item.ann("overlay/replace").is_some();
    let shared_new = shared_replacement(&item.value, matches.len());
    let values = one_per_match(std::mem::take(&mut item.value), matches.len());
    for (&i, value) in matches.iter().zip(values) {
        let mut kept = below.as_deref_mut().map(|below| below.take(i));
        if replace {
            // The new node replaces the old one whole: key, value, position and annotations
            // (the old node's rules and schema annotations go with it, as in ytt).
            let returned = replacement(&item, &entries[i].value, value, calls, &path)?;
            entries[i].kind = item.kind.clone();
            entries[i].pos = item.pos;
            entries[i].anns = item.anns.clone();
            put_returned(&mut entries[i], returned);
            continue;
        }
        let own_in_place = merge_matched(
            &mut entries[i],
            item.pos,
            value,
            shared_new,
            mode,
            |node| {
                // The replaced value's marks are the new one's; replaced by a flag or a plain
                // file, it also loses the rules the replaced node carried.
                take_value_marks(node, &item);
                if mode.replace_arrays {
                    node.anns
                        .retain(|a| a.name != crate::validate::ASSERT_VALIDATE);
                }
            },
            |left, value, own| {
                // A node that was there keeps its rules: ytt ignores the later node's.
                let kept = kept.as_mut().filter(|_| own);
                merge_value(left, value, &item.anns, mode, calls, defaults, &path, kept)
            },
        )?;
        if let (Some(below), Some(kept), true) = (below.as_deref_mut(), kept, own_in_place) {
            below.put_back(i, kept);
        }
    }
    if replace {
        // A replacement matched by value may bring another key.
        index.rekeyed(entries);
    }
    Ok(())
}

/// ytt's errors for the annotations of map item `item` (at `path`), read before anything is
/// matched (see [`check_annotations`]): none for an item without annotations, most of a values
/// file's.
fn map_item_annotations_allowed(item: &Tree, path: &Path) -> Result<(), OverlayError> {
    if item.anns.is_empty() {
        return Ok(());
    }
    check_annotations(item, path.parent)?;
    or_add_is_bool(item, path)?;
    // Only array items (and documents) are inserted or appended.
    match ["overlay/insert", "overlay/append"]
        .into_iter()
        .find(|op| item.ann(op).is_some())
    {
        Some(op) => Err(path.error(format!(
            "Found @{op} on map item ({}); only array items can be annotated with @{op}",
            item.pos
        ))),
        None => Ok(()),
    }
}

/// Whether merging `right` onto `left` keeps the old node (maps merge, and arrays unless
/// `mode` replaces them); any other value replaces it, taking the new node's position.
fn merges_in_place(left: &TreeValue, right: &TreeValue, mode: Mode) -> bool {
    match (left, right) {
        (TreeValue::Map(_), TreeValue::Map(_)) => true,
        (TreeValue::Array(_), TreeValue::Array(_)) => !mode.replace_arrays,
        _ => false,
    }
}

/// ytt's error for an `#@overlay/replace or_add=` that is not a bool (read before anything is
/// matched).
fn or_add_is_bool(item: &Tree, path: &Path) -> Result<(), OverlayError> {
    let or_add = item
        .ann("overlay/replace")
        .and_then(|a| a.kwargs.iter().find(|(k, _)| k == "or_add"));
    match or_add {
        Some((_, arg)) if !matches!(arg.data().map(|n| &n.value), Some(Value::Bool(_))) => {
            Err(path.error(format!(
                "expected starlark.Bool, but was {}",
                crate::rules::go_type(&arg.type_name)
            )))
        }
        _ => Ok(()),
    }
}

/// ytt's error for an `#@overlay/insert` saying neither `before=` nor `after=`.
fn insert_position_given(item: &Tree, path: &Path) -> Result<(), OverlayError> {
    match item.ann("overlay/insert") {
        Some(insert) if insert.kwargs.is_empty() => Err(path.error(
            "Expected 'overlay/insert' annotation to have at least one keyword argument (before=..., after=...)",
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests;
