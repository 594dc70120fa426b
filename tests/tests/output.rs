//! Writing data values back out, against what ytt printed: strings that read as something else
//! in YAML 1.1 or 1.2 (`"1e3"`, `"0x1F"`, `"1:20"`, `"2001-12-14"`, ...) given with
//! `--data-value`, and numbers given with `--data-value-yaml` to int, float and `any` schemas,
//! each as YAML and as JSON.
//!
//! The expected outputs in `tests/fixtures/output/cases.json` were recorded from ytt by
//! `tests/record-output-cases.py`; to add a case, add it to the script's candidates and run it
//! again (never edit the JSON by hand). Cases schemac does not get right yet are listed, with the
//! reason, in `tests/fixtures/output/xfail.txt`; a listed case that starts passing fails the test.

use schemac::check::INTERPRETER;
use schemac_runtime::cli::parse;
use schemac_runtime::engine::run;
use serde_json::Value as Json;

const CASES: &str = include_str!("../fixtures/output/cases.json");
const XFAIL: &str = include_str!("../fixtures/output/xfail.txt");

/// One recorded run: `ytt -f <schema> <flag> x=<value> --data-values-inspect -o <output>`.
struct Case<'a> {
    schema: &'a str,
    flag: &'a str,
    value: &'a str,
    output: &'a str,
    status: i64,
    stdout: &'a str,
}

impl Case<'_> {
    /// The case as an xfail line names it: schema, flag, output and the value as a JSON string.
    fn id(&self) -> String {
        format!(
            "{} {} {} {}",
            self.schema,
            self.flag,
            self.output,
            Json::from(self.value)
        )
    }
}

fn field<'a>(case: &'a Json, name: &str) -> &'a Json {
    case.get(name)
        .unwrap_or_else(|| panic!("a case without {name}: {case}"))
}

#[test]
fn output_matches_ytt() {
    let recorded: Json = serde_json::from_str(CASES).expect("cases.json is JSON");
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in field(&recorded, "schemas").as_object().unwrap() {
        std::fs::write(
            dir.path().join(format!("{name}.yml")),
            text.as_str().unwrap(),
        )
        .unwrap();
    }
    let xfail: Vec<&str> = XFAIL
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            l.split_once("  # ")
                .map_or(l, |(id, _reason)| id)
                .trim_end()
        })
        .collect();
    let (mut unexpected, mut fixed, mut total) = (Vec::new(), Vec::new(), 0);
    for c in field(&recorded, "cases").as_array().unwrap() {
        let text = |name| field(c, name).as_str().unwrap();
        let case = Case {
            schema: text("schema"),
            flag: text("flag"),
            value: text("value"),
            output: text("output"),
            status: field(c, "status").as_i64().unwrap(),
            stdout: text("stdout"),
        };
        let schema = dir.path().join(format!("{}.yml", case.schema));
        let args: Vec<String> = [
            "-f",
            &schema.to_string_lossy(),
            case.flag,
            &format!("x={}", case.value),
            "--data-values-inspect",
            "-o",
            case.output,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let opts =
            parse(&args).unwrap_or_else(|e| panic!("{}: unusable arguments: {e}", case.id()));
        let (status, stdout) = match run(&opts.request, &INTERPRETER) {
            Ok(out) => (0, out),
            Err(_) => (1, String::new()),
        };
        let ok = (status, stdout.as_str()) == (case.status, case.stdout);
        let listed = xfail.contains(&case.id().as_str());
        match (ok, listed) {
            (false, false) => unexpected.push(format!(
                "{}\n    ytt:     {} {:?}\n    schemac: {status} {stdout:?}",
                case.id(),
                case.status,
                case.stdout
            )),
            (true, true) => fixed.push(case.id()),
            _ => {}
        }
        total += 1;
    }
    assert!(total > 1000, "only {total} cases recorded");
    assert!(
        unexpected.is_empty(),
        "{} of {total} outputs differ from ytt's:\n{}",
        unexpected.len(),
        unexpected.join("\n")
    );
    assert!(
        fixed.is_empty(),
        "listed in xfail.txt but now right (remove them):\n{}",
        fixed.join("\n")
    );
}
