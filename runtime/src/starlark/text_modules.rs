//! The `@ytt:` modules over strings: `base64`, `md5`, `sha256`, `url` and `version`, with ytt's argument
//! checks and error words (`md5.sum: expected exactly one argument`).

use super::go_bytes::string_bytes;
use crate::go_base64::Base64;
use starlark::collections::SmallMap;
use starlark::environment::GlobalsBuilder;
use starlark::starlark_module;
use starlark::values::dict::{AllocDict, DictRef};
use starlark::values::list::ListRef;
use starlark::values::tuple::{TupleRef, UnpackTuple};
use starlark::values::{Heap, StringValue, UnpackValue, Value, ValueLike};

/// The version `ytt version` reports for the ytt schemac follows (the oracle's build).
pub const YTT_VERSION: &str = "develop";

type Kwargs<'v> = SmallMap<StringValue<'v>, Value<'v>>;

/// The one positional argument of a ytt module function: ytt counts positional arguments only
/// and ignores keyword arguments it does not read (`md5.sum("x", y=1)` is `md5.sum("x")`).
pub(super) fn only_arg<'v>(name: &str, args: &[Value<'v>]) -> anyhow::Result<Value<'v>> {
    match args {
        [v] => Ok(*v),
        _ => Err(anyhow::anyhow!("{name}: expected exactly one argument")),
    }
}

/// The one positional string argument of a ytt module function as bytes, UTF-8 or not
/// ([`super::go_bytes::string_arg`]; keywords ignored).
pub(super) fn only_bytes<'v>(name: &str, args: &[Value<'v>]) -> anyhow::Result<&'v [u8]> {
    super::go_bytes::string_arg(name, only_arg(name, args)?)
}

/// A boolean keyword argument of a ytt module function, with ytt's error for another type.
pub(super) fn bool_kwarg(name: &str, v: Value) -> anyhow::Result<bool> {
    v.unpack_bool().ok_or_else(|| {
        anyhow::anyhow!(
            "{name}: expected starlark.Bool, but was {}",
            crate::rules::go_type(super::go_type(v))
        )
    })
}

/// The Go type a value has once ytt converts it to plain Go data (for its error messages);
/// [`UNKNOWN_GO_TYPE`] for a value that does not become data.
pub(super) fn go_data_type(v: Value) -> &'static str {
    use crate::template::tree::TreeValue;
    match v.get_type() {
        // An int past int64 is a uint64 in ytt (one past that is ytt's panic).
        "int" if i64::unpack_value(v).ok().flatten().is_none() => "uint64",
        "int" => "int64",
        // A YAML node's value given to a rule.
        "yamlfragment" => match v
            .downcast_ref::<super::convert::YamlFragment>()
            .map(|f| (&*f.value, f.document_set))
        {
            Some((_, true)) => "*yamlmeta.DocumentSet",
            Some((TreeValue::Map(_), _)) => "*yamlmeta.Map",
            Some((TreeValue::Array(_), _)) => "*yamlmeta.Array",
            _ => UNKNOWN_GO_TYPE,
        },
        "float" => "float64",
        "string" => "string",
        "bool" => "bool",
        "NoneType" => "<nil>",
        "list" | "tuple" => "[]interface {}",
        "dict" | "struct" => "*orderedmap.Map",
        _ => UNKNOWN_GO_TYPE,
    }
}

pub(super) const UNKNOWN_GO_TYPE: &str = "interface {}";

/// The items of a list or tuple.
fn sequence<'v>(v: Value<'v>) -> Option<Vec<Value<'v>>> {
    if let Some(list) = ListRef::from_value(v) {
        return Some(list.iter().collect());
    }
    TupleRef::from_value(v).map(|t| t.iter().collect())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[starlark_module]
fn md5_members(builder: &mut GlobalsBuilder) {
    fn sum<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
    ) -> anyhow::Result<String> {
        use md5::Digest as _;
        let s = only_bytes("md5.sum", &args.items)?;
        Ok(hex(&md5::Md5::digest(s)))
    }
}

