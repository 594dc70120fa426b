"""Built validators and typed APIs of many schemas, in one crate per batch.

Shared by `.ci/differential` (corpus cases through built validators), `.ci/typed-realworld`
(realworld schemas through `include_schema!`) and `tests/ytt-diff/backends.py` (generated cases
through both). A batch collects one Rust module per schema -- `schemac gen`'s output, or an
`include_schema!` call -- and builds them with one `cargo build` per crate (two crates: schemas
whose rules need the Starlark interpreter, and the others, so that each validator links what
`schemac build` would link), in the shared target directory where the runtime is already
compiled.

The binary of a crate serves both back ends of every module in it; `SCHEMAC_CASE=I` picks the
module:
* without `SCHEMAC_TYPED`, it is module I's built validator (`VALIDATOR.run()`), given the
  process's arguments as a validator built by `schemac build` is;
* with `SCHEMAC_TYPED=LOAD,FORMAT` (LOAD `load` or `plain`, FORMAT `yaml` or `json`), it is
  module I's typed API: `DataValues::load(ARGS)` (or `load_plain(ARGS)`) converts the data
  values into the generated structs; on success it prints `to_yaml()`/`to_json()` and exits 0
  (exit 3 when the loaded values fail `validate()` again, or when loading no files does not
  give `DataValues::default()`, by `==` or, for a NaN, by the text `to_yaml()` writes), else prints the error's `Display` on stdout and exits 1.
"""
import json
import os
import re
import shutil
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The crates vendor/ holds in place of crates.io's (one folder each; vendor/README.md).
VENDORED_CRATES = sorted(d for d in os.listdir(os.path.join(ROOT, "vendor"))
                         if os.path.isfile(os.path.join(ROOT, "vendor", d, "Cargo.toml")))
# Those only the Starlark interpreter (and include_schema!'s rule reader) use: a crate without
# them patches only the others (compiler/src/standalone/vendored_crates.rs's STARLARK_CRATES).
STARLARK_CRATES = ("starlark_syntax", "starlark_derive")
# What a validator without Starlark says of template code it cannot run
# (runtime/src/template/literal.rs, literal/arguments.rs).
NO_STARLARK = (b"this validator was built without the Starlark interpreter", b"which this validator was built without",
               b"needs the Starlark interpreter")


def target_dir():
    """The cargo target directory of the workspace (where the runtime is compiled already)."""
    return os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target")


def schemac_binary():
    return os.path.join(target_dir(), "release", "schemac")


def run(cmd, cwd, env=None, timeout=60, stdin=None):
    """(exit status, stdout, stderr) of a command run with the file `stdin` (a path) as its
    standard input, or an empty one."""
    with open(stdin, "rb") if stdin else open(os.devnull, "rb") as f:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, stdin=f, env=env, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


# --- which arguments name the schema -----------------------------------------------------------

def holds_schema(path):
    """Whether a path is a schema file or a folder that holds one."""
    if os.path.isdir(path):
        return any(is_schema_file(os.path.join(d, f)) for d, _, files in os.walk(path) for f in files)
    return is_schema_file(path)


LIBRARY = (".star", ".lib.yml", ".lib.yaml")


def is_schema_file(path):
    """A `data/values-schema` file, or a library file (`.star`, `.lib.yml`) that such a file of
    its folder loads."""
    if not os.path.isfile(path):
        return False
    if not path.endswith(LIBRARY):
        with open(path, errors="replace") as f:
            return "data/values-schema" in f.read()
    folder, name = os.path.split(path)
    for f in os.listdir(folder):
        if f.endswith((".yml", ".yaml")) and not f.endswith(LIBRARY) and os.path.isfile(os.path.join(folder, f)):
            text = open(os.path.join(folder, f), errors="replace").read()
            if "data/values-schema" in text and (f'load("{name}"' in text or f"load('{name}'" in text):
                return True
    return False


