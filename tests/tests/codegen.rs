//! Snapshots of generated code: `tests/fixtures/codegen/<case>.yml` → `<case>.rs`.
//!
//! Regenerate with `SCHEMAC_UPDATE_SNAPSHOTS=1 cargo test --release -p schemac-tests --test codegen`
//! and review the diff. The snapshots are also compiled, under `#![deny(warnings)]`, by the
//! `generated` module below.

mod common;

use schemac::codegen::CodegenOptions;

fn check_snapshot(case: &str) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/codegen");
    // Generate from inside the fixture folder, so file names in the code are stable.
    let cwd = std::env::current_dir().unwrap();
    std::env::set_current_dir(dir).unwrap();
    let opts = CodegenOptions {
        validator_name: case.into(),
        ..CodegenOptions::default()
    };
    let code = schemac::standalone::gen(&[format!("{case}.yml")], &Default::default(), &opts);
    std::env::set_current_dir(cwd).unwrap();
    let code = code.unwrap_or_else(|e| panic!("{case}: {e}"));
    common::assert_snapshot(&format!("{dir}/{case}.rs"), &code);
}

#[test]
fn snapshots() {
    // One test, so the working-directory change above is never concurrent.
    for case in [
        "web",
        "keys",
        "rules",
        "fragments",
        "names",
        "wide",
        "hostile",
    ] {
        check_snapshot(case);
    }
}

#[deny(warnings)]
#[allow(clippy::all)]
pub mod generated {
    pub mod web {
        include!("../fixtures/codegen/web.rs");
    }
    pub mod keys {
        include!("../fixtures/codegen/keys.rs");
    }
    pub mod rules {
        include!("../fixtures/codegen/rules.rs");
    }
    pub mod fragments {
        include!("../fixtures/codegen/fragments.rs");
    }
    pub mod names {
        include!("../fixtures/codegen/names.rs");
    }
    pub mod wide {
        include!("../fixtures/codegen/wide.rs");
    }
    /// Keys that are Rust keywords, collide once converted, are not strings or hold
    /// characters a comment cannot (CR, NUL, direction changes); maps named as prelude types.
    pub mod hostile {
        include!("../fixtures/codegen/hostile.rs");
    }
}

#[test]
fn defaults_that_rust_types_do_not_hold_make_their_fields_values() {
    // An int default in [2^63, 2^64) (a Go uint64 to ytt) has no i64, and an integer default
    // beyond 2^53 for a float no exact f64: such a field (an array's item type, when an item
    // of the array's default is one) is the runtime's Value, which holds what ytt holds.
    use generated::wide::DataValues;
    use schemac_runtime::value::Value;
    let d = DataValues::default();
    assert_eq!(d.big, Value::UInt(u64::MAX));
    assert_eq!(d.ratio, Value::Int(9007199254740993));
    assert_eq!(d.counts, vec![Value::UInt(1 << 63), Value::Int(1)]);
    assert_eq!((d.small, d.limits.max), (1, i64::MAX));
    assert_eq!(DataValues::load::<&str>(&[]).unwrap(), d);
    let v =
        DataValues::from_yaml_str("big: 3\nratio: 18446744073709551615\ncounts: [2]\n").unwrap();
    assert_eq!((v.big, v.ratio), (Value::Int(3), Value::UInt(u64::MAX)));
    assert_eq!(v.counts, vec![Value::Int(2)]);
    let err = DataValues::from_yaml_str("big: x\n")
        .unwrap_err()
        .to_string();
    assert!(err.contains("expected: integer"), "{err}");
    // The other fields stay i64: a uint64 there is named, as before.
    let err = DataValues::from_yaml_str("small: 9223372036854775808\n")
        .unwrap_err()
        .to_string();
    assert!(err.contains("(string):1 (small) is 2^63 or more"), "{err}");
    assert_eq!(d.raw, Value::Bytes(vec![0xff, 0xff].into()));
}

