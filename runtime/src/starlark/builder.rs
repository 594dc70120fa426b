//! The native functions a compiled template calls to rebuild its YAML tree.

use std::cell::RefCell;
use std::sync::{Arc, OnceLock};

use allocative::Allocative;
use starlark::any::ProvidesStaticType;
use starlark::environment::{Globals, GlobalsBuilder, Module};
use starlark::eval::Evaluator;
use starlark::starlark_module;
use starlark::values::dict::DictRef;
use starlark::values::none::NoneType;
use starlark::values::tuple::{AllocTuple, TupleRef, UnpackTuple};
use starlark::values::{OwnedFrozenValue, Value, ValueLike};

use super::convert::{to_arg, to_tree_value, YamlFragment};
use super::template_error::NodeStartError;
use crate::template::compile::{NodeInfo, RawShape};
use crate::template::functions::Functions;
use crate::template::generated_names::GeneratedNames;
use crate::template::tree::{Ann, Tree, TreeKind, TreeValue};
use crate::value::{FileName, Pos, Value as YValue};
use crate::yaml::parse::RawKind;

/// The builder's error when a call finds no node open: the program's own layout was not
/// followed (see [`crate::template::compile::BACKSLASH_INTO_NODE`]).
pub(super) const NO_OPEN_NODE: &str = "internal error: no open node";

mod functions;
mod replace;
mod trailing_document;

pub use functions::builder_functions;

/// The builder functions, under their own names (`__ytt_start`, ...).
pub(super) fn builder_globals() -> &'static Globals {
    static BUILDER: OnceLock<Globals> = OnceLock::new();
    BUILDER.get_or_init(|| GlobalsBuilder::new().with(builder_functions).build())
}

/// Binds the builder functions in `module` under the program's `names`, before it runs: they
/// are no globals of the interpreter, so a user's `__ytt_start` is undefined, as in ytt, and a
/// user's `__ytt_set = 1` is a variable of its own.
pub fn bind_builder_functions(names: &GeneratedNames, module: &Module) {
    super::guard_names::bind_renamed(builder_globals(), module, |name| {
        GeneratedNames::canonical_suffix(name).map(|suffix| names.of(suffix))
    });
}

/// Every file of a run: its name and text.
pub type RunFiles = Arc<Vec<(String, crate::inputs::FileText)>>;

/// Where an opaque annotation argument will live once the module is frozen.
#[derive(Allocative)]
pub struct FrozenSlot {
    #[allocative(skip)]
    pub value: OnceLock<OwnedFrozenValue>,
    /// The template the value comes from, so that a fragment function it calls later (a rule
    /// calling a `def` with YAML in it) can build that YAML.
    #[allocative(skip)]
    template: Option<Arc<TemplateNodes>>,
}

/// What the builder needs of a template besides its running state.
pub struct TemplateNodes {
    file: FileName,
    nodes: Arc<Vec<NodeInfo>>,
    files: RunFiles,
    template_id: u32,
}

impl FrozenSlot {
    /// A builder for calls of the slot's value after its template ran (rules, `when=`).
    pub fn build_state(&self) -> Option<BuildState> {
        let t = self.template.as_ref()?;
        // Annotations of YAML a rule builds are not applied: what they keep is dropped.
        let mut state = BuildState::new(
            t.file,
            Vec::new(),
            t.files.clone(),
            t.template_id,
            Functions::default(),
        );
        state.nodes = t.nodes.clone();
        Some(state)
    }
}

/// The file, nodes and template number a YAML context builds from.
struct Table<'a> {
    file: FileName,
    nodes: &'a Arc<Vec<NodeInfo>>,
    template_id: u32,
}

impl Table<'_> {
    fn pos(&self, id: usize) -> Pos {
        Pos::new(self.file, self.nodes.get(id).map_or(0, |n| n.line))
    }
}

