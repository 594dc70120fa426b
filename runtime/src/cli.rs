//! The command line of `schemac check` and of built validators: ytt's flags for data values,
//! the documents the flags contribute, and the process's output and exit status.

use std::ffi::OsString;

use crate::engine::{evaluate_keeping, render, Backend, Outcome};
use crate::report::multi_line;
pub use crate::request::{DataValues, Request, SchemaType};
use crate::validate;

mod flags;
pub mod output;

pub use clap::Command;
#[cfg(feature = "starlark")]
pub(crate) use flags::go_quote;
pub use flags::{command, csv_record, FlagError, Kind, Support, FLAGS};

/// What the command line asked for.
#[derive(Debug, Default, Clone)]
pub struct Options {
    /// The run, for the engine.
    pub request: Request,
    /// `--violations-format json`: validation violations as JSON on stdout.
    pub violations_json: bool,
}

/// What the arguments ask a process to do.
#[derive(Debug)]
pub enum Invocation {
    Run(Box<Options>),
    Help,
    Version,
}

/// Why arguments are unusable.
#[derive(Debug, PartialEq, Eq)]
pub enum ArgError {
    /// As ytt reports it (`unknown flag: --bogus`): the text after `Error: `, exit status 1.
    Ytt(String),
    /// A value only schemac takes, misspelled: exit status 2, with the usage.
    Usage(String),
}

/// Parses ytt-style arguments (`-f x`, `--data-value=k=v`, ...); `--help` and `--version`
/// are [`Options`] with nothing asked (see [`parse_os`]).
pub fn parse(args: &[String]) -> Result<Options, String> {
    let args: Vec<OsString> = args.iter().map(OsString::from).collect();
    match parse_os(&args) {
        Ok(Invocation::Run(o)) => Ok(*o),
        Ok(_) => Ok(Options::default()),
        Err(ArgError::Ytt(m) | ArgError::Usage(m)) => Err(m),
    }
}

/// Parses the arguments as ytt does (pflag's forms and messages): the flags ytt takes, the
/// errors it reports, then the flags schemac accepts and ignores or refuses.
pub fn parse_os(args: &[OsString]) -> Result<Invocation, ArgError> {
    let parsed = flags::parse(args).map_err(|FlagError(m)| ArgError::Ytt(m))?;
    if parsed.help {
        return Ok(Invocation::Help);
    }
    let mut r = Request::default();
    let mut violations_json = false;
    // ytt applies the data values flags by kind, in this order, whatever their order here:
    // files, env, env-yaml, data-value, data-value-yaml, data-value-file.
    let mut data_values: [Vec<DataValues>; 6] = Default::default();
    let mut version = false;
    let mut refused = None;
    // `--data-values-inspect=false` (the last use wins) makes ytt render the templates.
    let mut inspect_off = false;
    for (flag, value) in parsed.flags {
        let on = value == "true";
        match flag.long {
            "file" => r.files.push(value),
            "data-values-inspect" => inspect_off = !on,
            "data-values-schema-inspect" => r.schema_inspect = on,
            "output" => r.output.extend(
                flags::csv_record(&value, &flags::names_of("output"))
                    .map_err(|FlagError(m)| ArgError::Ytt(m))?,
            ),
            "data-values-file" => data_values[0].push(DataValues::Files(value)),
            "data-values-env" => data_values[1].push(DataValues::Env {
                prefix: value,
                yaml: false,
            }),
            "data-values-env-yaml" => data_values[2].push(DataValues::Env {
                prefix: value,
                yaml: true,
            }),
            "data-value" => data_values[3].push(DataValues::KeyValue {
                assignment: value,
                yaml: false,
            }),
            "data-value-yaml" => data_values[4].push(DataValues::KeyValue {
                assignment: value,
                yaml: true,
            }),
            "data-value-file" => data_values[5].push(DataValues::KeyFile(value)),
            "strict" => r.strict = on,
            "ignore-unknown-comments" => r.ignore_unknown_comments = on,
            "implicit-map-key-overrides" => r.implicit_map_key_overrides = on,
            "dangerous-data-values-disable-validation" => r.validate = !on,
            "allow-symlink-destination" => r.symlinks.destinations.extend(
                flags::csv_record(&value, &flags::names_of("allow-symlink-destination"))
                    .map_err(|FlagError(m)| ArgError::Ytt(m))?,
            ),
            "dangerous-allow-all-symlink-destinations" => r.symlinks.allow_all = on,
            "violations-format" => match value.as_str() {
                "json" | "text" => violations_json = value == "json",
                other => {
                    return Err(ArgError::Usage(format!(
                        "unknown violations format '{other}' (expected json or text)"
                    )))
                }
            },
            "version" => version = on,
            _ => {
                if flag.kind == Kind::List {
                    // pflag reads every use as CSV, and says when it cannot.
                    flags::csv_record(&value, &flags::names_of(flag.long))
                        .map_err(|FlagError(m)| ArgError::Ytt(m))?;
                }
                match flag.support {
                    Support::Refused(why) if value != "false" => {
                        refused = refused.or(Some((flag.long, why)))
                    }
                    _ => {}
                }
            }
        }
    }
    if version {
        return Ok(Invocation::Version);
    }
    // ytt's deprecated `template` command (aliases `tpl`, `t`) takes the same flags: cobra
    // finds it as the first argument that is no flag, wherever it is before a `--`.
    let (command, extra) = match parsed.extra.split_first() {
        Some((first, rest))
            if parsed.extra_before_dashes > 0
                && ["template", "tpl", "t"].iter().any(|c| first == *c) =>
        {
            ("ytt template", rest)
        }
        _ => ("ytt", &parsed.extra[..]),
    };
    if let Some(extra) = extra.first() {
        return Err(ArgError::Ytt(format!(
            "command '{command}' does not accept extra arguments '{}'",
            extra.to_string_lossy()
        )));
    }
    if inspect_off && !r.schema_inspect {
        refused = refused.or(Some((
            "data-values-inspect=false",
            "ytt then renders the templates; schemac prints data values only",
        )));
    }
    if let Some((long, why)) = refused {
        return Err(ArgError::Ytt(format!(
            "flag --{long} is not supported by schemac ({why})"
        )));
    }
    r.data_values = data_values.into_iter().flatten().collect();
    Ok(Invocation::Run(Box::new(Options {
        request: r,
        violations_json,
    })))
}

