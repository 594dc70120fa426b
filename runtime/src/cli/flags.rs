//! ytt's flags, parsed as ytt parses them (pflag's rules and messages), and described to clap
//! for `--help` and shell completions.
//!
//! One table ([`FLAGS`]) says every flag's names, whether it takes a value and what schemac
//! does with it. The parser walks the arguments the way pflag does: `-f x`, `-fx`, `-f=x`,
//! `--file=x`, `--file x`, grouped shorthands (`-sv k=v`), `--strict=false`, `--` ending the
//! flags, and reports errors with pflag's own words, so that `schemac check` and validators
//! fail as ytt fails. clap renders the help from the same table: its error messages and
//! parsing rules differ from pflag's, so it does not parse.

use std::ffi::{OsStr, OsString};

use clap::{Arg, ArgAction, Command};

/// How a flag takes its argument.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// A switch; `--flag=false` turns it off (Go's `strconv.ParseBool` spellings).
    Bool,
    /// One value per use, kept in order (pflag's `stringArray`, or `string`: the last wins).
    Value,
    /// Comma-separated values, read as one CSV record per use (pflag's `strings`).
    List,
}

/// What schemac does with a flag.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Support {
    /// Implemented as in ytt.
    Yes,
    /// Accepted and ignored: it cannot change the data values (the reason is in the help).
    Ignored(&'static str),
    /// Refused with an error naming the flag: it would change the data values or the output.
    Refused(&'static str),
}

/// One of ytt's flags (or schemac's `--violations-format`).
#[derive(Debug)]
pub struct Flag {
    pub long: &'static str,
    pub short: Option<char>,
    pub kind: Kind,
    pub value_name: &'static str,
    pub help: &'static str,
    pub support: Support,
}

const fn flag(
    long: &'static str,
    short: Option<char>,
    kind: Kind,
    value_name: &'static str,
    help: &'static str,
) -> Flag {
    Flag {
        long,
        short,
        kind,
        value_name,
        help,
        support: Support::Yes,
    }
}

const fn ignored(
    long: &'static str,
    kind: Kind,
    value_name: &'static str,
    help: &'static str,
    why: &'static str,
) -> Flag {
    Flag {
        long,
        short: None,
        kind,
        value_name,
        help,
        support: Support::Ignored(why),
    }
}

const fn refused(
    long: &'static str,
    kind: Kind,
    value_name: &'static str,
    help: &'static str,
    why: &'static str,
) -> Flag {
    Flag {
        long,
        short: None,
        kind,
        value_name,
        help,
        support: Support::Refused(why),
    }
}

use Kind::{Bool, List, Value};

/// The flags of `ytt template` (ytt's order), `--version` and schemac's `--violations-format`.
pub const FLAGS: &[Flag] = &[
    flag("file", Some('f'), Value, "PATH", "File(s) to process (can be specified multiple times)"),
    flag("data-values-inspect", None, Bool, "", "Determine the final data values and display that result (the default)"),
    flag("data-values-schema-inspect", None, Bool, "", "Display the schema of data values (with --output=openapi-v3 or json-schema)"),
    flag("output", Some('o'), List, "TYPES", "Output format: yaml, json, and/or the schema type openapi-v3 or json-schema (can be specified multiple times)"),
    flag("data-value", Some('v'), Value, "KEY=VALUE", "Set specific data value to given value, as string (format: all.key1.subkey=123)"),
    flag("data-value-yaml", None, Value, "KEY=YAML", "Set specific data value to given value, parsed as YAML (format: all.key1.subkey=true)"),
    flag("data-value-file", None, Value, "KEY=PATH", "Set specific data value to contents of a file (format: all.key1.subkey=path)"),
    flag("data-values-file", None, Value, "PATH", "Set multiple data values via plain YAML files or directories"),
    flag("data-values-env", None, Value, "PREFIX", "Extract data values (as strings) from prefixed env vars (PREFIX_all__key1=str)"),
    flag("data-values-env-yaml", None, Value, "PREFIX", "Extract data values (parsed as YAML) from prefixed env vars (PREFIX_all__key1=true)"),
    flag("strict", Some('s'), Bool, "", "Configure to use _strict_ YAML subset"),
    flag("dangerous-data-values-disable-validation", None, Bool, "", "Skip validating data values (not recommended)"),
    flag("violations-format", None, Value, "FORMAT", "Print validation violations as text (default) or json on stdout (schemac only)"),
    flag("allow-symlink-destination", None, List, "PATHS", "File paths to which symlinks are allowed (can be specified multiple times)"),
    flag("dangerous-allow-all-symlink-destinations", None, Bool, "", "Symlinks to all destinations are allowed"),
    ignored("debug", Bool, "", "Enable debug output", "no debug output"),
    flag("ignore-unknown-comments", None, Bool, "", "Ignore comments that do not start with '#@' or '#!' (without it they are an error, as in ytt)"),
    flag("implicit-map-key-overrides", None, Bool, "", "Allow map keys to be specified again (the last one wins)"),
    refused("file-mark", Value, "MARK", "File mark (format: file:key=value)", "it can change the files and the data values"),
    refused("bulk-in", Value, "JSON", "Accept files in bulk format", "it changes the files"),
    refused("bulk-out", Bool, "", "Output files in bulk format", "schemac prints data values only"),
    refused("files-inspect", Bool, "", "Display the set of files that would be processed", "schemac prints data values only"),
    refused("output-files", Value, "DIR", "Add output files to given directory", "schemac prints data values only"),
    refused(
        "dangerous-emptied-output-directory",
        Value,
        "DIR",
        "Delete given directory, and then create it with output files",
        "schemac prints data values only",
    ),
    flag("version", None, Bool, "", "Print version"),
];

/// The flags as clap describes them, for `--help` and completions (`name`: the command).
pub fn command(name: &'static str) -> Command {
    let mut cmd = Command::new(name)
        .disable_version_flag(true)
        .max_term_width(100);
    for f in FLAGS {
        let mut help = f.help.to_string();
        let heading = match f.support {
            Support::Yes => None,
            Support::Ignored(why) => {
                help.push_str(&format!(" [ignored: {why}]"));
                Some("Accepted for ytt compatibility and ignored (they cannot change the data values)")
            }
            Support::Refused(why) => {
                help.push_str(&format!(" [an error: {why}]"));
                Some("Not supported (an error: they would change the data values or the output)")
            }
        };
        let mut arg = Arg::new(f.long)
            .long(f.long)
            .help(help)
            .help_heading(heading);
        if let Some(s) = f.short {
            arg = arg.short(s);
        }
        arg = match f.kind {
            Bool => arg.action(ArgAction::SetTrue),
            Value | List => arg.action(ArgAction::Append).value_name(f.value_name),
        };
        if f.long == "file" || f.long == "data-values-file" {
            arg = arg.value_hint(clap::ValueHint::AnyPath);
        }
        cmd = cmd.arg(arg);
    }
    cmd
}

/// What the arguments ask for.
#[derive(Debug, Default)]
pub struct Parsed {
    /// Each flag used, with its value (`"true"`/`"false"` for switches), in order.
    pub flags: Vec<(&'static Flag, String)>,
    /// Arguments that are not flags (ytt accepts none).
    pub extra: Vec<OsString>,
    /// How many of `extra` came before a `--` (cobra looks for a command among them).
    pub extra_before_dashes: usize,
    pub help: bool,
}

/// A flag error, worded as pflag words it (the text after `Error: `).
#[derive(Debug, PartialEq, Eq)]
pub struct FlagError(pub String);

fn long_flag(name: &str) -> Option<&'static Flag> {
    FLAGS.iter().find(|f| f.long == name)
}

fn short_flag(c: char) -> Option<&'static Flag> {
    FLAGS.iter().find(|f| f.short == Some(c))
}

