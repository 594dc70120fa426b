//! The rewriting of a program's text that puts the budget's guards where one operation could
//! do much unseen by the statement hook (see [`guard_source`]): comprehensions' iterables,
//! sized string methods, repetitions by `*=`, and the edits of the same kind that give
//! starlark-go's behaviour (indexing, item assignment, `**` arguments).

use starlark::syntax::AstModule;

use super::budget::{augmented_function, DONE, EACH, ITERATE, LOOP, METHOD, TIMES};
use super::go_builtins::{ARGS, ASSIGNING, INDEX, KWARGS};
use super::go_slice::SLICE;
use super::guard_names::GuardNames;
use crate::template::code_scan::{code_bytes, without_comment};

/// Builtins that go through all of an iterable in one call, making a value as long as it or
/// looping over it with no statement run: their positional arguments pass through [`ITERATE`].
/// (This also keeps the compiler from running `list(range(10**8))` while it compiles: the
/// call's arguments are no longer constants.) `any`, `all` and `zip`, which may stop early,
/// charge their items as they take them ([`super::lazy_iteration`]).
const ITERATING_BUILTINS: &[&str] = &[
    "list",
    "tuple",
    "dict",
    "set",
    "sorted",
    "reversed",
    "enumerate",
    "min",
    "max",
    "map",
    "filter",
];

/// String methods whose result can be much longer than their receiver and arguments together:
/// `SEP.join(ITEMS)` (the separator repeated), `S.replace(OLD, NEW)` (`NEW` once per `OLD`),
/// `FMT.format(ARGS)` (an argument once per `{}`), `S.split(SEP)` and `S.rsplit(SEP)` (a
/// string and a list item per piece).
pub(super) const SIZED_METHODS: &[&str] = &["join", "replace", "format", "split", "rsplit"];

/// Whether calls of `method` go through [`METHOD`]: a sized method, or one whose starlark-go
/// behaviour [`super::go_methods`] gives.
fn rewritten(method: &str) -> bool {
    SIZED_METHODS.contains(&method) || super::go_methods::GO_METHODS.contains(&method)
}

/// A temporary of the rewritten `OBJ[INDEX] *= N` (see [`guard_source`]).
const TEMPORARY: &str = "__schemac_t";

/// The name a `load()` binds in place of a name it binds again (see [`guard_source`]).
const LOADED_AGAIN: &str = "__schemac_loaded_again";

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

/// How many `)` of `text` close a parenthesis opened before it (outside string literals and
/// comments).
fn unopened_parentheses(text: &str) -> usize {
    let (mut depth, mut lowest) = (0i64, 0i64);
    for (_, c) in code_bytes(text) {
        match c {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                lowest = lowest.min(depth);
            }
            _ => {}
        }
    }
    lowest.unsigned_abs() as usize
}

/// Where the first `op` of `text` (what follows an expression: parentheses, blanks and
/// comments) stands outside a comment, and how many `)` stand before it: the parentheses the
/// expression stands in before its `[`, `.` or `(`.
fn op_after(text: &str, op: char) -> Option<(usize, usize)> {
    let mut closing = 0;
    for (at, c) in code_bytes(text) {
        match c {
            b')' => closing += 1,
            c if char::from(c) == op => return Some((at, closing)),
            _ => {}
        }
    }
    None
}

/// Where the `count` opening parentheses before `at` (blanks and comments between them) begin.
fn opening_parentheses(source: &str, at: usize, count: usize) -> Option<usize> {
    let mut begin = at;
    for _ in 0..count {
        begin = before_blanks(source.get(..begin)?).strip_suffix('(')?.len();
    }
    Some(begin)
}

/// `text` without the blanks and comments it ends in (`x = (  # c` NEWLINE `  ` → `x = (`):
/// what stands between an expression's parentheses and the expression.
fn before_blanks(text: &str) -> &str {
    let mut text = text.trim_end();
    loop {
        let line_start = text.rfind('\n').map_or(0, |i| i + 1);
        let code = without_comment(&text[line_start..]);
        if line_start + code.len() == text.len() {
            return text;
        }
        text = text[..line_start + code.len()].trim_end();
    }
}