/// The builder's state while a template runs; reached through `Evaluator::extra`.
#[derive(ProvidesStaticType)]
pub struct BuildState {
    pub file: FileName,
    pub nodes: Arc<Vec<NodeInfo>>,
    /// Every file of the run, for `data.list()` and `data.read()`.
    pub files: RunFiles,
    /// ytt's number for this template, named in its messages.
    pub template_id: u32,
    /// The directory of the library whose root `/` names (`""`: the run's root; a private
    /// library's for a file `load("@name:file")` ran).
    pub root: String,
    /// The run's kept values, where annotation arguments that are not data go.
    functions: Functions,
    /// The running program's own names: the module variables kept values are bound to.
    pub names: GeneratedNames,
    inner: RefCell<Inner>,
}

#[derive(Default)]
struct Inner {
    ctxs: Vec<Ctx>,
    /// Opaque annotation arguments waiting for the module to freeze, by keep index.
    slots: Vec<Arc<FrozenSlot>>,
    /// The start of the file's trailing document ran (see [`BuildState::trailing_value`]).
    trailing_started: bool,
}

/// What [`Ctx::ended`] holds once the node ended last was replaced by `template.replace`: no
/// node's number.
const REPLACED: usize = usize::MAX;

#[derive(Default)]
struct Ctx {
    stack: Vec<Frame>,
    out: Vec<Tree>,
    /// The template whose nodes a fragment function of a loaded YAML library builds (none:
    /// the running template's own).
    table: Option<Arc<TemplateNodes>>,
    /// The function builds nodes (`__ytt_ctx_nodes`): what it returns at its end is them.
    builds_nodes: bool,
    /// A text template's context (`__ytt_text_start`), which builds no nodes: ytt's
    /// `template.replace` is unsupported there.
    text: bool,
    /// The node started last (its number, and the frames open above it then): ytt's current
    /// node once every node has been built.
    last_started: Option<(usize, usize)>,
    /// The nodes ended since the last start, innermost first (the node started last, then its
    /// parents), while they can be opened again ([`BuildState::replace`]: ytt's node stack
    /// unwinds only when the next node starts).
    ended: Vec<usize>,
    /// The error of the node started last, which ytt meets only after evaluating the node's
    /// annotations (their arguments' errors come first): raised by its last annotation.
    start_error: Option<NodeStartError>,
}

/// The YAML library files loaded in this process, by the key their compiled code passes to
/// `__ytt_ctx_start`: their fragment functions build YAML from their own nodes wherever they
/// are called from (entries stay, as functions a validator keeps may call them later).
static LIBRARIES: std::sync::Mutex<Vec<Arc<TemplateNodes>>> = std::sync::Mutex::new(Vec::new());

/// Registers a loaded YAML library's nodes; the key its fragment functions start with.
pub fn register_library(
    file: FileName,
    nodes: Vec<NodeInfo>,
    files: RunFiles,
    template_id: u32,
) -> usize {
    let mut libraries = LIBRARIES.lock().unwrap_or_else(|e| e.into_inner());
    libraries.push(Arc::new(TemplateNodes {
        file,
        nodes: Arc::new(nodes),
        files,
        template_id,
    }));
    libraries.len() - 1
}

fn library(key: usize) -> Option<Arc<TemplateNodes>> {
    let libraries = LIBRARIES.lock().unwrap_or_else(|e| e.into_inner());
    libraries.get(key).cloned()
}

struct Frame {
    id: usize,
    anns: Vec<Ann>,
    value: FrameValue,
    /// A key computed by `(@= ... @)` text templating.
    key: Option<YValue>,
}

enum FrameValue {
    Template,
    Children(Siblings),
    Set(TreeValue),
    Replace(TreeValue),
}

/// The items of a map or array being built, with the string keys they may hold: a key given
/// twice is found without scanning the items for each new one (30,000 keys with code took
/// 10 s). Every item goes in through [`Siblings::push`]; a key looked for counts as held, as
/// its item usually follows, and a removed item's key still does: the set says only when a key
/// is surely not there.
struct Siblings {
    items: Vec<Tree>,
    keys: crate::value::KeySet,
}

