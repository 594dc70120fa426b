//! The fast block reader against saphyr-parser: wherever the block reader answers, both must
//! give the same nodes, lines, comments and document flags, in lax and strict mode.
//!
//! Inputs: crafted snippets, every YAML file of the shared conformance and real-world corpora
//! (when `../shared` is present beside the repository), and mutations of those files.

use std::path::{Path, PathBuf};

/// Checks that both readers agree on `src`; returns whether the block reader answered.
fn agree(src: &str) -> bool {
    super::compare_readers(src).unwrap_or_else(|e| panic!("{e}\non:\n{src}"))
}

#[test]
fn common_files_take_the_fast_path() {
    let files = [
        "#@data/values\n---\na: 1\nb:\n- x\n- y: 2\n  z: [1, 'two', \"3\"]\nc: {d: e}\n",
        "#@data/values-schema\n---\n#@schema/nullable\nendpoints:\n  - name: \"\"\n    #@schema/validation min=1\n    port: 80\n",
        "a: 1 #@ x\n---\nb: 2\n--- #@ y\n- 1\n-\n  c: d\n",
        "",
        "# just a comment\n",
        "---\n",
    ];
    for src in files {
        assert!(agree(src), "the block reader gave up on:\n{src}");
    }
}

#[test]
fn crafted_inputs() {
    #[rustfmt::skip]
    let inputs = [
        // Documents.
        "---\n---\n", "a: 1\n---\n", "---\na: 1\n...\n", "--- a\n", "---a: 1\n", "--- # c\na: 1\n",
        "%YAML 1.1\n---\na: 1\n", "\n\n  a: 1\n  b: 2\n", "  a: 1\nb: 2\n", "a\n", "[1, 2]\n", "{a: [1]}\n", "[1]\n[2]\n", "[1] # c\n", "--- [1]\n--- {}\n", "'a'\n",
        // Block maps and sequences.
        "a:\n- 1\n- 2\nb: 3\n", "a:\n  - 1\n  b: 2\n", "a:\n    b: 1\n  c: 2\n", "- - 1\n", "-\n  - 1\n  - 2\n",
        "-\n-\n- x\n", "- # c\n  a: 1\n", "-\n  # a-b\n  c: d\n", "-\n  # c-\n  d: e\n", "a:\n-\n  #@ c -\n  b: 1\n", "- a: 1\n  b: 2\n- c\n", "- a: 1\n b: 2\n",
        "a:\n  b:\n    c:\n", "a: b: c\n", "a: b:\n", "a:b: c\n", "a  : b\n", "a : b\n", "a: 1\n  b\n",
        "- a\n  b\n", "a:\n  b\nc: 1\n", "? a\n: b\n", "<<: {a: 1}\n", "a: &x 1\nb: *x\n", "a: !!str 1\n",
        "a: |\n  x\n", "a: >\n  x\n", "a:\n- 1\n-\n", "-\n", "- \n", "a:\n-\n  - 1\n-\n",
        // Scalars.
        "a: yes\nb: on\nc: 012\nd: 0x1F\ne: 1_000\nf: .inf\ng: ~\nh: 1e3\ni: 2001-01-01\n", "on: 1\n1: x\n~: y\n",
        "a: 'it''s'\nb: \"q\\\"\\\\\\n\\t\"\n", "a: \"\\x41\"\n", "a: \"\\/\"\n", "a: \"x\ny\"\n", "a: 'x\n  y'\n",
        "a: b#c\nd: e # f\ng: h#@ i\n", "a: x #@ y\n", "a: \"x\"#y\n", "a: \"x\" #@ y\n", "a: 'x' b\n", "a: -1\nb: -.5\nc: -x\n",
        "a: ---\nb: ...\n", "a: --x\n", "- --flag=x\n- --\n- ---\n- -- x\n", "--x: 1\n", "a: [--x, ---, --]\n", "a: {--k: --v}\n", "a: -\n", "a: :x\n", "a: ?x\n", "a: @x\n", "a: `x`\n", "a: %x\n",
        "a: x,y\nb: x]\nc: x[0]\nd: {x\n", "a: ünïcödé\nb: 日本\n", "ключ: значение\n", "a: x\u{85}y\n", "a: x\u{2028}y\n",
        "a: \u{feff}x\n", "a:\tb\n", "a: b\r\nc: d\r\n", "a: b \n", "a: 'x'  \n", "long: key\n",
        // Flow collections.
        "a: []\nb: {}\nc: [1, [2, 3], {d: e}]\nd: {'k': v, \"l\": [x]}\n", "a: [1, 2,]\n", "a: {<<: {b: 1}}\n", "a: {'<<': 1}\n", "'<<': 1\n", "a: [1,2]\n", "a: {b:c}\n",
        "a: {b : c}\n", "a: {b}\n", "a: {b: }\n", "a: [a: 1]\n", "a: [x #c\n]\n", "a: [1,\n 2]\n", "a: [x] y\n",
        "a: [x]#c\n", "a: [x] #@ c\n", "a: {\"b\":1}\n", "a: [ ]\n", "a: [ 1 , 2 ]\n", "a: [\"a,b\", 'c]']\n",
        // Comments.
        "#@ a\n#@ b\na: 1 #@ c\n#@ d\n", "a: [\"x\"] #@ c\n", "a: {b: 'c'} #@ d\n", "- 'x' #@ c\n- \"y\" #@ d\n",
        "\"k\": #@ c\n  b: 1\n", "a: \"x\\\"y\\\\z\\n\" #@ c\nb: 'p''q''' #@ d\n", "- \"a\": 1 #@ c\n  'b': 2\n", "a: 1\n#@ end\n", "#@ load(\"x\", \"y\")\n#@ def f():\n#@ end\n---\na: 1\n",
        "  #@ indented\na:\n    #@ deeper\n  b: 1\n", "a: 1 #@x#y\n", "a:\n  #@ c\n- 1\n",
        // Errors.
        "a: 1\nb: [1, 2\n", "a:\n\t- 1\n", "a: 'x\n", "a: \"x\n", "- a\nb: 1\n", "a: 1\n- b\n", "]\n", "a: }\n",
    ];
    for src in inputs {
        agree(src);
    }
    let long_key = format!("{}: 1\n", "k".repeat(1100));
    agree(&long_key);
    let deep = format!("{}1\n", "- ".repeat(300));
    agree(&deep);
    let deep_flow = format!("a: {}{}\n", "[".repeat(300), "]".repeat(300));
    agree(&deep_flow);
}

