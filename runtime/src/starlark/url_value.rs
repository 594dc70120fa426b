//! `url.parse` of `@ytt:url`: a URL read as Go's `net/url` `Parse` reads it, and the values it
//! returns (`@ytt:url.value`, whose `user` is a `@ytt:url.user`), which print as structs and
//! do not become YAML without `.string()`.

use std::fmt;

use allocative::Allocative;
use starlark::environment::{Methods, MethodsBuilder, MethodsStatic};
use starlark::starlark_module;
use starlark::values::none::NoneOr;
use starlark::values::tuple::UnpackTuple;
use starlark::values::{
    starlark_value, Heap, NoSerialize, ProvidesStaticType, StarlarkValue, StringValue, Value,
};
use starlark::{starlark_simple_value, StarlarkPagable};

use super::go_bytes::{quoted_bytes, string_value};
use super::text_modules::{url_escape, url_unescape_bytes, Escape};
use super::ytt_struct::{library_struct_methods, LibraryStruct};

type Kwargs<'v> = starlark::collections::SmallMap<StringValue<'v>, Value<'v>>;

/// The types' names, as `type()` gives them and ytt's conversion error names them.
pub const URL_TYPE: &str = "@ytt:url.value";
pub const USER_TYPE: &str = "@ytt:url.user";

/// A URL as Go's `url.URL` holds it (pieces unescaped, with the escaped text kept where Go keeps
/// it), as bytes: Go's strings need not be UTF-8 (`%ff` in a path, `"\xff"` given).
#[derive(Debug, Clone, Default, ProvidesStaticType, NoSerialize, Allocative, StarlarkPagable)]
pub struct Url {
    scheme: Vec<u8>,
    opaque: Vec<u8>,
    user: Option<UrlUser>,
    host: Vec<u8>,
    path: Vec<u8>,
    raw_path: Vec<u8>,
    omit_host: bool,
    force_query: bool,
    raw_query: Vec<u8>,
    fragment: Vec<u8>,
    raw_fragment: Vec<u8>,
}

/// The user of a URL: a name and maybe a password.
#[derive(Debug, Clone, Default, ProvidesStaticType, NoSerialize, Allocative, StarlarkPagable)]
pub struct UrlUser {
    name: Vec<u8>,
    password: Option<Vec<u8>>,
}

starlark_simple_value!(Url);
starlark_simple_value!(UrlUser);

impl fmt::Display for Url {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("struct(...)")
    }
}

impl fmt::Display for UrlUser {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("struct(...)")
    }
}

/// The parts of `s` before and after its first `sep`.
fn split_first(s: &[u8], sep: u8) -> Option<(&[u8], &[u8])> {
    let i = s.iter().position(|&b| b == sep)?;
    Some((&s[..i], &s[i + 1..]))
}

/// The position of the last `b` in `s`.
fn rfind(s: &[u8], b: u8) -> Option<usize> {
    s.iter().rposition(|&c| c == b)
}

/// Go's `unescape` of a piece of a URL, its error as text.
fn unescaped(s: &[u8], mode: Escape) -> Result<Vec<u8>, String> {
    url_unescape_bytes(s, mode).map_err(|e| e.to_string())
}

/// Go's `validOptionalPort`: empty, or `:` and digits.
fn valid_optional_port(port: &[u8]) -> bool {
    port.is_empty()
        || port
            .strip_prefix(b":")
            .is_some_and(|p| p.iter().all(u8::is_ascii_digit))
}

/// Go's `getScheme`: the scheme and the rest, or no scheme.
fn split_scheme(raw: &[u8]) -> Result<(&[u8], &[u8]), String> {
    for (i, &c) in raw.iter().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i > 0 => {}
            b':' if i == 0 => return Err("missing protocol scheme".into()),
            b':' => return Ok((&raw[..i], &raw[i + 1..])),
            _ => return Ok((b"", raw)),
        }
    }
    Ok((b"", raw))
}

