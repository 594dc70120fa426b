//! The schema IR as bytes, for the cache of lowered schemas: written by [`encode`], read back
//! by [`decode`], which refuses (returns `None`) anything it did not write rather than trust
//! it: lengths past the end, unknown tags, text that is not UTF-8, nesting past
//! [`MAX_NESTING`], bytes left over.
//!
//! Numbers are LEB128 (`u64`; an `i64` zig-zagged), floats their 8 bytes, text a length and its
//! bytes. A position is an index into the table of file names written before the type (0:
//! the unknown position's empty name) and a line. A map key (a field's or a map value's entry's)
//! is an index into the table of string keys written after the file names (0: a key that is
//! no string, written in place), so that the reader makes one [`Key`] of each distinct key and
//! the fields and entries that hold it share it (keys5k's 5,050 fields hold 150 keys). A
//! type's optional parts are bits of one byte ([`Parts`]); a map's default made of its
//! fields' defaults (what it is unless
//! `@schema/default` gave another) is not written but made again as generated code makes it
//! ([`crate::codegen::ir::composed_default`], `__private::map_type`). A rule or `when=` function
//! is its index; after the type, a byte says whether the translations of those functions follow
//! ([`program`]), without which a type calling functions is not kept.

use std::collections::HashMap;

mod program;

use schemac_runtime::lowered::ir::Program;
use schemac_runtime::rules::RuleName;
use schemac_runtime::schema::{
    Check, CustomRule, Doc, Field, FunctionRef, Kind, Scalar, Type, Validation,
};
use schemac_runtime::value::{FileName, Key, MapEntry, Node, Pos, Value};

/// Types and values nested deeper than this are not kept (and not read back): far beyond any
/// schema written by hand, and a bound on the reader's recursion.
pub const MAX_NESTING: usize = 10_000;

/// The most items [`Reader::room`] makes room for ahead of reading them.
const PREALLOCATED: usize = 1024;

/// The bytes of `ty` and of `program`, the translations of its rule and `when=` functions, or
/// `None` when they cannot be kept: `ty` calls a Starlark function `program` has no
/// translation of (whose value lives only in the run that kept it), holds a string that is not
/// UTF-8, or it or the program nests past [`MAX_NESTING`].
pub fn encode(ty: &Type, program: Option<&Program>) -> Option<Vec<u8>> {
    let mut body = Writer {
        translated: program.map(|p| p.entries.keys().copied().collect()),
        ..Writer::default()
    };
    body.ty(ty, 0)?;
    match program {
        Some(program) => {
            body.bytes.push(1);
            body.program(program)?;
        }
        None => body.bytes.push(0),
    }
    let mut out = Writer::default();
    out.uint(body.files.len() as u64);
    for file in &body.files {
        out.text(file.as_str());
    }
    let mut keys = vec![""; body.keys.len()];
    for (key, &index) in &body.keys {
        keys[index] = key;
    }
    out.uint(keys.len() as u64);
    for key in keys {
        out.text(key);
    }
    out.bytes.extend_from_slice(&body.bytes);
    Some(out.bytes)
}

/// The type and the program [`encode`] wrote into `bytes`.
pub fn decode(bytes: &[u8]) -> Option<(Type, Option<Program>)> {
    let mut r = Reader {
        bytes,
        at: 0,
        files: Vec::new(),
        keys: Vec::new(),
    };
    let count = r.len()?;
    r.files.push(FileName::default());
    for _ in 0..count {
        let name = r.text()?;
        r.files.push(FileName::new(name));
    }
    let count = r.len()?;
    r.keys.reserve(Reader::room(count));
    for _ in 0..count {
        let key = r.text()?;
        r.keys.push(Key::new(Value::Str(key.into())));
    }
    let ty = r.ty(0)?;
    let program = match r.byte()? {
        0 => None,
        1 => Some(r.program()?),
        _ => return None,
    };
    (r.at == bytes.len()).then_some((ty, program))
}

