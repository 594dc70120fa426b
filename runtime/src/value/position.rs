//! Where a node came from: [`Pos`], a file name and a line, with file names interned as
//! [`FileName`]s (4 bytes) so that every node can carry one.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// Where a node came from: a file name as the user gave it and a 1-based line.
///
/// Values that come from command-line flags use pseudo file names such as `(data-value arg)`.
/// A line of 0 means "no line" (ytt then prints the file name alone). A position is 8 bytes
/// and `Copy`: every node has one.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Pos {
    pub file: FileName,
    pub line: u32,
}

impl Pos {
    pub fn new(file: impl Into<FileName>, line: u32) -> Pos {
        Pos {
            file: file.into(),
            line,
        }
    }

    /// A position that points nowhere (values synthesised by the tool itself).
    pub fn unknown() -> Pos {
        Pos::default()
    }

    /// The line is looked at first: a position with a line is known whatever its file (its
    /// name is in the process's table, behind a lock).
    #[inline]
    pub fn is_unknown(&self) -> bool {
        self.line == 0 && self.file.is_empty()
    }
}

impl fmt::Display for Pos {
    /// `file:line`, as ytt prints positions; a node of a nameless text (a `--data-value-yaml`
    /// collection) is its line alone, and an unknown position `?`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_unknown() {
            // ytt's unknown position (a node made from a Starlark value).
            return f.write_str("?");
        }
        if self.file.is_empty() {
            return write!(f, "{}", self.line);
        }
        write!(f, "{}:{}", self.file, self.line)
    }
}

impl fmt::Debug for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// A file name as positions hold it: a number standing for the name in the process's table of
/// names. Equal names made with [`FileName::new`] are one entry; [`FileName::unique`] makes a
/// new entry even for a name seen before, for sources that share a name but not a text (every
/// `--data-value` flag is a `(data-value arg)`). The table holds each name once and only grows
/// by names never seen before and by `unique` entries (a few per run, for flags).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FileName(u32);

/// The table of names: entry 0 is the empty name of unknown positions.
struct FileNames {
    names: Vec<&'static str>,
    shared: HashMap<&'static str, u32>,
}

fn file_names() -> &'static std::sync::RwLock<FileNames> {
    static NAMES: std::sync::OnceLock<std::sync::RwLock<FileNames>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        std::sync::RwLock::new(FileNames {
            names: vec![""],
            shared: HashMap::from([("", 0)]),
        })
    })
}

impl FileName {
    /// The entry for `name`, shared with every other position in a file of that name.
    pub fn new(name: &str) -> FileName {
        thread_local! {
            // The name this thread asked for last: a schema's generated code names its file
            // for every position, thousands of times in a row.
            static LAST: std::cell::Cell<(&'static str, FileName)> =
                const { std::cell::Cell::new(("", FileName(0))) };
        }
        let (last, id) = LAST.get();
        if last == name {
            return id;
        }
        let id = FileName::shared(name);
        LAST.set((id.as_str(), id));
        id
    }

    fn shared(name: &str) -> FileName {
        if let Some(&id) = file_names()
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .shared
            .get(name)
        {
            return FileName(id);
        }
        let mut names = file_names().write().unwrap_or_else(|e| e.into_inner());
        if let Some(&id) = names.shared.get(name) {
            return FileName(id);
        }
        let id = FileName::push(&mut names, name);
        let name = names.names[id.0 as usize];
        names.shared.insert(name, id.0);
        id
    }

    /// A new entry for `name`, equal to no other (see [`FileName`]).
    pub fn unique(name: &str) -> FileName {
        FileName::push(
            &mut file_names().write().unwrap_or_else(|e| e.into_inner()),
            name,
        )
    }

    fn push(names: &mut FileNames, name: &str) -> FileName {
        let id = u32::try_from(names.names.len()).expect("fewer than 2^32 file names");
        names.names.push(Box::leak(name.into()));
        FileName(id)
    }

    /// Whether the name is empty: the unknown positions' entry 0 without looking in the table,
    /// and [`FileName::unique`]'s nameless entries (a `--data-value-yaml` collection) there.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0 || self.as_str().is_empty()
    }

    pub fn as_str(self) -> &'static str {
        file_names().read().unwrap_or_else(|e| e.into_inner()).names[self.0 as usize]
    }
}

impl std::ops::Deref for FileName {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for FileName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for FileName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

impl From<&str> for FileName {
    fn from(name: &str) -> FileName {
        FileName::new(name)
    }
}

impl From<&String> for FileName {
    fn from(name: &String) -> FileName {
        FileName::new(name)
    }
}

impl From<String> for FileName {
    fn from(name: String) -> FileName {
        FileName::new(&name)
    }
}

impl From<&Arc<str>> for FileName {
    fn from(name: &Arc<str>) -> FileName {
        FileName::new(name)
    }
}

impl From<Arc<str>> for FileName {
    fn from(name: Arc<str>) -> FileName {
        FileName::new(&name)
    }
}