# Why split_args gives no split.
DIRECTORY_MIX = "a -f directory holding a schema file comes after another file"
SHARED_FILE = "a schema file also holds #@data/values"
OTHER_FORM = "a schema file given as -fPATH, --file=PATH, NAME=PATH or standard input"


def file_flag(args, i):
    """(the file named by the file flag args[i], whether the flag holds it), or (None, False)."""
    a = args[i]
    if a in ("-f", "--file") and i + 1 < len(args):
        return args[i + 1], False
    if a.startswith("--file="):
        return a[len("--file="):], True
    if a.startswith("-f") and len(a) > 2:
        return a[2:].removeprefix("="), True
    return None, False


def split_args(case_dir, args):
    """(schema files, remaining args) of a command line, or the reason why there is no split
    (a string: the schema shares a file or folder with data values)."""
    schema, rest = [], []
    i = 0
    while i < len(args):
        # a file flag with its value in the same argument, a named file (`-f NAME=PATH`) or
        # standard input (`-f -`, a case's `stdin` file): a schema there is not split off
        value, joined = file_flag(args, i)
        if value is not None and (joined or "=" in value or value == "-"):
            path = os.path.join(case_dir, "stdin" if value == "-" else value.split("=", 1)[-1])
            if holds_schema(path):
                return OTHER_FORM
        if args[i] in ("-f", "--file") and i + 1 < len(args):
            path = os.path.join(case_dir, args[i + 1])
            if os.path.isdir(path):
                if holds_schema(path):
                    # A validator built from a folder reads the folder's data values files
                    # before the run's: the same order only if no file came before it.
                    if any(file_flag(rest, j)[0] is not None for j in range(len(rest))):
                        return DIRECTORY_MIX
                    schema.append(args[i + 1])
                else:
                    rest += args[i:i + 2]
            elif is_schema_file(path):
                if not path.endswith(LIBRARY):
                    with open(path, errors="replace") as f:
                        # (`#@data/values` alone or with arguments, not `data/values-schema`.)
                        if re.search(r"#@data/values(?![-\w/])", f.read()):
                            return SHARED_FILE
                schema.append(args[i + 1])
            else:
                rest += args[i:i + 2]
            i += 2
            continue
        rest.append(args[i])
        i += 1
    return schema, rest


SYMLINK_FLAGS = ("--allow-symlink-destination", "--dangerous-allow-all-symlink-destinations")


def gen_flags(rest):
    """The flags of a run's remaining args that `schemac gen` takes too: which symlinks among
    the schema files may be read (as `--flag=value`; a boolean's `=false` left out)."""
    out = []
    i = 0
    while i < len(rest):
        name, eq, value = rest[i].partition("=")
        if name == SYMLINK_FLAGS[0]:
            if not eq and i + 1 < len(rest):
                i += 1
                value = rest[i]
            out.append(name + "=" + value)
        elif name == SYMLINK_FLAGS[1] and value in ("", "true"):
            out.append(name)
        i += 1
    return out


# --- the typed API's share of a command line ------------------------------------------------

OUTPUT_FLAGS = {("-o", "json"): "json", ("--output", "json"): "json", ("-o", "yaml"): "yaml",
                ("--output", "yaml"): "yaml"}


def typed_call(rest):
    """(files, plain, json) for the typed API, or the reason it cannot take these arguments."""
    files, plain_files, fmt = [], [], "yaml"
    i = 0
    while i < len(rest):
        a = rest[i]
        pair = tuple(rest[i:i + 2])
        if a in ("-f", "--file") and i + 1 < len(rest):
            files.append(rest[i + 1])
        elif a == "--data-values-file" and i + 1 < len(rest):
            plain_files.append(rest[i + 1])
        elif pair in OUTPUT_FLAGS:
            fmt = OUTPUT_FLAGS[pair]
        elif a == "--data-values-inspect":
            i += 1
            continue
        else:
            return "typed: the API takes no %s" % a.split("=")[0]
        i += 2
    if files and plain_files:
        return "typed: -f and --data-values-file together (load or load_plain, not both)"
    return (plain_files or files), bool(plain_files), fmt == "json"