/// Go's `parseHost`: a host with an optional port, IPv6 literals in brackets.
fn parse_host(host: &[u8]) -> Result<Vec<u8>, String> {
    if host.starts_with(b"[") {
        let Some(i) = rfind(host, b']') else {
            return Err("missing ']' in host".into());
        };
        let port = &host[i + 1..];
        if !valid_optional_port(port) {
            return Err(format!("invalid port {} after host", quoted_bytes(port)));
        }
        if let Some(zone) = host[..i].windows(3).position(|w| w == b"%25") {
            let mut out = unescaped(&host[..zone], Escape::Host)?;
            out.extend(unescaped(&host[zone..i], Escape::PathSegment)?);
            out.extend(unescaped(&host[i..], Escape::Host)?);
            return Ok(out);
        }
    } else if let Some(i) = rfind(host, b':') {
        let port = &host[i..];
        if !valid_optional_port(port) {
            return Err(format!("invalid port {} after host", quoted_bytes(port)));
        }
    }
    unescaped(host, Escape::Host)
}

/// Go's `parseAuthority`: the user (before the last `@`) and the host.
fn parse_authority(authority: &[u8]) -> Result<(Option<UrlUser>, Vec<u8>), String> {
    let Some(at) = rfind(authority, b'@') else {
        return Ok((None, parse_host(authority)?));
    };
    let host = parse_host(&authority[at + 1..])?;
    let userinfo = &authority[..at];
    let valid = userinfo
        .iter()
        .all(|b| b.is_ascii_alphanumeric() || b"-._:~!$&'()*+,;=%@".contains(b));
    if !valid {
        return Err("net/url: invalid userinfo".into());
    }
    let user = match split_first(userinfo, b':') {
        Some((name, password)) => UrlUser {
            name: unescaped(name, Escape::UserPassword)?,
            password: Some(unescaped(password, Escape::UserPassword)?),
        },
        None => UrlUser {
            name: unescaped(userinfo, Escape::UserPassword)?,
            password: None,
        },
    };
    Ok((Some(user), host))
}

/// Go's `url.Parse`, its error as `parse "RAW": REASON` (RAW without its fragment unless the
/// fragment is what failed).
pub(super) fn parse(raw: &[u8]) -> Result<Url, String> {
    let (rest, fragment) = match split_first(raw, b'#') {
        Some((rest, fragment)) => (rest, Some(fragment)),
        None => (raw, None),
    };
    let failed = |at: &[u8], reason: String| format!("parse {}: {reason}", quoted_bytes(at));
    let url = parse_without_fragment(rest).map_err(|reason| failed(rest, reason))?;
    set_fragment(url, fragment).map_err(|reason| failed(raw, reason))
}

/// Go's `parse` (of a URL without its fragment).
fn parse_without_fragment(rest: &[u8]) -> Result<Url, String> {
    if rest.iter().any(|&b| b < 0x20 || b == 0x7f) {
        return Err("net/url: invalid control character in URL".into());
    }
    let mut url = Url::default();
    if rest == b"*" {
        url.path = b"*".to_vec();
    } else {
        let (scheme, rest) = split_scheme(rest)?;
        url.scheme = scheme.to_ascii_lowercase();
        let mut rest = rest;
        let questions = rest.iter().filter(|&&b| b == b'?').count();
        if rest.ends_with(b"?") && questions == 1 {
            url.force_query = true;
            rest = &rest[..rest.len() - 1];
        } else if let Some((before, query)) = split_first(rest, b'?') {
            url.raw_query = query.to_vec();
            rest = before;
        }
        if !rest.starts_with(b"/") {
            if !url.scheme.is_empty() {
                url.opaque = rest.to_vec();
                return Ok(url);
            }
            let first_segment = split_first(rest, b'/').map_or(rest, |(first, _)| first);
            if first_segment.contains(&b':') {
                return Err("first path segment in URL cannot contain colon".into());
            }
        }
        if (!url.scheme.is_empty() || !rest.starts_with(b"///")) && rest.starts_with(b"//") {
            let (authority, path) = match rest[2..].iter().position(|&b| b == b'/') {
                Some(i) => (&rest[2..2 + i], &rest[2 + i..]),
                None => (&rest[2..], &b""[..]),
            };
            (url.user, url.host) = parse_authority(authority)?;
            rest = path;
        } else if !url.scheme.is_empty() && rest.starts_with(b"/") {
            url.omit_host = true;
        }
        url.path = unescaped(rest, Escape::Path)?;
        if url_escape(&url.path, Escape::Path).as_bytes() != rest {
            url.raw_path = rest.to_vec();
        }
    }
    Ok(url)
}

