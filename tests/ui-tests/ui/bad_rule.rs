schemac_macros::include_schema!("ui-schemas/bad_rule.yml");

fn main() {}
