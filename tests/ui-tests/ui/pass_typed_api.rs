schemac_macros::include_schema!("ui-schemas/good.yml", root = "Settings");

fn main() {
    let defaults = Settings::default();
    assert_eq!((defaults.replicas, defaults.name.as_str()), (2, "web"));
    let loaded = Settings::from_yaml_str("replicas: 5\n").expect("valid");
    assert_eq!(loaded.replicas, 5);
    let err = Settings::from_yaml_str("replicas: 0\n").expect_err("invalid");
    assert!(err.to_string().contains("must be: a value >= 1"));
    assert!(loaded.validate().is_ok());
    assert_eq!(loaded.to_json(), "{\"name\":\"web\",\"replicas\":5}");
}