/// Go's `setFragment`.
fn set_fragment(mut url: Url, fragment: Option<&[u8]>) -> Result<Url, String> {
    if let Some(f) = fragment {
        url.fragment = unescaped(f, Escape::Fragment)?;
        if url_escape(&url.fragment, Escape::Fragment).as_bytes() != f {
            url.raw_fragment = f.to_vec();
        }
    }
    Ok(url)
}

/// Go's `validEncoded`: `s` may stand escaped as it is in a piece `mode` of a URL.
fn valid_encoded(s: &[u8], mode: Escape) -> bool {
    s.iter()
        .all(|&b| b"!$&'()*+,;=:@[]%".contains(&b) || !url_escape(&[b], mode).starts_with('%'))
}

/// Go's `EscapedPath` / `EscapedFragment`: the text as given when it is a valid escaping of
/// the value, else the value escaped.
fn escaped(raw: &[u8], value: &[u8], mode: Escape) -> Vec<u8> {
    let same = url_unescape_bytes(raw, mode).is_ok_and(|u| u == value);
    if !raw.is_empty() && valid_encoded(raw, mode) && same {
        return raw.to_vec();
    }
    if mode == Escape::Path && value == b"*" {
        return b"*".to_vec();
    }
    url_escape(value, mode).into_bytes()
}

impl UrlUser {
    /// Go's `Userinfo.String`.
    fn string(&self) -> String {
        let mut s = url_escape(&self.name, Escape::UserPassword);
        if let Some(p) = &self.password {
            s.push(':');
            s.push_str(&url_escape(p, Escape::UserPassword));
        }
        s
    }
}

impl Url {
    /// Go's `URL.String`.
    fn string(&self) -> Vec<u8> {
        let mut out = Vec::new();
        if !self.scheme.is_empty() {
            out.extend_from_slice(&self.scheme);
            out.push(b':');
        }
        if !self.opaque.is_empty() {
            out.extend_from_slice(&self.opaque);
        } else {
            let authority = !self.scheme.is_empty() || !self.host.is_empty() || self.user.is_some();
            let omitted = self.omit_host && self.host.is_empty() && self.user.is_none();
            if authority && !omitted {
                if !self.host.is_empty() || !self.path.is_empty() || self.user.is_some() {
                    out.extend_from_slice(b"//");
                }
                if let Some(user) = &self.user {
                    out.extend_from_slice(user.string().as_bytes());
                    out.push(b'@');
                }
                out.extend_from_slice(url_escape(&self.host, Escape::Host).as_bytes());
            }
            let path = escaped(&self.raw_path, &self.path, Escape::Path);
            if !path.is_empty() && !path.starts_with(b"/") && !self.host.is_empty() {
                out.push(b'/');
            }
            let first_segment = split_first(&path, b'/').map_or(&path[..], |(first, _)| first);
            if out.is_empty() && first_segment.contains(&b':') {
                out.extend_from_slice(b"./");
            }
            out.extend_from_slice(&path);
        }
        if self.force_query || !self.raw_query.is_empty() {
            out.push(b'?');
            out.extend_from_slice(&self.raw_query);
        }
        if !self.fragment.is_empty() {
            out.push(b'#');
            out.extend(escaped(
                &self.raw_fragment,
                &self.fragment,
                Escape::Fragment,
            ));
        }
        out
    }