def typed_expected(check):
    """What the typed API must print and its exit status, from `schemac check`'s answer."""
    rc, out, err = check
    if rc == 0:
        return 0, out
    text = err.decode("utf-8", "replace")
    # warnings (e.g. for @ytt:math) come before the error; the typed API has no channel for them
    at = text.find("schemac: Error: ")
    return 1, (text[at:] if at >= 0 else text).removeprefix("schemac: Error: ").rstrip().encode()


# --- the crates ---------------------------------------------------------------------------------

class Batch:
    """Modules collected for one build; `build()` makes a binary per Starlark-ness.

    A module that does not compile does not stop the others: `build()` leaves it out (or, when
    it was added with a fallback, puts the fallback in its place) and builds again; `broken`
    says which modules that happened to and why."""

    def __init__(self, name, work, macros=False):
        self.name = name          # crate name prefix
        self.work = work          # where the crates are written
        self.macros = macros      # whether modules call include_schema! (needs schemac-macros)
        self.modules = {False: [], True: []}   # [code, has the typed API, fallback] per Starlark-ness
        self.binaries = {}
        self.slots = {}           # handle -> the module's index in its crate's binary
        self.broken = {}          # handle -> (what: 'typed' or 'module', the compiler's errors)

    def add(self, code, starlark, typed=True, fallback=None):
        """Adds a module's Rust code (`typed`: it has `DataValues::load`); returns its handle
        (starlark, index). `fallback`: code without the typed API to use if `code` does not
        compile."""
        self.modules[starlark].append([code, typed, fallback])
        return starlark, len(self.modules[starlark]) - 1

    def has_typed(self, handle):
        """Whether a module has the typed API (a schema whose root is not a map has none)."""
        starlark, i = handle
        return self.modules[starlark][i][1]

    def add_generated(self, schema_files, cwd, fallback=False, flags=()):
        """Adds `schemac gen` of the schema files (named as given, relative to cwd): (the handle,
        None), or (None, (exit status, stdout, stderr)) when schemac rejects the schema.
        `fallback`: if the module does not compile, use `schemac gen --validator-only` (the
        code `schemac build` compiles) instead, and record its typed API as broken. `flags`:
        gen's flags of the run (`gen_flags`)."""
        schema_files = list(flags) + schema_files
        rc, out, err = run([schemac_binary(), "gen", "--name", "validator"] + schema_files, cwd)
        if rc != 0:
            return None, (rc, out, err)
        code = out.decode()
        alone = None
        if fallback:
            alone = run([schemac_binary(), "gen", "--validator-only", "--name", "validator"] + schema_files, cwd)[1].decode()
        return self.add(code, "__schemac_requires_starlark!" in code, "pub fn load_plain<" in code, alone), None

    def counts(self):
        return len(self.modules[False]), len(self.modules[True])

    def build(self, only=None):
        """Builds the crates (`only`: the one with or without Starlark); returns None, or the
        name of a crate that failed to build for another reason than a module's errors."""
        env = dict(os.environ, CARGO_TARGET_DIR=target_dir())
        for starlark, mods in self.modules.items():
            if not mods or only not in (None, starlark):
                continue
            name = self.name + ("-starlark" if starlark else "")
            crate = os.path.join(self.work, name)
            excluded = set()
            while True:
                included = [i for i in range(len(mods)) if i not in excluded]
                write_crate(crate, [mods[i] for i in included], starlark, self.macros)
                errors = cargo_errors(crate, env)
                if errors is None:
                    break
                if not errors or any(k is None or k >= len(included) for k in errors):
                    for text in errors.get(None, []):
                        print(text, end="")
                    return name
                for k, texts in errors.items():
                    i = included[k]
                    if mods[i][2] is not None:       # the typed API does not compile
                        mods[i][0], mods[i][1], mods[i][2] = mods[i][2], False, None
                        self.broken[(starlark, i)] = ("typed", "".join(texts))
                    else:
                        excluded.add(i)
                        self.broken[(starlark, i)] = ("module", self.broken.get((starlark, i), ("", ""))[1] + "".join(texts))
            self.slots.update({(starlark, i): k for k, i in enumerate(included)})
            self.binaries[starlark] = os.path.join(target_dir(), "release", name)
        return None

    def built(self, handle):
        """Whether a module is in its crate's binary (it compiled, or its fallback did)."""
        return handle in self.slots

    def validator(self, handle, args, cwd, env=None, timeout=60, stdin=None):
        """Runs a module's built validator with args: (exit status, stdout, stderr)."""
        e = dict(env or os.environ, SCHEMAC_CASE=str(self.slots[handle]))
        e.pop("SCHEMAC_TYPED", None)
        return run([self.binaries[handle[0]]] + args, cwd, env=e, timeout=timeout, stdin=stdin)

    def typed(self, handle, files, cwd, plain=False, json=False, env=None, timeout=60, stdin=None):
        """Loads files through a module's typed API: (exit status, stdout, stderr)."""
        e = dict(env or os.environ, SCHEMAC_CASE=str(self.slots[handle]),
                 SCHEMAC_TYPED=("plain" if plain else "load") + (",json" if json else ",yaml"))
        return run([self.binaries[handle[0]]] + files, cwd, env=e, timeout=timeout, stdin=stdin)


