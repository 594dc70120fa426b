//! The budget of each Starlark evaluation: statements run and bytes on its heap, counted (not
//! timed) so that the same input passes or fails on any machine.
//!
//! Statements are counted by a hook the interpreter calls before each one
//! ([`super::statement_hook`]), which also looks at the heap (at every statement: a value may
//! double in one, `x += x`). One operation can allocate a huge value at once, before the hook runs again:
//! every `*` of a program is therefore a call of [`REPEAT`], which refuses a repetition
//! (`[0] * 10**9`, `"x" * 10**9`) whose result would take the heap past the budget before
//! anything is allocated. Comprehensions run no statements: the iterable of each passes
//! through [`ITERATE`], which charges its items as statements (and the list they may make to
//! the heap) before the comprehension starts. `join`, `replace` and `format` calls go through
//! [`METHOD`], which sizes the string they make first.

use starlark::collections::SmallMap;
use starlark::environment::GlobalsBuilder;
use starlark::eval::Evaluator;
use starlark::syntax::AstModule;
use starlark::values::dict::DictRef;
use starlark::values::tuple::{TupleRef, UnpackTuple};
use starlark::values::{Heap, StringValue, UnpackValue, Value};

use super::go_builtins::{ASSIGNING, INDEX, KWARGS};
pub(super) use super::statement_hook::budget;
pub(crate) use super::statement_hook::{bound, EvaluationStart};
use super::statement_hook::{charge_iterations, heap_exceeded, heap_exceeded_message};
pub use super::statement_hook::{DEFAULT_MAX_CALL_DEPTH, DEFAULT_MAX_MEMORY, DEFAULT_MAX_STEPS};
use super::written_size::{written_bytes, Writing};

/// The global function the iterable of every comprehension passes through (see
/// [`guard_source`]).
pub(super) const ITERATE: &str = "__schemac_iter";

/// The global function the right side of `x *= n` passes through (see [`guard_source`]).
pub(super) const TIMES: &str = "__schemac_times";

/// Builtins that go through all of an iterable in one call, making a value as long as it or
/// looping over it with no statement run: their positional arguments pass through [`ITERATE`].
/// (This also keeps the compiler from running `list(range(10**8))` while it compiles: the
/// call's arguments are no longer constants.)
const ITERATING_BUILTINS: &[&str] = &[
    "list",
    "tuple",
    "dict",
    "set",
    "sorted",
    "reversed",
    "enumerate",
    "zip",
    "any",
    "all",
    "min",
    "max",
    "map",
    "filter",
];

/// The global function every call of a [`SIZED_METHODS`] method becomes (see [`guard_source`]).
pub(super) const METHOD: &str = "__schemac_method";

/// String methods whose result can be much longer than their receiver and arguments together:
/// `SEP.join(ITEMS)` (the separator repeated), `S.replace(OLD, NEW)` (`NEW` once per `OLD`),
/// `FMT.format(ARGS)` (an argument once per `{}`), `S.split(SEP)` and `S.rsplit(SEP)` (a
/// string and a list item per piece).
const SIZED_METHODS: &[&str] = &["join", "replace", "format", "split", "rsplit"];

/// Whether calls of `method` go through [`METHOD`]: a sized method, or one whose starlark-go
/// behaviour [`super::go_methods`] gives.
fn rewritten(method: &str) -> bool {
    SIZED_METHODS.contains(&method) || super::go_methods::GO_METHODS.contains(&method)
}

/// A temporary of the rewritten `OBJ[INDEX] *= N` (see [`guard_source`]).
const TEMPORARY: &str = "__schemac_t";

/// One change to a program's text: `remove` bytes at `at` replaced by `text`. Edits at one
/// offset apply in the order of `order`: closing parentheses first, then an outer call opened
/// before one it contains.
struct Edit {
    at: usize,
    order: (u8, isize),
    remove: usize,
    text: String,
}

impl Edit {
    /// Adds `edits`, each `(at, order, remove, text)`.
    fn extend(
        out: &mut Vec<Edit>,
        edits: impl IntoIterator<Item = (usize, (u8, isize), usize, String)>,
    ) {
        out.extend(edits.into_iter().map(|(at, order, remove, text)| Edit {
            at,
            order,
            remove,
            text,
        }));
    }

