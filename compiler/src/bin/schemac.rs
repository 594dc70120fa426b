//! The `schemac` command line.
//!
//! `schemac check` takes ytt's flags and answers as ytt does (its errors included), so its
//! arguments go to the runtime's ytt-style parser untouched; clap parses the other commands
//! and describes `check` for `--help` and shell completions.

/// mimalloc rather than glibc's malloc: a run makes many small nodes and frees few, where
/// mimalloc takes about a quarter less wall time (BENCHMARKS.md); with the last large block
/// freed kept for reuse (see the module). Built with the feature `system-allocator`, it keeps
/// the system allocator instead (and so do the validators it builds), for heap profilers such
/// as massif that see only malloc's calls (BENCHMARKS.md, "Thirty-sixth session").
#[cfg(not(feature = "system-allocator"))]
#[global_allocator]
static ALLOCATOR: schemac_runtime::allocator::Allocator = schemac_runtime::allocator::Allocator;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{value_parser, Arg, ArgAction, ArgMatches, Command};
use clap_complete::Shell;
use schemac::codegen::CodegenOptions;
use schemac::standalone;
use schemac_runtime::cli::output;
use schemac_runtime::report::multi_line;

fn schema_args(cmd: Command) -> Command {
    cmd.arg(
        Arg::new("schema")
            .value_name("SCHEMA")
            .help("Schema files and the .star files they load, or a package's config/ folder")
            .action(ArgAction::Append)
            .value_hint(clap::ValueHint::FilePath),
    )
    .arg(
        Arg::new("file")
            .short('f')
            .long("file")
            .value_name("SCHEMA")
            .help("A schema file, as ytt takes it (same as a positional SCHEMA)")
            .action(ArgAction::Append)
            .value_hint(clap::ValueHint::FilePath),
    )
    .arg(
        Arg::new("allow-symlink-destination")
            .long("allow-symlink-destination")
            .value_name("PATH")
            .help("A path symlinks among the files may point into, as in ytt (can be given several times)")
            .action(ArgAction::Append)
            .value_hint(clap::ValueHint::AnyPath),
    )
    .arg(
        Arg::new("dangerous-allow-all-symlink-destinations")
            .long("dangerous-allow-all-symlink-destinations")
            .help("Read symlinks among the files wherever they point, as in ytt")
            .action(ArgAction::SetTrue),
    )
}

/// The symlinks among the schema files that may be read: ytt's flags (each use of
/// `--allow-symlink-destination` a comma-separated list, as pflag reads it).
fn symlinks(m: &ArgMatches) -> Result<schemac_runtime::inputs::Symlinks, String> {
    let mut destinations = Vec::new();
    for value in m
        .get_many::<String>("allow-symlink-destination")
        .into_iter()
        .flatten()
    {
        let paths = schemac_runtime::cli::csv_record(value, "--allow-symlink-destination")
            .map_err(|e| e.0)?;
        destinations.extend(paths);
    }
    Ok(schemac_runtime::inputs::Symlinks {
        allow_all: m.get_flag("dangerous-allow-all-symlink-destinations"),
        destinations,
    })
}