impl Siblings {
    fn new() -> Siblings {
        Siblings {
            items: Vec::new(),
            keys: crate::value::KeySet::expecting(0),
        }
    }

    fn push(&mut self, item: Tree) {
        if let Some(key) = item.key() {
            self.keys.surely_new(&self.items, key);
        }
        self.items.push(item);
    }

    /// The position of the item whose key is `key`.
    fn position(&mut self, key: &YValue) -> Option<usize> {
        if self.keys.surely_new(&self.items, key) {
            return None;
        }
        self.items.iter().position(|t| t.key() == Some(key))
    }
}

impl BuildState {
    pub fn new(
        file: FileName,
        nodes: Vec<NodeInfo>,
        files: RunFiles,
        template_id: u32,
        functions: Functions,
    ) -> BuildState {
        BuildState {
            file,
            nodes: Arc::new(nodes),
            files,
            template_id,
            root: String::new(),
            functions,
            names: GeneratedNames::default(),
            inner: RefCell::new(Inner {
                ctxs: vec![Ctx::default()],
                slots: Vec::new(),
                trailing_started: false,
            }),
        }
    }

    /// Makes the state again as [`FrozenSlot::build_state`] made it, for the next call of a
    /// function that shares it: what the last call built and kept is dropped.
    pub fn restart(&self) {
        let mut inner = self.inner.borrow_mut();
        let clean = inner.slots.is_empty()
            && matches!(&inner.ctxs[..], [ctx] if ctx.stack.is_empty() && ctx.out.is_empty());
        if !clean {
            *inner = Inner {
                ctxs: vec![Ctx::default()],
                slots: Vec::new(),
                trailing_started: false,
            };
        }
        self.functions.clear();
    }

    /// The name in the running module of the value kept at `index` of the run's functions,
    /// when this template kept it (a function argument of an annotation of YAML it built).
    pub fn kept_name(&self, index: usize) -> Option<String> {
        let kept = self.functions.get(index)?.downcast::<FrozenSlot>().ok()?;
        let inner = self.inner.borrow();
        inner
            .slots
            .iter()
            .position(|slot| Arc::ptr_eq(slot, &kept))
            .map(|i| self.names.keep(i))
    }

    /// The documents built at the top level.
    pub fn take_output(&self) -> Vec<Tree> {
        let mut inner = self.inner.borrow_mut();
        inner
            .ctxs
            .first_mut()
            .map(|c| std::mem::take(&mut c.out))
            .unwrap_or_default()
    }

    pub fn slots(&self) -> Vec<Arc<FrozenSlot>> {
        self.inner.borrow().slots.clone()
    }

    /// The number of the template whose code is running (a fragment function's own; a text
    /// context's is that of the function around it, a library's text-templated key too).
    fn current_template_id(&self) -> u32 {
        let inner = self.inner.borrow();
        let ctx = inner.ctxs.iter().rev().find(|c| !c.text);
        let ctx = ctx.expect("the file context is never popped");
        self.table(&ctx.table).template_id
    }

    /// The file, nodes and template number that `ctx` builds from.
    fn table<'a>(&'a self, table: &'a Option<Arc<TemplateNodes>>) -> Table<'a> {
        match table {
            Some(t) => Table {
                file: t.file,
                nodes: &t.nodes,
                template_id: t.template_id,
            },
            None => Table {
                file: self.file,
                nodes: &self.nodes,
                template_id: self.template_id,
            },
        }
    }