    /// `open` and `(` before the text `begin..end` and `))` after it: the text in parentheses
    /// of its own, since a tuple's text may have none (`list(("a", "b"))`).
    fn wrap(out: &mut Vec<Edit>, begin: u32, open: String, end: u32) {
        let (begin, end) = (begin as usize, end as usize);
        let len = (end - begin) as isize;
        let open = open + "(";
        out.push(Edit {
            at: begin,
            order: (1, -len),
            remove: 0,
            text: open,
        });
        out.push(Edit {
            at: end,
            order: (0, len),
            remove: 0,
            text: "))".to_string(),
        });
    }
}

/// How many `)` of `text` close a parenthesis opened before it (outside string literals).
fn unopened_parentheses(text: &str) -> usize {
    let (mut depth, mut lowest, mut quote, mut escaped) = (0i64, 0i64, None, false);
    for c in text.chars() {
        match quote {
            Some(_) if escaped => escaped = false,
            Some(_) if c == '\\' => escaped = true,
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                '"' | '\'' => quote = Some(c),
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    lowest = lowest.min(depth);
                }
                _ => {}
            },
        }
    }
    lowest.unsigned_abs() as usize
}

/// Where the `count` opening parentheses before `at` (blanks between them) begin.
fn opening_parentheses(source: &str, at: usize, count: usize) -> Option<usize> {
    let mut begin = at;
    for _ in 0..count {
        let before = source.get(..begin)?.trim_end();
        begin = before.strip_suffix('(')?.len();
    }
    Some(begin)
}

