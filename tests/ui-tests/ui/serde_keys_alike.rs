schemac_macros::include_schema!("ui-schemas/keys_alike.yml", serde = "true");

fn main() {}
