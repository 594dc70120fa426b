//! The indexes of the data values' maps, kept from one document to the next.

use std::collections::HashMap;

use super::{merge_map_item, Calls, ChildDefaults, Mode, OverlayError, Path};
use crate::template::tree::{Tree, TreeValue};
use crate::value::{FxBuild, KeyIndex, INDEXED_LEN};

/// The index of the result's top map, and of the maps under it that documents merged into,
/// kept by a caller that applies many documents in turn (each `--data-values-env` variable
/// and `--data-value` flag is a document): each document's keys are found without a scan of
/// the whole map, which made 30,000 variables take 5 s, or of the map under one key that
/// all of them fill (`P_a__k1`, `P_a__k2`, ...: 60,000 took 13 s).
#[derive(Clone, Default)]
pub struct KeptIndex {
    /// The map's index, and how many entries it had when it was kept.
    index: Option<(KeyIndex, usize)>,
    /// The kept indexes of the maps its entries hold, by the entry's position.
    below: Below,
}

/// The kept indexes of the maps a map's entries hold, by the entry's position: an entry's is
/// taken out before anything is merged into it and put back only after a merge in place
/// ([`Below::take`], [`Below::put_back`]), so that no other way of changing a map leaves a
/// stale index behind. Hashed with [`FxBuild`], whose default reads no random seed: an empty
/// one is made and dropped for each of a large map's items that holds none.
#[derive(Clone, Default)]
pub(super) struct Below(HashMap<usize, KeptIndex, FxBuild>);

impl KeptIndex {
    /// The indexes that merging documents into `doc` would make and keep, made at once: its
    /// top map's, and below it those [`Below::put_back`] keeps (of maps that hash their keys,
    /// or hold such maps). A copy of them is a valid start for applying documents onto a copy
    /// of `doc` (the schema's defaults, made the same each run).
    pub fn of_document(doc: &Tree) -> KeptIndex {
        match &doc.value {
            TreeValue::Map(entries) => KeptIndex::of_map(entries),
            _ => KeptIndex::default(),
        }
    }

    fn of_map(entries: &[Tree]) -> KeptIndex {
        let mut below = Below::default();
        for (i, entry) in entries.iter().enumerate() {
            if let TreeValue::Map(inner) = &entry.value {
                below.put_back(i, KeptIndex::of_map(inner));
            }
        }
        KeptIndex {
            index: Some((KeyIndex::new(entries, usize::MAX), entries.len())),
            below,
        }
    }

    /// Forgets the indexes: the result changed otherwise (a type check filled in defaults).
    pub fn forget(&mut self) {
        self.index = None;
        self.below.0.clear();
    }

    /// The index over `entries`, made again unless it was kept over these very entries (as
    /// many as when it was kept) and hashes them or they are still too few to hash (the
    /// indexes below are then forgotten too), and the kept indexes below.
    pub(super) fn over(&mut self, entries: &[Tree]) -> (&mut KeyIndex, &mut Below) {
        let len = entries.len();
        let kept = matches!(&self.index, Some((index, kept)) if *kept == len && (index.is_hashed() || len < INDEXED_LEN));
        if !kept {
            self.forget();
        }
        let (index, _) = self
            .index
            .get_or_insert_with(|| (KeyIndex::new(entries, usize::MAX), len));
        (index, &mut self.below)
    }

    /// Notes that the index is kept over `entries` as they are now.
    pub(super) fn kept_over(&mut self, entries: &[Tree]) {
        if let Some((_, len)) = &mut self.index {
            *len = entries.len();
        }
    }
}

impl Below {
    /// Takes out the kept index of entry `i`'s map (an empty one if none was kept).
    pub(super) fn take(&mut self, i: usize) -> KeptIndex {
        if self.0.is_empty() {
            return KeptIndex::default();
        }
        self.0.remove(&i).unwrap_or_default()
    }

    /// Keeps `kept` for entry `i`'s map again, after a merge into it in place, when it hashes
    /// the map or keeps indexes below it: a map too short to hash is scanned, and its index
    /// costs nothing to make again (two files of 200,000 small maps each took 15% longer when
    /// every one was kept).
    pub(super) fn put_back(&mut self, i: usize, kept: KeptIndex) {
        let hashed = kept
            .index
            .as_ref()
            .is_some_and(|(index, _)| index.is_hashed());
        if hashed || !kept.below.0.is_empty() {
            self.0.insert(i, kept);
        }
    }

    /// Forgets them all: entries were removed, and positions moved.
    pub(super) fn clear(&mut self) {
        self.0.clear();
    }
}

/// What a map's items are merged with: the overlay's mode, its functions, the defaults of
/// `#@overlay/match-child-defaults` and the path of the map.
pub(super) struct MapMerge<'a> {
    pub(super) mode: Mode,
    pub(super) calls: Calls<'a>,
    pub(super) defaults: &'a ChildDefaults<'a>,
    pub(super) path: &'a Path<'a>,
}

impl MapMerge<'_> {
    /// Merges `items` into `entries`, with the index of `entries` (and of the maps under them)
    /// kept in `kept` when the caller keeps it.
    pub(super) fn items(
        &self,
        entries: &mut Vec<Tree>,
        items: Vec<Tree>,
        kept: Option<&mut KeptIndex>,
    ) -> Result<(), OverlayError> {
        let (mode, calls, defaults, path) = (self.mode, self.calls, self.defaults, self.path);
        let Some(kept) = kept else {
            let mut index = KeyIndex::new(entries, items.len());
            for item in items {
                merge_map_item(entries, &mut index, None, item, mode, calls, defaults, path)?;
            }
            return Ok(());
        };
        let (index, below) = kept.over(entries);
        for item in items {
            let below = Some(&mut *below);
            merge_map_item(entries, index, below, item, mode, calls, defaults, path)?;
        }
        kept.kept_over(entries);
        Ok(())
    }
}
