//! `@ytt:ip`: `parse_addr` and `parse_cidr` with Go's `net.ParseIP`/`net.ParseCIDR` rules, and
//! the address and network values they return (`@ytt:ip.addr`, `@ytt:ip.net`), which print as
//! structs and do not become YAML without `.string()`.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr};

use allocative::Allocative;
use starlark::collections::SmallMap;
use starlark::environment::{GlobalsBuilder, Methods, MethodsBuilder, MethodsStatic};
use starlark::starlark_module;
use starlark::values::tuple::UnpackTuple;
use starlark::values::{
    starlark_value, Heap, NoSerialize, ProvidesStaticType, StarlarkValue, StringValue, Value,
};
use starlark::{starlark_simple_value, StarlarkPagable};

use super::ytt_struct::{library_struct_methods, LibraryStruct};

type Kwargs<'v> = SmallMap<StringValue<'v>, Value<'v>>;

/// An IP address as Go holds it: 4 bytes, or 16 (IPv4 addresses parsed from text are 16 bytes,
/// mapped into IPv6, and count as IPv4).
#[derive(Debug, Clone, Default, ProvidesStaticType, NoSerialize, Allocative, StarlarkPagable)]
pub struct IpAddress {
    bytes: Vec<u8>,
}

/// A network: its address (masked) and mask, as Go's `net.IPNet`.
#[derive(Debug, Clone, Default, ProvidesStaticType, NoSerialize, Allocative, StarlarkPagable)]
pub struct IpNetwork {
    ip: Vec<u8>,
    mask: Vec<u8>,
}

starlark_simple_value!(IpAddress);
starlark_simple_value!(IpNetwork);

/// The types' names, as `type()` gives them and ytt's conversion error names them.
pub const ADDR_TYPE: &str = "@ytt:ip.addr";
pub const NET_TYPE: &str = "@ytt:ip.net";

impl fmt::Display for IpAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("struct(...)")
    }
}

impl fmt::Display for IpNetwork {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("struct(...)")
    }
}

/// The 4 bytes of an IPv4 address held in 4 or 16 bytes (Go's `IP.To4`).
fn to4(ip: &[u8]) -> Option<[u8; 4]> {
    match ip.len() {
        4 => ip.try_into().ok(),
        16 if ip[..10].iter().all(|&b| b == 0) && ip[10] == 0xff && ip[11] == 0xff => {
            ip[12..].try_into().ok()
        }
        _ => None,
    }
}

/// Go's `IP.String`: dotted IPv4 for a 4-byte or mapped address, else IPv6 with the longest
/// run of two or more zero groups (the first of equals) written `::`.
fn ip_string(ip: &[u8]) -> String {
    if let Some(v4) = to4(ip) {
        return Ipv4Addr::from(v4).to_string();
    }
    let Ok(bytes) = <[u8; 16]>::try_from(ip) else {
        return "?".to_string();
    };
    let groups: Vec<u16> = bytes
        .chunks(2)
        .map(|c| u16::from_be_bytes([c[0], c[1]]))
        .collect();
    let (mut best, mut best_len) = (usize::MAX, 1);
    let mut i = 0;
    while i < 8 {
        let start = i;
        while i < 8 && groups[i] == 0 {
            i += 1;
        }
        if i - start > best_len {
            (best, best_len) = (start, i - start);
        }
        i += 1;
    }
    let hex = |g: &[u16]| {
        g.iter()
            .map(|x| format!("{x:x}"))
            .collect::<Vec<_>>()
            .join(":")
    };
    if best == usize::MAX {
        return hex(&groups);
    }
    format!(
        "{}::{}",
        hex(&groups[..best]),
        hex(&groups[best + best_len..])
    )
}

/// Go's `net.ParseIP`: IPv4 dotted decimal (no leading zeros) as 16 bytes, or IPv6 without a
/// zone.
fn parse_ip(s: &str) -> Option<Vec<u8>> {
    match s.parse::<IpAddr>().ok()? {
        IpAddr::V4(v4) => Some(v4.to_ipv6_mapped().octets().to_vec()),
        IpAddr::V6(v6) => Some(v6.octets().to_vec()),
    }
}

/// Go's `net.ParseCIDR`: the address (16 bytes) and the network, whose address is masked and
/// 4 bytes long for IPv4 text.
fn parse_cidr(s: &str) -> Option<(Vec<u8>, IpNetwork)> {
    let (addr, bits) = s.split_once('/')?;
    let ip = parse_ip(addr)?;
    let v4_text = !addr.contains(':');
    let width = if v4_text { 32 } else { 128 };
    if bits.is_empty() || !bits.bytes().all(|b| b.is_ascii_digit()) || bits.len() > 7 {
        return None;
    }
    let ones: usize = bits.parse().ok()?;
    if ones > width {
        return None;
    }
    let mask: Vec<u8> = (0..width / 8)
        .map(|i| {
            let taken = ones.saturating_sub(i * 8).min(8);
            (0xffu16 << (8 - taken)) as u8
        })
        .collect();
    let base: Vec<u8> = if v4_text {
        ip[12..].to_vec()
    } else {
        ip.clone()
    };
    let masked = base.iter().zip(&mask).map(|(a, m)| a & m).collect();
    Some((ip, IpNetwork { ip: masked, mask }))
}