#[starlark_module]
fn sha256_members(builder: &mut GlobalsBuilder) {
    fn sum<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
    ) -> anyhow::Result<String> {
        use sha2::Digest as _;
        let s = only_bytes("sha256.sum", &args.items)?;
        Ok(hex(&sha2::Sha256::digest(s)))
    }
}

#[starlark_module]
fn version_members(builder: &mut GlobalsBuilder) {
    /// Fails unless ytt is at least version `v` (strict semver); ytt compares against its own
    /// version, which must itself be semver.
    fn require_at_least<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
    ) -> anyhow::Result<starlark::values::none::NoneType> {
        const NAME: &str = "version.require_at_least";
        let wanted = only_bytes(NAME, &args.items)?;
        // Bytes that are not UTF-8 are no semver either.
        let parsed = std::str::from_utf8(wanted)
            .ok()
            .and_then(|text| semver::Version::parse(text).ok());
        let wanted = parsed.ok_or_else(|| {
            let quoted = super::go_bytes::go_text(wanted);
            let message = format!("{NAME}: version string '{quoted}' must be a valid semver");
            super::go_bytes::quoting_bytes(message, wanted, anyhow::Error::msg)
        })?;
        let ours = semver::Version::parse(YTT_VERSION)
            .map_err(|_| anyhow::anyhow!("{NAME}: Malformed version: {YTT_VERSION}"))?;
        if ours < wanted {
            anyhow::bail!(
                "{NAME}: ytt version '{ours}' does not meet the minimum required version '{wanted}'"
            );
        }
        Ok(starlark::values::none::NoneType)
    }
}

/// The encoding ytt's `base64` functions take from their keyword arguments `url=` (the URL
/// alphabet), `raw=` (no padding) and `strict=` (decoding refuses set bits after the last
/// byte); other keywords are ignored.
fn base64_from_kwargs(name: &str, kwargs: &Kwargs) -> anyhow::Result<Base64> {
    let mut enc = Base64::default();
    for (k, v) in kwargs.iter() {
        let flag = match k.as_str() {
            "url" => &mut enc.url,
            "raw" => &mut enc.raw,
            "strict" => &mut enc.strict,
            _ => continue,
        };
        *flag = bool_kwarg(name, *v)?;
    }
    Ok(enc)
}

#[starlark_module]
fn base64_members(builder: &mut GlobalsBuilder) {
    /// Base64 in the encoding the keyword arguments choose ([`Base64`]).
    fn encode<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
    ) -> anyhow::Result<String> {
        const NAME: &str = "base64.encode";
        let s = only_bytes(NAME, &args.items)?;
        Ok(base64_from_kwargs(NAME, &kwargs)?.encode(s))
    }

    /// As Go's `base64.StdEncoding.DecodeString` (see [`crate::go_base64::decode`]): a string of the
    /// bytes, UTF-8 or not.
    fn decode<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        const NAME: &str = "base64.decode";
        let s = only_bytes(NAME, &args.items)?;
        let bytes = crate::go_base64::decode(s, &base64_from_kwargs(NAME, &kwargs)?)
            .map_err(|at| anyhow::anyhow!("{NAME}: illegal base64 data at input byte {at}"))?;
        Ok(super::go_bytes::string_value(bytes, heap))
    }
}

/// What a piece of a URL is, for Go's escaping rules (`net/url`'s `encoding` modes).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Escape {
    Path,
    PathSegment,
    Host,
    UserPassword,
    QueryComponent,
    Fragment,
}

/// Go's `shouldEscape`: whether byte `c` is written `%XX` in a piece `mode` of a URL.
fn should_escape(c: u8, mode: Escape) -> bool {
    use Escape::*;
    if c.is_ascii_alphanumeric() {
        return false;
    }
    if mode == Host && b"!$&'()*+,;=:[]<>\"".contains(&c) {
        return false;
    }
    match c {
        b'-' | b'_' | b'.' | b'~' => return false,
        b'$' | b'&' | b'+' | b',' | b'/' | b':' | b';' | b'=' | b'?' | b'@' => {
            return match mode {
                Path => c == b'?',
                PathSegment => matches!(c, b'/' | b';' | b',' | b'?'),
                UserPassword => matches!(c, b'@' | b'/' | b'?' | b':'),
                QueryComponent => true,
                Fragment => false,
                Host => true,
            }
        }
        _ => {}
    }
    !(mode == Fragment && matches!(c, b'!' | b'(' | b')' | b'*'))
}

