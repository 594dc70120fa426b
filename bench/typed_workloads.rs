//! The workloads' schemas through `include_schema!`, shared by the criterion benchmark and the
//! `typed_loop` example (each includes this file).

mod typical {
    schemac_macros::include_schema!("workloads/typical/schema.yml", root = "Config");
}
mod array10k {
    schemac_macros::include_schema!("workloads/array10k/schema.yml", root = "Config");
}
mod keys5k {
    schemac_macros::include_schema!("workloads/keys5k/schema.yml", root = "Config");
}

/// Whether the typed API of `workload`'s schema takes `yaml`.
pub fn typed_load(workload: &str, yaml: &str) -> bool {
    match workload {
        "typical" => typical::Config::from_yaml_str(yaml).is_ok(),
        "array10k" => array10k::Config::from_yaml_str(yaml).is_ok(),
        _ => keys5k::Config::from_yaml_str(yaml).is_ok(),
    }
}

/// The values of `yaml`'s first document as the runtime's reader gives them (what a service
/// that read them once holds): the input of [`typed_from_node`] and [`checked_node`].
pub fn read_values(yaml: &str) -> schemac_runtime::value::Node {
    let file = schemac_runtime::yaml::parse::parse_file("values.yml", yaml, false)
        .expect("the workload's values are YAML");
    let name = file.file;
    let doc = file.docs.into_iter().next().expect("a document");
    schemac_runtime::template::tree::Tree::from_raw(doc, Some(name)).into_node()
}

/// Whether the typed API of `workload`'s schema takes `node` (values already read) and
/// converts them to its structs.
pub fn typed_from_node(workload: &str, node: &schemac_runtime::value::Node) -> bool {
    match workload {
        "typical" => typical::Config::from_node(node).is_ok(),
        "array10k" => array10k::Config::from_node(node).is_ok(),
        _ => keys5k::Config::from_node(node).is_ok(),
    }
}

/// Whether `workload`'s schema takes `node` (values already read): the checks and defaults
/// of the typed API, without the conversion to its structs.
pub fn checked_node(workload: &str, node: &schemac_runtime::value::Node) -> bool {
    let validator = match workload {
        "typical" => &typical::VALIDATOR,
        "array10k" => &array10k::VALIDATOR,
        _ => &keys5k::VALIDATOR,
    };
    schemac_runtime::typed::load_node(validator, "(value)", node).is_ok()
}
