//! Folders given to `-f` and `--data-values-file`, walked as Go's `filepath.Walk` walks them
//! for ytt: cases that cannot be recorded in `tests/cases` (a path past `PATH_MAX` cannot be
//! committed), checked against the oracle when it is there.

use super::*;

#[test]
fn a_path_too_long_in_a_walked_folder_is_the_walks_own_error() {
    // `filepath.Walk` hands the error of its `lstat` on as it is; schemac put `Checking file
    // '...': ` before it, which ytt says only of a path given on the command line (the same
    // for a folder that can be listed but not searched: `lstat d/sub/v.yml: permission denied`).
    let dir = workdir().join("walk-path-too-long");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("schema.yml"), "#@data/values-schema\n---\na: 1\n").unwrap();
    // 17 folders of 250 bytes: the 17th's path (4,271 bytes) passes PATH_MAX (4,096). They are
    // nested from the inside out, as no path past PATH_MAX can be named.
    let name = "d".repeat(250);
    std::fs::create_dir(dir.join("inner")).unwrap();
    std::fs::write(dir.join("inner/v.yml"), "a: 2\n").unwrap();
    for _ in 0..17 {
        std::fs::create_dir(dir.join("outer")).unwrap();
        std::fs::rename(dir.join("inner"), dir.join("outer").join(&name)).unwrap();
        std::fs::rename(dir.join("outer"), dir.join("inner")).unwrap();
    }
    std::fs::rename(dir.join("inner"), dir.join("deep")).unwrap();
    let path = format!("deep{}", format!("/{name}").repeat(17));
    for (args, expected) in [
        (
            vec!["-f", "schema.yml", "-f", "deep"],
            format!("ytt: Error: Listing files 'deep': lstat {path}: file name too long\n"),
        ),
        (
            vec!["-f", "schema.yml", "--data-values-file", "deep"],
            format!("ytt: Error: Extracting data value from file:\n  Find files 'deep':\n    Listing files 'deep': lstat {path}: file name too long\n"),
        ),
    ] {
        let run = |program: &str, check: bool| {
            let mut c = Command::new(program);
            if check {
                c.arg("check");
            }
            let o = c.args(&args).current_dir(&dir).output().unwrap();
            let stderr = String::from_utf8_lossy(&o.stderr).replacen("schemac: ", "ytt: ", 1);
            (o.status.code(), String::from_utf8_lossy(&o.stdout).into_owned(), stderr)
        };
        if let Some(ytt) = oracle() {
            let answer = run(ytt.to_str().unwrap(), false);
            assert_eq!(answer, (Some(1), String::new(), expected.clone()), "ytt {args:?}");
        }
        assert_eq!(run(BIN, true), (Some(1), String::new(), expected), "{args:?}");
    }
}