/// Set when a `@ytt:math` function is called: ytt then warns on stderr, once per run.
pub static MATH_USED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Runs `f` as if no `@ytt:math` function had been called yet: its result, and whether it
/// called one. [`MATH_USED`] is left as it was before (the caller decides whether the calls
/// count for the run: a built validator's start-up evaluation of its schema does not).
pub fn calls_math<R>(f: impl FnOnce() -> R) -> (R, bool) {
    use std::sync::atomic::Ordering::Relaxed;
    let before = MATH_USED.swap(false, Relaxed);
    let result = f();
    (result, MATH_USED.swap(before, Relaxed))
}

/// ytt's warning after a run that called a `@ytt:math` function (an empty line first).
pub fn warn_if_math_used() {
    if MATH_USED.load(std::sync::atomic::Ordering::Relaxed) {
        output::stderr(
            "\nWarning: a function from the @ytt:math module is used in this invocation; this module does not guarantee bit-identical results across CPU architectures.\n",
        );
    }
}

/// The program behind the arguments: for `--help` and `--version`.
pub struct Program<'a> {
    /// Makes the flags described (by [`command`]), with the program's name and about text:
    /// made only for `--help` and usage errors (building it costs more than a small run's
    /// check of its values).
    pub command: &'a dyn Fn() -> clap::Command,
    /// What `--version` prints (one line).
    pub version: &'a str,
}

/// The help text of a program taking ytt's flags.
pub fn help(command: &clap::Command) -> String {
    let mut cmd = command.clone().after_help(
        "Flags of ytt that cannot change the data values are accepted and ignored; those that would\n\
         change the data values or the output are errors naming the flag. Errors read as ytt's, with\n\
         exit status 1.",
    );
    cmd.render_help().to_string()
}

/// The stack a process runs its pipeline on: deep documents (up to the reader's depth budget)
/// recurse through every stage, deeper than a main thread's 8 MiB allows.
pub const STACK_BYTES: usize = 512 << 20;

/// Runs `f` on a thread with a [`STACK_BYTES`] stack and returns what it returns, or `failed`
/// if the thread cannot be made or panics. For a program's `main` (`schemac`, a built
/// validator): it first turns off the backtraces of errors ([`no_error_backtraces`]).
pub fn with_large_stack<T: Send + 'static>(failed: T, f: impl FnOnce() -> T + Send + 'static) -> T {
    no_error_backtraces();
    match std::thread::Builder::new().stack_size(STACK_BYTES).spawn(f) {
        Ok(handle) => handle.join().unwrap_or(failed),
        Err(e) => {
            output::stderr(&format!(
                "schemac: Error: cannot start the main thread: {e}\n"
            ));
            failed
        }
    }
}

