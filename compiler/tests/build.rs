//! End to end: `schemac build` makes a validator that answers exactly as `schemac check`.
//!
//! The build's cargo cache is `target/schemac-cache`, so reruns only compile the generated
//! crate.

use std::path::{Path, PathBuf};
use std::process::Command;

fn schemac() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_schemac"));
    let cache = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/schemac-cache");
    c.env("SCHEMAC_CACHE_DIR", cache);
    c
}

fn output(mut c: Command, dir: &Path) -> (i32, String, String) {
    let o = c.current_dir(dir).output().expect("runs");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into(),
        String::from_utf8_lossy(&o.stderr).into(),
    )
}

#[test]
fn a_built_validator_answers_as_check_does() {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("schemac-build-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("schema.yml"),
        "#@data/values-schema\n---\n#@schema/validation min=1\nreplicas: 1\nname: web\nports:\n- 80\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("good.yml"),
        "#@data/values\n---\nreplicas: 3\nports:\n- 443\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("bad.yml"),
        "#@data/values\n---\nreplicas: 0\nname: 7\n",
    )
    .unwrap();

    let mut build = schemac();
    build.args(["build", "schema.yml", "-o", "web-values"]);
    let (rc, _, err) = output(build, &dir);
    assert_eq!(rc, 0, "{err}");
    assert!(err.contains("schemac: built web-values"), "{err}");

    for values in ["good.yml", "bad.yml"] {
        let mut check = schemac();
        check.args(["check", "-f", "schema.yml", "-f", values]);
        let mut validator = Command::new(dir.join("web-values"));
        validator.args(["-f", values]);
        assert_eq!(output(validator, &dir), output(check, &dir), "{values}");
    }
    // ytt's flags: the validator parses and answers them as `schemac check` does.
    for args in [
        &["-f", "good.yml", "--bogus"][..],
        &["-f"],
        &["-xyz"],
        &["-f", "good.yml", "-o", "xml"],
        &["-f", "good.yml", "-o", "json,yaml"],
        &["-f", "good.yml", "extra"],
        &["--data-values-schema-inspect", "-o", "openapi-v3,json"],
    ] {
        let mut check = schemac();
        check.args(["check", "-f", "schema.yml"]).args(args);
        let mut validator = Command::new(dir.join("web-values"));
        validator.args(args);
        assert_eq!(output(validator, &dir), output(check, &dir), "{args:?}");
    }
    let mut help = Command::new(dir.join("web-values"));
    help.args(["-f", "good.yml", "--help"]);
    let (rc, out, _) = output(help, &dir);
    assert_eq!(rc, 0);
    assert!(
        out.contains("Usage: web-values [OPTIONS]") && out.contains("--data-values-file"),
        "{out}"
    );
    if let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") {
        let o = Command::new(dir.join("web-values"))
            .current_dir(&dir)
            .stdout(full)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(1));
        assert!(String::from_utf8_lossy(&o.stderr).starts_with("schemac: Error: writing to stdout"));
    }
    let mut version = Command::new(dir.join("web-values"));
    version.arg("--version");
    let (rc, out, _) = output(version, &dir);
    assert_eq!(rc, 0);
    assert!(
        out.contains("web-values") && out.contains("schema.yml"),
        "{out}"
    );
}

#[test]
fn schema_errors_stop_the_build_before_compiling() {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("schemac-build-bad-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("schema.yml"),
        "#@data/values-schema\n---\nlist: []\n",
    )
    .unwrap();
    let mut build = schemac();
    build.args(["build", "schema.yml", "-o", "out"]);
    let (rc, _, err) = output(build, &dir);
    assert_eq!(rc, 1);
    assert!(
        err.contains("wrong number of items in array definition"),
        "{err}"
    );
    assert!(!dir.join("out").exists());
    let mut usage = schemac();
    usage.args(["build", "schema.yml"]);
    assert_eq!(output(usage, &dir).0, 2);
}
