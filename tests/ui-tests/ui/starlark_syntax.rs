schemac_macros::include_schema!("ui-schemas/starlark_syntax.yml");

fn main() {}
