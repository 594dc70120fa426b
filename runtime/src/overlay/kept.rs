//! The index of the data values' top map, kept from one document to the next.

use crate::template::tree::Tree;
use crate::value::{KeyIndex, INDEXED_LEN};

/// The index of the result's top map, kept by a caller that applies many documents in turn
/// (each `--data-values-env` variable and `--data-value` flag is a document): each document's
/// keys are found without a scan of the whole map, which made 30,000 variables take 5 s.
#[derive(Default)]
pub struct KeptIndex(Option<(KeyIndex, usize)>);

impl KeptIndex {
    /// Forgets the index: the result changed otherwise (a type check filled in defaults).
    pub fn forget(&mut self) {
        self.0 = None;
    }

    /// The index over `entries`, made again unless it was kept over these very entries (as
    /// many as when it was kept) and hashes them or they are still too few to hash.
    pub(super) fn over(&mut self, entries: &[Tree]) -> &mut KeyIndex {
        let len = entries.len();
        let kept = matches!(&self.0, Some((index, kept)) if *kept == len && (index.is_hashed() || len < INDEXED_LEN));
        if !kept {
            self.0 = None;
        }
        &mut self
            .0
            .get_or_insert_with(|| (KeyIndex::new(entries, usize::MAX), len))
            .0
    }

    pub(super) fn kept_over(&mut self, entries: &[Tree]) {
        if let Some((_, len)) = &mut self.0 {
            *len = entries.len();
        }
    }
}