/// Parses arguments as pflag parses ytt's.
pub fn parse(args: &[OsString]) -> Result<Parsed, FlagError> {
    let mut out = Parsed::default();
    let mut i = 0;
    while i < args.len() {
        let raw = &args[i];
        i += 1;
        let arg = raw.to_string_lossy();
        if arg == "--" {
            out.extra_before_dashes = out.extra.len();
            out.extra.extend(args[i..].iter().cloned());
            return Ok(out);
        }
        if !arg.starts_with('-') || arg.len() == 1 {
            out.extra.push(raw.clone());
            continue;
        }
        if let Some(rest) = arg.strip_prefix("--") {
            if rest.starts_with('-') || rest.starts_with('=') {
                return Err(FlagError(format!("bad flag syntax: {arg}")));
            }
            let (name, inline) = match rest.split_once('=') {
                Some((n, _)) => (n, Some(after_eq(raw))),
                None => (rest, None),
            };
            if name == "help" {
                out.help =
                    parse_bool(inline.map(String::from_utf8_lossy).as_deref(), "-h, --help")?;
                continue;
            }
            let Some(f) = long_flag(name) else {
                return Err(FlagError(format!("unknown flag: --{name}")));
            };
            let value = match (f.kind, inline) {
                (Bool, v) => parse_bool(v.map(String::from_utf8_lossy).as_deref(), &flag_names(f))?
                    .to_string(),
                (_, Some(v)) => utf8(v, f)?,
                (_, None) => match args.get(i) {
                    Some(v) => {
                        i += 1;
                        utf8(v.as_encoded_bytes(), f)?
                    }
                    None => return Err(FlagError(format!("flag needs an argument: --{name}"))),
                },
            };
            out.flags.push((f, value));
            continue;
        }
        // Shorthands: `-abc`, `-fvalue`, `-f=value`, `-s=false`. As pflag, a `=` is read as
        // the `=` of `-f=value` only with something after it: `-o=` is `-o` with the value
        // `=`, and `-s=` is `-s`, then the unknown shorthand `=`.
        let mut shorts = &arg[1..];
        let mut consumed = 1; // Bytes of `raw` read so far.
        while let Some(c) = shorts.chars().next() {
            let rest = &shorts[c.len_utf8()..];
            let f = match short_flag(c) {
                Some(f) => f,
                None if c == 'h' => {
                    if let Some(v) = rest.strip_prefix('=').filter(|v| !v.is_empty()) {
                        out.help = parse_bool(Some(v), "-h, --help")?;
                        break;
                    }
                    out.help = true;
                    consumed += c.len_utf8();
                    shorts = rest;
                    continue;
                }
                None => {
                    return Err(FlagError(format!(
                        "unknown shorthand flag: '{c}' in -{shorts}"
                    )))
                }
            };
            consumed += c.len_utf8();
            let value = match f.kind {
                Bool => {
                    if let Some(v) = rest.strip_prefix('=').filter(|v| !v.is_empty()) {
                        let v = parse_bool(Some(v), &flag_names(f))?.to_string();
                        out.flags.push((f, v));
                        break;
                    }
                    shorts = rest;
                    out.flags.push((f, "true".into()));
                    continue;
                }
                _ if !rest.is_empty() => {
                    let skip = consumed + usize::from(rest.starts_with('=') && rest.len() > 1);
                    // The shorthands read so far are ASCII: `skip` counts bytes of `raw` too.
                    utf8(&raw.as_encoded_bytes()[skip..], f)?
                }
                _ => match args.get(i) {
                    Some(v) => {
                        i += 1;
                        utf8(v.as_encoded_bytes(), f)?
                    }
                    None => {
                        return Err(FlagError(format!(
                            "flag needs an argument: '{c}' in -{shorts}"
                        )))
                    }
                },
            };
            out.flags.push((f, value));
            break;
        }
    }
    out.extra_before_dashes = out.extra.len();
    Ok(out)
}