    fn start(&self, id: usize) -> anyhow::Result<()> {
        let mut inner = self.inner.borrow_mut();
        let inner_ctxs = inner.ctxs.len();
        let Ctx {
            stack,
            out,
            table,
            last_started,
            ended,
            start_error,
            ..
        } = inner
            .ctxs
            .last_mut()
            .expect("the file context is never popped");
        let t = self.table(table);
        let Some(info) = t.nodes.get(id) else {
            anyhow::bail!("internal error: unknown template node {id}");
        };
        if let (1, true, Some(what)) = (inner_ctxs, stack.is_empty(), not_document(&info.kind)) {
            // The file's document set, whose document a string left open took in
            // (`#@ x = """` before the `---`, closed before the node).
            anyhow::bail!(
                "__ytt_tpl{}_start_node: document sets can only contain documents; this is a {what}",
                t.template_id
            );
        }
        if let (TreeKind::MapItem(key), false) = (&info.kind, info.key_templated) {
            // A key given twice: an error unless this item overrides the earlier one (a
            // templated key is looked for once it is made, by `set_key`).
            let found = match stack.last_mut() {
                Some(Frame {
                    value: FrameValue::Children(siblings),
                    ..
                }) => siblings.position(key).map(|i| (&mut siblings.items, i)),
                Some(_) => None,
                None => out
                    .iter()
                    .position(|t| t.key() == Some(&**key))
                    .map(|i| (out, i)),
            };
            match found {
                Some(_) if !info.key_override => {
                    let message = crate::template::duplicate_key_message(t.template_id, key);
                    if info.annotations == 0 {
                        anyhow::bail!(message);
                    }
                    *start_error = Some(NodeStartError {
                        line: info.line,
                        message,
                    });
                }
                Some((items, i)) => _ = items.remove(i),
                None => {}
            }
        }
        let value = match info.value {
            RawShape::Scalar(_) => FrameValue::Template,
            RawShape::Map | RawShape::Array => FrameValue::Children(Siblings::new()),
        };
        *last_started = Some((id, stack.len()));
        ended.clear();
        stack.push(Frame {
            id,
            anns: Vec::new(),
            value,
            key: None,
        });
        Ok(())
    }

    fn end(&self) -> anyhow::Result<()> {
        let mut inner = self.inner.borrow_mut();
        let ctx = inner
            .ctxs
            .last_mut()
            .expect("the file context is never popped");
        self.end_in(ctx)
    }

    /// Ends the node of `ctx`'s top frame: its tree goes into its parent's items.
    fn end_in(&self, ctx: &mut Ctx) -> anyhow::Result<()> {
        let Ctx {
            stack,
            out,
            table,
            ended,
            ..
        } = ctx;
        let Some(frame) = stack.pop() else {
            anyhow::bail!(NO_OPEN_NODE)
        };
        match frame.value {
            // Its items are in its parent's place: it cannot be opened again.
            FrameValue::Replace(_) => *ended = vec![REPLACED],
            _ => ended.push(frame.id),
        }
        let t = self.table(table);
        let info = &t.nodes[frame.id];
        let pos = t.pos(frame.id);
        let value = match frame.value {
            FrameValue::Template => match &info.value {
                RawShape::Scalar(v) => TreeValue::Scalar(v.clone()),
                RawShape::Map => TreeValue::Map(Vec::new()),
                RawShape::Array => TreeValue::Array(Vec::new()),
            },
            FrameValue::Children(children) => match info.value {
                RawShape::Array => TreeValue::Array(children.items),
                _ => TreeValue::Map(children.items),
            },
            FrameValue::Set(v) => v,
            FrameValue::Replace(v) => {
                // `_: #@ template.replace(x)` puts x's items in place of this item.
                // `set` took only a collection.
                let (TreeValue::Map(items) | TreeValue::Array(items)) = v else {
                    anyhow::bail!("internal error: template.replace of a scalar")
                };
                match stack.last_mut() {
                    Some(Frame {
                        value: FrameValue::Children(siblings),
                        ..
                    }) => items.into_iter().for_each(|item| siblings.push(item)),
                    // A document's items become documents: a fragment's documents keep their
                    // annotations, a list's items have none (so a data values file refuses them).
                    _ => out.extend(items.into_iter().map(|mut t| {
                        if matches!(info.kind, RawKind::Document) {
                            t.kind = TreeKind::Document;
                        }
                        t
                    })),
                }
                return Ok(());
            }
        };
        let kind = match frame.key {
            Some(k) => TreeKind::MapItem(k.into()),
            None => info.kind.clone(),
        };
        let tree = Tree {
            kind,
            pos,
            anns: frame.anns.into(),
            value,
        };
        match stack.last_mut() {
            Some(Frame {
                value: FrameValue::Children(siblings),
                ..
            }) => siblings.push(tree),
            Some(parent) => {
                // A node under a value set by an expression replaces nothing: keep it anyway.
                if let FrameValue::Set(TreeValue::Map(items) | TreeValue::Array(items)) =
                    &mut parent.value
                {
                    items.push(tree);
                }
            }
            None => out.push(tree),
        }
        Ok(())
    }