/// Sets `RUST_LIB_BACKTRACE=0` unless it is set: with `RUST_BACKTRACE=1` in the environment,
/// every error the interpreter's parser makes (`anyhow`) captured a backtrace, and the parses
/// that list starlark-go's resolver errors meet one per error (1,000 nested calls with keyword
/// arguments after `*args` took 4.2 s instead of 0.07 s, 10,000 passed 2 minutes and 4 GB).
/// A panic's backtrace still follows `RUST_BACKTRACE`. Called before any other thread runs.
fn no_error_backtraces() {
    if std::env::var_os("RUST_LIB_BACKTRACE").is_none() {
        std::env::set_var("RUST_LIB_BACKTRACE", "0");
    }
}

/// The process: arguments in, output printed, exit status out (0 fine, 1 an error ytt would
/// report, 2 a value only schemac takes misspelled, 141 stdout's reader gone).
pub fn main_with(args: &[OsString], backend: &dyn Backend, program: &Program) -> i32 {
    match answer_args(args, program) {
        Ok(opts) => run(&opts, backend),
        Err(status) => status,
    }
}

/// The options to run with, or the exit status after answering the arguments (`--help`,
/// `--version`, unusable arguments).
pub fn answer_args(args: &[OsString], program: &Program) -> Result<Options, i32> {
    match parse_os(args) {
        Ok(Invocation::Run(o)) => Ok(*o),
        Ok(Invocation::Help) => Err(output::print_then(&help(&(program.command)()), 0)),
        Ok(Invocation::Version) => Err(output::print_then(&format!("{}\n", program.version), 0)),
        Err(ArgError::Ytt(msg)) => {
            output::stderr(&format!("schemac: Error: {}\n", multi_line(&msg)));
            Err(1)
        }
        Err(ArgError::Usage(msg)) => {
            let usage = (program.command)().render_usage().to_string();
            output::stderr(&format!("schemac: Error: {msg}\n{usage}\n"));
            Err(2)
        }
    }
}

/// Runs the pipeline and prints its result; returns the exit status.
pub fn run(opts: &Options, backend: &dyn Backend) -> i32 {
    let result = evaluate_keeping(&opts.request, backend);
    warn_if_math_used();
    let leftovers = match result {
        Ok(leftovers) => leftovers,
        Err(e) => return report(&e),
    };
    let status = match &leftovers.outcome {
        Outcome::Invalid(violations) if opts.violations_json => {
            let (json, left_out) = validate::to_json(violations);
            if let Some(line) = left_out {
                eprintln!("{line}");
            }
            output::print_then(&format!("{json}\n"), 1)
        }
        // The data values as YAML (the usual answer) are written as they are made, once their
        // text is known to fit the output budget.
        Outcome::DataValues(node) if !opts.request.json() => {
            use crate::yaml::emit::{budget, write_yaml, WriteError};
            // The pages freed so far (the input text's, the trees') go back first, so that
            // the text held before it is sized lands below the type check's peak.
            #[cfg(feature = "mimalloc")]
            crate::allocator::give_back_freed_pages();
            let mut past_budget = None;
            let written = output::stdout_with(|out| {
                match write_yaml(node, budget::max_output_bytes(), out) {
                    Ok(()) => Ok(()),
                    Err(WriteError::PastBudget(pos)) => {
                        past_budget = Some(pos);
                        Ok(())
                    }
                    Err(WriteError::Io(e)) => Err(e),
                }
            });
            match (past_budget, written) {
                (Some(pos), _) => report(&crate::error::CheckError::new(
                    crate::error::ErrorKind::Usage,
                    budget::message(&pos),
                )),
                (None, Ok(())) => 0,
                (None, Err(status)) => status,
            }
        }
        outcome => match render(outcome, &opts.request) {
            Ok(out) => output::print_then(&out, 0),
            Err(e) => report(&e),
        },
    };
    // The process exits next and its memory goes back at once: freeing every node first
    // would only take time.
    std::mem::forget(leftovers);
    status
}

/// Prints `e` as ytt prints an error; the exit status for it.
fn report(e: &crate::error::CheckError) -> i32 {
    output::stderr(&format!("schemac: Error: {}\n", multi_line(e.message())));
    1
}
