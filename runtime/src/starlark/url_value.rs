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

use super::text_modules::{url_escape, url_unescape, Escape};

type Kwargs<'v> = starlark::collections::SmallMap<StringValue<'v>, Value<'v>>;

/// The types' names, as `type()` gives them and ytt's conversion error names them.
pub const URL_TYPE: &str = "@ytt:url.value";
pub const USER_TYPE: &str = "@ytt:url.user";

/// A URL as Go's `url.URL` holds it (pieces unescaped, with the escaped text kept where Go keeps
/// it).
#[derive(Debug, Clone, Default, ProvidesStaticType, NoSerialize, Allocative, StarlarkPagable)]
pub struct Url {
    scheme: String,
    opaque: String,
    user: Option<UrlUser>,
    host: String,
    path: String,
    raw_path: String,
    omit_host: bool,
    force_query: bool,
    raw_query: String,
    fragment: String,
    raw_fragment: String,
}

/// The user of a URL: a name and maybe a password.
#[derive(Debug, Clone, Default, ProvidesStaticType, NoSerialize, Allocative, StarlarkPagable)]
pub struct UrlUser {
    name: String,
    password: Option<String>,
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

/// Go's `validOptionalPort`: empty, or `:` and digits.
fn valid_optional_port(port: &str) -> bool {
    port.is_empty()
        || port
            .strip_prefix(':')
            .is_some_and(|p| p.bytes().all(|b| b.is_ascii_digit()))
}

/// Go's `getScheme`: the scheme and the rest, or no scheme.
fn split_scheme(raw: &str) -> Result<(&str, &str), String> {
    for (i, c) in raw.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i > 0 => {}
            b':' if i == 0 => return Err("missing protocol scheme".into()),
            b':' => return Ok((&raw[..i], &raw[i + 1..])),
            _ => return Ok(("", raw)),
        }
    }
    Ok(("", raw))
}

/// Go's `parseHost`: a host with an optional port, IPv6 literals in brackets.
fn parse_host(host: &str) -> Result<String, String> {
    if host.starts_with('[') {
        let Some(i) = host.rfind(']') else {
            return Err("missing ']' in host".into());
        };
        let port = &host[i + 1..];
        if !valid_optional_port(port) {
            return Err(format!("invalid port {} after host", super::go_quote(port)));
        }
        if let Some(zone) = host[..i].find("%25") {
            let unescape = |s: &str, mode| url_unescape(s, mode).map_err(|e| e.to_string());
            return Ok(unescape(&host[..zone], Escape::Host)?
                + &unescape(&host[zone..i], Escape::PathSegment)?
                + &unescape(&host[i..], Escape::Host)?);
        }
    } else if let Some(i) = host.rfind(':') {
        let port = &host[i..];
        if !valid_optional_port(port) {
            return Err(format!("invalid port {} after host", super::go_quote(port)));
        }
    }
    url_unescape(host, Escape::Host).map_err(|e| e.to_string())
}

/// Go's `parseAuthority`: the user (before the last `@`) and the host.
fn parse_authority(authority: &str) -> Result<(Option<UrlUser>, String), String> {
    let Some(at) = authority.rfind('@') else {
        return Ok((None, parse_host(authority)?));
    };
    let host = parse_host(&authority[at + 1..])?;
    let userinfo = &authority[..at];
    let valid = userinfo
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"-._:~!$&'()*+,;=%@".contains(&b));
    if !valid {
        return Err("net/url: invalid userinfo".into());
    }
    let unescape = |s: &str| url_unescape(s, Escape::UserPassword).map_err(|e| e.to_string());
    let user = match userinfo.split_once(':') {
        Some((name, password)) => UrlUser {
            name: unescape(name)?,
            password: Some(unescape(password)?),
        },
        None => UrlUser {
            name: unescape(userinfo)?,
            password: None,
        },
    };
    Ok((Some(user), host))
}

/// Go's `url.Parse`, its error as `parse "RAW": REASON`.
pub(super) fn parse(raw: &str) -> Result<Url, String> {
    parse_unwrapped(raw).map_err(|reason| format!("parse {}: {reason}", super::go_quote(raw)))
}

fn parse_unwrapped(raw: &str) -> Result<Url, String> {
    let (rest, fragment) = match raw.split_once('#') {
        Some((rest, fragment)) => (rest, Some(fragment)),
        None => (raw, None),
    };
    if rest.bytes().any(|b| b < 0x20 || b == 0x7f) {
        return Err("net/url: invalid control character in URL".into());
    }
    let mut url = Url::default();
    if rest == "*" {
        url.path = "*".into();
    } else {
        let (scheme, rest) = split_scheme(rest)?;
        url.scheme = scheme.to_ascii_lowercase();
        let mut rest = rest;
        if rest.ends_with('?') && rest.matches('?').count() == 1 {
            url.force_query = true;
            rest = &rest[..rest.len() - 1];
        } else if let Some((before, query)) = rest.split_once('?') {
            url.raw_query = query.to_string();
            rest = before;
        }
        if !rest.starts_with('/') {
            if !url.scheme.is_empty() {
                url.opaque = rest.to_string();
                return set_fragment(url, fragment);
            }
            if rest.split('/').next().unwrap_or("").contains(':') {
                return Err("first path segment in URL cannot contain colon".into());
            }
        }
        if (!url.scheme.is_empty() || !rest.starts_with("///")) && rest.starts_with("//") {
            let (authority, path) = match rest[2..].find('/') {
                Some(i) => (&rest[2..2 + i], &rest[2 + i..]),
                None => (&rest[2..], ""),
            };
            (url.user, url.host) = parse_authority(authority)?;
            rest = path;
        } else if !url.scheme.is_empty() && rest.starts_with('/') {
            url.omit_host = true;
        }
        url.path = url_unescape(rest, Escape::Path).map_err(|e| e.to_string())?;
        if url_escape(&url.path, Escape::Path) != rest {
            url.raw_path = rest.to_string();
        }
    }
    set_fragment(url, fragment)
}

