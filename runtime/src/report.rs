//! Error reports in ytt's layout.
//!
//! Two layouts cover what ytt prints for data values: the *schema report* (`One or more data
//! values were invalid`, `Invalid schema`) that shows source lines with `found:`/`expected:`
//! hints, and ytt's *multi-line error* formatting, which breaks the first line of every error
//! at `: ` before a capital letter, indenting each piece further.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use crate::inputs::FileText;
use crate::value::FileName;

/// The text of every file and flag a run has read, for quoting source lines.
#[derive(Default, Clone, Debug)]
pub struct SourceLines {
    files: HashMap<Arc<str>, Lines>,
    /// Sources that share a name with others (every `--data-value` flag is a
    /// `(data-value arg)`), found by the identity of the name their positions hold.
    by_identity: HashMap<FileName, Lines>,
    /// Names given to more than one text (`-f a/ -f b/` each holding a `helpers.star`): the
    /// text of such a name is the last one's.
    repeated: std::collections::HashSet<Arc<str>>,
}

/// A file's text, and where each of its lines starts once a line is quoted (only errors quote
/// lines).
#[derive(Clone, Debug)]
struct Lines {
    /// (A file `load()` has not read quotes no lines.)
    text: FileText,
    starts: OnceLock<Vec<usize>>,
}

impl SourceLines {
    pub fn add(&mut self, name: &str, text: &str) {
        self.add_shared(name, Arc::from(text));
    }

    /// [`SourceLines::add`] without copying the text (or before the file is read: see
    /// [`FileText`]).
    pub fn add_shared(&mut self, name: &str, text: impl Into<FileText>) {
        let name: Arc<str> = Arc::from(name);
        let text = text.into();
        let lines = Lines {
            text: text.clone(),
            starts: OnceLock::new(),
        };
        if let Some(before) = self.files.insert(Arc::clone(&name), lines) {
            if !before.text.same(&text) {
                self.repeated.insert(name);
            }
        }
    }

    /// A library file (`.star`, `.lib.yml`) that `load()` may run, read or not yet: of a name
    /// given twice, the first is kept, as `load()` finds the first; the name is repeated
    /// unless both are one text (two files not read yet are taken for two).
    pub fn add_library(&mut self, name: &str, text: FileText) {
        if let Some(before) = self.files.get(name) {
            if !before.text.same(&text) {
                self.repeated.insert(Arc::from(name));
            }
            return;
        }
        self.add_shared(name, text);
    }

    /// Whether `name` was given to more than one text (see [`SourceLines::add_shared`]).
    pub fn is_repeated(&self, name: &str) -> bool {
        self.repeated.contains(name)
    }

    /// Adds the text of one of several sources named alike. Positions whose `file` is `name`
    /// (made with [`FileName::unique`]) quote this text; others quote the last text added by
    /// name.
    pub fn add_source(&mut self, name: FileName, text: &str) {
        self.add_source_lines(name, text, OnceLock::new());
    }

    /// [`SourceLines::add_source`] for a text ytt quotes whole as its line 1 (the contents of
    /// a `--data-value-file`, line breaks and all).
    pub fn add_source_unsplit(&mut self, name: FileName, text: &str) {
        self.add_source_lines(name, text, OnceLock::from(vec![0]));
    }

    fn add_source_lines(&mut self, name: FileName, text: &str, starts: OnceLock<Vec<usize>>) {
        let lines = Lines {
            text: FileText::Read(Arc::from(text)),
            starts,
        };
        self.files.insert(Arc::from(name.as_str()), lines.clone());
        self.by_identity.insert(name, lines);
    }

    /// Whether the text of any source holds `needle`. An annotation whose name no file holds
    /// is on no node: its search through the data values can be skipped.
    pub fn any_text_contains(&self, needle: &str) -> bool {
        let mut texts = self.files.values().chain(self.by_identity.values());
        texts.any(|lines| lines.text.if_read().is_some_and(|t| t.contains(needle)))
    }