/// `source` with calls wrapped around what one statement could do unseen by the statement
/// hook, `None` when there is none:
/// - the iterable of every comprehension (`[f(x) for x in ITERABLE]`), and the positional
///   arguments of the [`ITERATING_BUILTINS`] (`list(range(n))`), pass through [`ITERATE`],
///   which charges their items to the budget before anything runs;
/// - `OBJ.M(ARGS)` for a method `M` of [`SIZED_METHODS`] becomes `METHOD("M", OBJ, ARGS)`
///   ([`METHOD`]), which sizes the string it makes before calling `OBJ.M(ARGS)`;
/// - the right side of `OBJ[I] = V` passes through [`ASSIGNING`] (starlark-go's errors for a
///   frozen or iterated list or dict), when `OBJ` and `I` are plain;
/// - the value of every `**` argument passes through [`KWARGS`], which makes a YAML fragment's
///   map or a struct a dict, as ytt takes them (not a budget's guard, but an edit of the same
///   kind);
/// - every index expression `OBJ[I]` becomes a call of [`INDEX`] (starlark-go's errors for an
///   index out of range);
/// - `LHS <<= N` is written `LHS = SHIFT_LEFT(LHS, N)`, and so for the other augmented
///   assignments whose operator [`guard_repetition`] replaces but `*=` ([`augmented_function`]);
/// - the right side of `LHS *= N` passes through [`TIMES`] (given `LHS` again), which sizes the
///   repetition first. When `LHS` calls a function or spans lines (and evaluating it twice
///   could differ), the statement becomes `T0, T1 = (OBJ, INDEX); T0[T1] *= TIMES(T0[T1], N)`
///   for `OBJ[INDEX]` and `T0 = (OBJ); T0.NAME *= TIMES(T0.NAME, N)` for `OBJ.NAME`, in one
///   line as before.
///
/// Only text is added, inside lines: errors keep their lines.
pub(super) fn guard_source(ast: &AstModule, source: &str) -> Option<String> {
    use starlark::syntax::ast::{
        ArgumentP, AssignOp, AssignTargetP, AstExpr, AstStmt, ClauseP, ExprP, StmtP,
    };
    /// The starts of the postfix expressions found so far, by node: each of a chain
    /// (`x[0][0]...`) is asked for once, so that a chain of 20,000 took 6.6 s.
    type Starts = std::collections::HashMap<*const AstExpr, usize>;
    /// Where the text of `e` starts. The span of a postfix expression (`OBJ[I]`, `OBJ.name`,
    /// `OBJ(...)`) starts at its object's, without the parentheses the object may have.
    fn start(e: &AstExpr, source: &str, known: &mut Starts) -> usize {
        let (obj, op) = match &e.node {
            ExprP::Index(parts) => (&parts.0, '['),
            ExprP::Slice(obj, ..) => (&**obj, '['),
            ExprP::Dot(obj, _) => (&**obj, '.'),
            ExprP::Call(obj, _) => (&**obj, '('),
            _ => return e.span.begin().get() as usize,
        };
        if let Some(&begin) = known.get(&(e as *const AstExpr)) {
            return begin;
        }
        let mut begin = start(obj, source, known);
        let obj_end = obj.span.end().get() as usize;
        let between = source
            .get(obj_end..)
            .and_then(|t| t.find(op).map(|at| &t[..at]));
        for _ in 0..between.map_or(0, |t| t.matches(')').count()) {
            match source[..begin].trim_end().strip_suffix('(') {
                Some(before) => begin = before.len(),
                None => break,
            }
        }
        known.insert(e, begin);
        begin
    }
    fn expr(e: &AstExpr, source: &str, out: &mut Vec<Edit>, starts: &mut Starts) {
        let mut iterables = Vec::new();
        match &e.node {
            ExprP::ListComprehension(_, first, rest) | ExprP::DictComprehension(_, first, rest) => {
                iterables.push(&first.over);
                iterables.extend(rest.iter().filter_map(|c| match c {
                    ClauseP::For(f) => Some(&f.over),
                    ClauseP::If(_) => None,
                }));
            }
            ExprP::Call(callee, args) => {
                let positional: Vec<&AstExpr> = args
                    .args
                    .iter()
                    .filter_map(|a| match &a.node {
                        ArgumentP::Positional(x) => Some(x),
                        _ => None,
                    })
                    .collect();
                for a in &args.args {
                    if let ArgumentP::KwArgs(x) = &a.node {
                        Edit::wrap(
                            out,
                            x.span.begin().get(),
                            format!("{KWARGS}("),
                            x.span.end().get(),
                        );
                    }
                }
                match &callee.node {
                    // `min(a, b)` compares its arguments; `min(xs)` goes through `xs`.
                    ExprP::Identifier(name)
                        if ITERATING_BUILTINS.contains(&name.ident.as_str())
                            && !(matches!(name.ident.as_str(), "min" | "max")
                                && positional.len() > 1) =>
                    {
                        iterables.extend(positional)
                    }
                    ExprP::Dot(obj, method) if rewritten(&method.node) => {
                        // `OBJ.M(` becomes `METHOD("M", OBJ, ` (`METHOD("M", OBJ` without
                        // arguments); the call's `)` closes it. `OBJ` may stand in parentheses
                        // that its span leaves out.
                        let obj_end = obj.span.end().get() as usize;
                        let dot_to_paren = source
                            .get(obj_end..e.span.end().get() as usize)
                            .filter(|t| !t.contains('#'))
                            .and_then(|t| {
                                let paren = t.find('(')?;
                                Some((t[..paren].rfind('.')?, paren))
                            });
                        let obj_begin = obj.span.begin().get() as usize;
                        let closing = dot_to_paren.map_or(0, |(dot, _)| {
                            unopened_parentheses(&source[obj_begin..obj_end + dot])
                        });
                        let begin = opening_parentheses(source, obj_begin, closing);
                        if let (Some((dot, paren)), Some(begin)) = (dot_to_paren, begin) {
                            let call_len = (e.span.end().get() as usize - begin) as isize;
                            out.push(Edit {
                                at: begin,
                                order: (1, -call_len),
                                remove: 0,
                                text: format!("{METHOD}({:?}, ", method.node),
                            });
                            out.push(Edit {
                                at: obj_end + dot,
                                order: (2, 0),
                                remove: paren + 1 - dot,
                                text: if args.args.is_empty() { "" } else { ", " }.to_string(),
                            });
                        }
                    }
                    _ => {}
                }
            }
            ExprP::Index(parts) => {
                // `OBJ[I]` becomes `INDEX(OBJ, I)`, in the same lines.
                let (obj, index) = &**parts;
                let (begin, obj_end) = (start(e, source, starts), obj.span.end().get() as usize);
                let (index_begin, index_end) = (
                    index.span.begin().get() as usize,
                    index.span.end().get() as usize,
                );
                let end = e.span.end().get() as usize;
                // Only brackets, parentheses and spaces between the parts (no comment).
                let plain = |t: &str| t.chars().all(|c| "[]() \t\r\n".contains(c));
                let open = source
                    .get(obj_end..index_begin)
                    .filter(|t| plain(t))
                    .and_then(|t| t.find('['));
                let close = source
                    .get(index_end..end)
                    .filter(|t| plain(t))
                    .and_then(|t| t.rfind(']'));
                if let (Some(open), Some(close)) = (open, close) {
                    let len = (end - begin) as isize;
                    out.push(Edit {
                        at: begin,
                        order: (1, -len),
                        remove: 0,
                        text: format!("{INDEX}("),
                    });
                    out.push(Edit {
                        at: obj_end + open,
                        order: (2, 0),
                        remove: 1,
                        text: ", ".to_string(),
                    });
                    out.push(Edit {
                        at: index_end + close,
                        order: (0, len),
                        remove: 1,
                        text: ")".to_string(),
                    });
                }
            }
            _ => {}
        }
        for over in iterables {
            Edit::wrap(
                out,
                over.span.begin().get(),
                format!("{ITERATE}("),
                over.span.end().get(),
            );
        }
        e.visit_expr(|c| expr(c, source, out, starts));
    }
    fn stmt(s: &AstStmt, source: &str, temporaries: &mut usize, out: &mut Vec<Edit>) {
        if let StmtP::Assign(a) = &s.node {
            // `OBJ[I] = V` becomes `OBJ[I] = ASSIGNING(OBJ, I, V)` when OBJ and I are plain.
            let text =
                |e: &AstExpr| &source[e.span.begin().get() as usize..e.span.end().get() as usize];
            if let AssignTargetP::Index(parts) = &a.lhs.node {
                let (obj, index) = (text(&parts.0), text(&parts.1));
                if !format!("{obj}{index}").contains(['(', '[', '\n', '#']) {
                    let open = format!("{ASSIGNING}({obj}, {index}, ");
                    Edit::wrap(out, a.rhs.span.begin().get(), open, a.rhs.span.end().get());
                }
            }
        }
        if let StmtP::AssignModify(lhs, op, rhs) = &s.node {
            // `LHS <<= N` becomes `LHS = SHIFT_LEFT(LHS, N)` (and so for `%=`, `>>=`, `|=`), when
            // `LHS` calls nothing and the statement stands on one line without a comment.
            let (lhs_end, rhs_begin) = (lhs.span.end().get() as usize, rhs.span.begin().get());
            let target = &source[lhs.span.begin().get() as usize..lhs_end];
            let between = &source[lhs_end..rhs_begin as usize];
            if let Some((binary, function)) = augmented_function(op) {
                let operator = between.find(&format!("{binary}="));
                let plain = !target.contains(['(', '\n']) && !between.contains(['\n', '#']);
                if let (Some(at), true) = (operator, plain) {
                    let at = lhs_end + at;
                    let len = (rhs.span.end().get() as usize - at) as isize;
                    let edits = [
                        (
                            at,
                            (1, -len),
                            binary.len() + 1,
                            format!("= {function}({target}, "),
                        ),
                        (rhs.span.end().get() as usize, (0, len), 0, ")".to_string()),
                    ];
                    Edit::extend(out, edits);
                }
            }
        }
        if let StmtP::AssignModify(lhs, AssignOp::Multiply, rhs) = &s.node {
            let (begin, end) = (lhs.span.begin().get(), lhs.span.end().get());
            let target = source.get(begin as usize..end as usize).unwrap_or("(");
            if !target.contains(['(', '\n']) {
                let open = format!("{TIMES}({target}, ");
                Edit::wrap(out, rhs.span.begin().get(), open, rhs.span.end().get());
            } else if let AssignTargetP::Index(parts) = &lhs.node {
                let (obj, index) = &**parts;
                let (obj_end, index_begin) = (
                    obj.span.end().get() as usize,
                    index.span.begin().get() as usize,
                );
                let (index_end, rhs_begin) = (
                    index.span.end().get() as usize,
                    rhs.span.begin().get() as usize,
                );
                // `[` and `] *=` as they stand between the parts (no comment, no line break).
                let bracket = source.get(obj_end..index_begin).and_then(|t| t.find('['));
                let between = source.get(index_end..rhs_begin).unwrap_or("");
                if let (Some(bracket), false) = (bracket, between.contains(['#', '\n'])) {
                    let k = *temporaries;
                    *temporaries += 1;
                    let (t0, t1) = (format!("{TEMPORARY}{k}o"), format!("{TEMPORARY}{k}i"));
                    let edits = [
                        (
                            begin as usize,
                            (1, isize::MIN),
                            0,
                            format!("{t0}, {t1} = ("),
                        ),
                        (obj_end + bracket, (2, 0), 1, ", ".to_string()),
                        (
                            index_end,
                            (2, 0),
                            between.len(),
                            format!("); {t0}[{t1}] *= {TIMES}({t0}[{t1}], "),
                        ),
                        (rhs.span.end().get() as usize, (0, 0), 0, ")".to_string()),
                    ];
                    Edit::extend(out, edits);
                }
            } else if let AssignTargetP::Dot(obj, name) = &lhs.node {
                let (obj_end, rhs_begin) = (
                    obj.span.end().get() as usize,
                    rhs.span.begin().get() as usize,
                );
                // `.NAME *=` as it stands after the object (no comment, no line break).
                let between = source.get(obj_end..rhs_begin).unwrap_or("#");
                if !between.contains(['#', '\n']) {
                    let t0 = format!("{TEMPORARY}{}o", *temporaries);
                    *temporaries += 1;
                    let field = format!("{t0}.{}", name.node);
                    let edits = [
                        (begin as usize, (1, isize::MIN), 0, format!("{t0} = (")),
                        (
                            obj_end,
                            (2, 0),
                            between.len(),
                            format!("); {field} *= {TIMES}({field}, "),
                        ),
                        (rhs.span.end().get() as usize, (0, 0), 0, ")".to_string()),
                    ];
                    Edit::extend(out, edits);
                }
            }
        }
        s.visit_stmt(|c| stmt(c, source, temporaries, out));
    }
    let mut edits = Vec::new();
    // The statement's expressions, those of nested statements included.
    let mut starts = Starts::new();
    ast.statement()
        .visit_expr(|e| expr(e, source, &mut edits, &mut starts));
    stmt(ast.statement(), source, &mut 0, &mut edits);
    if edits.is_empty() {
        return None;
    }
    edits.sort_by_key(|a| (a.at, a.order));
    edits.dedup_by(|a, b| (a.at, a.order, a.remove, &a.text) == (b.at, b.order, b.remove, &b.text));
    let added: usize = edits.iter().map(|e| e.text.len()).sum();
    let mut out = String::with_capacity(source.len() + added);
    let mut at = 0;
    for edit in edits {
        out.push_str(source.get(at..edit.at)?);
        out.push_str(&edit.text);
        at = edit.at + edit.remove;
    }
    out.push_str(source.get(at..)?);
    Some(out)
}

