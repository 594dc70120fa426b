//! How many nodes an `#@overlay/match` expects to match (`expects=`, `missing_ok=`, `when=`),
//! and the defaults `#@overlay/match-child-defaults` gives the nodes below it.

use super::{matcher, Calls, Mode};
use crate::rules::{go_type, starlark_type};
use crate::schema::FunctionRef;
use crate::template::tree::{Ann, Arg, ArgKind, Tree, TreeValue};
use crate::value::Value;

/// The keyword arguments of an `#@overlay/match` that count its matches, each the node's own
/// or the one `#@overlay/match-child-defaults` of a node above gave (the nearer wins):
/// `expects=` (an int, `"N+"`, a function given the number, or a list of those, any of which
/// is met), `missing_ok=` (a bool: zero or one match), `when=` (as `expects=`, but a node whose
/// count is not met is left out rather than an error). ytt checks them only once the node has
/// been matched: a bad value, or two of them given together, is an error then.
/// The arguments are borrowed from the annotations that give them (a node's, or an
/// ancestor's), so that making the expectation of each of 5,000 map items copies nothing.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Expects<'a> {
    missing_ok: Option<&'a Arg>,
    expects: Option<&'a Arg>,
    when: Option<&'a Arg>,
    /// Zero or one match when none is given (flags and plain files, where every key is
    /// `missing_ok`).
    plain: bool,
}

/// Why a count was not met.
enum Unmet {
    /// The number of matches is not the one wanted: `when=` leaves the node out.
    Count(String),
    /// The argument itself is wrong (a float, `"1"`, a function failing): always an error.
    Bad(String),
}

impl<'a> Expects<'a> {
    /// The counting arguments of `ann` (an `#@overlay/match` or
    /// `#@overlay/match-child-defaults`) over these.
    fn with(mut self, ann: Option<&'a Ann>) -> Expects<'a> {
        let Some(ann) = ann else { return self };
        for (name, arg) in &ann.kwargs {
            let slot = match name.as_str() {
                "missing_ok" => &mut self.missing_ok,
                "expects" => &mut self.expects,
                "when" => &mut self.when,
                _ => continue,
            };
            *slot = Some(arg);
        }
        self
    }

    /// Whether `found` matches (at the positions `lines` gives, asked only for an error message)
    /// meet the expectation: `Ok(false)` when `when=` is not met (the node is left out), `Err`
    /// with ytt's message when `expects=` is not, or when an argument is wrong or a function
    /// given fails.
    pub(super) fn met(
        &self,
        found: usize,
        lines: &dyn Fn() -> Vec<String>,
        calls: Calls,
    ) -> Result<bool, String> {
        let count = Count {
            found,
            lines,
            calls,
        };
        let outcome = match (&self.missing_ok, &self.expects, &self.when) {
            (Some(_), Some(_), _) => return Err(conflict("missing_ok", "expects")),
            (Some(_), _, Some(_)) => return Err(conflict("missing_ok", "when")),
            (_, Some(_), Some(_)) => return Err(conflict("when", "expects")),
            (Some(m), None, None) => match m.data().map(|n| &n.value) {
                Some(Value::Bool(true)) => count.any_of_ints(&[0, 1]),
                Some(Value::Bool(false)) => count.int(1),
                _ => Err(Unmet::Bad(
                    "Expected keyword argument 'missing_ok' to be a boolean".into(),
                )),
            },
            (None, None, Some(w)) => match count.arg(w, "when") {
                Err(Unmet::Count(_)) => return Ok(false),
                other => other,
            },
            (None, Some(e), None) => count.arg(e, "expects"),
            (None, None, None) if self.plain => count.any_of_ints(&[0, 1]),
            (None, None, None) => count.int(1),
        };
        match outcome {
            Ok(()) => Ok(true),
            Err(Unmet::Count(m) | Unmet::Bad(m)) => Err(m),
        }
    }
}

fn conflict(a: &str, b: &str) -> String {
    format!("Expected only one of keyword arguments ('{a}', '{b}') specified")
}

/// A number of matches checked against the counting arguments, as ytt checks them.
struct Count<'a> {
    found: usize,
    lines: &'a dyn Fn() -> Vec<String>,
    calls: Calls<'a>,
}