#[test]
fn a_string_that_is_not_utf8_is_an_error_naming_its_field() {
    // ytt takes any bytes (`!!binary`, a template's "\xff") for a string; a String cannot
    // hold them, and mending them (U+FFFD) would be a value ytt does not hold.
    use generated::web::DataValues;
    let err = DataValues::from_yaml_str("hostname: a\ntls:\n  cert: !!binary //8=\n")
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "data values do not fit the generated types: the string at (string):3 (tls.cert) is not UTF-8 (bytes, as from !!binary), which the field's String cannot hold (a field of type any keeps them)"
    );
    // Bytes that are UTF-8 are a string.
    let ok = DataValues::from_yaml_str("hostname: !!binary aMOp\n").unwrap();
    assert_eq!(ok.hostname, "h\u{e9}");
}

#[test]
fn types_are_named_by_path_and_one_of_strings_are_enums() {
    use generated::names::{
        ClientTls, DataValues, Level, Option2, Protocol, Server, ServerTls, Tls,
    };
    let d = DataValues::default();
    // Structs are built from their fields' own defaults.
    assert_eq!(d.tls, Tls { enabled: false });
    assert_eq!(d.server.tls, ServerTls::default());
    assert_eq!(d.client.tls, ClientTls::default());
    assert_eq!(d.option, Option2 { value: 1 });
    // `one_of` strings are enums named from their values, with the YAML value as their text.
    assert_eq!(d.server.protocol, Protocol::Tcp);
    assert_eq!(Protocol::TcpV2.as_str(), "tcp-v2");
    assert_eq!(d.client.level, None);
    // Values that make the same variant name, or a one_of under when=, stay strings.
    assert_eq!(
        (d.client.mode.as_str(), d.client.gated.as_str()),
        ("a-b", "x")
    );
    let loaded =
        DataValues::from_yaml_str("server:\n  protocol: tcp-v2\nclient:\n  level: debug\n")
            .unwrap();
    assert_eq!(
        loaded.server,
        Server {
            protocol: Protocol::TcpV2,
            ..Server::default()
        }
    );
    assert_eq!(loaded.client.level, Some(Level::Debug));
    assert!(loaded.to_yaml().contains("protocol: tcp-v2\n"));
    let err = DataValues::from_yaml_str("server:\n  protocol: SCTP\n").unwrap_err();
    assert!(err.to_string().contains("one of"), "{err}");
}

#[test]
fn typed_structs_carry_the_schema_defaults() {
    use schemac_runtime::__private::FromValue;
    let d = generated::web::DataValues::default();
    assert_eq!(d.replicas, 1);
    assert_eq!(d.hostname, "example.com");
    assert_eq!(d.tls, None);
    assert!(d.ports.is_empty());
    assert_eq!(d.ratio, 0.5);
    // The IR's default converts to the same struct.
    let ir = generated::web::__schemac_internals::schema();
    assert_eq!(
        generated::web::DataValues::from_value(&ir.default.value),
        Some(d)
    );
    let k = generated::keys::DataValues::default();
    assert_eq!(
        (
            k.tls_crt.as_str(),
            k.db_conn.max_idle,
            k.r#type.as_str(),
            k.self_,
            k._1st.as_str(),
            k.db_conn_2
        ),
        ("", 2, "web", true, "one", 3)
    );
}

#[test]
fn only_schemas_with_functions_need_starlark() {
    assert!(!generated::web::VALIDATOR.needs_starlark);
    assert!(generated::rules::VALIDATOR.needs_starlark);
    assert!(generated::web::__schemac_internals::schema()
        .validation
        .is_none());
    let replicas = match generated::web::__schemac_internals::schema().kind {
        schemac_runtime::schema::Kind::Map(fields) => fields.into_iter().next().unwrap(),
        _ => unreachable!(),
    };
    assert_eq!(replicas.ty.validation.unwrap().named.len(), 2);
}

