schemac_macros::include_schema!("ui-schemas/bad_annotation.yml");

fn main() {}
