//! The typed API with a budget variable set to a bad value: every load is an error naming the
//! variable (a test binary of its own: it sets the process's environment).

mod web {
    // The generated module's whole API; this test calls its typed loads only.
    #![allow(dead_code)]
    include!("../fixtures/codegen/web.rs");
}

#[test]
fn a_bad_budget_variable_is_the_error_of_every_load() {
    // The only test of this binary: nothing else reads the environment meanwhile.
    std::env::set_var("SCHEMAC_MAX_DEPTH", "-1");
    let expected = "SCHEMAC_MAX_DEPTH: \"-1\" is not a whole number (digits only; unset it for the default 2000)";
    let e = web::DataValues::from_yaml_str("replicas: 3\n").unwrap_err();
    assert_eq!(e.to_string(), expected);
    assert!(e.violations.is_empty());
    let e = web::DataValues::load_plain(&["no-such-file.yml"]).unwrap_err();
    assert_eq!(e.to_string(), expected);
    let e = web::DataValues::from_node(&schemac_runtime::value::Node::null(
        schemac_runtime::value::Pos::unknown(),
    ))
    .unwrap_err();
    assert_eq!(e.to_string(), expected);
    // Set to nothing, the variable is the default: the loads answer again.
    std::env::set_var("SCHEMAC_MAX_DEPTH", "");
    let values = web::DataValues::from_yaml_str("replicas: 3\n").unwrap();
    assert!(values.validate().is_ok());
}