fn cli() -> Command {
    let out = |help: &'static str| {
        Arg::new("output")
            .short('o')
            .long("output")
            .value_name("FILE")
            .help(help)
    };
    Command::new("schemac")
        .about("schemac — ytt data-values schemas, checked fast")
        .version(env!("CARGO_PKG_VERSION"))
        .subcommand_required(true)
        .arg_required_else_help(true)
        .subcommand(schemac::check::command())
        .subcommand(schema_args(Command::new("gen").about("Print the Rust code generated for a schema"))
            .arg(out("Write the code to FILE (atomically) instead of stdout (`-`: stdout)").value_hint(clap::ValueHint::FilePath))
            .arg(Arg::new("name").long("name").value_name("NAME").help("The validator's name in the generated code"))
            .arg(Arg::new("validator-only").long("validator-only").action(ArgAction::SetTrue).help(
                "Only what `schemac build` compiles: the validator, without the typed structs",
            )))
        .subcommand(schema_args(Command::new("build").about("Build a standalone validator binary"))
            .arg(out("The validator binary to write").required(true).value_hint(clap::ValueHint::FilePath))
            .arg(Arg::new("with-starlark").long("with-starlark").action(ArgAction::SetTrue).help(
                "Link the Starlark interpreter even if every rule compiled to Rust (for values files that run Starlark)",
            ))
            .arg(Arg::new("target").long("target").value_name("TRIPLE").help(
                "Build for this target triple (passed to cargo; its standard library must be installed)",
            ))
            .arg(Arg::new("link").long("link").value_name("HOW").value_parser(["static", "dynamic"]).help(
                "How the validator links the C library: static (the default where glibc's libc.a is installed: one file that runs on any Linux and starts faster) or dynamic",
            ))
            .arg(Arg::new("quiet").short('q').long("quiet").action(ArgAction::SetTrue).help(
                "Print no progress lines",
            )))
        .subcommand(schema_args(Command::new("inspect").about(
            "Export the schema: JSON Schema, OpenAPI with its rules, or a reference in Markdown or HTML",
        ))
            .arg(Arg::new("output").short('o').long("output").value_name("FORMAT").required(true)
                .value_parser(clap::builder::PossibleValuesParser::new(schemac::export::Format::NAMES))
                .help("The format: json-schema (draft 2020-12, for editors), openapi-v3 (with the rules), markdown, html"))
            .arg(Arg::new("output-file").long("output-file").value_name("FILE").value_hint(clap::ValueHint::FilePath)
                .help("Write to FILE (atomically) instead of stdout (`-`: stdout)"))
            .arg(Arg::new("check").long("check").value_name("FILE").value_hint(clap::ValueHint::FilePath)
                .conflicts_with("output-file")
                .help("Write nothing; exit 1 if FILE (`-`: stdin) is not what would be written (for CI)")))
        .subcommand(schema_args(Command::new("explain-rules").about(
            "Say which rule functions compile to Rust, and why others stay in the Starlark interpreter",
        )))
        .subcommand(
            Command::new("completions")
                .about("Print a shell completion script")
                .arg(Arg::new("shell").required(true).value_parser(value_parser!(Shell))),
        )
        .subcommand(Command::new("version").hide(true))
}

/// The schema files of subcommand `name`: positional, and given with `-f` (in the order given).
fn schema_files(name: &str, m: &ArgMatches) -> Result<Vec<String>, clap::Error> {
    let mut files: Vec<(usize, String)> = Vec::new();
    for id in ["schema", "file"] {
        if let (Some(values), Some(indices)) = (m.get_many::<String>(id), m.indices_of(id)) {
            files.extend(indices.zip(values.cloned()));
        }
    }
    if files.is_empty() {
        let mut cmd = cli();
        // Built, the subcommand's usage names it `schemac gen` (it said `gen`).
        cmd.build();
        let sub = cmd
            .find_subcommand_mut(name)
            .expect("a subcommand of schemac");
        return Err(sub.error(
            clap::error::ErrorKind::MissingRequiredArgument,
            "no schema files given",
        ));
    }
    files.sort_by_key(|(i, _)| *i);
    Ok(files.into_iter().map(|(_, f)| f).collect())
}

fn fail(msg: &str) -> ExitCode {
    // A schema that called `@ytt:math` before its error: ytt warns before reporting it.
    schemac_runtime::cli::warn_if_math_used();
    output::stderr(&format!("schemac: Error: {msg}\n"));
    ExitCode::from(1)
}

/// Ends the run as clap's `Error::exit` does (help and version on stdout, exit status 0; a
/// usage error on stderr, 2), but a failed write of stdout is an error as for every other
/// output (`exit` ignores it: `schemac --help > /dev/full` exited 0 having written nothing).
fn clap_exit(e: clap::Error) -> ExitCode {
    if e.use_stderr() {
        e.exit()
    }
    ExitCode::from(output::print_then(&e.render().to_string(), e.exit_code()) as u8)
}