/// `source` with calls wrapped around what one statement could do unseen by the statement
/// hook, `None` when there is none:
/// - the iterable of every `for` statement passes through [`LOOP`], which charges its items to
///   the budget (a range's as they are taken);
/// - the iterable of every comprehension (`[f(x) for x in ITERABLE]`), and the positional
///   arguments of the [`ITERATING_BUILTINS`] (`list(range(n))`), pass through [`ITERATE`],
///   which charges their items to the budget before anything runs; each item a
///   comprehension makes (a dict comprehension's value) passes through [`EACH`], which looks
///   at the heap as the statement hook does;
/// - `OBJ.M(ARGS)` for a method `M` of [`SIZED_METHODS`] becomes `METHOD("M", OBJ, ARGS)`
///   ([`METHOD`]), which sizes the string it makes before calling `OBJ.M(ARGS)`;
/// - the right side of `OBJ[I] = V` passes through [`ASSIGNING`] (starlark-go's errors for a
///   frozen or iterated list or dict), when `OBJ` and `I` are plain;
/// - the value of every `**` argument passes through [`KWARGS`], which makes a YAML fragment's
///   map or a struct a dict, as ytt takes them (not a budget's guard, but an edit of the same
///   kind), and that of every `*` argument through [`ARGS`] (starlark-go's error for one it
///   does not iterate);
/// - every index expression `OBJ[I]` becomes a call of [`INDEX`] (starlark-go's errors for an
///   index out of range);
/// - `LHS <<= N` is written `LHS = SHIFT_LEFT(LHS, N)`, and so for the other augmented
///   assignments whose operator [`guard_repetition`](super::budget::guard_repetition) replaces but `*=` ([`augmented_function`]);
/// - the right side of `LHS *= N` passes through [`TIMES`] (given `LHS` again), which sizes the
///   repetition first. When `LHS` calls a function or spans lines (and evaluating it twice
///   could differ), the statement becomes `T0, T1 = (OBJ, INDEX); T0[T1] *= TIMES(T0[T1], N)`
///   for `OBJ[INDEX]` and `T0 = (OBJ); T0.NAME *= TIMES(T0.NAME, N)` for `OBJ.NAME`, in one
///   line as before;
/// - a name a `load()` binds a second time (`load("h.star", "x", x="z")`) is bound to
///   [`LOADED_AGAIN`] instead (`__schemac_loaded_again="z"`): starlark-go keeps the first
///   binding (the crate the last), and still looks the second one up.
///
/// Only text is added, inside lines: errors keep their lines.
pub(super) fn guard_source(ast: &AstModule, source: &str, names: &GuardNames) -> Option<String> {
    use starlark::syntax::ast::{
        ArgumentP, AssignOp, AssignTargetP, AstExpr, AstStmt, ClauseP, ExprP, StmtP,
    };
    /// The starts of the postfix expressions found so far, by node: each of a chain
    /// (`x[0][0]...`) is asked for once, so that a chain of 20,000 took 6.6 s.
    type Starts = std::collections::HashMap<*const AstExpr, Option<usize>>;
    /// Where the text of `e` starts. The span of a postfix expression (`OBJ[I]`, `OBJ.name`,
    /// `OBJ(...)`) starts at its object's, without the parentheses the object may have (blanks
    /// and comments may stand between them: `( # c` NEWLINE `x)[0]`).
    fn start(e: &AstExpr, source: &str, known: &mut Starts) -> Option<usize> {
        let (obj, op) = match &e.node {
            ExprP::Index(parts) => (&parts.0, '['),
            ExprP::Slice(obj, ..) => (&**obj, '['),
            ExprP::Dot(obj, _) => (&**obj, '.'),
            ExprP::Call(obj, _) => (&**obj, '('),
            _ => return Some(e.span.begin().get() as usize),
        };
        if let Some(&begin) = known.get(&(e as *const AstExpr)) {
            return begin;
        }
        let begin = start(obj, source, known).and_then(|begin| {
            let obj_end = obj.span.end().get() as usize;
            let closing = op_after(source.get(obj_end..)?, op).map_or(0, |(_, n)| n);
            opening_parentheses(source, begin, closing)
        });
        known.insert(e, begin);
        begin
    }
    /// `OBJ[I]` becomes `INDEX(OBJ, I)`, and `OBJ[A, B, ...]` (an index of the tuple `(A, B,
    /// ...)`, as the vendored parser reads it) `INDEX(OBJ, (A, B, ...))`, in the same lines.
    fn index_edits(
        e: &AstExpr,
        source: &str,
        names: &GuardNames,
        out: &mut Vec<Edit>,
        starts: &mut Starts,
    ) {
        let ExprP::Index(parts) = &e.node else {
            return;
        };
        let (obj, index) = &**parts;
        let (separator, close_text) = match index.node {
            ExprP::Tuple(_) => (", (", "))"),
            _ => (", ", ")"),
        };
        let obj_end = obj.span.end().get() as usize;
        let (index_begin, index_end) = (
            index.span.begin().get() as usize,
            index.span.end().get() as usize,
        );
        let end = e.span.end().get() as usize;
        // Only brackets, parentheses and spaces between the parts (no comment but before the
        // `[`).
        let plain = |t: &str| t.chars().all(|c| "[]() \t\r\n".contains(c));
        let open = source
            .get(obj_end..index_begin)
            .and_then(|t| op_after(t, '['))
            .map(|(at, _)| at)
            .filter(|&at| plain(&source[obj_end + at..index_begin]));
        let close = source
            .get(index_end..end)
            .filter(|t| plain(t))
            .and_then(|t| t.rfind(']'));
        if let (Some(begin), Some(open), Some(close)) = (start(e, source, starts), open, close) {
            let len = (end - begin) as isize;
            let edits = [
                (begin, (1, -len), 0, format!("{}(", names.of(INDEX))),
                (obj_end + open, (2, 0), 1, separator.to_string()),
                (index_end + close, (0, len), 1, close_text.to_string()),
            ];
            Edit::extend(out, edits);
        }
    }
    fn expr(
        e: &AstExpr,
        source: &str,
        names: &GuardNames,
        out: &mut Vec<Edit>,
        starts: &mut Starts,
    ) {
        let mut iterables = Vec::new();
        let item = match &e.node {
            ExprP::ListComprehension(item, ..) => Some(&**item),
            ExprP::DictComprehension(key_value, ..) => Some(&key_value.1),
            _ => None,
        };
        if let Some(item) = item {
            Edit::wrap(
                out,
                item.span.begin().get(),
                format!("{}(", names.of(EACH)),
                item.span.end().get(),
            );
        }
        // The whole comprehension or call passes through `DONE` (the budget's error if an
        // iterable was cut short at it).
        let mut done = false;
        match &e.node {
            ExprP::ListComprehension(_, first, rest) | ExprP::DictComprehension(_, first, rest) => {
                done = true;
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
                    let (x, function) = match &a.node {
                        ArgumentP::Args(x) => (x, ARGS),
                        ArgumentP::KwArgs(x) => (x, KWARGS),
                        _ => continue,
                    };
                    Edit::wrap(
                        out,
                        x.span.begin().get(),
                        format!("{}(", names.of(function)),
                        x.span.end().get(),
                    );
                }
                match &callee.node {
                    // `min(a, b)` compares its arguments; `min(xs)` goes through `xs`.
                    ExprP::Identifier(name)
                        if ITERATING_BUILTINS.contains(&name.ident.as_str())
                            && !(matches!(name.ident.as_str(), "min" | "max")
                                && positional.len() > 1) =>
                    {
                        // (Only the first is gone through: `enumerate(x, start)`.)
                        done = !positional.is_empty();
                        iterables.extend(positional.first())
                    }
                    ExprP::Dot(obj, method) if rewritten(&method.node) => {
                        // `OBJ.M(` becomes `METHOD("M", OBJ, ` (`METHOD("M", OBJ` without
                        // arguments); the call's `)` closes it. `OBJ` may stand in parentheses
                        // that its span leaves out.
                        let obj_end = obj.span.end().get() as usize;
                        // (Comments may stand before the `.`, not between it and the `(`,
                        // which are removed; nor may a parenthesis: `((OBJ.M))()` stays.)
                        let dot_to_paren = source
                            .get(obj_end..e.span.end().get() as usize)
                            .and_then(|t| {
                                let mut code = code_bytes(t).skip_while(|&(_, c)| c != b'.');
                                let (dot, _) = code.next()?;
                                let (paren, c) = code.find(|&(_, c)| c == b'(' || c == b'#')?;
                                // (A `\` may join the name's line to the `(`'s.)
                                let name = t[dot + 1..paren]
                                    .trim_matches(|c: char| c.is_whitespace() || c == '\\');
                                (c == b'(' && name == method.node).then_some((dot, paren))
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
                                text: format!("{}({:?}, ", names.of(METHOD), method.node),
                            });
                            // The line breaks between the `.` and the `(` stay, so that the
                            // lines after keep their numbers; the `,` after OBJ stands on the
                            // `(`'s line, where starlark-go places the call.
                            let removed = &source[obj_end + dot..obj_end + paren + 1];
                            let mut text = "\n".repeat(removed.matches('\n').count());
                            if !args.args.is_empty() {
                                text.push_str(", ");
                            }
                            out.push(Edit {
                                at: obj_end + dot,
                                order: (2, 0),
                                remove: paren + 1 - dot,
                                text,
                            });
                        }
                    }
                    _ => {}
                }
            }
            ExprP::Index(_) => index_edits(e, source, names, out, starts),
            ExprP::Slice(obj, lo, hi, step) => {
                let parts = [lo, hi, step].map(|p| p.as_deref());
                if let Some(begin) = start(e, source, starts) {
                    slice_edits(begin, e, obj, parts, source, names, out);
                }
            }
            _ => {}
        }
        if done {
            if let Some(begin) = start(e, source, starts) {
                // Around any other wrap of the same text (`ITERATE` or `EACH` of `list(x)`),
                // whose edits would otherwise be taken for these and dropped.
                let end = e.span.end().get() as usize;
                let len = (end - begin) as isize + 1;
                let open = format!("{}((", names.of(DONE));
                let edits = [
                    (begin, (1, -len), 0, open),
                    (end, (0, len), 0, "))".to_string()),
                ];
                Edit::extend(out, edits);
            }
        }
        for over in iterables {
            Edit::wrap(
                out,
                over.span.begin().get(),
                format!("{}(", names.of(ITERATE)),
                over.span.end().get(),
            );
        }
        e.visit_expr(|c| expr(c, source, names, out, starts));
    }
    /// `OBJ[LO:HI:STEP]` (`begin..` the expression `e`) becomes `SLICE(OBJ, LO, HI, STEP)`,
    /// `None` for a part not written, in the same lines; only where nothing but spaces,
    /// parentheses and the colons stand between the parts.
    fn slice_edits(
        begin: usize,
        e: &AstExpr,
        obj: &AstExpr,
        parts: [Option<&AstExpr>; 3],
        source: &str,
        names: &GuardNames,
        out: &mut Vec<Edit>,
    ) {
        let (obj_end, end) = (obj.span.end().get() as usize, e.span.end().get() as usize);
        let written: Vec<(usize, usize)> = parts
            .iter()
            .flatten()
            .map(|p| (p.span.begin().get() as usize, p.span.end().get() as usize))
            .collect();
        let first = written.first().map_or(end, |p| p.0);
        let last = written.last().map_or(obj_end, |p| p.1);
        let (Some(open), Some(close)) = (
            source
                .get(obj_end..first)
                .and_then(|t| op_after(t, '['))
                .map(|(at, _)| at),
            source.get(last..end).and_then(|t| t.rfind(']')),
        ) else {
            return;
        };
        let (open, close) = (obj_end + open, last + close);
        // The texts between `[`, the parts and `]`, with the part (if any) after each.
        let mut gaps = Vec::new();
        let mut at = open + 1;
        for &(b, e) in &written {
            gaps.push((at, b, true));
            at = e;
        }
        gaps.push((at, close, false));
        let plain = |t: &str| t.chars().all(|c| "() \t\r\n:".contains(c));
        if !gaps.iter().all(|&(a, b, _)| a <= b && plain(&source[a..b])) {
            return;
        }
        let mut edits = vec![(open, (2, 0), 1, ", ".to_string())];
        let (mut slot, mut filled) = (0, false);
        for &(a, b, part_after) in &gaps {
            for (i, _) in source[a..b].match_indices(':') {
                let text = if filled { ", " } else { "None, " };
                edits.push((a + i, (2, 0), 1, text.to_string()));
                (slot, filled) = (slot + 1, false);
            }
            filled |= part_after;
        }
        if !(1..=2).contains(&slot) {
            return;
        }
        let len = (end - begin) as isize;
        let missing = match (filled, slot) {
            (false, 1) => "None, None",
            (true, 1) => ", None",
            (false, _) => "None",
            (true, _) => "",
        };
        edits.push((close, (0, len), 1, format!("{missing})")));
        edits.push((begin, (1, -len), 0, format!("{}(", names.of(SLICE))));
        Edit::extend(out, edits);
    }
    fn stmt(
        s: &AstStmt,
        source: &str,
        names: &GuardNames,
        temporaries: &mut usize,
        out: &mut Vec<Edit>,
    ) {
        if let StmtP::Load(load) = &s.node {
            let mut bound = std::collections::HashSet::new();
            for arg in &load.args {
                let (local, their) = (&arg.local, &arg.their);
                if bound.insert(local.ident.as_str()) {
                    continue;
                }
                let begin = local.span.begin().get().min(their.span.begin().get()) as usize;
                let end = local.span.end().get().max(their.span.end().get()) as usize;
                let literal =
                    &source[their.span.begin().get() as usize..their.span.end().get() as usize];
                if source[begin..end].contains('\n') {
                    continue;
                }
                let text = format!("{}={literal}", names.of(LOADED_AGAIN));
                Edit::extend(out, [(begin, (1, 0), end - begin, text)]);
            }
        }
        if let StmtP::For(f) = &s.node {
            // `for X in E:` becomes `for X in LOOP(E):`, which charges its iterations.
            let over = &f.over.span;
            Edit::wrap(
                out,
                over.begin().get(),
                format!("{}(", names.of(LOOP)),
                over.end().get(),
            );
        }
        if let StmtP::Assign(a) = &s.node {
            // `OBJ[I] = V` becomes `OBJ[I] = ASSIGNING(OBJ, I, V)` when OBJ and I are plain.
            let text =
                |e: &AstExpr| &source[e.span.begin().get() as usize..e.span.end().get() as usize];
            if let AssignTargetP::Index(parts) = &a.lhs.node {
                let (obj, index) = (text(&parts.0), text(&parts.1));
                if !format!("{obj}{index}").contains(['(', '[', '\n', '#']) {
                    // In parentheses: a tuple's text has none (`x[(1, 2)]`).
                    let open = format!("{}(({obj}), ({index}), ", names.of(ASSIGNING));
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
                            format!("= {}({target}, ", names.of(function)),
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
                let open = format!("{}({target}, ", names.of(TIMES));
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
                    let temporary = names.of(TEMPORARY);
                    let (t0, t1) = (format!("{temporary}{k}o"), format!("{temporary}{k}i"));
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
                            format!("); {t0}[{t1}] *= {}({t0}[{t1}], ", names.of(TIMES)),
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
                    let t0 = format!("{}{}o", names.of(TEMPORARY), *temporaries);
                    *temporaries += 1;
                    let field = format!("{t0}.{}", name.node);
                    let edits = [
                        (begin as usize, (1, isize::MIN), 0, format!("{t0} = (")),
                        (
                            obj_end,
                            (2, 0),
                            between.len(),
                            format!("); {field} *= {}({field}, ", names.of(TIMES)),
                        ),
                        (rhs.span.end().get() as usize, (0, 0), 0, ")".to_string()),
                    ];
                    Edit::extend(out, edits);
                }
            }
        }
        s.visit_stmt(|c| stmt(c, source, names, temporaries, out));
    }
    let mut edits = Vec::new();
    // The statements' edits first: a wrap of a statement's part (a `for`'s iterable, an
    // assignment's right side) is outside the edits of the expression it wraps, and where
    // both open at one place with one length, the sort below keeps the first made first
    // (`for k in LOOP((INDEX(d, "k"))):`, not `INDEX(LOOP((d, "k")))`).
    stmt(ast.statement(), source, names, &mut 0, &mut edits);
    // The statement's expressions, those of nested statements included.
    let mut starts = Starts::new();
    ast.statement()
        .visit_expr(|e| expr(e, source, names, &mut edits, &mut starts));
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