    /// The line `pos` points at, or "" when unknown.
    pub fn line_at(&self, pos: &crate::value::Pos) -> &str {
        match self.by_identity.get(&pos.file) {
            Some(lines) => lines.line(pos.line),
            None => self.line(&pos.file, pos.line),
        }
    }

    /// The text of the file `pos` points into, or "" when unknown.
    pub fn text_at(&self, pos: &crate::value::Pos) -> &str {
        match self.by_identity.get(&pos.file) {
            Some(lines) => lines.text.if_read().map_or("", |t| t),
            None => self.text(&pos.file).unwrap_or(""),
        }
    }

    /// Whether the text of `file` is known.
    pub fn has(&self, file: &str) -> bool {
        self.files.contains_key(file)
    }

    /// The text of `file`.
    pub fn text(&self, file: &str) -> Option<&str> {
        self.files.get(file)?.text.if_read().map(|t| &**t)
    }

    /// Whether `file` is one of several sources named alike (its text is not the one
    /// [`SourceLines::text`] gives for its name).
    pub fn is_alike(&self, file: &crate::value::FileName) -> bool {
        self.by_identity.contains_key(file)
    }

    /// The names of the files.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.files.keys().map(|k| &**k)
    }

    /// Line `line` (1-based) of `file`, or "" when unknown.
    pub fn line(&self, file: &str, line: u32) -> &str {
        match self.files.get(file) {
            Some(lines) => lines.line(line),
            None => "",
        }
    }
}

impl Lines {
    /// Line `line` (1-based), or "" when there is none. As in ytt, lines end at `\n` only: a
    /// line of a CRLF file is quoted with its `\r`.
    fn line(&self, line: u32) -> &str {
        let Some(text) = self.text.if_read() else {
            return "";
        };
        let starts = self.starts.get_or_init(|| {
            std::iter::once(0)
                .chain(text.match_indices('\n').map(|(i, _)| i + 1))
                .collect()
        });
        let index = (line as usize).wrapping_sub(1);
        let Some(&start) = starts.get(index) else {
            return "";
        };
        let end = starts.get(index + 1).map_or(text.len(), |next| next - 1);
        &text[start..end]
    }
}

/// The budget of the text of one error report, in bytes: the entries a report lists (type
/// violations, undefined names, failed rules) are counted as they are added, and past it the
/// rest are left out, counted in a last line. An entry quotes its source line, and a line
/// holds many values: 10,000 undefined names in one list, or 10,000 values of the wrong type
/// in one flow map, each quote the whole line, 600 MB and 1 GB of text from an input of
/// 60 KB and 100 KB (ytt runs out of memory; schemac aborted at 4 GB of address space).
pub const DEFAULT_MAX_ERROR_BYTES: usize = crate::budget_vars::MAX_ERROR_BYTES.default_size();

/// The variable that raises [`DEFAULT_MAX_ERROR_BYTES`].
pub const ERROR_VAR: &str = crate::budget_vars::MAX_ERROR_BYTES.name;

/// The error budget ([`DEFAULT_MAX_ERROR_BYTES`], or [`ERROR_VAR`]'s value).
pub fn max_error_bytes() -> usize {
    static V: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *V.get_or_init(|| crate::budget_vars::MAX_ERROR_BYTES.get_size())
}

/// The entries of one error report counted against [`max_error_bytes`].
pub struct ErrorBudget {
    used: usize,
    max: usize,
    left_out: usize,
}

impl Default for ErrorBudget {
    fn default() -> Self {
        ErrorBudget {
            used: 0,
            max: max_error_bytes(),
            left_out: 0,
        }
    }
}

impl ErrorBudget {
    /// Whether an entry of about `bytes` bytes is listed: the first always is, the others
    /// while the report stays within the budget (once one is left out, so are the rest).
    pub fn admit(&mut self, bytes: usize) -> bool {
        let fits = self.used.saturating_add(bytes) <= self.max;
        if self.used == 0 || (self.left_out == 0 && fits) {
            self.used = self.used.saturating_add(bytes).max(1);
            true
        } else {
            self.left_out += 1;
            false
        }
    }

