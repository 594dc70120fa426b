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
