//! `include_schema!(..., serde = "true")`: serde derives on generated types (runtime feature
//! `serde`), with the YAML keys as names and the schema's defaults for missing fields.

#[allow(dead_code)] // The typed API is exercised in tests/codegen.rs.
mod web {
    schemac_macros::include_schema!("fixtures/codegen/web.yml", serde = "true");
}

#[test]
fn generated_types_round_trip_through_serde() {
    let defaults = web::DataValues::default();
    let json = serde_json::to_string(&defaults).unwrap();
    assert!(
        json.starts_with("{\"replicas\":1,\"hostname\":\"example.com\",\"tls\":null"),
        "{json}"
    );
    let back: web::DataValues = serde_json::from_str(&json).unwrap();
    assert_eq!(back, defaults);
}

#[test]
fn missing_fields_take_the_schema_defaults_and_wrong_types_fail() {
    let partial: web::DataValues =
        serde_json::from_str(r#"{"replicas": 4, "extra": {"a": [1, "x"]}}"#).unwrap();
    assert_eq!(partial.replicas, 4);
    assert_eq!(partial.hostname, "example.com");
    assert_eq!(partial.ports, vec![]);
    assert_eq!(
        partial
            .extra
            .get("a")
            .map(|n| n.value.clone())
            .unwrap()
            .type_name(),
        "array"
    );
    assert!(serde_json::from_str::<web::DataValues>(r#"{"replicas": "four"}"#).is_err());
}

#[allow(dead_code)]
mod names {
    schemac_macros::include_schema!("fixtures/codegen/names.yml", serde = "true");
}

#[test]
fn one_of_enums_take_the_yaml_values_as_serde_names() {
    let json = serde_json::to_string(&names::DataValues::default().server).unwrap();
    assert_eq!(json, r#"{"tls":{"cert":""},"protocol":"TCP"}"#);
    let server: names::Server = serde_json::from_str(r#"{"protocol": "tcp-v2"}"#).unwrap();
    assert_eq!(server.protocol, names::Protocol::TcpV2);
    assert!(serde_json::from_str::<names::Server>(r#"{"protocol": "SCTP"}"#).is_err());
}

#[allow(dead_code)]
mod hostile {
    schemac_macros::include_schema!("fixtures/codegen/hostile.yml", serde = "true");
}

/// Through the macro (tokens, not printed code) too, keys that are keywords or hold CR, NUL
/// and direction changes make a type that compiles and round-trips.
#[test]
fn hostile_keys_round_trip_through_the_macro() {
    let defaults = hostile::DataValues::default();
    assert_eq!(defaults.r#type, 1);
    assert_eq!(defaults.described, "\u{202e} \r \0");
    let json = serde_json::to_string(&defaults).unwrap();
    let back: hostile::DataValues = serde_json::from_str(&json).unwrap();
    assert_eq!(back, defaults);
    let loaded = hostile::DataValues::from_yaml_str("dir: \"up\u{202e}\"\n").unwrap();
    assert_eq!(loaded.dir, hostile::Dir::Up);
}
