//! The functions a compiled template calls to build its nodes (`__ytt_start`, `__ytt_set`,
//! `__ytt_text`, ...), bound in its globals: each reads and changes the run's [`BuildState`].

use super::*;
use starlark::eval::Arguments;
use starlark::values::list::ListRef;
use starlark::values::UnpackValue;

#[starlark_module]
pub fn builder_functions(builder: &mut GlobalsBuilder) {
    fn __ytt_start(id: i32, eval: &mut Evaluator) -> anyhow::Result<NoneType> {
        state(eval)?.start(id as usize)?;
        Ok(NoneType)
    }

    fn __ytt_end(eval: &mut Evaluator) -> anyhow::Result<NoneType> {
        state(eval)?.end()?;
        Ok(NoneType)
    }

    /// A node's value: `__ytt_set((CODE))`. As ytt's set_node, the first argument; the code
    /// may make more (`1),(2`), and keyword arguments, which are ignored.
    fn __ytt_set<'v>(
        args: &Arguments<'v, '_>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<NoneType> {
        let value = first_argument(args, eval)?;
        let heap = eval.heap();
        state(eval)?.set(value, heap)?;
        Ok(NoneType)
    }

    /// A value of a text template's `(@= ... @)`: ytt writes strings only. The first argument,
    /// as [`__ytt_set`]'s.
    fn __ytt_text<'v>(
        args: &Arguments<'v, '_>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<Value<'v>> {
        let value = first_argument(args, eval)?;
        if value.unpack_str().is_some() {
            return Ok(value);
        }
        let go_type = crate::starlark::text_modules::go_data_type(value);
        if go_type == crate::starlark::text_modules::UNKNOWN_GO_TYPE {
            anyhow::bail!(
                "unknown type {} for conversion to go value",
                value.get_type()
            );
        }
        anyhow::bail!(
            "__ytt_tpl{}_set_node: cannot set non-string value ({go_type}), consider using str(...) to convert to string",
            state(eval)?.current_template_id()
        )
    }

    /// The start of a text template (`value` given back): ytt's text context, in which
    /// `template.replace` is unsupported.
    fn __ytt_text_start<'v>(
        value: Value<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<Value<'v>> {
        if let Some(st) = building(eval) {
            st.text_ctx(true);
        }
        Ok(value)
    }

    /// The end of a text template (`value`, its text, given back).
    fn __ytt_text_end<'v>(
        value: Value<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<Value<'v>> {
        if let Some(st) = building(eval) {
            st.text_ctx(false);
        }
        Ok(value)
    }

    /// ytt's start of the empty document that holds a file's code lines after its last node
    /// (written when those lines go on into it, see `Program::trailing_document`): ytt's
    /// instruction gives None, and the document holds nothing.
    fn __ytt_start_node(
        #[starlark(require = pos)] _id: i32,
        eval: &mut Evaluator,
    ) -> anyhow::Result<NoneType> {
        if let Some(st) = building(eval) {
            st.trailing_start();
        }
        Ok(NoneType)
    }

    /// That document's value: nothing to set after its start, the last node's null without it.
    fn __ytt_set_node(
        #[starlark(require = pos)] _id: i32,
        eval: &mut Evaluator,
    ) -> anyhow::Result<NoneType> {
        if let Some(st) = building(eval) {
            st.trailing_value()?;
        }
        Ok(NoneType)
    }

    fn __ytt_set_key<'v>(
        key: Value<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<NoneType> {
        state(eval)?.set_key(key)?;
        Ok(NoneType)
    }

    /// An annotation of the node started last: `__ytt_ann(AT, "NAME", __ytt_pack(ARGS))`, as
    /// ytt's call with exactly 3 arguments (the name and the arguments, as ytt writes them, may
    /// make more; keyword arguments are ignored). `AT` is the annotation's line, or `(LINE,
    /// [WRITTEN], TAG)` when the name's string may be another than the name written (`#@x"+"y`
    /// is `xy`): ytt looks it up among the names written on the node (numbered `TAG` in ytt's
    /// program), an error if it is none.
    fn __ytt_ann<'v>(
        args: &Arguments<'v, '_>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<NoneType> {
        let mut positions = args
            .positions(eval.heap())
            .map_err(starlark::Error::into_anyhow)?;
        let three = [positions.next(), positions.next(), positions.next()];
        let st = state(eval)?;
        let function = || {
            let id = st.current_template_id();
            format!("__ytt_tpl{id}_start_node_annotation")
        };
        let ([Some(at), Some(name), Some(packed)], None) = (three, positions.next()) else {
            anyhow::bail!("{}: expected exactly 3 arguments", function());
        };
        let Some(name) = name.unpack_str() else {
            anyhow::bail!(
                "{}: expected a string, but was {}",
                function(),
                name.get_type()
            );
        };
        let line = match at.unpack_i32() {
            Some(line) => line,
            None => {
                let checked = UnpackTuple::<Value>::unpack_value(at).ok().flatten();
                let Some([line, written, tag]) = checked.as_ref().map(|t| &t.items[..]) else {
                    anyhow::bail!("internal error: bad annotation call");
                };
                let written = ListRef::from_value(*written);
                if !written.is_some_and(|w| w.iter().any(|n| n.unpack_str() == Some(name))) {
                    anyhow::bail!(
                        "{}: expected to find {name} on node node tag {tag}",
                        function()
                    );
                }
                line.unpack_i32().unwrap_or(0)
            }
        };
        st.annotate(name, line as u32, packed, eval)?;
        Ok(NoneType)
    }

    fn __ytt_pack<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: Value<'v>,
        heap: starlark::values::Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        let a = heap.alloc(AllocTuple(args.items));
        Ok(heap.alloc((a, kwargs)))
    }

    fn __ytt_ctx_start(
        #[starlark(require = pos)] library: Option<i32>,
        eval: &mut Evaluator,
    ) -> anyhow::Result<NoneType> {
        // Functions also run outside templating (custom rules): there is nothing to build then,
        // and no error to construct (an `anyhow` error captures a backtrace, which is slow).
        if let Some(st) = building(eval) {
            st.ctx_start(library.map(|k| k as usize), false);
        }
        Ok(NoneType)
    }

    /// The start of a function that builds YAML nodes.
    fn __ytt_ctx_nodes(
        #[starlark(require = pos)] library: Option<i32>,
        eval: &mut Evaluator,
    ) -> anyhow::Result<NoneType> {
        if let Some(st) = building(eval) {
            st.ctx_start(library.map(|k| k as usize), true);
        }
        Ok(NoneType)
    }

    /// The end of a function: the value it `return`s (None too, as ytt's `end_ctx(None)`),
    /// or with none, at its end or on a `return` of no value, the nodes it built.
    /// `before_nodes`: a `return` before the function's first node, which ytt does not end
    /// the context with (`crate::template::lexer::wrap_returns`).
    fn __ytt_ctx_end<'v>(
        #[starlark(require = pos)] ret: Option<Value<'v>>,
        #[starlark(require = pos)] before_nodes: Option<bool>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<Value<'v>> {
        if before_nodes == Some(true)
            && building(eval).is_some_and(BuildState::in_fragment_function_of_template)
        {
            anyhow::bail!(
                "a function building YAML of this file returned before its first node: ytt cannot go on from there (it leaves the function's context open, and fails with a Go panic: index out of range [-1], or expected all ctxs to end)"
            );
        }
        let built = building(eval).and_then(BuildState::ctx_end);
        if let Some(ret) = ret {
            return Ok(ret);
        }
        Ok(match built {
            Some(fragment) => eval.heap().alloc(fragment),
            None => Value::new_none(),
        })
    }
}

/// The first argument of a value's call (the code in its parentheses makes at least one; any
/// more and any keyword arguments are ignored, as ytt's set_node ignores them).
fn first_argument<'v>(
    args: &Arguments<'v, '_>,
    eval: &Evaluator<'v, '_, '_>,
) -> anyhow::Result<Value<'v>> {
    match args
        .positions(eval.heap())
        .map_err(starlark::Error::into_anyhow)?
        .next()
    {
        Some(value) => Ok(value),
        None => anyhow::bail!("internal error: a value's call without its value"),
    }
}