#[test]
fn generated_ir_rebuilds_what_the_interpreter_lowered() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/codegen");
    type Case = (
        &'static str,
        fn() -> schemac_runtime::schema::Type,
        fn() -> schemac_runtime::value::Node,
        &'static schemac_runtime::validator::Validator,
    );
    let cases: [Case; 3] = [
        (
            "web",
            generated::web::__schemac_internals::schema,
            generated::web::__schemac_internals::openapi,
            &generated::web::VALIDATOR,
        ),
        (
            "keys",
            generated::keys::__schemac_internals::schema,
            generated::keys::__schemac_internals::openapi,
            &generated::keys::VALIDATOR,
        ),
        (
            "rules",
            generated::rules::__schemac_internals::schema,
            generated::rules::__schemac_internals::openapi,
            &generated::rules::VALIDATOR,
        ),
    ];
    for (case, schema, openapi, validator) in cases {
        let file = format!("{dir}/{case}.yml");
        let compiled = schemac::standalone::compile(&[file], &Default::default())
            .unwrap_or_else(|e| panic!("{case}: {e}"));
        let generated = schema();
        // Positions differ only in the file name (the snapshot was generated from the folder).
        assert_eq!(
            schemac_runtime::yaml::emit::to_yaml(&generated.default.value),
            schemac_runtime::yaml::emit::to_yaml(&compiled.schema.default.value),
            "{case}"
        );
        assert_eq!(
            schemac_runtime::yaml::emit::to_yaml(&openapi().value),
            schemac_runtime::yaml::emit::to_yaml(
                &schemac::export::openapi::to_openapi(&compiled.schema).value
            ),
            "{case}"
        );
        assert_eq!(validator.schema_files, [format!("{case}.yml").as_str()]);
    }
    let rules = generated::rules::DataValues::default();
    assert_eq!((rules.count, rules.enabled), (2, true));
}