def cargo_errors(crate, env):
    """Builds a crate: None when it builds, else its errors (rendered) by the index of the
    module they are in (`src/case_I.rs`), None for errors outside the modules."""
    p = subprocess.run(["cargo", "build", "--release", "--offline", "--quiet", "--message-format=json"],
                       cwd=crate, env=env, capture_output=True, text=True)
    if p.returncode == 0:
        return None
    errors = {}
    for line in p.stdout.splitlines():
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        m = msg.get("message") if msg.get("reason") == "compiler-message" else None
        if not m or m.get("level") not in ("error", "error: internal compiler error"):
            continue
        files = {s["file_name"] for s in m.get("spans", [])}
        # a span in a macro's expansion names the file the macro was called in, as its parent
        for s in m.get("spans", []):
            while s.get("expansion"):
                s = s["expansion"]["span"]
                files.add(s["file_name"])
        cases = sorted({int(f[len("src/case_"):-len(".rs")]) for f in files if f.startswith("src/case_")})
        for k in cases[:1] or [None]:
            errors.setdefault(k, []).append(m.get("rendered") or m.get("message", ""))
    if not errors:
        errors[None] = [p.stderr]
    return errors


MAIN = """
#[allow(dead_code)] // when no module has the typed API
#[allow(clippy::too_many_arguments)]
fn typed<T: PartialEq + Default + std::fmt::Debug>(
    files: &[String],
    plain: bool,
    json: bool,
    package_values: bool,
    load: fn(&[String]) -> Result<T, schemac_runtime::typed::Violations>,
    load_plain: fn(&[String]) -> Result<T, schemac_runtime::typed::Violations>,
    validate: fn(&T) -> Result<(), schemac_runtime::typed::Violations>,
    show: fn(&T) -> String,
    show_json: fn(&T) -> String,
) -> i32 {
    match if plain { load_plain(files) } else { load(files) } {
        Ok(v) => {
            // A NaN is unequal to itself by Rust's `==`: values written alike are the same.
            // (`Default` is the schema's defaults: a package's data values files built in
            // overlay them on every load.)
            if files.is_empty() && !package_values && v != T::default() && show(&v) != show(&T::default()) {
                println!("loading no files gave other values than Default::default():\\n{v:?}\\n{:?}", T::default());
                return 3;
            }
            if let Err(e) = validate(&v) {
                println!("the loaded values fail validate():\\n{e}");
                return 3;
            }
            print!("{}", if json { show_json(&v) } else { show(&v) });
            0
        }
        Err(e) => {
            print!("{e}");
            1
        }
    }
}

#[allow(dead_code)] // when every module has the typed API
fn no_typed_api() -> i32 {
    eprintln!("this schema's root is not a map: it has no typed API");
    2
}

fn main() {
    let case: usize = match std::env::var("SCHEMAC_CASE").ok().and_then(|c| c.parse().ok()) {
        Some(c) if c < VALIDATORS.len() => c,
        _ => {
            eprintln!("SCHEMAC_CASE must name a module (0..{})", VALIDATORS.len());
            std::process::exit(2)
        }
    };
    let Ok(mode) = std::env::var("SCHEMAC_TYPED") else {
        std::process::exit(VALIDATORS[case].run())
    };
    let files: Vec<String> = std::env::args().skip(1).collect();
    let (plain, json) = (mode.starts_with("plain"), mode.ends_with("json"));
    std::process::exit(TYPED[case](&files, plain, json))
}
"""