#[derive(Default)]
struct Writer {
    bytes: Vec<u8>,
    /// The file names positions named, in the order first met (index + 1 in the bytes).
    files: Vec<FileName>,
    /// The string map keys, each with its index in the order first met (index + 1 in the
    /// bytes).
    keys: HashMap<String, usize>,
    /// The schema functions the program translates, in order: the only ones a rule may call.
    translated: Option<Vec<usize>>,
}

impl Writer {
    fn uint(&mut self, mut n: u64) {
        while n >= 0x80 {
            self.bytes.push(n as u8 | 0x80);
            n >>= 7;
        }
        self.bytes.push(n as u8);
    }

    fn text(&mut self, s: &str) {
        self.uint(s.len() as u64);
        self.bytes.extend_from_slice(s.as_bytes());
    }

    fn pos(&mut self, pos: Pos) {
        let index = if pos.file == FileName::default() {
            0
        } else if let Some(i) = self.files.iter().position(|&f| f == pos.file) {
            i + 1
        } else {
            self.files.push(pos.file);
            self.files.len()
        };
        self.uint(index as u64);
        self.uint(u64::from(pos.line));
    }

    /// A map key: the index + 1 of a string key in the table of keys, else 0 and the value.
    fn key(&mut self, key: &Value, depth: usize) -> Option<()> {
        let Value::Str(text) = key else {
            self.uint(0);
            return self.value(key, depth);
        };
        let index = match self.keys.get(text.as_str()) {
            Some(&index) => index,
            None => {
                let index = self.keys.len();
                self.keys.insert(text.to_string(), index);
                index
            }
        };
        self.uint(index as u64 + 1);
        Some(())
    }

    fn value(&mut self, v: &Value, depth: usize) -> Option<()> {
        if depth > MAX_NESTING {
            return None;
        }
        match v {
            Value::Null => self.bytes.push(0),
            Value::Bool(b) => self.bytes.push(1 + *b as u8),
            Value::Int(i) => {
                self.bytes.push(3);
                self.uint(((i << 1) ^ (i >> 63)) as u64);
            }
            Value::UInt(u) => {
                self.bytes.push(4);
                self.uint(*u);
            }
            Value::Float(f) => {
                self.bytes.push(5);
                self.bytes.extend_from_slice(&f.to_bits().to_le_bytes());
            }
            Value::Str(s) => {
                self.bytes.push(6);
                self.text(s);
            }
            // A string that is not UTF-8 (a default a template made): not kept.
            Value::Bytes(_) => return None,
            Value::Map(entries) => {
                self.bytes.push(7);
                self.uint(entries.len() as u64);
                for e in entries {
                    self.key(&e.key, depth + 1)?;
                    self.node(&e.value, depth + 1)?;
                }
            }
            Value::Array(items) => {
                self.bytes.push(8);
                self.uint(items.len() as u64);
                for item in items {
                    self.node(item, depth + 1)?;
                }
            }
        }
        Some(())
    }

    fn node(&mut self, n: &Node, depth: usize) -> Option<()> {
        self.value(&n.value, depth)?;
        self.pos(n.pos);
        Some(())
    }

    fn rule(&mut self, name: RuleName) {
        self.text(name.as_str());
    }

    /// A function a rule calls: its index + 1 (0: none), if the program translates it.
    fn function(&mut self, f: Option<&FunctionRef>) -> Option<()> {
        let Some(f) = f else {
            self.uint(0);
            return Some(());
        };
        self.translated.as_ref()?.binary_search(&f.index).ok()?;
        self.uint(f.index as u64 + 1);
        Some(())
    }

    fn validation(&mut self, v: &Validation) -> Option<()> {
        self.pos(v.pos);
        self.function(v.when.as_ref())?;
        self.uint(v.custom.len() as u64);
        for c in &v.custom {
            self.text(&c.description);
            match &c.check {
                Check::Named(name, arg) => {
                    self.function(None)?;
                    self.rule(*name);
                    self.value(arg, 0)?;
                }
                Check::Function(f) => self.function(Some(f))?,
            }
        }
        self.uint(v.named.len() as u64);
        for (name, arg) in &v.named {
            self.rule(*name);
            self.value(arg, 0)?;
        }
        self.uint(v.shown_args.len() as u64);
        for (name, shown) in &v.shown_args {
            self.rule(*name);
            self.text(shown);
        }
        Some(())
    }