/// Fails with the heap budget's error if `bytes` more would take `heap` past the budget.
fn reserve(heap: Heap<'_>, bytes: u128) -> starlark::Result<()> {
    if bytes > heap_left(heap) {
        return Err(heap_exceeded("would allocate"));
    }
    Ok(())
}

/// The bytes `heap` may still take within the budget.
fn heap_left(heap: Heap<'_>) -> u128 {
    let (_, max_memory) = budget();
    (max_memory as u128).saturating_sub(heap.allocated_bytes() as u128)
}

/// The bytes `heap` may still take within the budget, for a function that builds a value
/// outside the heap and checks its size with [`within`] as it grows.
pub(super) fn heap_room(heap: Heap<'_>) -> u128 {
    heap_left(heap)
}

/// Fails with the heap budget's error if `bytes` are more than `room` ([`heap_room`]).
pub(super) fn within(bytes: u128, room: u128) -> anyhow::Result<()> {
    if bytes > room {
        return Err(heap_exceeded_message("would allocate"));
    }
    Ok(())
}

/// Makes room in `out` for `more` bytes, failing with the heap budget's error if they would take
/// it past `room` ([`heap_room`]); its capacity doubles, as a `String`'s does, but never past
/// `room`.
pub(super) fn grow_within(out: &mut String, more: usize, room: u128) -> anyhow::Result<()> {
    let need = out.len() as u128 + more as u128;
    within(need, room)?;
    if need > out.capacity() as u128 {
        let want = (2 * out.capacity() as u128).clamp(need, room);
        out.reserve_exact(want as usize - out.len());
    }
    Ok(())
}