    fn set<'v>(&self, v: Value<'v>, heap: starlark::values::Heap<'v>) -> anyhow::Result<()> {
        let mut inner = self.inner.borrow_mut();
        let Ctx { stack, table, .. } = inner
            .ctxs
            .last_mut()
            .expect("the file context is never popped");
        let Some(frame) = stack.last_mut() else {
            anyhow::bail!(NO_OPEN_NODE)
        };
        // `template.replace`'s answer sets nothing.
        if v.downcast_ref::<super::modules::ReplacedNode>().is_some() {
            return Ok(());
        }
        let t = self.table(table);
        if YamlFragment::is_document_set(v) {
            let holds = match t.nodes.get(frame.id).map(|info| &info.kind) {
                Some(TreeKind::MapItem(_)) => "map items can only contain arrays, maps, or scalars",
                Some(TreeKind::ArrayItem) => {
                    "array items can only contain maps, arrays, or scalars"
                }
                _ => "documents can only contain arrays, maps, or scalars",
            };
            anyhow::bail!(
                "__ytt_tpl{}_set_node: {holds}; this is a document set",
                t.template_id
            );
        }
        // ytt's nodes made from Starlark values have no position (`?` in its messages).
        let pos = Pos::unknown();
        let tv = to_tree_value(v, &pos, heap).map_err(|e| {
            let prefix = format!("__ytt_tpl{}_set_node", t.template_id);
            match e
                .type_name()
                .and_then(|ty| super::assertion::not_data(&prefix, ty))
            {
                Some(message) => anyhow::anyhow!(message),
                None => {
                    anyhow::anyhow!(e.message(|t| format!("Unsupported value type {t} in YAML")))
                }
            }
        })?;
        // A node `template.replace` replaced is out of the tree: ytt sets its value on a node no
        // one reads (a value it cannot make YAML, a list holding the replacement's answer, fails
        // first).
        if matches!(frame.value, FrameValue::Replace(_)) {
            return Ok(());
        }
        if let Some(mark) = v
            .downcast_ref::<YamlFragment>()
            .and_then(YamlFragment::root_mark)
        {
            frame.anns.push(mark);
        }
        if super::convert::is_starlark_collection(v, &tv) {
            frame.anns.push(Ann {
                name: crate::template::STARLARK_COLLECTION.into(),
                pos,
                args: Vec::new(),
                kwargs: Vec::new(),
            });
        }
        frame.value = FrameValue::Set(tv);
        Ok(())
    }

    fn set_key(&self, v: Value) -> anyhow::Result<()> {
        let mut inner = self.inner.borrow_mut();
        let ctx = inner
            .ctxs
            .last_mut()
            .expect("the file context is never popped");
        let Some(frame) = ctx.stack.last_mut() else {
            anyhow::bail!(NO_OPEN_NODE)
        };
        let key = YValue::Str(
            v.unpack_str()
                .map_or_else(|| v.to_str(), str::to_string)
                .into(),
        );
        frame.key = Some(key.clone());
        let id = frame.id;
        // The key it now has may be an earlier item's, as in `start`.
        let t = self.table(&ctx.table);
        let key_override = t.nodes.get(id).is_some_and(|info| info.key_override);
        let template_id = t.template_id;
        let n = ctx.stack.len();
        if let Some(Frame {
            value: FrameValue::Children(siblings),
            ..
        }) = n.checked_sub(2).and_then(|i| ctx.stack.get_mut(i))
        {
            if let Some(i) = siblings.position(&key) {
                if !key_override {
                    anyhow::bail!(crate::template::duplicate_key_message(template_id, &key));
                }
                siblings.items.remove(i);
            }
        }
        Ok(())
    }

    fn annotate<'v>(
        &self,
        name: &str,
        line: u32,
        packed: Value<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<()> {
        let template = {
            let inner = self.inner.borrow();
            let ctx = inner.ctxs.last().expect("the file context is never popped");
            let t = self.table(&ctx.table);
            Arc::new(TemplateNodes {
                file: t.file,
                nodes: t.nodes.clone(),
                files: self.files.clone(),
                template_id: t.template_id,
            })
        };
        let pos = Pos::new(template.file, line);
        let heap = eval.heap();
        let (args, kwargs) = match TupleRef::from_value(packed)
            .map(|t| t.content().to_vec())
            .as_deref()
        {
            Some([a, k]) => (*a, *k),
            _ => anyhow::bail!("internal error: bad annotation arguments"),
        };
        let mut keep = |v: Value<'v>| -> usize {
            let mut inner = self.inner.borrow_mut();
            let i = inner.slots.len();
            let slot = Arc::new(FrozenSlot {
                value: OnceLock::new(),
                template: Some(template.clone()),
            });
            inner.slots.push(slot.clone());
            eval.module().set(&self.names.keep(i), v);
            self.functions.keep(slot)
        };
        let args_v = TupleRef::from_value(args)
            .map(|t| t.content().to_vec())
            .unwrap_or_default();
        let args = args_v
            .into_iter()
            .map(|a| to_arg(a, &pos, heap, &mut keep))
            .collect::<anyhow::Result<_>>()?;
        let mut kw = Vec::new();
        if let Some(d) = DictRef::from_value(kwargs) {
            let pairs: Vec<_> = d.iter().collect();
            for (k, v) in pairs {
                kw.push((
                    k.unpack_str().unwrap_or_default().to_string(),
                    to_arg(v, &pos, heap, &mut keep)?,
                ));
            }
        }
        let mut inner = self.inner.borrow_mut();
        let ctx = inner
            .ctxs
            .last_mut()
            .expect("the file context is never popped");
        let Some(frame) = ctx.stack.last_mut() else {
            anyhow::bail!(NO_OPEN_NODE)
        };
        frame.anns.push(Ann {
            name: name.to_string(),
            pos,
            args,
            kwargs: kw,
        });
        let annotations = self.table(&ctx.table).nodes.get(frame.id);
        let last = annotations.is_none_or(|n| frame.anns.len() >= n.annotations as usize);
        match ctx.start_error.take() {
            Some(e) if last => Err(e.into()),
            pending => {
                ctx.start_error = pending;
                Ok(())
            }
        }
    }

    /// Starts a function (one that `builds_nodes`, a fragment function): of the running
    /// template, or of the loaded YAML library registered under `library`.
    fn ctx_start(&self, library: Option<usize>, builds_nodes: bool) {
        let table = library.and_then(self::library);
        self.inner.borrow_mut().ctxs.push(Ctx {
            table,
            builds_nodes,
            ..Ctx::default()
        });
    }

    /// Starts (`start`) or ends a text template's context.
    fn text_ctx(&self, start: bool) {
        let mut inner = self.inner.borrow_mut();
        if start {
            inner.ctxs.push(Ctx {
                text: true,
                ..Ctx::default()
            });
        } else if inner.ctxs.len() > 1 && inner.ctxs.last().is_some_and(|c| c.text) {
            inner.ctxs.pop();
        }
    }

    /// Whether the innermost function running is a fragment function (one that builds
    /// nodes) of the template being evaluated (not of a loaded library, whose contexts ytt
    /// keeps apart).
    fn in_fragment_function_of_template(&self) -> bool {
        let inner = self.inner.borrow();
        inner.ctxs.len() > 1
            && inner
                .ctxs
                .last()
                .is_some_and(|c| c.builds_nodes && !c.text && c.table.is_none())
    }

    /// Ends a function: a fragment function's YAML (none built: ytt's fragment of no value);
    /// None for a function that builds no nodes. A text context the function's `return` left
    /// (a `def` in a text template) ends with it.
    fn ctx_end(&self) -> Option<YamlFragment> {
        let mut inner = self.inner.borrow_mut();
        while inner.ctxs.len() > 1 && inner.ctxs.last().is_some_and(|c| c.text) {
            inner.ctxs.pop();
        }
        if inner.ctxs.len() < 2 {
            return None;
        }
        let ctx = inner.ctxs.pop().expect("checked above");
        if !ctx.builds_nodes {
            return None;
        }
        let Some(first) = ctx.out.first() else {
            return Some(YamlFragment::nil());
        };
        let line = first.pos.line;
        // A function that returns documents returns a document set, indexed by document.
        let document_set = matches!(first.kind, TreeKind::Document);
        let value = match first.kind {
            TreeKind::MapItem(_) => TreeValue::Map(ctx.out),
            TreeKind::ArrayItem | TreeKind::Document => TreeValue::Array(ctx.out),
        };
        // ytt's node of the collection is the document the function's `def` is in: the
        // last document of its file that starts at or before the first node it made (line 1
        // where the text has no `---` before it).
        let t = self.table(&ctx.table);
        let document = t
            .nodes
            .iter()
            .filter(|n| matches!(n.kind, RawKind::Document) && n.line <= line)
            .map(|n| n.line)
            .max()
            .unwrap_or(1);
        Some(YamlFragment {
            value: Arc::new(value),
            root: Some((Pos::new(t.file, document), true)),
            document_set,
        })
    }
}

