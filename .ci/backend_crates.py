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
  give `DataValues::default()`), else prints the error's `Display` on stdout and exits 1.
"""
import os
import shutil
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def target_dir():
    """The cargo target directory of the workspace (where the runtime is compiled already)."""
    return os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target")


def schemac_binary():
    return os.path.join(target_dir(), "release", "schemac")


def run(cmd, cwd, env=None, timeout=60):
    """(exit status, stdout, stderr) of a command run with empty stdin."""
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, stdin=subprocess.DEVNULL, env=env, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


# --- which arguments name the schema -----------------------------------------------------------

def is_schema_file(path):
    """A `data/values-schema` file, or a `.star` file that such a file of its folder loads."""
    if path.endswith(".star"):
        folder, name = os.path.split(path)
        return any(
            f.endswith((".yml", ".yaml")) and is_schema_file(os.path.join(folder, f))
            and f'load("{name}"' in open(os.path.join(folder, f), errors="replace").read()
            for f in os.listdir(folder)
        )
    if not os.path.isfile(path):
        return False
    with open(path, errors="replace") as f:
        return "data/values-schema" in f.read()


# Why split_args gives no split.
DIRECTORY_MIX = "a -f directory holds a schema file"
SHARED_FILE = "a schema file also holds #@data/values"


def split_args(case_dir, args):
    """(schema files, remaining args) of a command line, or the reason why there is no split
    (a string: the schema shares a file or folder with data values)."""
    schema, rest = [], []
    i = 0
    while i < len(args):
        if args[i] in ("-f", "--file") and i + 1 < len(args):
            path = os.path.join(case_dir, args[i + 1])
            if os.path.isdir(path):
                for dirpath, _, files in os.walk(path):
                    if any(is_schema_file(os.path.join(dirpath, f)) for f in files):
                        return DIRECTORY_MIX
                rest += args[i:i + 2]
            elif is_schema_file(path):
                if not path.endswith(".star"):
                    with open(path, errors="replace") as f:
                        if "#@data/values\n" in f.read():
                            return SHARED_FILE
                schema.append(args[i + 1])
            else:
                rest += args[i:i + 2]
            i += 2
            continue
        rest.append(args[i])
        i += 1
    return schema, rest


# --- the crates ---------------------------------------------------------------------------------

class Batch:
    """Modules collected for one build; `build()` makes a binary per Starlark-ness."""

    def __init__(self, name, work, macros=False):
        self.name = name          # crate name prefix
        self.work = work          # where the crates are written
        self.macros = macros      # whether modules call include_schema! (needs schemac-macros)
        self.modules = {False: [], True: []}   # (code, has the typed API) per Starlark-ness
        self.binaries = {}

    def add(self, code, starlark, typed=True):
        """Adds a module's Rust code (`typed`: it has `DataValues::load`); returns its handle
        (starlark, index)."""
        self.modules[starlark].append((code, typed))
        return starlark, len(self.modules[starlark]) - 1

    def has_typed(self, handle):
        """Whether a module has the typed API (a schema whose root is not a map has none)."""
        starlark, i = handle
        return self.modules[starlark][i][1]

    def add_generated(self, schema_files, cwd):
        """Adds `schemac gen` of the schema files (named as given, relative to cwd): (the handle,
        None), or (None, (exit status, stdout, stderr)) when schemac rejects the schema."""
        rc, out, err = run([schemac_binary(), "gen", "--name", "validator"] + schema_files, cwd)
        if rc != 0:
            return None, (rc, out, err)
        code = out.decode()
        return self.add(code, "needs_starlark: true" in code, "pub fn load_plain<" in code), None

    def counts(self):
        return len(self.modules[False]), len(self.modules[True])

    def build(self):
        """Builds the crates; returns None, or the name of a crate that failed to build."""
        env = dict(os.environ, CARGO_TARGET_DIR=target_dir())
        for starlark, mods in self.modules.items():
            if not mods:
                continue
            name = self.name + ("-starlark" if starlark else "")
            crate = os.path.join(self.work, name)
            write_crate(crate, mods, starlark, self.macros)
            p = subprocess.run(["cargo", "build", "--release", "--offline", "--quiet"], cwd=crate, env=env)
            if p.returncode != 0:
                return name
            self.binaries[starlark] = os.path.join(target_dir(), "release", name)
        return None

    def validator(self, handle, args, cwd, env=None, timeout=60):
        """Runs a module's built validator with args: (exit status, stdout, stderr)."""
        starlark, i = handle
        e = dict(env or os.environ, SCHEMAC_CASE=str(i))
        e.pop("SCHEMAC_TYPED", None)
        return run([self.binaries[starlark]] + args, cwd, env=e, timeout=timeout)

    def typed(self, handle, files, cwd, plain=False, json=False, env=None, timeout=60):
        """Loads files through a module's typed API: (exit status, stdout, stderr)."""
        starlark, i = handle
        e = dict(env or os.environ, SCHEMAC_CASE=str(i),
                 SCHEMAC_TYPED=("plain" if plain else "load") + (",json" if json else ",yaml"))
        return run([self.binaries[starlark]] + files, cwd, env=e, timeout=timeout)


MAIN = """
#[allow(dead_code)] // when no module has the typed API
#[allow(clippy::too_many_arguments)]
fn typed<T: PartialEq + Default + std::fmt::Debug>(
    files: &[String],
    plain: bool,
    json: bool,
    load: fn(&[String]) -> Result<T, schemac_runtime::typed::Violations>,
    load_plain: fn(&[String]) -> Result<T, schemac_runtime::typed::Violations>,
    validate: fn(&T) -> Result<(), schemac_runtime::typed::Violations>,
    show: fn(&T) -> String,
    show_json: fn(&T) -> String,
) -> i32 {
    match if plain { load_plain(files) } else { load(files) } {
        Ok(v) => {
            if files.is_empty() && v != T::default() {
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
    with open(os.path.join(path, "Cargo.toml"), "w") as f:
        f.write(f'[package]\nname = "{os.path.basename(path)}"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n\n'
                f'[dependencies]\n{deps}\n[workspace]\n\n'
                # The crate's own code unoptimised (its dependencies, the runtime, stay at the
                # release profile): the generated code behaves the same (overflow checks and debug
                # assertions are off either way) and a batch builds about 4x faster.
                f'[profile.release.package.{os.path.basename(path)}]\nopt-level = 0\n')
    shutil.copy(os.path.join(ROOT, "Cargo.lock"), os.path.join(path, "Cargo.lock"))
    with open(os.path.join(src, "main.rs"), "w") as f:
        f.write("#![deny(warnings)]\n//! Many schemas' validators and typed APIs in one binary: SCHEMAC_CASE picks one.\n\n")
        for i, (code, _) in enumerate(modules):
            f.write(f"#[allow(clippy::all)]\npub mod case_{i} {{\n{code}\n}}\n")
        f.write("\nstatic VALIDATORS: &[&schemac_runtime::validator::Validator] = &[\n")
        f.write("".join(f"    &case_{i}::VALIDATOR,\n" for i in range(len(modules))))
        f.write("];\n\ntype Typed = fn(&[String], bool, bool) -> i32;\n\nstatic TYPED: &[Typed] = &[\n")
        for i, (_, has_typed) in enumerate(modules):
            t = f"case_{i}::DataValues"
            if has_typed:
                f.write(f"    |files, plain, json| typed(files, plain, json, {t}::load, {t}::load_plain, {t}::validate, {t}::to_yaml, {t}::to_json),\n")
            else:
                f.write("    |_, _, _| no_typed_api(),\n")
        f.write("];\n")
        f.write(MAIN)