/// Exercises the typed API of a generated module with good and bad values.
macro_rules! typed_api {
    ($m:path, $good:expr, $bad:expr, $bad_text:expr) => {{
        use $m as m;
        let d = m::DataValues::default();
        d.validate()
            .unwrap_or_else(|e| panic!("defaults must pass: {e}"));
        let loaded = m::DataValues::from_yaml_str($good).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            m::DataValues::from_node(&schemac_runtime::value::Node::new(
                loaded.to_value(),
                Default::default()
            ))
            .unwrap(),
            loaded
        );
        let err = m::DataValues::from_yaml_str($bad).unwrap_err();
        assert!(err.to_string().contains($bad_text), "{err}");
        let dir = std::env::temp_dir().join(format!(
            "schemac-typed-{}-{}",
            std::process::id(),
            stringify!($m).len()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("values.yml");
        std::fs::write(&file, format!("#@data/values\n---\n{}", $good)).unwrap();
        assert_eq!(m::DataValues::load(&[&file]).unwrap(), loaded);
        // Plain YAML is read by `load_plain`; `load` (ytt's `-f`) refuses it rather than
        // ignore it.
        let plain = dir.join("plain.yml");
        std::fs::write(&plain, $good).unwrap();
        assert_eq!(m::DataValues::load_plain(&[&plain]).unwrap(), loaded);
        let err = m::DataValues::load(&[&plain]).unwrap_err();
        assert!(err.to_string().contains("has no `#@data/values`"), "{err}");
        // A misplaced `#@data/values` is reported as such (as `check` and ytt report it).
        let misplaced = dir.join("misplaced.yml");
        std::fs::write(&misplaced, "---\n#@data/values\nx: 1\n").unwrap();
        let err = m::DataValues::load(&[&misplaced]).unwrap_err();
        assert!(
            err.to_string().contains("Found @data/values on map item"),
            "{err}"
        );
        assert!(!loaded.to_yaml().is_empty());
        assert!(loaded.to_json().starts_with('{'));
        loaded
    }};
}

#[test]
fn typed_api_loads_checks_and_converts() {
    let web = typed_api!(
        generated::web,
        "replicas: 3\nports:\n- port: 443\n",
        "replicas: 0\n",
        "must be: a value >= 1"
    );
    assert_eq!(
        (
            web.replicas,
            web.ports[0].port,
            web.ports[0].protocol.as_str()
        ),
        (3, 443, "TCP")
    );
    let mut too_many = web.clone();
    too_many.replicas = 11;
    let err = too_many.validate().unwrap_err();
    assert!(err.to_string().contains("a value <= 10"), "{err}");
    assert_eq!(err.violations.len(), 1);
    let keys = typed_api!(
        generated::keys,
        "type: api\n",
        "type: 1\n",
        "expected: string"
    );
    assert_eq!(keys.r#type, "api");
    let rules = typed_api!(
        generated::rules,
        "count: 2\n",
        "count: -1\n",
        "must be: positive"
    );
    assert_eq!(rules.count, 2);
    // The rule's when= reads ctx.parent: disabled, a negative count passes.
    assert!(generated::rules::DataValues::from_yaml_str("count: -1\nenabled: false\n").is_ok());
    // An integer in [2^63, 2^64) is an int to ytt (a uint64) but has no i64.
    let err = generated::rules::DataValues::from_yaml_str("count: 18446744073709551614\n")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("is 2^63 or more (a uint64), beyond the field's i64"),
        "{err}"
    );
}

#[test]
fn an_integer_an_f64_field_would_round_is_an_error_at_its_line() {
    // ytt keeps an integer given for a float as that integer; an `f64` holds every one up to
    // 2^53 (and -2^63) exactly, and rounded one past it (found by the `typed` fuzz target).
    use generated::web::DataValues;
    let exact = DataValues::from_yaml_str("ratio: -9223372036854775808\n").unwrap();
    assert_eq!(exact.ratio, -9223372036854775808.0);
    assert_eq!(
        DataValues::from_yaml_str("ratio: 9007199254740992\n")
            .unwrap()
            .ratio,
        9007199254740992.0
    );
    // The big integer of the `i64` field `port` fits; the float field's is the one named.
    for (ratio, line) in [("9007199254740993", 3), ("18446744073709551615", 3)] {
        let yaml = format!("ports:\n- port: 9223372036854775807\nratio: {ratio}\n");
        let err = DataValues::from_yaml_str(&yaml).unwrap_err().to_string();
        assert_eq!(
            err,
            format!("data values do not fit the generated types: the integer at (string):{line} (ratio) has no exact f64 (beyond 2^53), the field's type"),
        );
    }
}

#[test]
fn each_instance_of_a_fragment_has_its_own_translation() {
    // `fragments.yml` instantiates one fragment twice; its `when=` reads `ctx.parent["enabled"]`,
    // which only the first instance has. The first instance's functions are translated; the
    // second's `when=` stays with the interpreter, which fails on the missing key as ytt does.
    use schemac_runtime::engine::{run, CheckError};
    use schemac_runtime::lowered::Translated;
    let v = &generated::fragments::VALIDATOR;
    let refs = generated::fragments::__schemac_internals::schema().functions();
    let translated: Vec<&str> = refs
        .iter()
        .map(|f| match (v.translated)(f.index) {
            Some(Translated::Rule(_)) => "rule",
            Some(Translated::When(_)) => "when",
            None => "interpreted",
        })
        .collect();
    assert_eq!(translated, ["rule", "when", "rule", "interpreted"]);
    assert!(v.needs_starlark);

    let dir = tempfile::tempdir().unwrap();
    let values = dir.path().join("values.yml");
    std::fs::write(&values, "a:\n  port: 0\nb:\n  port: 0\n").unwrap();
    let values = values.to_string_lossy().to_string();
    let schema = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/codegen/fragments.yml"
    );
    let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let opts = |a: &[&str]| schemac_runtime::cli::parse(&args(a)).unwrap().request;
    let built = v.built().unwrap();
    let compiled = run(&opts(&["--data-values-file", &values]), built);
    let interpreted = run(
        &opts(&["-f", schema, "--data-values-file", &values]),
        &schemac::check::INTERPRETER,
    );
    let message = |r: Result<String, CheckError>| r.map_err(CheckError::into_message);
    let expected = Err("Validating final data values:\nValidating b.port: Failure evaluating when=: key \"enabled\" not in yamlfragment".to_string());
    assert_eq!(message(interpreted), expected);
    assert_eq!(message(compiled), expected);
}

/// Writes `text` to a file named `name` in a fresh temporary folder; returns its path.
fn temp_file(name: &str, text: &str) -> String {
    static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("schemac-codegen-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn templates_are_numbered_after_the_built_in_schema() {
    // ytt numbers the templates it compiles in one sequence, the schema's first (web.yml is
    // `__ytt_tpl2`; a schema and a `.star` file it loads are 2 and 3), and a values file's
    // error names its number: a built schema keeps the count, so the number is the same as
    // when the schema files are given with -f (found by tests/ytt-diff/backends.py).
    assert_eq!(generated::web::VALIDATOR.templates, 1);
    let values = temp_file("dup.yml", "#@data/values\n---\nreplicas: 1\nreplicas: 2\n");
    let err = generated::web::DataValues::load(&[&values])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("- __ytt_tpl3_start_node: expected key 'replicas' to not be specified again"),
        "{err}"
    );
}