/// `-s, --strict` or `--data-values-inspect`, as pflag names a flag in errors.
fn flag_names(f: &Flag) -> String {
    match f.short {
        Some(s) => format!("-{s}, --{}", f.long),
        None => format!("--{}", f.long),
    }
}

/// The bytes of an argument after its first `=`.
fn after_eq(raw: &OsStr) -> &[u8] {
    let bytes = raw.as_encoded_bytes();
    let at = bytes
        .iter()
        .position(|b| *b == b'=')
        .map_or(bytes.len(), |p| p + 1);
    &bytes[at..]
}

/// A value as UTF-8: schemac keeps file names and values as text.
fn utf8(v: &[u8], f: &Flag) -> Result<String, FlagError> {
    std::str::from_utf8(v).map(str::to_string).map_err(|_| {
        FlagError(format!(
            "invalid argument {} for \"{}\" flag: not valid UTF-8 (schemac takes file names and values in UTF-8 only)",
            go_quote(v),
            flag_names(f)
        ))
    })
}

/// Go's `strconv.ParseBool` on a switch's value (none: `true`).
fn parse_bool(v: Option<&str>, names: &str) -> Result<bool, FlagError> {
    match v {
        None | Some("1" | "t" | "T" | "TRUE" | "true" | "True") => Ok(true),
        Some("0" | "f" | "F" | "FALSE" | "false" | "False") => Ok(false),
        Some(other) => {
            let q = go_quote(other.as_bytes());
            Err(FlagError(format!("invalid argument {q} for \"{names}\" flag: strconv.ParseBool: parsing {q}: invalid syntax")))
        }
    }
}