    fn ty(&mut self, ty: &Type, depth: usize) -> Option<()> {
        if depth > MAX_NESTING {
            return None;
        }
        let composed = crate::codegen::ir::composed_default(ty);
        let parts = [
            (ty.nullable, Parts::NULLABLE),
            (composed, Parts::COMPOSED_DEFAULT),
            (ty.doc.title.is_some(), Parts::TITLE),
            (ty.doc.desc.is_some(), Parts::DESC),
            (ty.doc.deprecated.is_some(), Parts::DEPRECATED),
            (!ty.doc.examples.is_empty(), Parts::EXAMPLES),
            (ty.validation.is_some(), Parts::VALIDATION),
        ];
        let parts = parts
            .iter()
            .filter(|(set, _)| *set)
            .fold(0, |all, (_, bit)| all | bit);
        match &ty.kind {
            Kind::Map(fields) => {
                self.bytes.push(0);
                self.uint(fields.len() as u64);
                for f in fields {
                    self.key(&f.key, 0)?;
                    self.ty(&f.ty, depth + 1)?;
                }
            }
            Kind::Array(item) => {
                self.bytes.push(1);
                self.ty(item, depth + 1)?;
            }
            Kind::Scalar(s) => self.bytes.push(match s {
                Scalar::String => 2,
                Scalar::Int => 3,
                Scalar::Float => 4,
                Scalar::Bool => 5,
            }),
            Kind::Any => self.bytes.push(6),
        }
        self.bytes.push(parts);
        self.pos(ty.pos);
        if !composed {
            self.node(&ty.default, 0)?;
        }
        for text in [&ty.doc.title, &ty.doc.desc, &ty.doc.deprecated]
            .into_iter()
            .flatten()
        {
            self.text(text);
        }
        if !ty.doc.examples.is_empty() {
            self.uint(ty.doc.examples.len() as u64);
            for (desc, example) in &ty.doc.examples {
                self.text(desc);
                self.node(example, 0)?;
            }
        }
        if let Some(v) = &ty.validation {
            self.validation(v)?;
        }
        Some(())
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    /// The file names of the table, index 0 the unknown position's.
    files: Vec<FileName>,
    /// The string map keys of the table (index + 1 in the bytes), each made once.
    keys: Vec<Key>,
}

impl<'a> Reader<'a> {
    fn byte(&mut self) -> Option<u8> {
        let b = *self.bytes.get(self.at)?;
        self.at += 1;
        Some(b)
    }

    /// The next `N` bytes.
    fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        let bytes = self.bytes.get(self.at..self.at + N)?;
        self.at += N;
        bytes.try_into().ok()
    }

    #[inline]
    fn uint(&mut self) -> Option<u64> {
        match self.bytes.get(self.at) {
            Some(&b) if b < 0x80 => {
                self.at += 1;
                Some(u64::from(b))
            }
            _ => self.long_uint(),
        }
    }