/// How many YAML contexts are open (the file's, and one per fragment function running), for
/// [`close_contexts_from`] once a caught error (`assert.try_to`) has left some open.
pub(super) fn open_contexts(eval: &Evaluator) -> Option<usize> {
    building(eval).map(|b| b.inner.borrow().ctxs.len())
}

/// Whether the contexts past `depth` that an error ended (caught by `assert.try_to`) hold one
/// that ytt keeps on the running template's own stack, where nothing closes it: that of a
/// fragment function or of a text template (a function without nodes has none in ytt), of
/// this template (a loaded library's functions have their library's stack, unless the library
/// is the template running). ytt then panics
/// at the template's next node or at its end (`expected to find node tag ... when unwinding`,
/// `expected all ctxs to end`).
pub(super) fn leaves_ytt_context_open(eval: &Evaluator, depth: usize) -> bool {
    let Some(b) = building(eval) else {
        return false;
    };
    let inner = b.inner.borrow();
    // Whose stack each context is on: a text context is on that of the function around it.
    let mut own_template = true;
    for (i, ctx) in inner.ctxs.iter().enumerate() {
        if !ctx.text {
            own_template = b.table(&ctx.table).template_id == b.template_id;
        }
        if i >= depth && own_template && (ctx.builds_nodes || ctx.text) {
            return true;
        }
    }
    false
}

/// Closes the YAML contexts of fragment functions that an error ended, back to `depth`.
pub(super) fn close_contexts_from(eval: &Evaluator, depth: usize) {
    if let Some(b) = building(eval) {
        b.inner.borrow_mut().ctxs.truncate(depth.max(1));
    }
}

/// The builder's state, when a template is being built (not while a rule or predicate runs).
fn building<'a>(eval: &Evaluator<'_, 'a, '_>) -> Option<&'a BuildState> {
    eval.extra.and_then(|e| e.downcast_ref::<BuildState>())
}

fn state<'a>(eval: &Evaluator<'_, 'a, '_>) -> anyhow::Result<&'a BuildState> {
    building(eval)
        .ok_or_else(|| anyhow::anyhow!("internal error: template builder is not available here"))
}

/// ytt's name for a node of kind `kind` in its messages, when it is no document.
fn not_document(kind: &TreeKind) -> Option<&'static str> {
    match kind {
        TreeKind::Document => None,
        TreeKind::MapItem(_) => Some("map item"),
        TreeKind::ArrayItem => Some("array item"),
    }
}
