//! ytt's sharing of a schema's map and array defaults between the maps it fills them into.
//!
//! A map of the data values that lacks a declared key gets that key's default in ytt's type
//! check, and for a map or an array the default is one node of the schema, the same node each
//! time (`MapItemType.GetDefaultValue` does not copy it; ytt's open issue #912). So the maps
//! filled share it: an overlay that later changes it in place through one of them (merging a
//! map into it, appending to it) changes it in all of them, and in every map filled from then
//! on. A default map's own map and array items are such shared nodes too (the defaults of its
//! fields), unless `@schema/default` gave it. The first data values, the schema's defaults, are
//! a copy: sharing starts with the type check that follows a data values layer.
//!
//! schemac's trees own their nodes. For the length of one data values run ([`Run`]) this module
//! keeps the current value of each shared default (by the address of its node in the schema
//! IR) and marks each node filled with it ([`SHARED_DEFAULT`]); an overlay merging into a marked
//! node merges into the kept value instead ([`take`], [`put`]), and after each layer every
//! marked node takes the kept value again ([`sync`]). An overlay that replaces a marked node's
//! value rather than merging into it drops the mark ([`unmark`]): ytt's map item then holds
//! another node.

use std::cell::RefCell;
use std::collections::HashMap;

use crate::schema::{Field, Kind, Type};
use crate::template::tree::{Ann, Arg, ArgKind, Tree, TreeValue};
use crate::value::{FxBuild, Node, Pos, Value};

/// schemac's own annotation on a node filled with a shared default: its one argument is the
/// default's key in the kept values.
pub const SHARED_DEFAULT: &str = "schemac shared-default";

/// The current value of each shared default of the run, by the address of its IR node (hashed
/// with [`FxBuild`]: a SipHash look-up was 140 instructions of each default filled in, 1.5% of
/// a typed load of array10k).
#[derive(Default)]
struct Kept {
    values: HashMap<usize, TreeValue, FxBuild>,
    /// Whether an overlay changed a value since the last [`sync`] (only then is there anything
    /// to sync: a node filled takes the current value).
    changed: bool,
    /// Whether an overlay changed a value in this run: until one does, every kept value is
    /// the schema's default (whose maps' keys the type check looks at once each).
    changed_in_run: bool,
    /// The plain data of kept values, made once for the many maps filled with each (forgotten
    /// whenever an overlay takes or changes a value).
    plain: HashMap<usize, Value, FxBuild>,
    /// How many keys [`new_key`] gave.
    new_keys: usize,
}

thread_local! {
    static KEPT: RefCell<Option<Kept>> = const { RefCell::new(None) };
}

/// One data values run whose type checks share defaults, from [`Run::begin`] until dropped.
pub struct Run(Option<Kept>);

impl Run {
    /// Starts keeping shared defaults (a run started within another keeps its own, and gives
    /// the outer run's back when it ends).
    pub fn begin() -> Run {
        Run(KEPT.with(|k| k.replace(Some(Kept::default()))))
    }
}

impl Drop for Run {
    fn drop(&mut self) {
        let outer = self.0.take();
        KEPT.with(|k| *k.borrow_mut() = outer);
    }
}

/// The key of a field's default in the kept values.
fn key(ty: &Type) -> usize {
    &ty.default as *const Node as usize
}

/// The current value of `field`'s default if a run shares it (it is a map or an array), kept
/// from now on if it was not; `None` otherwise.
fn shared_value(field: &Field) -> Option<TreeValue> {
    if !field.ty.default.value.is_collection() {
        return None;
    }
    KEPT.with(|k| k.borrow_mut().as_mut().map(|kept| current(kept, &field.ty)))
}

/// The kept value of the default of `ty` (made from the schema the first time).
fn current(kept: &mut Kept, ty: &Type) -> TreeValue {
    if let Some(value) = kept.values.get(&key(ty)) {
        return value.clone();
    }
    let mut value = TreeValue::from_node(&ty.default);
    if let (Kind::Map(fields), TreeValue::Map(items), true) =
        (&ty.kind, &mut value, ty.default_is_fields_defaults())
    {
        for (item, field) in items.iter_mut().zip(fields) {
            if field.ty.default.value.is_collection() {
                item.value = current(kept, &field.ty);
                mark(item, key(&field.ty));
            }
        }
    }
    kept.values.insert(key(ty), value.clone());
    value
}