    fn long_uint(&mut self) -> Option<u64> {
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            n |= u64::from(b & 0x7f).checked_shl(shift)?;
            if b < 0x80 {
                return Some(n);
            }
        }
        None
    }

    /// A count of things still to read: never more than the bytes left (each takes one at
    /// least).
    fn len(&mut self) -> Option<usize> {
        let n = usize::try_from(self.uint()?).ok()?;
        (n <= self.bytes.len() - self.at).then_some(n)
    }

    /// Room made ahead for a count `n` of things: each takes one byte at least but many in
    /// memory (a forged count of 30 million fields in a 30 MB entry took 950 MB), so at most
    /// [`PREALLOCATED`] are made room for; more grow the list as they are read.
    fn room(n: usize) -> usize {
        n.min(PREALLOCATED)
    }

    fn text(&mut self) -> Option<&'a str> {
        let n = self.len()?;
        let s = std::str::from_utf8(&self.bytes[self.at..self.at + n]).ok()?;
        self.at += n;
        Some(s)
    }

    fn pos(&mut self) -> Option<Pos> {
        let index = usize::try_from(self.uint()?).ok()?;
        let file = *self.files.get(index)?;
        let line = u32::try_from(self.uint()?).ok()?;
        Some(Pos { file, line })
    }

    /// A map key (see [`Writer::key`]): a clone of the table's key, or one made of the value
    /// written in place.
    fn key(&mut self, depth: usize) -> Option<Key> {
        match usize::try_from(self.uint()?).ok()? {
            0 => Some(Key::new(self.value(depth)?)),
            index => self.keys.get(index - 1).cloned(),
        }
    }

    /// The text written when `parts` has `part`.
    fn text_if(&mut self, parts: u8, part: u8) -> Option<Option<String>> {
        Some(match parts & part {
            0 => None,
            _ => Some(self.text()?.to_string()),
        })
    }

    fn value(&mut self, depth: usize) -> Option<Value> {
        if depth > MAX_NESTING {
            return None;
        }
        Some(match self.byte()? {
            0 => Value::Null,
            1 => Value::Bool(false),
            2 => Value::Bool(true),
            3 => {
                let z = self.uint()?;
                Value::Int(((z >> 1) as i64) ^ -((z & 1) as i64))
            }
            4 => Value::UInt(self.uint()?),
            5 => Value::Float(f64::from_bits(u64::from_le_bytes(self.array()?))),
            6 => Value::Str(self.text()?.into()),
            7 => {
                let n = self.len()?;
                let mut entries = schemac_runtime::value::Entries::with_capacity(Self::room(n));
                for _ in 0..n {
                    let key = self.key(depth + 1)?;
                    let value = self.node(depth + 1)?;
                    entries.push(MapEntry { key, value });
                }
                Value::Map(entries)
            }
            8 => {
                let n = self.len()?;
                let mut items = schemac_runtime::value::ThinVec::with_capacity(Self::room(n));
                for _ in 0..n {
                    items.push(self.node(depth + 1)?);
                }
                Value::Array(items)
            }
            _ => return None,
        })
    }

    fn node(&mut self, depth: usize) -> Option<Node> {
        let value = self.value(depth)?;
        let pos = self.pos()?;
        Some(Node { value, pos })
    }

    fn rule(&mut self) -> Option<RuleName> {
        RuleName::parse(self.text()?)
    }

    /// A function written by [`Writer::function`].
    fn function(&mut self) -> Option<Option<FunctionRef>> {
        let index = usize::try_from(self.uint()?).ok()?;
        Some(index.checked_sub(1).map(|index| FunctionRef { index }))
    }

    fn validation(&mut self) -> Option<Validation> {
        let mut v = Validation::new(self.pos()?);
        v.when = self.function()?;
        for _ in 0..self.len()? {
            let description = self.text()?.to_string();
            let check = match self.function()? {
                Some(f) => Check::Function(f),
                None => Check::Named(self.rule()?, self.value(0)?),
            };
            v.custom.push(CustomRule { description, check });
        }
        for _ in 0..self.len()? {
            let name = self.rule()?;
            v.named.push((name, self.value(0)?));
        }
        for _ in 0..self.len()? {
            let name = self.rule()?;
            v.shown_args.push((name, self.text()?.to_string()));
        }
        Some(v)
    }

    fn ty(&mut self, depth: usize) -> Option<Type> {
        if depth > MAX_NESTING {
            return None;
        }
        let kind = match self.byte()? {
            0 => {
                let n = self.len()?;
                let mut fields = Vec::with_capacity(Self::room(n));
                for _ in 0..n {
                    let key = self.key(0)?;
                    let ty = self.ty(depth + 1)?;
                    fields.push(Field { key, ty });
                }
                Kind::Map(fields)
            }
            1 => Kind::Array(Box::new(self.ty(depth + 1)?)),
            2 => Kind::Scalar(Scalar::String),
            3 => Kind::Scalar(Scalar::Int),
            4 => Kind::Scalar(Scalar::Float),
            5 => Kind::Scalar(Scalar::Bool),
            6 => Kind::Any,
            _ => return None,
        };
        let parts = self.byte()?;
        if parts & !Parts::ALL != 0 {
            return None;
        }
        let pos = self.pos()?;
        let nullable = parts & Parts::NULLABLE != 0;
        let composed = parts & Parts::COMPOSED_DEFAULT != 0;
        let default = match composed {
            true if matches!(kind, Kind::Map(_)) => None,
            true => return None,
            false => Some(self.node(0)?),
        };
        let title = self.text_if(parts, Parts::TITLE)?;
        let desc = self.text_if(parts, Parts::DESC)?;
        let deprecated = self.text_if(parts, Parts::DEPRECATED)?;
        let mut examples = Vec::new();
        if parts & Parts::EXAMPLES != 0 {
            for _ in 0..self.len()? {
                let d = self.text()?.to_string();
                examples.push((d, self.node(0)?));
            }
        }
        let validation = match parts & Parts::VALIDATION {
            0 => None,
            _ => Some(self.validation()?),
        };
        let doc = Doc {
            title,
            desc,
            examples,
            deprecated,
        };
        Some(match (kind, default) {
            (Kind::Map(fields), None) => {
                schemac_runtime::__private::map_type(fields, pos, nullable, None, doc, validation)
            }
            (kind, default) => Type {
                kind,
                pos,
                nullable,
                default: default?,
                doc,
                validation,
            },
        })
    }
}