fn print(text: &str) -> ExitCode {
    ExitCode::from(output::print_then(text, 0) as u8)
}

fn gen(files: &[String], m: &ArgMatches) -> ExitCode {
    let name = m
        .get_one::<String>("name")
        .cloned()
        .unwrap_or_else(|| "validator".into());
    let opts = CodegenOptions {
        validator_name: name,
        typed: !m.get_flag("validator-only"),
        ..CodegenOptions::default()
    };
    standalone::remove_on_interrupt();
    if let Some(Err(e)) =
        output_file(m, "output").map(|path| standalone::not_an_input(Path::new(path), files))
    {
        return fail(&e);
    }
    let symlinks = match symlinks(m) {
        Ok(symlinks) => symlinks,
        Err(e) => return fail(&e),
    };
    match standalone::gen(files, &symlinks, &opts) {
        Ok(code) => match output_file(m, "output") {
            None => print(&code),
            Some(path) => match standalone::write_atomically(&PathBuf::from(path), code.as_bytes())
            {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => fail(&e),
            },
        },
        Err(e) => fail(&multi_line(e.message())),
    }
}

fn build(files: &[String], m: &ArgMatches) -> ExitCode {
    // `--with-starlark`: link the interpreter even when every rule compiled to Rust, so that
    // users' values files may run Starlark (their own `#@assert/validate` lambdas, functions).
    let with_starlark = m.get_flag("with-starlark");
    let quiet = m.get_flag("quiet");
    let target = m.get_one::<String>("target").cloned();
    let out = m.get_one::<String>("output").cloned().unwrap_or_default();
    if out == "-" {
        return fail("a validator binary is not written to standard output: give -o a file path");
    }
    standalone::remove_on_interrupt();
    let mut progress = |msg: &str| {
        if !quiet {
            output::stderr(&format!("schemac: {msg}\n"))
        }
    };
    let link = m.get_one::<String>("link").map(|how| match how.as_str() {
        "static" => standalone::Link::Static,
        _ => standalone::Link::Dynamic,
    });
    let opts = standalone::BuildOptions {
        with_starlark,
        target,
        link,
        symlinks: match symlinks(m) {
            Ok(symlinks) => symlinks,
            Err(e) => return fail(&e),
        },
    };
    match standalone::build(files, &PathBuf::from(&out), &opts, &mut progress) {
        Ok(_) if quiet => ExitCode::SUCCESS,
        Ok(b) => {
            output::stderr(&format!(
                "schemac: built {} ({:.1} MB{}{}) in {:.1}s\n",
                b.path.display(),
                b.size as f64 / 1e6,
                if b.starlark {
                    ", with the Starlark interpreter"
                } else {
                    ""
                },
                if b.cached { ", from the cache" } else { "" },
                b.seconds
            ));
            ExitCode::SUCCESS
        }
        Err(msg) => fail(&msg),
    }
}