    /// The line that ends a report whose entries were left out, if some were.
    pub fn left_out_line(&self) -> Option<String> {
        (self.left_out > 0).then(|| {
            format!(
                "... ({} more errors left out: the report passes the error budget of {} bytes; raise the budget with {ERROR_VAR})",
                self.left_out, self.max
            )
        })
    }
}

/// One entry of a schema report.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Failure {
    /// A title above the source lines (`Given data value is not declared in schema`).
    pub description: Option<String>,
    pub file: String,
    /// The quoted source lines.
    pub lines: Vec<(u32, String)>,
    /// Whether the quoted lines are of different files (an annotation of one schema file on a
    /// node another made): `| ...` separates them, whatever their numbers.
    pub apart: bool,
    pub found: Option<String>,
    pub expected: Option<String>,
    pub hints: Vec<String>,
}

/// A report: a summary with `====` under it, failures, and nested reports.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SchemaReport {
    pub summary: String,
    pub failures: Vec<Failure>,
    /// Text appended after the failures (nested reports, in ytt's `Invalid schema` errors).
    pub misc: String,
}

impl SchemaReport {
    /// The first place the report quotes.
    pub fn first_pos(&self) -> Option<crate::value::Pos> {
        let f = self.failures.first()?;
        let (line, _) = f.lines.first()?;
        Some(crate::value::Pos::new(f.file.as_str(), *line))
    }

    pub fn render(&self) -> String {
        // As wide as a failure's last line number (not its largest: a fragment's value quoted
        // after its annotation may be above it).
        let width = self
            .failures
            .iter()
            .filter_map(|f| f.lines.last().map(|(n, _)| n.to_string().len()))
            .max()
            .unwrap_or(0);
        let pad = |delim: &str, pos: &str| format!("  {pos:>width$} {delim}");
        let mut out = String::new();
        if !self.summary.is_empty() {
            out.push('\n');
            out.push_str(&self.summary);
            out.push('\n');
            out.push_str(&"=".repeat(self.summary.len()));
        }
        for f in &self.failures {
            out.push('\n');
            if let Some(d) = &f.description {
                out.push('\n');
                out.push_str(d);
            }
            out.push('\n');
            // Line 0 is a node without a position (a document made of annotations after a
            // file's last node, or before none): ytt names no file, its annotations' lines
            // quoted all the same, and shows its line as `?`.
            let unplaced = f.lines.iter().any(|&(n, _)| n == 0);
            if !unplaced {
                out.push_str(&f.file);
            }
            out.push_str(":\n");
            out.push_str(&pad("|", ""));
            out.push('\n');
            for (i, (n, text)) in f.lines.iter().enumerate() {
                // Lines that do not follow each other are separated by `| ...` (a line quoted
                // twice is not; one before the last is).
                let next_to = |m: u32| m == *n || m + 1 == *n || m == *n + 1;
                if i > 0 && (f.apart || !next_to(f.lines[i - 1].0)) {
                    out.push_str(&pad("|", ""));
                    out.push_str(" ...\n");
                }
                let number = if *n == 0 {
                    "?".to_string()
                } else {
                    n.to_string()
                };
                out.push_str(&pad("|", &number));
                out.push(' ');
                out.push_str(text);
                out.push('\n');
            }
            out.push_str(&pad("|", ""));
            out.push_str("\n\n");
            // ytt leaves the line empty when nothing was found (an empty key).
            if let Some(found) = f.found.as_ref().filter(|found| !found.is_empty()) {
                out.push_str(&format!("{} found: {found}", pad("=", "")));
            }
            out.push('\n');
            if let Some(expected) = &f.expected {
                out.push_str(&format!("{} expected: {expected}", pad("=", "")));
            }
            for h in &f.hints {
                out.push_str(&format!("\n{} hint: {h}", pad("=", "")));
            }
        }
        out.push('\n');
        out.push_str(&self.misc);
        out.push('\n');
        out
    }
}