/// The bits of a type's byte of optional parts.
struct Parts;

impl Parts {
    const NULLABLE: u8 = 1;
    /// A map's default made of its fields' (not written).
    const COMPOSED_DEFAULT: u8 = 2;
    const TITLE: u8 = 4;
    const DESC: u8 = 8;
    const DEPRECATED: u8 = 16;
    const EXAMPLES: u8 = 32;
    const VALIDATION: u8 = 64;
    const ALL: u8 = 127;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema() -> Type {
        let text = concat!(
            "#@data/values-schema\n---\n#@schema/desc \"d\"\na:\n",
            "  #@schema/validation min=1, one_of=(1, 2)\n  b: 1\n  c: [\"x\"]\n",
            "  #@schema/nullable\n  d: -0.5\n  e: {}\n",
            "#@schema/default {\"z\": 5}\nf:\n  z: 0\n",
            "#@schema/nullable\n#@schema/title \"t\"\n#@schema/deprecated \"old\"\ng:\n  h: 1\n",
            "#@schema/examples (\"one\", 1)\ni: 18446744073709551615\n",
        );
        crate::standalone::lowered_cache::tests::lowered(text)
    }

    #[test]
    fn a_schema_reads_back_equal() {
        let ty = schema();
        let bytes = encode(&ty, None).unwrap();
        assert_eq!(decode(&bytes), Some((ty, None)));
    }

    #[test]
    fn every_truncation_and_every_extra_byte_is_refused() {
        let bytes = encode(&schema(), None).unwrap();
        for n in 0..bytes.len() {
            assert_eq!(decode(&bytes[..n]), None, "truncated to {n} bytes");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(decode(&longer), None);
    }

    #[test]
    fn a_program_reads_back_equal_and_its_truncations_are_refused() {
        let (ty, program) = crate::standalone::lowered_cache::tests::with_rules();
        let bytes = encode(&ty, Some(&program)).unwrap();
        assert_eq!(decode(&bytes), Some((ty.clone(), Some(program.clone()))));
        for n in 0..bytes.len() {
            assert_eq!(decode(&bytes[..n]), None, "truncated to {n} bytes");
        }
        // Without the translation of a function the schema calls, it is not kept.
        let mut partial = program.clone();
        partial.entries.pop_last();
        assert_eq!(encode(&ty, Some(&partial)), None);
        assert_eq!(encode(&ty, None), None);
    }

    /// Functions that call each other round are no program the translation makes (the IR's
    /// evaluator would recurse without end): refused.
    #[test]
    fn a_program_whose_functions_call_round_is_refused() {
        use schemac_runtime::lowered::ir::{Expr, Stmt};
        let (ty, mut program) = crate::standalone::lowered_cache::tests::with_rules();
        program.functions[0].body.push(Stmt::Expr {
            value: Expr::Call(1, vec![Expr::Local(0)]),
            never: false,
        });
        let bytes = encode(&ty, Some(&program)).unwrap();
        assert_eq!(decode(&bytes), None);
    }
}