/// Fails with the heap budget's error if writing `v` out (`json.encode`, `yaml.encode`) would
/// take `heap` past the budget.
pub(super) fn reserve_written(v: Value, writing: Writing, heap: Heap<'_>) -> anyhow::Result<()> {
    let left = heap_left(heap);
    if written_bytes(v, writing, left) > left {
        return Err(heap_exceeded_message("would allocate"));
    }
    Ok(())
}

/// The global function every `*` of a program calls (see [`guard_repetition`]).
pub(super) const REPEAT: &str = "__schemac_mul";

/// Makes every binary `*` of `ast` a call of [`REPEAT`], every `%` one of [`PERCENT`], and
/// every `<<`/`>>`, `in`/`not in` and `|` one of starlark-go's (`go_builtins`).
/// (`x *= n` stays an operator: the interpreter offers no way to replace it; see README
/// "Budgets".)
pub(super) fn guard_repetition(ast: &mut AstModule) {
    ast.replace_binary_operators(
        &OPERATOR_FUNCTIONS
            .iter()
            .map(|(op, f)| (op.to_string(), f.to_string()))
            .collect(),
    );
}

/// The function [`guard_repetition`] calls for each binary operator it replaces.
pub(super) const OPERATOR_FUNCTIONS: [(&str, &str); 7] = [
    ("*", REPEAT),
    ("%", PERCENT),
    ("<<", super::go_builtins::SHIFT_LEFT),
    (">>", super::go_builtins::SHIFT_RIGHT),
    ("in", super::go_builtins::IN),
    ("not in", super::go_builtins::NOT_IN),
    ("|", super::go_builtins::BIT_OR),
];

