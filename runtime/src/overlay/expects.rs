//! How many nodes an `#@overlay/match` expects to match (`expects=`, `missing_ok=`, `when=`),
//! and the defaults `#@overlay/match-child-defaults` gives the nodes below it.

use super::matcher;
use super::{kwarg, truthy, Calls, Mode, OverlayError, Path};
use crate::schema::FunctionRef;
use crate::template::tree::{Ann, Tree, TreeValue};
use crate::value::{Node, Pos, Value};

/// How many nodes an `#@overlay/match` expects to match: `expects=` (an int, `"N+"`, a
/// function given the number, or a list of those), `missing_ok=True` (zero or one), or exactly
/// one; `when=` takes the same, but a node whose count is not met is left out rather than an
/// error (`when` set).
pub(super) struct Expects {
    /// (borrowed when they are the default's, which most nodes take: no allocation per item)
    counts: std::borrow::Cow<'static, [Count]>,
    when: bool,
}

#[derive(Clone, Copy)]
enum Count {
    Exactly(i64),
    AtLeast(i64),
    /// `expects=lambda n: ...`: met when it returns `True`.
    Call(FunctionRef),
}

/// The value of `expects=` or `when=`: data, or a function.
#[derive(Clone, Debug)]
enum CountArg {
    Data(Node),
    Function(FunctionRef),
}

/// The `expects=`-like keyword argument `name` of `ann`, if given.
fn count_arg(ann: &Ann, name: &str) -> Option<CountArg> {
    matcher::function(ann, name)
        .map(CountArg::Function)
        .or_else(|| kwarg(ann, name).map(|n| CountArg::Data(n.into_owned())))
}

impl Expects {
    fn of(expects: Option<&CountArg>, missing_ok: bool) -> Expects {
        let parse = |v: &Value| match v {
            Value::Int(n) => Some(Count::Exactly(*n)),
            Value::Str(s) => match s.strip_suffix('+') {
                Some(n) => n.trim().parse().ok().map(Count::AtLeast),
                None => s.trim().parse().ok().map(Count::Exactly),
            },
            _ => None,
        };
        let counts: Vec<Count> = match expects {
            Some(CountArg::Function(f)) => vec![Count::Call(*f)],
            Some(CountArg::Data(v)) => match &v.value {
                Value::Array(items) => items.iter().filter_map(|i| parse(&i.value)).collect(),
                other => parse(other).into_iter().collect(),
            },
            None => Vec::new(),
        };
        const ONE: &[Count] = &[Count::Exactly(1)];
        const ZERO_OR_ONE: &[Count] = &[Count::Exactly(0), Count::Exactly(1)];
        let counts = match counts.is_empty() {
            false => counts.into(),
            true if missing_ok => ZERO_OR_ONE.into(),
            true => ONE.into(),
        };
        Expects {
            counts,
            when: false,
        }
    }

    /// Whether `found` matches (at `lines`) meet the expectation: `Ok(false)` when `when=` is
    /// not met (the node is left out), `Err` with ytt's message when `expects=` is not, or
    /// when a function given fails.
    pub(super) fn met(&self, found: usize, lines: &[&Pos], calls: Calls) -> Result<bool, String> {
        let n = found as i64;
        let mut failure = None;
        for c in self.counts.iter() {
            let met = match c {
                Count::Exactly(e) => n == *e,
                Count::AtLeast(e) => n >= *e,
                Count::Call(f) => {
                    let count = TreeValue::Scalar(Value::Int(n));
                    match matcher::call(calls, f, &[&count])? {
                        TreeValue::Scalar(Value::Bool(b)) => b,
                        _ => {
                            let kwarg = if self.when { "when" } else { "expects" };
                            return Err(format!(
                                "Expected keyword argument '{kwarg}' to have a function that returns a boolean"
                            ));
                        }
                    }
                }
            };
            if met {
                return Ok(true);
            }
            failure = Some(c);
        }
        if self.when {
            return Ok(false);
        }
        let wanted = match failure {
            Some(Count::AtLeast(n)) => format!(">= {n}"),
            Some(Count::Exactly(n)) => n.to_string(),
            Some(Count::Call(_)) => {
                return Err("Expectation of number of matched nodes failed".into())
            }
            None => "1".into(),
        };
        let mut message =
            format!("Expected number of matched nodes to be {wanted}, but was {found}");
        if !lines.is_empty() {
            // ytt sorts the positions as text: `schema.yml:13` before `schema.yml:4`.
            let mut lines: Vec<String> = lines.iter().map(|p| p.to_string()).collect();
            lines.sort_unstable();
            message.push_str(&format!(" (lines: {})", lines.join(", ")));
        }
        Err(message)
    }
}

/// The `#@overlay/match` keyword arguments that `#@overlay/match-child-defaults` of a node or
/// of its ancestors gives the nodes below it (a nearer node's argument wins).
#[derive(Clone, Debug, Default)]
pub(super) struct ChildDefaults {
    missing_ok: Option<Node>,
    expects: Option<CountArg>,
    when: Option<CountArg>,
}

impl ChildDefaults {
    /// The defaults for the children of a node annotated with `anns`.
    pub(super) fn under(&self, anns: &[Ann]) -> ChildDefaults {
        let mut defaults = self.clone();
        if let Some(ann) = Ann::find(anns, "overlay/match-child-defaults") {
            if let Some(n) = kwarg(ann, "missing_ok") {
                defaults.missing_ok = Some(n.into_owned());
            }
            if let Some(n) = count_arg(ann, "expects") {
                defaults.expects = Some(n);
            }
            if let Some(n) = count_arg(ann, "when") {
                defaults.when = Some(n);
            }
        }
        defaults
    }

    /// How many nodes `item`'s match expects: its own `#@overlay/match` arguments over these
    /// defaults; ytt rejects `missing_ok` and `expects` together.
    pub(super) fn expects(
        &self,
        item: &Tree,
        mode: Mode,
        path: &Path,
    ) -> Result<Expects, OverlayError> {
        let matcher = item.ann("overlay/match");
        let missing_ok = matcher
            .and_then(|m| kwarg(m, "missing_ok"))
            .or(self.missing_ok.as_ref().map(std::borrow::Cow::Borrowed));
        let expects = matcher
            .and_then(|m| count_arg(m, "expects"))
            .or_else(|| self.expects.clone());
        let when = matcher
            .and_then(|m| count_arg(m, "when"))
            .or_else(|| self.when.clone());
        let conflict = match (&missing_ok, &expects, &when) {
            (Some(_), Some(_), _) => Some("'missing_ok', 'expects'"),
            (Some(_), _, Some(_)) => Some("'missing_ok', 'when'"),
            (_, Some(_), Some(_)) => Some("'when', 'expects'"),
            _ => None,
        };
        if let Some(names) = conflict {
            return Err(path.error(format!(
                "Expected only one of keyword arguments ({names}) specified"
            )));
        }
        if when.is_some() {
            return Ok(Expects {
                when: true,
                ..Expects::of(when.as_ref(), false)
            });
        }
        Ok(Expects::of(
            expects.as_ref(),
            mode.missing_ok || truthy(missing_ok.as_deref()),
        ))
    }
}