/// Block scalars: the block reader takes the common forms (a style and a chomping indicator,
/// content lines indented alike, empty lines between and after them) and leaves the rest to
/// saphyr-parser; every combination of header, indentation and content below must read alike.
#[test]
fn block_scalars() {
    let cert = "a:\n  cert: |\n    -----BEGIN-----\n    MIID+x/y==\n    -----END-----\n  key: k\n";
    assert!(agree(cert), "the block reader gave up on:\n{cert}");
    let headers = [
        "|", "|-", "|+", ">", ">-", ">+", "| ", "|  # c", "|2", "|-1", "|1-", "|x", ">#c", "|+-",
    ];
    let bodies = [
        "x\n",
        "x\ny\n",
        "x\n\ny\n",
        "x\n\n\n",
        "x\n  y\nz\n",
        "  x\ny\n",
        "x \ny\n",
        "x\n\n  y\n\nz\n",
        "\nx\n",
        "x\n \ny\n",
        "x\n# not a comment\n",
        "x",
        "x\n\n",
        "ü: ñ\n'q' \"r\" #@ s\n",
        "x\n---\n",
        "- x\n- y\n",
        "",
        "\"a\\'b\" [x:] !t,[1] &a *a\n",
        "...\n--- x\n%YAML\n",
        "x\n\n\ny\n\n",
    ];
    let places: [(&str, &str, &str); 6] = [
        ("k: ", "  ", "j: 1\n"),
        ("k: ", "  ", "# after\nj: 1\n"),
        ("k:\n  m: ", "    ", "  n: 2\nj: 1\n"),
        ("- ", "  ", "- 2\n"),
        ("k:\n- ", "  ", "- 2\n"),
        ("- m: ", "    ", "  n: 2\n"),
    ];
    let mut fast = 0;
    for header in headers {
        for body in bodies {
            for (before, indent, after) in places {
                for at in [indent.to_string(), format!("{indent} "), String::new()] {
                    let content: String = body
                        .split_inclusive('\n')
                        .map(|l| {
                            if l == "\n" {
                                l.to_string()
                            } else {
                                format!("{at}{l}")
                            }
                        })
                        .collect();
                    // And with its empty lines made of spaces: one fewer than the content's
                    // indentation, as many, and one more.
                    let spaced = (0..3).map(|extra| {
                        let spaces = " ".repeat((at.len() + extra).saturating_sub(1));
                        content.replace("\n\n", &format!("\n{spaces}\n"))
                    });
                    for content in std::iter::once(content.clone()).chain(spaced) {
                        for tail in [after, ""] {
                            let src = format!("{before}{header}\n{content}{tail}");
                            fast += usize::from(agree(&src));
                        }
                    }
                }
            }
        }
    }
    assert!(
        fast > 500,
        "the block reader took only {fast} block scalars"
    );
}

