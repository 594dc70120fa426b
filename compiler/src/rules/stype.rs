//! The static types of rule translation: what the schema says a value is.

use schemac_runtime::schema::{Kind, Scalar, Type};

/// What a value is known to be.
#[derive(Clone)]
pub enum SType<'s> {
    Str,
    Int,
    /// An int or a float (a float-typed value may hold an int).
    Num,
    Bool,
    None,
    /// `fail()`: no value.
    Never,
    List(Box<SType<'s>>),
    Map(&'s Type),
    Array(&'s Type),
    /// The value or None.
    Maybe(Box<SType<'s>>),
    /// `ctx` of a `when=` predicate.
    Ctx,
    /// Some scalar or None (`a or b` of two kinds).
    Plain,
    Unknown,
}

impl PartialEq for SType<'_> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (SType::Map(a), SType::Map(b)) | (SType::Array(a), SType::Array(b)) => {
                std::ptr::eq(*a, *b)
            }
            (SType::List(a), SType::List(b)) | (SType::Maybe(a), SType::Maybe(b)) => a == b,
            (a, b) => {
                std::mem::discriminant(a) == std::mem::discriminant(b)
                    && !matches!(
                        a,
                        SType::Map(_) | SType::Array(_) | SType::List(_) | SType::Maybe(_)
                    )
            }
        }
    }
}

/// Types as reasons name them: `string`, `map`, `string or None`.
impl std::fmt::Debug for SType<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SType::Str => f.write_str("string"),
            SType::Int => f.write_str("int"),
            SType::Num => f.write_str("number"),
            SType::Bool => f.write_str("bool"),
            SType::None => f.write_str("None"),
            SType::Never => f.write_str("no value"),
            SType::List(item) => write!(f, "list of {item:?}"),
            SType::Map(_) => f.write_str("map"),
            SType::Array(_) => f.write_str("array"),
            SType::Maybe(t) => write!(f, "{t:?} or None"),
            SType::Ctx => f.write_str("ctx"),
            SType::Plain => f.write_str("scalar"),
            SType::Unknown => f.write_str("any value"),
        }
    }
}

impl<'s> SType<'s> {
    /// The type of a value of schema type `t`; `may_be_null` when a null can reach the code.
    pub fn of(t: &'s Type, may_be_null: bool) -> SType<'s> {
        let base = match &t.kind {
            Kind::Any => return SType::Unknown,
            Kind::Scalar(Scalar::String) => SType::Str,
            Kind::Scalar(Scalar::Int) => SType::Int,
            Kind::Scalar(Scalar::Float) => SType::Num,
            Kind::Scalar(Scalar::Bool) => SType::Bool,
            Kind::Map(_) => SType::Map(t),
            Kind::Array(_) => SType::Array(t),
        };
        if may_be_null && t.nullable {
            SType::Maybe(Box::new(base))
        } else {
            base
        }
    }

    pub fn union(self, other: SType<'s>) -> SType<'s> {
        match (self, other) {
            (a, b) if a == b => a,
            (SType::Never, b) => b,
            (a, SType::Never) => a,
            (SType::None, SType::Maybe(b)) | (SType::Maybe(b), SType::None) => SType::Maybe(b),
            (SType::None, b) | (b, SType::None) if b.is_scalar() => SType::Maybe(Box::new(b)),
            (SType::Int, SType::Num) | (SType::Num, SType::Int) => SType::Num,
            (a, b) if a.is_plain() && b.is_plain() => SType::Plain,
            _ => SType::Unknown,
        }
    }

    /// A name that tells apart every type (map types by address).
    pub fn identity(&self) -> String {
        match self {
            SType::Map(t) | SType::Array(t) => format!("{self:?}@{:p}", *t),
            SType::List(i) => format!("list({})", i.identity()),
            SType::Maybe(i) => format!("maybe({})", i.identity()),
            other => format!("{other:?}"),
        }
    }

    pub fn is_scalar(&self) -> bool {
        matches!(self, SType::Str | SType::Int | SType::Num | SType::Bool)
    }

    /// Compared with `==` without any chance of Starlark treating it differently: scalars,
    /// None, either of them, and (for `in`) lists of them.
    pub fn is_plain(&self) -> bool {
        match self {
            SType::Maybe(b) => b.is_scalar(),
            SType::None | SType::Never | SType::Plain => true,
            s => s.is_scalar(),
        }
    }

    pub fn is_number(&self) -> bool {
        matches!(self, SType::Int | SType::Num)
    }

    /// Converted by `str()` and `format` exactly (no float formatting).
    pub fn formats_exactly(&self) -> bool {
        match self {
            SType::Maybe(b) => b.formats_exactly(),
            SType::Str | SType::Int | SType::Bool | SType::None | SType::Never => true,
            _ => false,
        }
    }
}