/// The map item that fills a map lacking `field`: its default, shared while a run shares
/// defaults.
pub fn default_item(field: &Field) -> Tree {
    let mut item = Tree {
        kind: crate::template::tree::TreeKind::MapItem(field.key.clone()),
        pos: field.ty.default.pos,
        anns: Default::default(),
        value: TreeValue::Scalar(Value::Null),
    };
    match shared_value(field) {
        Some(value) => {
            item.value = value;
            mark(&mut item, key(&field.ty));
        }
        None => item.value = TreeValue::from_node(&field.ty.default),
    }
    item
}

/// Whether an overlay changed a shared default in this run: a default filled in from then on
/// may lack a key or hold a value of another type, and ytt's type check walks the node it fills
/// in (its shared node) as any other.
pub fn changed_in_run() -> bool {
    KEPT.with(|k| k.borrow().as_ref().is_some_and(|kept| kept.changed_in_run))
}

/// `field`'s default as plain data: its current value while a run shares it (the caller walks
/// it instead once [`changed_in_run`]).
pub fn default_node(field: &Field) -> Node {
    let shared = field.ty.default.value.is_collection().then(|| {
        KEPT.with(|k| {
            let mut k = k.borrow_mut();
            let kept = k.as_mut()?;
            let key = key(&field.ty);
            let value = match kept.plain.get(&key) {
                Some(value) => value.clone(),
                None => {
                    let value = current(kept, &field.ty).to_value();
                    kept.plain.insert(key, value.clone());
                    value
                }
            };
            Some(value)
        })
    });
    match shared.flatten() {
        Some(value) => Node::new(value, field.ty.default.pos),
        None => field.ty.default.clone(),
    }
}

fn mark(tree: &mut Tree, key: usize) {
    tree.anns.push(Ann {
        name: SHARED_DEFAULT.into(),
        pos: Pos::unknown(),
        args: vec![Arg {
            type_name: "int".into(),
            kind: ArgKind::Data(Node::new(Value::UInt(key as u64), Pos::unknown())),
            go_text: None,
        }],
        kwargs: Vec::new(),
    });
}

/// The key of the shared default `tree` holds, if it holds one.
pub fn shared_key(tree: &Tree) -> Option<usize> {
    match tree.ann(SHARED_DEFAULT)?.args.first()?.data()?.value {
        Value::UInt(key) => Some(key as usize),
        _ => None,
    }
}

/// A key for a collection that an overlay puts into several map items at once: ytt's merge
/// sets the one node of the values file as each matched item's value, so that a later overlay
/// changing it through one of them changes it in all (see [`share`]). Odd, as no IR node's
/// address is; `None` outside a run.
pub fn new_key() -> Option<usize> {
    KEPT.with(|k| {
        let mut k = k.borrow_mut();
        let kept = k.as_mut()?;
        kept.new_keys += 1;
        Some(kept.new_keys * 2 - 1)
    })
}

/// Marks `tree` as holding the shared node `key` (from [`new_key`]), its value the current one.
pub fn share(tree: &mut Tree, key: usize) {
    unmark(tree);
    mark(tree, key);
    put(key, &tree.value);
}

/// Drops the mark of a node whose value an overlay replaced.
pub fn unmark(tree: &mut Tree) {
    tree.anns.retain(|a| a.name != SHARED_DEFAULT);
}

/// Takes the current value of the shared default `key` out, for an overlay to merge into.
pub fn take(key: usize) -> Option<TreeValue> {
    KEPT.with(|k| {
        let mut k = k.borrow_mut();
        let kept = k.as_mut()?;
        kept.plain.clear();
        kept.values.remove(&key)
    })
}

/// Keeps `value` as the current value of the shared default `key`.
pub fn put(key: usize, value: &TreeValue) {
    KEPT.with(|k| {
        if let Some(kept) = k.borrow_mut().as_mut() {
            kept.values.insert(key, value.clone());
            kept.changed = true;
            kept.changed_in_run = true;
            kept.plain.clear();
        }
    });
}

/// Gives every marked node of `tree` its shared default's current value, if an overlay changed
/// one (through another node) since the last time.
pub fn sync(tree: &mut Tree) {
    KEPT.with(|k| {
        if let Some(kept) = k.borrow_mut().as_mut().filter(|kept| kept.changed) {
            kept.changed = false;
            sync_in(tree, &kept.values);
        }
    });
}

fn sync_in(tree: &mut Tree, kept: &HashMap<usize, TreeValue, FxBuild>) {
    if let Some(value) = shared_key(tree).and_then(|key| kept.get(&key)) {
        tree.value = value.clone();
    }
    if let TreeValue::Map(items) | TreeValue::Array(items) = &mut tree.value {
        for item in items {
            sync_in(item, kept);
        }
    }
}