/// ytt's multi-line formatting of an error message (see the module docs), as go-cli-ui does it.
///
/// The first line is read as a tree of bracketed pieces: `(`, `[` and `{` open a piece and any
/// closing bracket closes the innermost one, which is written back with its own closer (`(b]`
/// reads `(b)`). A closing bracket with no piece open ends the tree, and the rest of the line
/// is lost. `...|` to `|...` is raw text. Only the text outside every bracket breaks at `: `
/// before a capital letter; each piece after a break is indented one step further.
pub fn multi_line(message: &str) -> String {
    let (first, rest) = match message.find('\n') {
        Some(i) => (&message[..i], Some(&message[i..])),
        None => (message, None),
    };
    let mut out = String::new();
    // The open pieces: the bracket each was opened with, or `|` for a raw piece.
    let mut open: Vec<char> = Vec::new();
    let bytes = first.as_bytes();
    let mut chars = first.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let raw = open.last() == Some(&'|');
        if !raw {
            match c {
                '(' | '[' | '{' => {
                    open.push(c);
                    out.push(c);
                    continue;
                }
                ')' | ']' | '}' => match open.pop() {
                    Some(o) => {
                        out.push(match o {
                            '(' => ')',
                            '[' => ']',
                            _ => '}',
                        });
                        continue;
                    }
                    None => break,
                },
                _ => {}
            }
        }
        if first.get(i..i + 4) == Some("...|") && i + 4 < bytes.len() {
            open.push('|');
        } else if i >= 3 && first.get(i - 3..=i) == Some("|...") {
            out.push(c);
            if open.pop().is_none() {
                break;
            }
            continue;
        } else if open.is_empty()
            && c == ':'
            && bytes.get(i + 1) == Some(&b' ')
            && bytes.get(i + 2).is_some_and(u8::is_ascii_uppercase)
        {
            out.push_str(":\n");
            chars.next();
            continue;
        }
        out.push(c);
    }
    let mut lines: Vec<String> = Vec::new();
    for (n, chunk) in out.split('\n').enumerate() {
        lines.push(format!("{}{chunk}", "  ".repeat(n)));
    }
    let mut out = lines.join("\n");
    if let Some(rest) = rest {
        out.push_str(rest);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_lines_are_quoted_by_number() {
        let mut sources = SourceLines::default();
        sources.add("v.yml", "a: 1\r\nb: 2\n\nlast");
        let lines: Vec<&str> = (0..=5).map(|n| sources.line("v.yml", n)).collect();
        // ytt splits lines at `\n` only: a CRLF line keeps its `\r`.
        assert_eq!(lines, ["", "a: 1\r", "b: 2", "", "last", ""]);
        assert_eq!(sources.line("other.yml", 1), "");
    }

    #[test]
    fn multi_line_splits_before_capitals_outside_brackets() {
        assert_eq!(
            multi_line("Extracting data value from KV: Deserializing value for key 'db': Deserializing YAML value: yaml: x"),
            "Extracting data value from KV:\n  Deserializing value for key 'db':\n    Deserializing YAML value: yaml: x"
        );
        assert_eq!(
            multi_line(
                "Overlaying data values schema (in following order: Schema.yml): \nInvalid schema"
            ),
            "Overlaying data values schema (in following order: Schema.yml): \nInvalid schema"
        );
    }

    #[test]
    fn schema_report_layout() {
        let r = SchemaReport {
            summary: "One or more data values were invalid".into(),
            failures: vec![
                Failure {
                    file: "v.yml".into(),
                    lines: vec![(4, "a: 1".into())],
                    found: Some("integer".into()),
                    expected: Some("string (by s.yml:3)".into()),
                    ..Default::default()
                },
                Failure {
                    description: Some("Given data value is not declared in schema".into()),
                    file: "v.yml".into(),
                    lines: vec![(10, "b: 2".into())],
                    found: Some("b".into()),
                    hints: vec!["h".into()],
                    ..Default::default()
                },
            ],
            misc: String::new(),
        };
        assert_eq!(
            r.render(),
            "\nOne or more data values were invalid\n====================================\n\nv.yml:\n     |\n   4 | a: 1\n     |\n\n     = found: integer\n     = expected: string (by s.yml:3)\n\nGiven data value is not declared in schema\nv.yml:\n     |\n  10 | b: 2\n     |\n\n     = found: b\n\n     = hint: h\n\n"
        );
    }
}