/// Go's `IPNet.String`: the address, `/`, and the mask's prefix length (taken over the last 4
/// bytes of the mask when the address is IPv4).
fn net_string(net: &IpNetwork) -> String {
    let (ip, mask): (Vec<u8>, &[u8]) = match to4(&net.ip) {
        Some(v4) if net.mask.len() == 16 => (v4.to_vec(), &net.mask[12..]),
        Some(v4) => (v4.to_vec(), &net.mask),
        None => (net.ip.clone(), &net.mask),
    };
    let ones: u32 = mask.iter().map(|b| b.count_ones()).sum();
    format!("{}/{ones}", ip_string(&ip))
}

/// A method's check that it was given no positional arguments (keywords are ignored).
fn no_args(name: &str, args: &UnpackTuple<Value>) -> anyhow::Result<()> {
    if !args.items.is_empty() {
        anyhow::bail!("{name}: expected no argument");
    }
    Ok(())
}

#[starlark_module]
fn addr_methods(builder: &mut MethodsBuilder) {
    fn string<'v>(
        this: &IpAddress,
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
    ) -> anyhow::Result<String> {
        no_args("ip.addr.string", &args)?;
        Ok(ip_string(&this.bytes))
    }

    fn is_ipv4<'v>(
        this: &IpAddress,
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
    ) -> anyhow::Result<bool> {
        no_args("ip.addr.is_ipv4", &args)?;
        Ok(to4(&this.bytes).is_some())
    }

    fn is_ipv6<'v>(
        this: &IpAddress,
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
    ) -> anyhow::Result<bool> {
        no_args("ip.addr.is_ipv6", &args)?;
        Ok(to4(&this.bytes).is_none())
    }
}

#[starlark_module]
fn net_methods(builder: &mut MethodsBuilder) {
    fn string<'v>(
        this: &IpNetwork,
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
    ) -> anyhow::Result<String> {
        no_args("ip.net.string", &args)?;
        Ok(net_string(this))
    }

    fn addr<'v>(
        this: &IpNetwork,
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
    ) -> anyhow::Result<IpAddress> {
        no_args("ip.net.addr", &args)?;
        Ok(IpAddress {
            bytes: this.ip.clone(),
        })
    }
}

/// ytt's fields of an address and of a network, in its order (see [`LibraryStruct`]).
const ADDR_FIELDS: LibraryStruct = LibraryStruct {
    type_name: ADDR_TYPE,
    names: &["is_ipv4", "is_ipv6", "string"],
};
const NET_FIELDS: LibraryStruct = LibraryStruct {
    type_name: NET_TYPE,
    names: &["addr", "string"],
};

#[starlark_value(type = ADDR_TYPE)]
impl<'v> StarlarkValue<'v> for IpAddress {
    fn get_methods() -> Option<&'static Methods> {
        static RES: MethodsStatic = MethodsStatic::new("ip_addr", addr_methods);
        Some(RES.methods())
    }

    library_struct_methods!(ADDR_FIELDS);
}

#[starlark_value(type = NET_TYPE)]
impl<'v> StarlarkValue<'v> for IpNetwork {
    fn get_methods() -> Option<&'static Methods> {
        static RES: MethodsStatic = MethodsStatic::new("ip_net", net_methods);
        Some(RES.methods())
    }

    library_struct_methods!(NET_FIELDS);
}

/// What `parse_addr`/`parse_cidr` (named `name`) read from its one string argument (keywords
/// are ignored) with `parse`, or ytt's error `NAME: invalid WHAT: TEXT` (the text's bytes as
/// they are: bytes that are not UTF-8 are no address either).
fn parsed_arg<'v, T>(
    name: &str,
    what: &str,
    args: &UnpackTuple<Value<'v>>,
    parse: impl FnOnce(&str) -> Option<T>,
) -> anyhow::Result<T> {
    let bytes = super::text_modules::only_bytes(name, &args.items)?;
    if let Some(parsed) = std::str::from_utf8(bytes).ok().and_then(parse) {
        return Ok(parsed);
    }
    let text = super::go_bytes::go_text(bytes);
    let message = format!("{name}: invalid {what}: {text}");
    Err(super::go_bytes::quoting_bytes(
        message,
        bytes,
        anyhow::Error::msg,
    ))
}

#[starlark_module]
pub(super) fn ip_members(builder: &mut GlobalsBuilder) {
    fn parse_addr<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
    ) -> anyhow::Result<IpAddress> {
        let bytes = parsed_arg("ip.parse_addr", "IP address", &args, parse_ip)?;
        Ok(IpAddress { bytes })
    }

    /// `(address, network)`.
    fn parse_cidr<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        let (ip, net) = parsed_arg("ip.parse_cidr", "CIDR address", &args, parse_cidr)?;
        Ok(heap.alloc((IpAddress { bytes: ip }, net)))
    }
}