impl Count<'_> {
    fn unmet(&self, wanted: String) -> Unmet {
        let mut message = format!(
            "Expected number of matched nodes to be {wanted}, but was {}",
            self.found
        );
        let mut lines = (self.lines)();
        if !lines.is_empty() {
            // ytt sorts the positions as text: `schema.yml:13` before `schema.yml:4`.
            lines.sort_unstable();
            message.push_str(&format!(" (lines: {})", lines.join(", ")));
        }
        Unmet::Count(message)
    }

    fn int(&self, wanted: i64) -> Result<(), Unmet> {
        match i64::try_from(self.found) == Ok(wanted) {
            true => Ok(()),
            false => Err(self.unmet(wanted.to_string())),
        }
    }

    /// Met by any of `wanted`, else the last one's error (an empty list is met). The message
    /// is made only when none is met: plain data values count each of their map items with
    /// `[0, 1]`, and a key that is in the defaults matched once.
    fn any_of_ints(&self, wanted: &[i64]) -> Result<(), Unmet> {
        match wanted.last() {
            Some(&last) if !wanted.iter().any(|&w| i64::try_from(self.found) == Ok(w)) => {
                self.int(last)
            }
            _ => Ok(()),
        }
    }

    /// `"N+"` (Go's `strconv.Atoi` of `N`: an optional sign and digits); any other text is
    /// an error.
    fn text(&self, s: &str) -> Result<(), Unmet> {
        let least = s.strip_suffix('+').and_then(|n| n.parse::<i64>().ok());
        match least {
            Some(n) if i64::try_from(self.found).is_ok_and(|f| f >= n) => Ok(()),
            Some(n) => Err(self.unmet(format!(">= {n}"))),
            None => Err(Unmet::Bad(format!(
                "Expected '{s}' to be in format 'i+' where i is an integer"
            ))),
        }
    }

    /// A list's items in turn: met by the first that is met, else the last one's error (an
    /// empty list is met).
    fn list<T>(
        &self,
        items: &[T],
        mut check: impl FnMut(&T) -> Result<(), Unmet>,
    ) -> Result<(), Unmet> {
        let mut last = Ok(());
        for item in items {
            last = check(item);
            if last.is_ok() {
                break;
            }
        }
        last
    }

    fn wrong_type(kwarg: &str, starlark_type: &str) -> Unmet {
        Unmet::Bad(format!(
            "Expected 'overlay/match' annotation keyword argument '{kwarg}' to be either int, string or function, but was {}",
            go_type(starlark_type)
        ))
    }

    /// The argument `kwarg` (`expects` or `when`) as ytt checks it.
    fn arg(&self, arg: &Arg, kwarg: &str) -> Result<(), Unmet> {
        match &arg.kind {
            // (a struct or a YAML fragment is data too, but not of the types taken here)
            ArgKind::Data(n) if matches!(arg.type_name.as_str(), "int" | "string" | "list") => {
                self.value(&n.value, kwarg)
            }
            ArgKind::List(items) => self.list(items, |i| self.arg(i, kwarg)),
            ArgKind::Opaque { index, .. } if arg.type_name == "function" => {
                self.function(FunctionRef { index: *index }, kwarg)
            }
            _ => Err(Count::wrong_type(kwarg, &arg.type_name)),
        }
    }

    fn value(&self, value: &Value, kwarg: &str) -> Result<(), Unmet> {
        match value {
            Value::Int(n) => self.int(*n),
            Value::UInt(n) if u64::try_from(self.found) == Ok(*n) => Ok(()),
            Value::UInt(n) => Err(self.unmet(n.to_string())),
            Value::Str(s) => self.text(s),
            Value::Array(items) => self.list(items, |i| self.value(&i.value, kwarg)),
            other => Err(Count::wrong_type(kwarg, starlark_type(other))),
        }
    }

    fn function(&self, f: FunctionRef, kwarg: &str) -> Result<(), Unmet> {
        let n = TreeValue::Scalar(Value::Int(i64::try_from(self.found).unwrap_or(i64::MAX)));
        match matcher::call(self.calls, &f, &[&n])
            .map_err(Unmet::Bad)?
            .value
        {
            TreeValue::Scalar(Value::Bool(true)) => Ok(()),
            TreeValue::Scalar(Value::Bool(false)) => Err(Unmet::Count(
                "Expectation of number of matched nodes failed".into(),
            )),
            _ => Err(Unmet::Bad(format!(
                "Expected keyword argument '{kwarg}' to have a function that returns a boolean"
            ))),
        }
    }
}

/// The counting arguments `#@overlay/match-child-defaults` of a node or of its ancestors gives
/// the nodes below it (a nearer node's argument wins), borrowed from those annotations.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct ChildDefaults<'a>(Expects<'a>);

impl<'a> ChildDefaults<'a> {
    /// The defaults for the children of a node annotated with `anns`.
    pub(super) fn under<'b>(&self, anns: &'b [Ann]) -> ChildDefaults<'b>
    where
        'a: 'b,
    {
        let inherited: Expects<'b> = self.0;
        ChildDefaults(inherited.with(Ann::find(anns, "overlay/match-child-defaults")))
    }

    /// How many nodes `item`'s match expects: its own `#@overlay/match` arguments over these
    /// defaults (checked by [`Expects::met`]).
    pub(super) fn expects<'b>(&self, item: &'b Tree, mode: Mode) -> Expects<'b>
    where
        'a: 'b,
    {
        let inherited: Expects<'b> = self.0;
        Expects {
            plain: mode.missing_ok,
            ..inherited.with(item.ann("overlay/match"))
        }
    }
}