/// The operator of `LHS op= RHS` and the function [`guard_source`] writes it as
/// (`LHS = FUNCTION(LHS, RHS)`), for the augmented assignments whose binary operator
/// [`guard_repetition`] replaces (`*=` has [`TIMES`] instead).
fn augmented_function(
    op: &starlark::syntax::ast::AssignOp,
) -> Option<(&'static str, &'static str)> {
    use starlark::syntax::ast::AssignOp;
    let binary = match op {
        AssignOp::Percent => "%",
        AssignOp::LeftShift => "<<",
        AssignOp::RightShift => ">>",
        AssignOp::BitOr => "|",
        _ => return None,
    };
    OPERATOR_FUNCTIONS
        .iter()
        .copied()
        .find(|(o, _)| *o == binary)
}

/// The global function every `%` of a program calls: `FMT % ARGS` sized first.
pub(super) const PERCENT: &str = "__schemac_percent";

/// `a % b` of two numbers, one a float, as ytt's starlark-go computes it: the remainder of a
/// truncated division (Go's `math.Mod`, the sign of `a`), not a floored one; `None` when
/// neither is a float or `b` is zero (the interpreter's error).
fn float_remainder(a: Value, b: Value) -> Option<f64> {
    use starlark::values::float::StarlarkFloat;
    use starlark::values::ValueLike;
    let is_float = |v: Value| v.downcast_ref::<StarlarkFloat>().is_some();
    if !(is_float(a) || is_float(b)) {
        return None;
    }
    let float = super::go_format::as_float;
    let (x, y) = (float(a)?, float(b)?);
    (y != 0.0).then(|| x % y)
}

/// The sequence and the count of `a * b` when it repeats a string, list or tuple.
fn repetition<'v>(a: Value<'v>, b: Value<'v>) -> Option<(Value<'v>, Value<'v>)> {
    let is_seq = |v: Value| matches!(v.get_type(), "string" | "list" | "tuple");
    match (a, b) {
        (seq, count) | (count, seq) if is_seq(seq) && count.get_type() == "int" => {
            Some((seq, count))
        }
        _ => None,
    }
}

/// starlark-go's bound on a repetition's elements (bytes of a string, items of a list).
const MAX_REPEAT_ELEMENTS: u128 = 1 << 30;

/// Whether `seq * count` may run: an error past the heap budget, or (in starlark-go's words)
/// for a count beyond 32 bits on a non-empty sequence or a result of 2^30 elements or more;
/// `Ok(false)` when `seq` is empty (and `seq * 0` is the answer).
fn repetition_fits(seq: Value, count: Value, heap: Heap) -> starlark::Result<bool> {
    let len = match seq.unpack_str() {
        Some(s) => s.len(),
        None => seq.length()?.max(0) as usize,
    };
    if len == 0 {
        // Empty whatever the count (the interpreter would still loop `count` times).
        return Ok(false);
    }
    let Some(n) = i32::unpack_value(count).ok().flatten() else {
        return Err(starlark::Error::new_other(anyhow::anyhow!(
            "repeat count {count} too large"
        )));
    };
    // starlark-go's own limit, before the heap budget (`"x" * 2**30` fails in ytt at once).
    let elements = len as u128 * n.max(0) as u128;
    if elements >= MAX_REPEAT_ELEMENTS {
        return Err(starlark::Error::new_other(anyhow::anyhow!(
            "excessive repeat ({elements} elements)"
        )));
    }
    let item_bytes = match seq.unpack_str() {
        Some(_) => 1,
        None => std::mem::size_of::<Value>() as u128,
    };
    reserve(heap, elements * item_bytes)?;
    Ok(true)
}