/// Go's `setFragment`.
fn set_fragment(mut url: Url, fragment: Option<&str>) -> Result<Url, String> {
    if let Some(f) = fragment {
        url.fragment = url_unescape(f, Escape::Fragment).map_err(|e| e.to_string())?;
        if url_escape(&url.fragment, Escape::Fragment) != f {
            url.raw_fragment = f.to_string();
        }
    }
    Ok(url)
}

/// Go's `validEncoded`: `s` may stand escaped as it is in a piece `mode` of a URL.
fn valid_encoded(s: &str, mode: Escape) -> bool {
    s.bytes().all(|b| {
        b"!$&'()*+,;=:@[]%".contains(&b)
            || !url_escape(&(b as char).to_string(), mode).starts_with('%')
    }) && s.is_ascii()
}

/// Go's `EscapedPath` / `EscapedFragment`: the text as given when it is a valid escaping of
/// the value, else the value escaped.
fn escaped(raw: &str, value: &str, mode: Escape) -> String {
    let same = url_unescape(raw, mode).is_ok_and(|u| u == value);
    if !raw.is_empty() && valid_encoded(raw, mode) && same {
        return raw.to_string();
    }
    if mode == Escape::Path && value == "*" {
        return "*".into();
    }
    url_escape(value, mode)
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
    fn string(&self) -> String {
        let mut out = String::new();
        if !self.scheme.is_empty() {
            out.push_str(&self.scheme);
            out.push(':');
        }
        if !self.opaque.is_empty() {
            out.push_str(&self.opaque);
        } else {
            let authority = !self.scheme.is_empty() || !self.host.is_empty() || self.user.is_some();
            let omitted = self.omit_host && self.host.is_empty() && self.user.is_none();
            if authority && !omitted {
                if !self.host.is_empty() || !self.path.is_empty() || self.user.is_some() {
                    out.push_str("//");
                }
                if let Some(user) = &self.user {
                    out.push_str(&user.string());
                    out.push('@');
                }
                out.push_str(&url_escape(&self.host, Escape::Host));
            }
            let path = escaped(&self.raw_path, &self.path, Escape::Path);
            if !path.is_empty() && !path.starts_with('/') && !self.host.is_empty() {
                out.push('/');
            }
            if out.is_empty() && path.split('/').next().unwrap_or("").contains(':') {
                out.push_str("./");
            }
            out.push_str(&path);
        }
        if self.force_query || !self.raw_query.is_empty() {
            out.push('?');
            out.push_str(&self.raw_query);
        }
        if !self.fragment.is_empty() {
            out.push('#');
            out.push_str(&escaped(
                &self.raw_fragment,
                &self.fragment,
                Escape::Fragment,
            ));
        }
        out
    }

    /// Go's `URL.Hostname`: the host without its port and brackets.
    fn hostname(&self) -> &str {
        let mut host = self.host.as_str();
        if let Some(colon) = host.rfind(':') {
            if valid_optional_port(&host[colon..]) {
                host = &host[..colon];
            }
        }
        host.strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
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
    ) -> anyhow::Result<String> {
        no_args("url.value.string", &args)?;
        Ok(this.string())
    }

    fn hostname<'v>(
        this: &Url,
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
    ) -> anyhow::Result<String> {
        no_args("url.value.hostname", &args)?;
        Ok(this.hostname().to_string())
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
    fn name(this: &UrlUser) -> anyhow::Result<String> {
        Ok(this.name.clone())
    }

    #[starlark(attribute)]
    fn password(this: &UrlUser) -> anyhow::Result<NoneOr<String>> {
        Ok(match &this.password {
            Some(p) => NoneOr::Other(p.clone()),
            None => NoneOr::None,
        })
    }
}

#[starlark_value(type = URL_TYPE)]
impl<'v> StarlarkValue<'v> for Url {
    fn get_methods() -> Option<&'static Methods> {
        static RES: MethodsStatic = MethodsStatic::new("url_value", url_methods);
        Some(RES.methods())
    }
}

#[starlark_value(type = USER_TYPE)]
impl<'v> StarlarkValue<'v> for UrlUser {
    fn get_methods() -> Option<&'static Methods> {
        static RES: MethodsStatic = MethodsStatic::new("url_user", user_methods);
        Some(RES.methods())
    }
}

/// `url.parse(text)`.
pub(super) fn parse_value<'v>(text: &str, heap: Heap<'v>) -> anyhow::Result<Value<'v>> {
    let url = parse(text).map_err(|e| anyhow::anyhow!("url.parse: {e}"))?;
    Ok(heap.alloc(url))
}
