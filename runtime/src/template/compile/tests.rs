use super::*;
use crate::yaml::parse::parse_file;

fn compile_src(src: &str) -> Program {
    compile(&parse_file("t.yml", src, false).unwrap()).unwrap()
}

#[test]
fn plain_yaml_becomes_builder_calls() {
    let p = compile_src("a: 1\nb:\n  c: 2\n");
    assert_eq!(
        p.source,
        "__ytt_start(0)\n__ytt_start(1)\n__ytt_end()\n__ytt_start(2)\n__ytt_start(3)\n__ytt_end()\n__ytt_end()\n__ytt_end()\n"
    );
    assert_eq!(p.nodes.len(), 4);
}

#[test]
fn for_loops_wrap_their_nodes_and_end_closes() {
    let p = compile_src("a:\n#@ for i in range(2):\n- #@ i\n#@ end\nb: 1\n");
    assert!(
        p.source
            .contains("for i in range(2):\n  __ytt_start(2)\n  __ytt_set((i))\n  __ytt_end()\n"),
        "{}",
        p.source
    );
}

#[test]
fn for_end_shorthand_closes_after_one_node() {
    let p = compile_src("a:\n  #@ for/end x in [1]:\n  - #@ x\nb: 2\n");
    assert!(p.source.contains("for x in [1]:\n  __ytt_start(2)\n  __ytt_set((x))\n  __ytt_end()\n__ytt_end()\n__ytt_start(3)"), "{}", p.source);
}

#[test]
fn fragment_functions_capture_yaml() {
    let p = compile_src("#@ def f():\nk: v\n#@ end\n---\nx: #@ f()\n");
    assert!(
        p.source
            .starts_with("__ytt_start(0)\ndef f():\n  __ytt_ctx_nodes()\n  __ytt_start(1)\n"),
        "{}",
        p.source
    );
    assert!(
        p.source.contains("  return __ytt_ctx_end()\n"),
        "{}",
        p.source
    );
}

#[test]
fn functions_without_nodes_return_none_at_their_end() {
    let p = compile_src("#@ def f():\n#@   x = 1\n#@ end\n---\nx: #@ f()\n");
    assert!(p.source.contains("  __ytt_ctx_start()\n"), "{}", p.source);
    assert!(
        p.source.contains("  return __ytt_ctx_end(None)\n"),
        "{}",
        p.source
    );
}

#[test]
fn annotations_are_calls_with_packed_arguments() {
    let p = compile_src("#@schema/validation min=1, max=assert.x\nk: 2\n");
    assert!(
        p.source
            .contains("__ytt_ann(1, \"schema/validation\", __ytt_pack(min=1, max=assert.x))"),
        "{}",
        p.source
    );
}

#[test]
fn unbalanced_end_is_an_error() {
    let e = compile(&parse_file("t.yml", "a: 1\n#@ end\n", false).unwrap()).unwrap_err();
    assert!(e.message.contains("end"), "{e:?}");
    let e = compile(&parse_file("t.yml", "#@ if True:\na: 1\n", false).unwrap()).unwrap_err();
    assert!(e.message.contains("end"), "{e:?}");
}

#[test]
fn star_files_use_end_blocks() {
    let p = compile_starlark("def f(x):\n  if x:\n    return 1\n  end\n  return 2\nend\n").unwrap();
    assert!(
        p.source
            .contains("  if x:\n    return __ytt_ctx_end((1))\n"),
        "{}",
        p.source
    );
}