/// Go's `url.PathEscape` / `url.QueryEscape` and the escaping of the other pieces of a URL.
pub(super) fn url_escape<S: AsRef<[u8]> + ?Sized>(s: &S, mode: Escape) -> String {
    let s = s.as_ref();
    let mut out = String::with_capacity(s.len());
    for &b in s {
        if !should_escape(b, mode) {
            out.push(b as char);
        } else if b == b' ' && mode == Escape::QueryComponent {
            out.push('+');
        } else {
            // (Not `format!`: an allocation a byte made 600 MB of escapes take 26 s.)
            const HEX: &[u8; 16] = b"0123456789ABCDEF";
            out.extend([
                '%',
                HEX[usize::from(b >> 4)].into(),
                HEX[usize::from(b & 15)].into(),
            ]);
        }
    }
    out
}

/// Go's `unescape`: `url.PathUnescape` / `url.QueryUnescape` and the other pieces of a URL, as
/// bytes, UTF-8 or not (`%e9`), as Go's strings hold them, with its error for a bad `%` escape
/// or (in a host) a character that must not be there.
pub(super) fn url_unescape_bytes(bytes: &[u8], mode: Escape) -> anyhow::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let digits = bytes.get(i + 1..i + 3).and_then(|d| {
                    let d = std::str::from_utf8(d).ok()?;
                    u8::from_str_radix(d, 16)
                        .ok()
                        .filter(|_| !d.starts_with('+'))
                });
                let Some(b) = digits else {
                    let end = (i + 3).min(bytes.len());
                    // Go quotes the three bytes, even a character cut in two.
                    let bad = crate::cli::go_quote(&bytes[i..end]);
                    anyhow::bail!("invalid URL escape {bad}");
                };
                out.push(b);
                i += 3;
            }
            b'+' if mode == Escape::QueryComponent => {
                out.push(b' ');
                i += 1;
            }
            b => {
                if mode == Escape::Host && b < 0x80 && should_escape(b, mode) {
                    let bad = (b as char).to_string();
                    anyhow::bail!("invalid character {} in host name", super::go_quote(&bad));
                }
                out.push(b);
                i += 1;
            }
        }
    }
    Ok(out)
}

