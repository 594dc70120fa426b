use super::*;
use crate::template::functions::Functions;
use crate::template::Sources;
use crate::value::Node;
use crate::yaml::parse::parse_file;

#[cfg(feature = "starlark")]
#[test]
fn literal_modules_have_their_name_as_only_member() {
    for module in MODULES {
        let m = crate::starlark::modules::ytt_module(&format!("@ytt:{module}")).unwrap();
        let names: Vec<String> = m.names().map(|n| n.as_str().to_string()).collect();
        assert_eq!(names, vec![module.to_string()], "@ytt:{module}");
    }
}

#[test]
fn literal_loads() {
    assert!(literal_load(r#"load("@ytt:json", "json", j="json")"#));
    assert!(!literal_load(r#"load("@ytt:json", "encode")"#));
    assert!(!literal_load(r#"load("@ytt:json")"#));
    assert!(!literal_load(r#"load("@ytt:nope", "x")"#));
    assert!(!literal_load(r#"load("x.star", "x")"#));
}

fn eval(src: &str) -> Result<Vec<Tree>, TemplateError> {
    eval_literal(parse_file("v.yml", src, false).unwrap())
}

#[test]
fn annotations_with_literal_arguments() {
    let src = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@data/values\n---\nlist:\n#@overlay/match by=overlay.subset({\"name\": 'a'}), missing_ok=True\n- name: a\n#@overlay/match by=\"name\"\n- name: b\n";
    let docs = eval(src).unwrap();
    assert!(docs[0].ann("data/values").is_some());
    let TreeValue::Map(items) = &docs[0].value else {
        panic!()
    };
    let TreeValue::Array(list) = &items[0].value else {
        panic!()
    };
    let m = list[0].ann("overlay/match").unwrap();
    assert_eq!(m.kwargs[1].0, "missing_ok");
    let ArgKind::Matcher { op, arg } = &m.kwargs[0].1.kind else {
        panic!("{:?}", m.kwargs[0].1)
    };
    assert_eq!(op, "subset");
    let name = arg.data().unwrap().value.get("name").unwrap();
    assert_eq!(name.value, Value::Str("a".into()));
    assert_eq!(
        list[1].ann("overlay/match").unwrap().kwargs[0]
            .1
            .data()
            .unwrap()
            .value,
        Value::Str("name".into())
    );
}

#[test]
fn tuples_lists_and_numbers() {
    let docs =
        eval("#@schema/examples (\"a\", [1, -2.5, None]), (\"b\", {\"k\": True})\nx: 1\n").unwrap();
    let TreeValue::Map(items) = &docs[0].value else {
        panic!()
    };
    let ann = items[0].ann("schema/examples").unwrap();
    assert_eq!(ann.args.len(), 2);
    let ArgKind::Tuple(t) = &ann.args[0].kind else {
        panic!()
    };
    assert_eq!(
        t[1].data().unwrap().value,
        Value::Array(crate::value::thin_vec![
            Node::new(Value::Int(1), ann.pos),
            Node::new(Value::Float(-2.5), ann.pos),
            Node::new(Value::Null, ann.pos),
        ])
    );
}

#[test]
fn rule_code_keeps_its_functions_deferred_after_the_runs_others() {
    let src = "#@ def ok(v):\n#@   return v > 0\n#@ end\n#@data/values-schema\n---\n#@schema/validation (\"a\", lambda v: v != (1, 2)), (\"b\", ok), when=lambda v: True\nx: 1\n#@schema/validation (\"c\", ok), min=1\ny: 1\n";
    let raw = parse_file("s.yml", src, false).unwrap();
    assert!(annotations(&raw).is_err(), "the code needs RuleCode");
    let code = RuleCode {
        blocks: vec![(1, 3)],
        defs: HashMap::from([("ok".into(), 3)]),
    };
    let functions = Functions::reserved(2);
    let sources = Sources::with_functions(Vec::new(), functions.clone());
    let anns = rule_annotations(&raw, &code, &sources).expect("rule code");
    assert_eq!(functions.len(), 6);
    let deferred = functions.get(5).unwrap().downcast::<Deferred>().unwrap();
    assert_eq!(deferred.nth, 3);
    let docs = build(raw, anns, 2).unwrap();
    let TreeValue::Map(items) = &docs[0].value else {
        panic!()
    };
    let opaque = |a: &Arg| match &a.kind {
        ArgKind::Tuple(t) => match (&t[1].kind, t[1].type_name.as_str()) {
            (ArgKind::Opaque { index: i, .. }, "function") => *i,
            other => panic!("{other:?}"),
        },
        ArgKind::Opaque { index: i, .. } => *i,
        other => panic!("{other:?}"),
    };
    let x = items[0].ann("schema/validation").unwrap();
    let found: Vec<usize> = x.args.iter().map(opaque).collect();
    assert_eq!(found, vec![2, 3]);
    assert_eq!(opaque(&x.kwargs[0].1), 4);
    assert_eq!(
        opaque(&items[1].ann("schema/validation").unwrap().args[0]),
        5
    );
    // A `def` named before its end, or code outside the blocks, is the interpreter's.
    let early = RuleCode {
        blocks: vec![(1, 3)],
        defs: HashMap::from([("ok".into(), 9)]),
    };
    let raw = parse_file("s.yml", src, false).unwrap();
    assert!(rule_annotations(&raw, &early, &Sources::default()).is_none());
    let raw = parse_file("s.yml", src, false).unwrap();
    let short = RuleCode {
        blocks: vec![(1, 2)],
        defs: HashMap::from([("ok".into(), 3)]),
    };
    assert!(rule_annotations(&raw, &short, &Sources::default()).is_none());
}

/// A lambda's parameters are names and commas up to its `:` (`when=lambda _, ctx: ...`, the
/// published packages' form, was cut at its first comma and left to the interpreter); any
/// other parameter is still the interpreter's.
#[test]
fn rule_code_lambdas_of_several_parameters() {
    let src = "#@data/values-schema\n---\ninclude: false\n#@schema/validation min_len=5, when=lambda _, ctx: ctx.parent[\"include\"]\nemail: \"\"\n";
    let raw = parse_file("s.yml", src, false).unwrap();
    let functions = Functions::default();
    let sources = Sources::with_functions(Vec::new(), functions.clone());
    let anns = rule_annotations(&raw, &RuleCode::default(), &sources).expect("rule code");
    assert_eq!(functions.len(), 1);
    let docs = build(raw, anns, 2).unwrap();
    let TreeValue::Map(items) = &docs[0].value else {
        panic!()
    };
    let email = items[1].ann("schema/validation").unwrap();
    assert_eq!(email.kwargs[0].0, "min_len");
    assert!(matches!(
        email.kwargs[1].1.kind,
        ArgKind::Opaque { index: 0, .. }
    ));
    for other in ["lambda v=1: v", "lambda *a: a", "lambda (v): v"] {
        let src = format!("#@data/values-schema\n---\n#@schema/validation when={other}\nx: 1\n");
        let raw = parse_file("s.yml", &src, false).unwrap();
        let read = rule_annotations(&raw, &RuleCode::default(), &Sources::default());
        assert!(read.is_none(), "{other}");
    }
}

#[test]
fn code_needs_the_interpreter() {
    let e = eval("#@data/values\n---\nport: #@ 80 + 1\n").unwrap_err();
    assert!(
        e.message.contains("without the Starlark interpreter"),
        "{e:?}"
    );
    assert_eq!(e.line, Some(3));
    let e = eval("#@assert/validate (\"x\", lambda v: v)\nx: 1\n").unwrap_err();
    assert!(
        e.message.contains("needs the Starlark interpreter"),
        "{e:?}"
    );
}

#[test]
fn a_key_read_as_code_needs_the_interpreter() {
    // ytt's program ends a key's comment at `\n` and `\r`, and a NUL ends the program; escapes
    // other than those make no code.
    for key in [r#""a\nb""#, r#""a\rb""#, r#""a\r\nb""#, r#""a\0b""#] {
        let e = eval(&format!("#@data/values\n---\nx: 1\n{key}: 2\n")).unwrap_err();
        assert!(
            e.message
                .contains("a map key holding a line break or a NUL"),
            "{key}: {e:?}"
        );
        assert_eq!(e.line, Some(4), "{key}");
    }
    for key in [r#""a\vb""#, r#""a\u2028b""#, r#""a\x85b""#] {
        let trees = eval(&format!("#@data/values\n---\n{key}: 2\n")).unwrap();
        assert_eq!(trees.len(), 1, "{key}");
    }
}