/// The bytes of `sep.join(items)`; its items are charged to the statement budget.
fn joined_bytes<'v>(
    sep: &str,
    items: Option<&Value<'v>>,
    heap: Heap<'v>,
) -> starlark::Result<u128> {
    let Some(n) = items.and_then(|items| items.length().ok()) else {
        return Ok(0);
    };
    charge_iterations(n.max(0) as u64)?;
    let mut bytes = sep.len() as u128 * n.max(0) as u128;
    for item in items
        .into_iter()
        .flat_map(|items| items.iterate(heap).ok())
        .flatten()
    {
        bytes += item.unpack_str().map_or(0, str::len) as u128;
    }
    Ok(bytes)
}

/// At most the bytes of `s.replace(old, new[, count])`: `new` for each `old` replaced (between
/// each two characters and at both ends when `old` is empty).
fn replaced_bytes(s: &str, args: &[Value]) -> u128 {
    let (Some(old), Some(new)) = (
        args.first().and_then(|v| v.unpack_str()),
        args.get(1).and_then(|v| v.unpack_str()),
    ) else {
        return 0;
    };
    let found = if old.is_empty() {
        s.chars().count() as u128 + 1
    } else {
        super::go_methods::occurrences(s, old) as u128
    };
    let count = args
        .get(2)
        .and_then(|c| i64::unpack_value(*c).ok().flatten())
        .filter(|&c| c >= 0)
        .map_or(found, |c| found.min(c as u128));
    s.len() as u128 + count * new.len() as u128
}

/// At most the bytes of `fmt.format(...)` (`field` is `{`) or `fmt % ...` (`field` is `%`) with
/// `values` as its arguments: the format, and the longest argument's text for each field (each
/// may name any argument). Past `limit`, some count past it.
fn formatted_bytes<'a, 'v: 'a>(
    fmt: &str,
    field: char,
    values: impl Iterator<Item = &'a Value<'v>>,
    limit: u128,
) -> u128 {
    let fields = fmt.matches(field).count() as u128;
    if fields == 0 {
        return fmt.len() as u128;
    }
    let longest = values
        .map(|v| match v.unpack_str() {
            Some(s) => s.len() as u128,
            None => written_bytes(*v, Writing::Text, limit / fields),
        })
        .max()
        .unwrap_or(0);
    fmt.len() as u128 + fields * longest
}

/// At most the bytes of `s.split(...)`/`s.rsplit(...)` (`args`: the separator, then the
/// number of splits): a list item and a string header for each piece, and the text.
fn split_bytes(s: &str, args: &[Value]) -> u128 {
    let pieces = match args.first().and_then(|v| v.unpack_str()) {
        Some(sep) if !sep.is_empty() => super::go_methods::occurrences(s, sep) as u128 + 1,
        // No separator (or an empty one, an error): the words between runs of white space.
        _ => s.split_whitespace().count() as u128,
    };
    let pieces = args
        .get(1)
        .and_then(|n| i64::unpack_value(*n).ok().flatten())
        .filter(|&n| n >= 0)
        .map_or(pieces, |n| pieces.min(n as u128 + 1));
    s.len() as u128 + pieces * PIECE_BYTES
}

/// What a short string costs on the heap besides its text, and as an item of a list.
const PIECE_BYTES: u128 = 40;