#[starlark_module]
fn url_members(builder: &mut GlobalsBuilder) {
    /// Go's `url.Parse` (see [`super::url_value`]).
    fn parse<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        let s = only_bytes("url.parse", &args.items)?;
        super::url_value::parse_value(s, heap)
    }

    fn path_segment_encode<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
    ) -> anyhow::Result<String> {
        let s = only_bytes("url.path_segment_encode", &args.items)?;
        Ok(url_escape(s, Escape::PathSegment))
    }

    fn path_segment_decode<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        const NAME: &str = "url.path_segment_decode";
        let s = only_bytes(NAME, &args.items)?;
        let bytes = url_unescape_bytes(s, Escape::PathSegment)
            .map_err(|e| anyhow::anyhow!("{NAME}: {e}"))?;
        Ok(super::go_bytes::string_value(bytes, heap))
    }

    fn query_param_value_encode<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
    ) -> anyhow::Result<String> {
        let s = only_bytes("url.query_param_value_encode", &args.items)?;
        Ok(url_escape(s, Escape::QueryComponent))
    }

    fn query_param_value_decode<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        const NAME: &str = "url.query_param_value_decode";
        let s = only_bytes(NAME, &args.items)?;
        let bytes = url_unescape_bytes(s, Escape::QueryComponent)
            .map_err(|e| anyhow::anyhow!("{NAME}: {e}"))?;
        Ok(super::go_bytes::string_value(bytes, heap))
    }

    /// A dict (or struct) of lists of strings as Go's `url.Values.Encode`: keys sorted, `k=v` joined by `&`.
    fn query_params_encode<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
    ) -> anyhow::Result<String> {
        const NAME: &str = "url.query_params_encode";
        let v = only_arg(NAME, &args.items)?;
        // A struct is a map to ytt (its fields in order, their names strings); a dict's keys
        // are checked as its items are met, as Go's loop meets them.
        let entries: Vec<(Result<&[u8], Value>, Value)> = match DictRef::from_value(v) {
            Some(dict) => dict
                .iter()
                .map(|(k, x)| (string_bytes(k).ok_or(k), x))
                .collect(),
            None => super::ytt_struct::fields(v)
                .ok_or_else(|| {
                    anyhow::anyhow!(
                        "{NAME}: expected argument to be a map, but was {}",
                        go_data_type(v)
                    )
                })?
                .into_iter()
                .map(|(name, x)| (Ok(name), x))
                .collect(),
        };
        let mut params: Vec<(&[u8], Vec<&[u8]>)> = Vec::new();
        for (key, x) in entries {
            let key = key.map_err(|k| {
                anyhow::anyhow!(
                    "{NAME}: expected map key to be string, but was {}",
                    go_data_type(k)
                )
            })?;
            let list = sequence(x).ok_or_else(|| {
                anyhow::anyhow!(
                    "{NAME}: expected map value to be array, but was {}",
                    go_data_type(x)
                )
            })?;
            let values = list
                .into_iter()
                .map(|item| {
                    string_bytes(item).ok_or_else(|| {
                        anyhow::anyhow!(
                            "{NAME}: expected array value to be string, but was {}",
                            go_data_type(item)
                        )
                    })
                })
                .collect::<anyhow::Result<Vec<_>>>()?;
            params.push((key, values));
        }
        params.sort_by(|a, b| a.0.cmp(b.0));
        let pairs: Vec<String> = params
            .iter()
            .flat_map(|(k, values)| {
                let k = url_escape(k, Escape::QueryComponent);
                values
                    .iter()
                    .map(move |v| format!("{k}={}", url_escape(v, Escape::QueryComponent)))
            })
            .collect();
        Ok(pairs.join("&"))
    }

    /// Go's `url.ParseQuery`: a dict from each key (sorted) to the list of its values.
    fn query_params_decode<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        const NAME: &str = "url.query_params_decode";
        let s = only_bytes(NAME, &args.items)?;
        // Keys sorted by their bytes, as Go sorts strings.
        let mut params: std::collections::BTreeMap<Vec<u8>, Vec<Vec<u8>>> = Default::default();
        // ytt's Go splits on `;` as on `&`.
        for pair in s
            .split(|&b| b == b'&' || b == b';')
            .filter(|p| !p.is_empty())
        {
            let (k, v) = match pair.iter().position(|&b| b == b'=') {
                Some(at) => (&pair[..at], &pair[at + 1..]),
                None => (pair, &[][..]),
            };
            let unescape = |t| {
                url_unescape_bytes(t, Escape::QueryComponent)
                    .map_err(|e| anyhow::anyhow!("{NAME}: {e}"))
            };
            params.entry(unescape(k)?).or_default().push(unescape(v)?);
        }
        let string = |bytes: Vec<u8>| super::go_bytes::string_value(bytes, heap);
        let pairs = params.into_iter().map(|(k, values)| {
            let values: Vec<Value<'v>> = values.into_iter().map(string).collect();
            (
                string(k),
                heap.alloc(starlark::values::list::AllocList(values)),
            )
        });
        Ok(heap.alloc(AllocDict(pairs.collect::<Vec<_>>())))
    }
}

/// The members of `@ytt:md5`, `@ytt:sha256`, `@ytt:url` and `@ytt:version`.
pub(super) fn members(name: &str) -> Option<(&'static str, super::ytt_module::Members)> {
    Some(match name {
        "base64" => ("base64", base64_members),
        "md5" => ("md5", md5_members),
        "sha256" => ("sha256", sha256_members),
        "url" => ("url", url_members),
        "version" => ("version", version_members),
        _ => return None,
    })
}