#[test]
fn validate_checks_loaded_values_as_they_are() {
    // An `any` value of another shape than its default: validating must not overlay it on the
    // default again (an array does not overlay a map; found by tests/ytt-diff/backends.py).
    let values = temp_file(
        "extra.yml",
        "#@data/values\n---\n#@overlay/replace\nextra: [1, 2]\n",
    );
    let loaded = generated::web::DataValues::load(&[&values]).unwrap();
    loaded.validate().unwrap();
    let mut bad = loaded.clone();
    bad.replicas = 0;
    let err = bad.validate().unwrap_err().to_string();
    assert!(err.contains("replicas"), "{err}");
}

/// The typed API runs on its caller's stack: on a 2 MiB thread (a spawned thread's, a tokio
/// worker's), values nested up to the reader's depth budget are an error, not a stack overflow
/// that aborts the process (they were, before the engine got a stack of its own).
#[test]
fn deep_values_on_a_small_stack_are_an_error_not_an_abort() {
    use generated::names::DataValues;
    let depth = 1_990;
    let flow = format!("server: {}{}\n", "[".repeat(depth), "]".repeat(depth));
    let mut block = String::from("server:\n");
    for level in 0..depth {
        block.push_str(&format!("{}- \n", "  ".repeat(level)));
    }
    for yaml in [flow, block] {
        let err = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || DataValues::from_yaml_str(&yaml).map(|_| ()).unwrap_err())
            .unwrap()
            .join()
            .unwrap();
        assert!(err.to_string().contains("found: array"), "{err}");
    }
}

/// The values of the first document of `yaml` as the runtime's reader gives them (positions
/// name `name`'s lines).
fn read_values(name: &str, yaml: &str) -> schemac_runtime::value::Node {
    let file = schemac_runtime::yaml::parse::parse_file(name, yaml, false).unwrap();
    let name = file.file;
    match file.docs.into_iter().next() {
        Some(doc) => schemac_runtime::template::tree::Tree::from_raw(doc, Some(name)).into_node(),
        None => schemac_runtime::value::Node::null(Default::default()),
    }
}

/// `from_node` takes values already read, or made in code, as they are (not written as YAML
/// and read again), and answers as `from_yaml_str` does with their YAML.
#[test]
fn typed_from_node_answers_as_from_yaml_str() {
    use generated::web as m;
    use schemac_runtime::value::{Node, Pos, Value};
    let cases = [
        "replicas: 3\nports:\n- port: 443\n",
        "",
        "replicas: 3\nextra: {a: [1, 2]}\ntls: null\n",
        "ratio: 2\n",
        "replicas: 0\n",
        "replicas: '3'\n",
        "ports:\n- port: 1\n  protocol: UDP\n  other: 2\n",
        "unknown: 1\n",
        "- 1\n",
        "7\n",
    ];
    for yaml in cases {
        let from_yaml = m::DataValues::from_yaml_str(yaml);
        // Read once (positions known): the same answer, the same messages.
        let read = read_values("(string)", yaml);
        let from_node = m::DataValues::from_node(&read);
        match (&from_yaml, &from_node) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{yaml}"),
            (Err(a), Err(b)) => {
                assert_eq!(unquoted(&a.to_string()), unquoted(&b.to_string()), "{yaml}");
                assert_eq!(a.violations, b.violations, "{yaml}");
            }
            _ => panic!("{yaml}: from_yaml_str {from_yaml:?}, from_node {from_node:?}"),
        }
        // Made in code (positions unknown): the same answer, messages naming lines of the
        // values written as YAML.
        let made = Node::new(read.value.clone(), Pos::unknown());
        let made = m::DataValues::from_node(&made);
        match (&from_yaml, &made) {
            (Ok(a), Ok(b)) => assert_eq!(a.to_yaml(), b.to_yaml(), "{yaml}"),
            (Err(a), Err(b)) => assert_eq!(
                unquoted(&a.to_string()),
                unquoted(&b.to_string().replace("(value)", "(string)")),
                "{yaml}"
            ),
            _ => panic!("{yaml}: from_yaml_str {from_yaml:?}, from_node {made:?}"),
        }
    }
    // A map made in code with a key twice is refused, as the reader refuses it in YAML.
    let twice = read_values("(string)", "replicas: 3\nhostname: a\n");
    let Value::Map(mut entries) = twice.value else {
        unreachable!()
    };
    entries[1].key = Value::Str("replicas".into()).into();
    let err =
        m::DataValues::from_node(&Node::new(Value::Map(entries), Pos::unknown())).unwrap_err();
    assert!(
        err.to_string()
            .contains("map key 'replicas' is given twice ((string):1 and (string):2)"),
        "{err}"
    );
}