/// [`REPEAT`], [`ITERATE`], [`TIMES`] and [`METHOD`].
#[starlark::starlark_module]
pub(super) fn sized_builtins(builder: &mut GlobalsBuilder) {
    /// `a * b`, refused with the heap budget's error when its result would not fit the budget.
    fn __schemac_mul<'v>(
        #[starlark(require = pos)] a: Value<'v>,
        #[starlark(require = pos)] b: Value<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        match repetition(a, b) {
            Some((seq, count)) if !repetition_fits(seq, count, heap)? => {
                seq.mul(heap.alloc(0), heap)
            }
            _ => {
                super::int_budget::product_fits(a, b)?;
                a.mul(b, heap)
            }
        }
    }

    /// `a % b`, refused with the heap budget's error when `a` is a format whose result would
    /// not fit the budget (each `%` may write the longest argument).
    fn __schemac_percent<'v>(
        #[starlark(require = pos)] a: Value<'v>,
        #[starlark(require = pos)] b: Value<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        if let Some(fmt) = a.unpack_str() {
            let args: Vec<Value<'v>> = if let Some(tuple) = TupleRef::from_value(b) {
                tuple.iter().collect()
            } else if let Some(dict) = DictRef::from_value(b) {
                dict.values().collect()
            } else {
                vec![b]
            };
            reserve(
                heap,
                formatted_bytes(fmt, '%', args.iter(), heap_left(heap)),
            )?;
            return Ok(heap.alloc(super::go_format::interpolate(fmt, b)?));
        }
        if let Some(r) = float_remainder(a, b) {
            return Ok(heap.alloc(r));
        }
        a.percent(b, heap)
    }

    /// The right side of `current *= n`, once the repetition is known to fit the budget.
    fn __schemac_times<'v>(
        #[starlark(require = pos)] current: Value<'v>,
        #[starlark(require = pos)] n: Value<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        match repetition(current, n) {
            Some((seq, count)) => {
                let fits = repetition_fits(seq, count, heap)?;
                // An empty `current`: `current * 0` is the answer.
                Ok(if fits || !seq.ptr_eq(current) {
                    n
                } else {
                    heap.alloc(0)
                })
            }
            None => {
                super::int_budget::product_fits(current, n)?;
                Ok(n)
            }
        }
    }

    /// `obj.method(*args, **kwargs)` for a method of [`SIZED_METHODS`], refused with the heap
    /// budget's error when the string it makes would not fit the budget (and, for `join`,
    /// with its items charged to the statement budget).
    fn __schemac_method<'v>(
        #[starlark(require = pos)] method: &str,
        #[starlark(require = pos)] obj: Value<'v>,
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<StringValue<'v>, Value<'v>>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        let heap = eval.heap();
        if let Some(receiver) = obj.unpack_str() {
            // starlark-go refuses an empty separator (the starlark crate splits at every
            // character boundary); both methods name themselves `split`.
            let empty_separator = args.items.first().and_then(|a| a.unpack_str()) == Some("");
            if matches!(method, "split" | "rsplit") && empty_separator {
                return Err(starlark::Error::new_other(anyhow::anyhow!(
                    "split: empty separator"
                )));
            }
            let bytes = match method {
                "join" => joined_bytes(receiver, args.items.first(), heap)?,
                "replace" => replaced_bytes(receiver, &args.items),
                "split" | "rsplit" => split_bytes(receiver, &args.items),
                // A list item and a string for each line (`"\n" * 10**8` made 10^8 of them,
                // 15 s and 4 GB, unseen until the next statement).
                "splitlines" => {
                    receiver.len() as u128
                        + (super::go_methods::occurrences(receiver, "\n") as u128 + 1) * PIECE_BYTES
                }
                "format" => formatted_bytes(
                    receiver,
                    '{',
                    args.items.iter().chain(kwargs.values()),
                    heap_left(heap),
                ),
                // The methods go_methods answers: a string or list about the receiver's size
                // (the statement hook sees the rest), without a scan for `{`.
                _ => receiver.len() as u128,
            };
            reserve(heap, bytes)?;
        }
        let named = super::named_args(&kwargs);
        if let (Some(fmt), "format") = (obj.unpack_str(), method) {
            let text = super::go_format::format(fmt, &args.items, &named)?;
            return Ok(heap.alloc(text));
        }
        super::go_methods::call(method, obj, &args.items, &named, eval)
    }

    /// A comprehension's iterable, its items charged to the statement budget (one statement
    /// per iteration) and the list it may make to the heap budget, before it runs.
    fn __schemac_iter<'v>(
        #[starlark(require = pos)] iterable: Value<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        // A string's `elems()` or `codepoints()` has no length: its items are counted (the
        // interpreter makes a tuple of them all before the first iteration: charged too).
        let (n, lists) = match iterable.length() {
            Ok(n) => (Some(n.max(0) as u64), 1),
            Err(_) if iterable.get_type() == "iterator" => {
                let n = iterable
                    .iterate(heap)
                    .ok()
                    .map(|items| items.count() as u64);
                (n, 2)
            }
            Err(_) => (None, 1),
        };
        if let Some(n) = n {
            charge_iterations(n)?;
            reserve(
                heap,
                lists * n as u128 * std::mem::size_of::<Value>() as u128,
            )?;
        }
        Ok(iterable)
    }
}