    /// Go's `URL.Hostname`: the host without its port and brackets.
    fn hostname(&self) -> &[u8] {
        let mut host = &self.host[..];
        if let Some(colon) = rfind(host, b':') {
            if valid_optional_port(&host[colon..]) {
                host = &host[..colon];
            }
        }
        host.strip_prefix(b"[")
            .and_then(|h| h.strip_suffix(b"]"))
            .unwrap_or(host)
    }
}

/// A method's check that it was given no positional arguments (keywords are ignored).
fn no_args(name: &str, args: &UnpackTuple<Value>) -> anyhow::Result<()> {
    if !args.items.is_empty() {
        anyhow::bail!("{name}: expected no argument");
    }
    Ok(())
}

#[starlark_module]
fn url_methods(builder: &mut MethodsBuilder) {
    fn string<'v>(
        this: &Url,
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        no_args("url.value.string", &args)?;
        Ok(string_value(this.string(), heap))
    }

    fn hostname<'v>(
        this: &Url,
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        no_args("url.value.hostname", &args)?;
        Ok(string_value(this.hostname().to_vec(), heap))
    }

    fn without_user<'v>(
        this: &Url,
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
    ) -> anyhow::Result<Url> {
        no_args("url.value.without_user", &args)?;
        Ok(Url {
            user: None,
            ..this.clone()
        })
    }

    #[starlark(attribute)]
    fn user(this: &Url) -> anyhow::Result<NoneOr<UrlUser>> {
        Ok(match &this.user {
            Some(u) => NoneOr::Other(u.clone()),
            None => NoneOr::None,
        })
    }
}

#[starlark_module]
fn user_methods(builder: &mut MethodsBuilder) {
    fn string<'v>(
        this: &UrlUser,
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
    ) -> anyhow::Result<String> {
        no_args("string", &args)?;
        Ok(this.string())
    }

    #[starlark(attribute)]
    fn name<'v>(this: &UrlUser, heap: Heap<'v>) -> anyhow::Result<Value<'v>> {
        Ok(string_value(this.name.clone(), heap))
    }

    #[starlark(attribute)]
    fn password<'v>(this: &UrlUser, heap: Heap<'v>) -> anyhow::Result<Value<'v>> {
        Ok(match &this.password {
            Some(p) => string_value(p.clone(), heap),
            None => Value::new_none(),
        })
    }
}

/// ytt's fields of a URL and of its user, in its order (see [`LibraryStruct`]).
const URL_FIELDS: LibraryStruct = LibraryStruct {
    type_name: URL_TYPE,
    names: &["user", "without_user", "string", "hostname"],
};
const USER_FIELDS: LibraryStruct = LibraryStruct {
    type_name: USER_TYPE,
    names: &["name", "password", "string"],
};

#[starlark_value(type = URL_TYPE)]
impl<'v> StarlarkValue<'v> for Url {
    fn get_methods() -> Option<&'static Methods> {
        static RES: MethodsStatic = MethodsStatic::new("url_value", url_methods);
        Some(RES.methods())
    }

    library_struct_methods!(URL_FIELDS);
}

#[starlark_value(type = USER_TYPE)]
impl<'v> StarlarkValue<'v> for UrlUser {
    fn get_methods() -> Option<&'static Methods> {
        static RES: MethodsStatic = MethodsStatic::new("url_user", user_methods);
        Some(RES.methods())
    }

    library_struct_methods!(USER_FIELDS);
}

/// `url.parse(text)`.
pub(super) fn parse_value<'v>(text: &[u8], heap: Heap<'v>) -> anyhow::Result<Value<'v>> {
    let url = parse(text).map_err(|e| anyhow::anyhow!("url.parse: {e}"))?;
    Ok(heap.alloc(url))
}
