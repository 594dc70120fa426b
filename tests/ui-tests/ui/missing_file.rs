schemac_macros::include_schema!("ui-schemas/no_such_file.yml");

fn main() {}
