schemac_macros::include_schema!("ui-schemas/bad_yaml.yml");

fn main() {}