/// A comment after a quoted scalar on its line is a comment (ytt refuses an unknown one and
/// reads a `#@` one), in both readers; the block reader takes the one-line forms, saphyr-parser
/// (which ends a quoted scalar's span after the comment) all of them.
#[test]
fn comments_after_quoted_scalars() {
    #[rustfmt::skip]
    let inputs = [
        ("a: \"x\" # c\n", true), ("- 'x' # c\n", true), ("a: 'it''s' # c 'q'\n", true),
        ("a: \"x\\\"\" # c \"q\"\n", true), ("k: v\n\"q\": \"x\"  # c\n", true),
        ("a: &n \"x\" # c\n", false), ("a: !!str 'x' # c\n", false), ("a: \"x\n  y\" # c\n", false),
        ("a: [\"x\" # c\n  ]\n", false), ("a: {b: 'x' # c\n  }\n", false),
    ];
    for (src, fast) in inputs {
        assert_eq!(agree(src), fast, "which reader took:\n{src}");
        let line = src.lines().position(|l| l.contains('#')).unwrap() as u32 + 1;
        let unknown =
            super::parse::read_with_saphyr(src, false, super::parse::budget::Depth::files(), None)
                .unwrap()
                .unknown_comment;
        assert_eq!(unknown.map(|c| c.line), Some(line), "on:\n{src}");
        let annotated = src.replace("# c", "#@ c");
        let read = super::parse::read_with_saphyr(
            &annotated,
            false,
            super::parse::budget::Depth::files(),
            None,
        )
        .unwrap();
        assert_eq!(
            (read.comments.len(), read.unknown_comment),
            (1, None),
            "on:\n{annotated}"
        );
        assert_eq!(agree(&annotated), fast, "which reader took:\n{annotated}");
    }
}

/// The shared corpora beside the repository, if present.
fn corpus_dirs() -> Vec<PathBuf> {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared");
    ["conformance", "realworld"]
        .iter()
        .map(|d| shared.join(d))
        .filter(|d| d.is_dir())
        .collect()
}

fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            yaml_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "yml" || e == "yaml") {
            out.push(path);
        }
    }
}

/// Small edits of `src` that make unusual or broken YAML: each line dropped, indented by one
/// more or one less space, or joined with the next.
fn mutations(src: &str) -> Vec<String> {
    let lines: Vec<&str> = src.split('\n').collect();
    let mut out = Vec::new();
    for i in 0..lines.len() {
        let edit = |f: &dyn Fn(&mut Vec<String>)| {
            let mut copy: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            f(&mut copy);
            copy.join("\n")
        };
        out.push(edit(&|c| {
            c.remove(i);
        }));
        out.push(edit(&|c| c[i].insert(0, ' ')));
        if lines[i].starts_with(' ') {
            out.push(edit(&|c| {
                c[i].remove(0);
            }));
        }
        if i + 1 < lines.len() {
            out.push(edit(&|c| {
                let next = c.remove(i + 1);
                c[i].push_str(&next);
            }));
        }
    }
    out
}

#[test]
fn corpus_files_and_their_mutations() {
    let mut files = Vec::new();
    for dir in corpus_dirs() {
        yaml_files(&dir, &mut files);
    }
    if files.is_empty() {
        eprintln!("../shared is absent: the corpus comparison is skipped");
        return;
    }
    let (mut fast, mut mutated) = (0, 0);
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        if agree(text) {
            fast += 1;
        }
        // Mutating every line of big files adds time but no new cases.
        if text.len() < 20_000 {
            for variant in mutations(text) {
                mutated += usize::from(agree(&variant));
            }
        }
    }
    eprintln!(
        "block reader answered for {fast} of {} corpus files and {mutated} mutations",
        files.len()
    );
    assert!(
        fast * 10 >= files.len() * 8,
        "the block reader gave up on too many corpus files"
    );
}