fn inspect(files: &[String], m: &ArgMatches) -> ExitCode {
    let name = m.get_one::<String>("output").expect("required");
    let format = schemac::export::Format::parse(name).expect("one of the possible values");
    // `--check FILE` names the file `--output-file` would write: an input there is refused
    // too (its "out of date" message told to run a command that is refused).
    if let Some(Err(e)) = ["output-file", "check"]
        .into_iter()
        .find_map(|flag| output_file(m, flag))
        .map(|path| standalone::not_an_input(Path::new(path), files))
    {
        return fail(&e);
    }
    let schema = match symlinks(m)
        .and_then(|s| standalone::schema(files, &s).map_err(|e| multi_line(e.message())))
    {
        Ok(schema) => schema,
        Err(e) => return fail(&e),
    };
    let text = match schemac::export::render(&schema, format, files) {
        Ok(text) => text,
        Err(e) => return fail(&multi_line(e.message())),
    };
    if let Some(path) = m.get_one::<String>("check") {
        // One byte past the export is enough to know the file differs (`/dev/zero` ends).
        // A FIFO of the file system is not the export, and is not opened (nothing may write
        // to it: the run would wait for ever); a pipe (`--check <(...)`, `/dev/stdin`) is read.
        let read = |path: &str| -> std::io::Result<Vec<u8>> {
            use std::io::Read;
            let mut current = Vec::new();
            let limit = text.len() as u64 + 1;
            if path == "-" {
                std::io::stdin().take(limit).read_to_end(&mut current)?;
                return Ok(current);
            }
            if schemac_runtime::inputs::is_named_fifo(Path::new(path)) {
                return Err(std::io::Error::other("a FIFO, not a regular file"));
            }
            std::fs::File::open(path)?
                .take(limit)
                .read_to_end(&mut current)?;
            Ok(current)
        };
        return match read(path) {
            Ok(current) if current == text.as_bytes() => ExitCode::SUCCESS,
            Ok(_) if path == "-" => fail(&format!(
                "standard input is not what `schemac inspect {} -o {name}` writes",
                files.join(" ")
            )),
            Ok(_) => fail(&format!(
                "{path} is out of date: run `schemac inspect {} -o {name} --output-file {path}`",
                files.join(" ")
            )),
            Err(e) => fail(&format!("{path}: {e}")),
        };
    }
    match output_file(m, "output-file") {
        None => print(&text),
        Some(path) => match standalone::write_atomically(&PathBuf::from(path), text.as_bytes()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => fail(&e),
        },
    }
}

/// The file a flag names to write (or, for `--check`, to read), if any: `-` is standard
/// output (standard input for `--check`), as for most commands that take a file.
fn output_file<'a>(m: &'a ArgMatches, flag: &str) -> Option<&'a String> {
    m.get_one::<String>(flag).filter(|path| *path != "-")
}

fn explain_rules(files: &[String], m: &ArgMatches) -> ExitCode {
    let symlinks = match symlinks(m) {
        Ok(symlinks) => symlinks,
        Err(e) => return fail(&e),
    };
    match standalone::compile(files, &symlinks) {
        Ok(compiled) => print(&format!(
            "{}\n",
            schemac::codegen::lowering(&compiled).explain()
        )),
        Err(e) => fail(&multi_line(e.message())),
    }
}

fn main() -> ExitCode {
    // Deep documents recurse through every stage: the program runs on a large stack.
    schemac_runtime::cli::with_large_stack(ExitCode::from(101), run_main)
}

fn run_main() -> ExitCode {
    // Budget variables are read lazily, deep in each subcommand: a bad value stops the run
    // here, before any work.
    if let Some(status) = schemac_runtime::budget_vars::check_env_for_main() {
        return ExitCode::from(status as u8);
    }
    let args: Vec<OsString> = std::env::args_os().collect();
    if args.get(1).is_some_and(|a| a == "check") {
        let cache = standalone::lowered_cache::LoweredCache::from_env();
        let store = cache
            .as_ref()
            .map(|c| c as &dyn schemac_runtime::engine::SchemaStore);
        return ExitCode::from(schemac::check::main_with(&args[2..], store) as u8);
    }
    let m = match cli().try_get_matches_from(&args) {
        Ok(m) => m,
        Err(e) => return clap_exit(e),
    };
    let (name, sub) = m.subcommand().expect("a subcommand is required");
    let files = match name {
        "gen" | "build" | "explain-rules" | "inspect" => match schema_files(name, sub) {
            Ok(files) => files,
            Err(e) => return clap_exit(e),
        },
        _ => Vec::new(),
    };
    match name {
        "gen" => gen(&files, sub),
        "build" => build(&files, sub),
        "explain-rules" => explain_rules(&files, sub),
        "inspect" => inspect(&files, sub),
        "completions" => {
            let shell = *sub.get_one::<Shell>("shell").expect("required");
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut cli(), "schemac", &mut script);
            print(&String::from_utf8_lossy(&script))
        }
        _ => print(&format!("schemac {}\n", env!("CARGO_PKG_VERSION"))),
    }
}