/// Go's `%q` of a string: double quotes, escapes for quotes, backslashes, control characters
/// and bytes that are not UTF-8.
pub fn go_quote(bytes: &[u8]) -> String {
    let mut out = String::from("\"");
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\t' => out.push_str("\\t"),
                '\r' => out.push_str("\\r"),
                '\x07' => out.push_str("\\a"),
                '\x08' => out.push_str("\\b"),
                '\x0c' => out.push_str("\\f"),
                '\x0b' => out.push_str("\\v"),
                c if (c as u32) < 0x20 || c == '\x7f' => {
                    out.push_str(&format!("\\x{:02x}", c as u32))
                }
                c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out.push('"');
    out
}

/// One use of a `strings` flag as Go's `encoding/csv` reads it (one record), with pflag's
/// error when it cannot (`names`: the flag, as errors name it).
pub fn csv_record(value: &str, names: &str) -> Result<Vec<String>, FlagError> {
    if value.is_empty() {
        return Ok(Vec::new());
    }
    let err = |col: usize, what: &str| {
        FlagError(format!(
            "invalid argument {} for \"{names}\" flag: parse error on line 1, column {col}: {what}",
            go_quote(value.as_bytes())
        ))
    };
    let chars: Vec<char> = value.chars().collect();
    let mut fields = Vec::new();
    let mut i = 0;
    loop {
        let mut field = String::new();
        if chars.get(i) == Some(&'"') {
            i += 1;
            loop {
                match chars.get(i) {
                    None => {
                        return Err(err(
                            chars.len() + 1,
                            "extraneous or missing \" in quoted-field",
                        ))
                    }
                    Some('"') if chars.get(i + 1) == Some(&'"') => {
                        field.push('"');
                        i += 2;
                    }
                    Some('"') => {
                        i += 1;
                        match chars.get(i) {
                            None | Some(',') => break,
                            Some(_) => {
                                return Err(err(i + 1, "extraneous or missing \" in quoted-field"))
                            }
                        }
                    }
                    Some(c) => {
                        field.push(*c);
                        i += 1;
                    }
                }
            }
        } else {
            while let Some(c) = chars.get(i) {
                match c {
                    ',' => break,
                    '"' => return Err(err(i + 1, "bare \" in non-quoted-field")),
                    c => field.push(*c),
                }
                i += 1;
            }
        }
        fields.push(field);
        if chars.get(i) == Some(&',') {
            i += 1;
            continue;
        }
        break;
    }
    Ok(fields)
}

/// `-o, --output`, as errors name it.
pub fn names_of(long: &str) -> String {
    long_flag(long)
        .map(flag_names)
        .unwrap_or_else(|| format!("--{long}"))
}