/// A report without the lines it quotes (`  4 |   other: 2`): a node read once is checked
/// without its text, and values made in code are quoted as they are written as YAML.
fn unquoted(report: &str) -> String {
    let quoted = |line: &str| {
        let line = line.trim_start();
        line.split_once(" |")
            .is_some_and(|(n, _)| n.chars().all(|c| c.is_ascii_digit() || c == '?'))
    };
    report
        .lines()
        .filter(|l| !quoted(l))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A schema map with a `.nan:` key (not a snapshot: the typed API is what is run).
#[allow(dead_code)]
mod nan_key {
    schemac_macros::include_schema!("fixtures/codegen/nan_key.yml");
}

#[test]
fn a_nan_key_in_the_schema_is_ytts_error_not_an_internal_one() {
    // A NaN equals no key in ytt, not even the schema's own: ytt checks the schema's defaults
    // as data values and finds the key undeclared (twice: ytt fills the default in beside
    // it). The typed API fails as `schemac check` does.
    let loaded = nan_key::DataValues::load::<&str>(&[])
        .unwrap_err()
        .to_string();
    let given = nan_key::DataValues::from_yaml_str("a: 3\n")
        .unwrap_err()
        .to_string();
    for err in [loaded, given] {
        assert!(!err.contains("internal error"), "{err}");
        assert_eq!(
            err.matches("Given data value is not declared in schema")
                .count(),
            2,
            "{err}"
        );
        assert!(
            err.contains(
                "= found: NaN\n    = expected: one of { %!s(float64=NaN), a } (from nan_key.yml:2)"
            ),
            "{err}"
        );
    }
}

/// A package's schema with its own data values file (a `config/` folder's `values.yml`).
#[allow(dead_code)]
mod package {
    schemac_macros::include_schema!(
        "fixtures/codegen/package/schema.yml",
        "fixtures/codegen/package/values.yml"
    );
}

#[test]
fn a_packages_data_values_file_is_read_before_the_callers_values() {
    // As `ytt -f config/ -f mine.yml`: the package's values overlay the schema's defaults,
    // then the caller's overlay them, on every load.
    let none = package::DataValues::load::<&str>(&[]).unwrap();
    assert_eq!((none.name.as_str(), none.replicas), ("app", 3));
    let given = package::DataValues::from_yaml_str("name: mine\n").unwrap();
    assert_eq!((given.name.as_str(), given.replicas), ("mine", 3));
    let over = package::DataValues::from_yaml_str("replicas: 11\n")
        .unwrap_err()
        .to_string();
    assert!(over.contains("- must be: a value <= 10"), "{over}");
    // The type's `Default` is the schema's defaults alone.
    assert_eq!(package::DataValues::default().replicas, 1);
}

/// The same package given as its folder, as `ytt -f config/` reads it.
#[allow(dead_code)]
mod package_folder {
    schemac_macros::include_schema!("fixtures/codegen/package");
}

#[test]
fn a_package_folder_gives_the_macro_its_files_in_ytts_order() {
    let none = package_folder::DataValues::load::<&str>(&[]).unwrap();
    assert_eq!((none.name.as_str(), none.replicas), ("app", 3));
    // The files are named as `-f config/` names them: the messages are the listed files'.
    let by_folder = package_folder::DataValues::from_yaml_str("replicas: 11\n")
        .unwrap_err()
        .to_string();
    let by_files = package::DataValues::from_yaml_str("replicas: 11\n")
        .unwrap_err()
        .to_string();
    assert_eq!(by_folder, by_files);
    assert_eq!(package_folder::DataValues::default().replicas, 1);
}