def write_crate(path, modules, starlark, macros):
    """A crate whose binary holds every module (see the module documentation)."""
    src = os.path.join(path, "src")
    os.makedirs(src, exist_ok=True)
    features = '["starlark"]' if starlark else "[]"
    deps = f'schemac-runtime = {{ path = "{ROOT}/runtime", default-features = false, features = {features} }}\n'
    if macros:
        deps += f'schemac-macros = {{ path = "{ROOT}/macros" }}\n'
    # The vendored crates are the workspace's (vendor/README.md): the Starlark parser (the
    # interpreter's, and the one include_schema! reads rules with) where it is linked.
    patch = (
        '[patch.crates-io]\n'
        + ''.join(f'{c} = {{ path = "{ROOT}/vendor/{c}" }}\n' for c in VENDORED_CRATES
                  if starlark or macros or c not in STARLARK_CRATES)
        + '\n'
    )
    with open(os.path.join(path, "Cargo.toml"), "w") as f:
        f.write(f'[package]\nname = "{os.path.basename(path)}"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n\n'
                f'[dependencies]\n{deps}\n{patch}[workspace]\n\n'
                # The crate's own code unoptimised (its dependencies, the runtime, stay at the
                # release profile): the generated code behaves the same (overflow checks and debug
                # assertions are off either way) and a batch builds about 4x faster.
                f'[profile.release.package.{os.path.basename(path)}]\nopt-level = 0\n')
    shutil.copy(os.path.join(ROOT, "Cargo.lock"), os.path.join(path, "Cargo.lock"))
    for old in os.listdir(src):
        if old.startswith("case_"):
            os.remove(os.path.join(src, old))
    with open(os.path.join(src, "main.rs"), "w") as f:
        f.write("#![deny(warnings)]\n//! Many schemas' validators and typed APIs in one binary: SCHEMAC_CASE picks one.\n\n")
        for i, (code, _, _) in enumerate(modules):
            # each module in its own file, so that the compiler's errors name the module
            with open(os.path.join(src, f"case_{i}.rs"), "w") as m:
                m.write(code + "\n")
            f.write(f"#[allow(clippy::all)]\npub mod case_{i};\n")
        f.write("\nstatic VALIDATORS: &[&schemac_runtime::validator::Validator] = &[\n")
        f.write("".join(f"    &case_{i}::VALIDATOR,\n" for i in range(len(modules))))
        f.write("];\n\ntype Typed = fn(&[String], bool, bool) -> i32;\n\nstatic TYPED: &[Typed] = &[\n")
        for i, (_, has_typed, _) in enumerate(modules):
            t = f"case_{i}::DataValues"
            if has_typed:
                f.write(f"    |files, plain, json| typed(files, plain, json, !case_{i}::VALIDATOR.values_files.is_empty(), {t}::load, {t}::load_plain, {t}::validate, {t}::to_yaml, {t}::to_json),\n")
            else:
                f.write("    |_, _, _| no_typed_api(),\n")
        f.write("];\n")
        f.write(MAIN)
