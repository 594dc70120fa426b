//! The formats of `format="F"`, each with one exact definition (the README's table repeats it).
//!
//! ## What it checks
//! A string (for `port` and `percent` also a number) against the grammar and ranges of the
//! standard that names the format: RFC 3339 for `date-time`, `date` and `time` (calendar checked
//! by `jiff`), RFC 5321/5322 addresses for `email` (the `email_address` crate), RFC 1123 for
//! `hostname`, Rust's `std::net` for IP addresses (no leading zeros, no zone index), RFC 3986
//! absolute URIs for `uri` (the `fluent-uri` crate), Go's `time.ParseDuration` for `duration`
//! and Kubernetes' `resource.ParseQuantity` grammar for `quantity`.
//!
//! ## ytt equivalent
//! None: ytt's validations design proposed `format=`, ytt never shipped it.
//!
//! ## Example
//! `#@schema/validation format="hostname"` passes `api.example.com`, fails `bad_host`.

use crate::value::Value;

/// The formats `format=` knows, in the order error messages list them.
pub const FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "email",
    "hostname",
    "ip",
    "ipv4",
    "ipv6",
    "uri",
    "port",
    "percent",
    "duration",
    "quantity",
];

/// Whether `value` is a valid `format`; `None` when the value's type cannot be one (not a
/// string, and not a number where the format takes numbers).
pub fn is_valid(format: &str, value: &Value) -> Option<bool> {
    match (format, value) {
        ("port", Value::Int(p)) => Some((1..=65535).contains(p)),
        ("percent", Value::Int(p)) => Some((0..=100).contains(p)),
        ("port" | "percent", Value::UInt(_)) => Some(false),
        ("percent", Value::Float(p)) => Some((0.0..=100.0).contains(p)),
        (_, Value::Str(s)) => Some(is_valid_str(format, s)),
        _ => None,
    }
}

fn is_valid_str(format: &str, s: &str) -> bool {
    match format {
        "date-time" => date_time(s),
        "date" => fields(s, DATE).is_some_and(|f| real_date(&f)),
        "time" => time(s),
        "email" => email(s),
        "hostname" => hostname(s),
        "ip" => s.parse::<std::net::IpAddr>().is_ok(),
        "ipv4" => s.parse::<std::net::Ipv4Addr>().is_ok(),
        "ipv6" => s.parse::<std::net::Ipv6Addr>().is_ok(),
        "uri" => fluent_uri::Uri::parse(s).is_ok(),
        "port" => port(s),
        "percent" => percent(s),
        "duration" => go_duration_nanos(s).is_some(),
        "quantity" => quantity(s),
        _ => false,
    }
}

/// RFC 3339 `full-date`: `YYYY-MM-DD`.
const DATE: &str = "dddd-dd-dd";
/// RFC 3339 `partial-time` without `time-secfrac`: `HH:MM:SS`.
const TIME: &str = "dd:dd:dd";

/// Reads `s` against a pattern where `d` is one ASCII digit and any other byte stands for
/// itself, and returns the numbers between the literals (`"2024-01-15"` gives 2024, 1, 15).
fn fields(s: &str, pattern: &str) -> Option<Vec<u32>> {
    if s.len() != pattern.len() {
        return None;
    }
    let mut numbers = Vec::new();
    let mut current: Option<u32> = None;
    for (c, p) in s.bytes().zip(pattern.bytes()) {
        match p {
            b'd' if c.is_ascii_digit() => {
                current = Some(current.unwrap_or(0) * 10 + u32::from(c - b'0'))
            }
            b'd' => return None,
            _ if c == p => numbers.extend(current.take()),
            _ => return None,
        }
    }
    numbers.extend(current);
    Some(numbers)
}

/// A date that exists in the proleptic Gregorian calendar (`jiff` knows February 29).
fn real_date(f: &[u32]) -> bool {
    let [year, month, day] = f else { return false };
    let small = |n: u32| i8::try_from(n).ok();
    match (i16::try_from(*year), small(*month), small(*day)) {
        (Ok(y), Some(m), Some(d)) => jiff::civil::Date::new(y, m, d).is_ok(),
        _ => false,
    }
}

/// RFC 3339 `date-time`: `full-date "T" full-time`, `T` and `Z` in either case.
fn date_time(s: &str) -> bool {
    let (Some(date), Some(rest)) = (s.get(..10), s.get(11..)) else {
        return false;
    };
    matches!(s.as_bytes()[10], b'T' | b't')
        && fields(date, DATE).is_some_and(|f| real_date(&f))
        && full_time(rest, true)
}

/// RFC 3339 `partial-time`, with an optional `time-offset`.
fn time(s: &str) -> bool {
    full_time(s, false)
}

/// `HH:MM:SS[.frac]` then `Z` or `±HH:MM` (required when `offset_required`). Hours 00–23,
/// minutes 00–59, seconds 00–59, or 60 for a leap second, which is 23:59:60 in UTC.
fn full_time(s: &str, offset_required: bool) -> bool {
    let Some(clock) = s.get(..8).and_then(|c| fields(c, TIME)) else {
        return false;
    };
    let mut rest = &s[8..];
    if let Some(frac) = rest.strip_prefix('.') {
        let n = frac.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return false;
        }
        rest = &frac[n..];
    }
    let offset_minutes: Option<i64> = match rest.as_bytes().first() {
        None if offset_required => return false,
        None => None,
        Some(b'Z' | b'z') if rest.len() == 1 => Some(0),
        Some(&sign @ (b'+' | b'-')) => match fields(&rest[1..], "dd:dd").as_deref() {
            Some(&[h, m]) if h <= 23 && m <= 59 => {
                let minutes = i64::from(h * 60 + m);
                Some(if sign == b'-' { -minutes } else { minutes })
            }
            _ => return false,
        },
        Some(_) => return false,
    };
    let [h, m, sec] = clock[..] else { return false };
    if h > 23 || m > 59 || sec > 60 {
        return false;
    }
    // A leap second is the last second of a UTC day; without an offset, of the day as written.
    let utc_minute = (i64::from(h * 60 + m) - offset_minutes.unwrap_or(0)).rem_euclid(24 * 60);
    sec < 60 || utc_minute == 23 * 60 + 59
}

/// An `addr-spec` (`local@domain`, no display name) as the `email_address` crate reads RFC
/// 5321/5322: dot-atom or quoted local part, a domain of one or more labels or an address literal.
fn email(s: &str) -> bool {
    let options = email_address::Options::default().without_display_text();
    email_address::EmailAddress::parse_with_options(s, options).is_ok()
}

/// An RFC 1123 host name: dot-separated labels of 1–63 ASCII letters, digits and hyphens, not
/// starting or ending with a hyphen, 253 bytes at most, no trailing dot.
fn hostname(s: &str) -> bool {
    let label_ok = |l: &str| {
        (1..=63).contains(&l.len())
            && !l.starts_with('-')
            && !l.ends_with('-')
            && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
    };
    s.len() <= 253 && s.split('.').all(label_ok)
}

/// A port number as text: decimal digits without sign or leading zero, 1–65535.
fn port(s: &str) -> bool {
    !s.starts_with('0')
        && s.bytes().all(|b| b.is_ascii_digit())
        && s.parse::<u32>().is_ok_and(|p| (1..=65535).contains(&p))
}

/// A percentage as text: `digits[.digits]`, optionally followed by `%`, from 0 to 100.
fn percent(s: &str) -> bool {
    let number = s.strip_suffix('%').unwrap_or(s);
    let (int, frac) = number.split_once('.').unwrap_or((number, "0"));
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    digits(int)
        && digits(frac)
        && number
            .parse::<f64>()
            .is_ok_and(|p| (0.0..=100.0).contains(&p))
}

/// Go's `time.ParseDuration`: the duration in nanoseconds, or `None` where Go returns an error
/// (a bad number, a missing or unknown unit, more than `time.Duration`'s ±2^63−1 ns).
pub fn go_duration_nanos(s: &str) -> Option<i128> {
    const LIMIT: u64 = 1 << 63;
    let (neg, mut s) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if s == "0" {
        return Some(0);
    }
    if s.is_empty() {
        return None;
    }
    let mut total: u64 = 0;
    while !s.is_empty() {
        if !s.starts_with(|c: char| c == '.' || c.is_ascii_digit()) {
            return None;
        }
        // The integer part, refusing to pass 2^63.
        let int_len = s.bytes().take_while(u8::is_ascii_digit).count();
        let mut v: u64 = 0;
        for c in s[..int_len].bytes() {
            if v > LIMIT / 10 {
                return None;
            }
            v = v * 10 + u64::from(c - b'0');
            if v > LIMIT {
                return None;
            }
        }
        s = &s[int_len..];
        // The fraction, whose digits past 2^63 are ignored.
        let (mut f, mut scale, mut frac_len) = (0u64, 1f64, 0);
        if let Some(rest) = s.strip_prefix('.') {
            frac_len = rest.bytes().take_while(u8::is_ascii_digit).count();
            let mut overflow = false;
            for c in rest[..frac_len].bytes() {
                if overflow || f > (LIMIT - 1) / 10 {
                    overflow = true;
                    continue;
                }
                let y = f * 10 + u64::from(c - b'0');
                if y > LIMIT {
                    overflow = true;
                    continue;
                }
                f = y;
                scale *= 10.0;
            }
            s = &rest[frac_len..];
        }
        if int_len == 0 && frac_len == 0 {
            return None;
        }
        let unit_len = s
            .find(|c: char| c == '.' || c.is_ascii_digit())
            .unwrap_or(s.len());
        let unit: u64 = match &s[..unit_len] {
            "ns" => 1,
            "us" | "\u{b5}s" | "\u{3bc}s" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            _ => return None,
        };
        s = &s[unit_len..];
        if v > LIMIT / unit {
            return None;
        }
        v *= unit;
        if f > 0 {
            // Go converts with a float here (as a float to uint64 conversion, saturating).
            v = v.checked_add((f as f64 * (unit as f64 / scale)) as u64)?;
            if v > LIMIT {
                return None;
            }
        }
        total = total.checked_add(v).filter(|&t| t <= LIMIT)?;
    }
    match neg {
        true => Some(-i128::from(total)),
        false if total < LIMIT => Some(i128::from(total)),
        false => None,
    }
}

/// A Kubernetes quantity (`resource.ParseQuantity`'s grammar): an optionally signed decimal
/// (`1`, `1.5`, `1.`, `.5`) followed by nothing, a binary suffix (`Ki` … `Ei`), a decimal suffix
/// (`n`, `u`, `m`, `k`, `M`, `G`, `T`, `P`, `E`) or an exponent (`e3`, `E-2`).
fn quantity(s: &str) -> bool {
    let s = s.strip_prefix(['+', '-']).unwrap_or(s);
    let num_len = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let (num, suffix) = s.split_at(num_len);
    if num.is_empty() || num == "." || num.matches('.').count() > 1 {
        return false;
    }
    const SUFFIXES: &[&str] = &[
        "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "n", "u", "m", "k", "M", "G", "T", "P", "E",
    ];
    if SUFFIXES.contains(&suffix) {
        return true;
    }
    let exp = suffix
        .strip_prefix(['e', 'E'])
        .map(|e| e.strip_prefix(['+', '-']).unwrap_or(e));
    exp.is_some_and(|e| !e.is_empty() && e.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(format: &str, good: &[&str], bad: &[&str]) {
        for s in good {
            assert_eq!(
                is_valid(format, &Value::Str((*s).into())),
                Some(true),
                "{format}: {s:?} should pass"
            );
        }
        for s in bad {
            assert_eq!(
                is_valid(format, &Value::Str((*s).into())),
                Some(false),
                "{format}: {s:?} should fail"
            );
        }
    }

    #[test]
    fn date() {
        check(
            "date",
            &[
                "2024-02-29",
                "2023-12-31",
                "0000-01-01",
                "9999-12-31",
                "2000-02-29",
            ],
            &[
                "2023-02-30",
                "2023-02-29",
                "1900-02-29",
                "2024-04-31",
                "2024-13-01",
                "2024-00-10",
                "2024-01-00",
                "2024-1-5",
                "24-01-05",
                "2024-01-15T00:00:00Z",
                "2024/01/15",
                "",
                "２０２４-01-01",
            ],
        );
    }

    #[test]
    fn date_time() {
        check(
            "date-time",
            &[
                "2024-01-15T10:00:00Z",
                "2024-01-15t10:00:00z",
                "2024-01-15T10:00:00.123456789+05:30",
                "2024-01-15T23:59:59-23:59",
                "1998-12-31T23:59:60Z",
                "1998-12-31T15:59:60-08:00",
            ],
            &[
                "2024-01-15T10:00:00+99:99",
                "2024-01-15T10:00:00+24:00",
                "2024-01-15T10:00:00+05:60",
                "2024-01-15T10:00:00",
                "2024-01-15 10:00:00Z",
                "2023-02-30T10:00:00Z",
                "2024-01-15T24:00:00Z",
                "2024-01-15T10:60:00Z",
                "2024-01-15T10:00:61Z",
                "1998-12-31T22:59:60Z",
                "2024-01-15T10:00Z",
                "2024-01-15T10:00:00.Z",
                "2024-01-15T10:00:00+0530",
                "2024-01-15T10:00:00ZZ",
                "2024-01-15",
            ],
        );
    }

    #[test]
    fn time() {
        check(
            "time",
            &[
                "23:59:59",
                "00:00:00.5+01:00",
                "10:00:00Z",
                "23:59:60",
                "01:29:60+01:30",
            ],
            &[
                "24:00:00",
                "10:00",
                "10:00:00+99:99",
                "22:59:60Z",
                "1:00:00",
                "10:00:00.",
                "10:00:00 ",
                "T10:00:00",
            ],
        );
    }

    #[test]
    fn email() {
        check(
            "email",
            &[
                "root@localhost",
                "a@example.com",
                "first.last+tag@sub.example.org",
                "\"quoted local\"@example.com",
                "a@[127.0.0.1]",
            ],
            &[
                "a@b@c",
                "@example.com",
                "a@",
                "no-at-sign",
                "a b@example.com",
                "Name <a@example.com>",
                "a..b@example.com",
                ".a@example.com",
                "a@-example.com",
            ],
        );
    }

    #[test]
    fn hostname() {
        let longest_label = "a".repeat(63);
        let too_long = [
            "a".repeat(63),
            "b".repeat(63),
            "c".repeat(63),
            "d".repeat(62),
        ]
        .join(".");
        check(
            "hostname",
            &[
                "localhost",
                "api.example.com",
                "EXAMPLE.com",
                "1.example",
                "xn--bcher-kva.example",
                &longest_label,
                &too_long[..253],
            ],
            &[
                "-bad-.com",
                "bad-.com",
                "bad_host",
                "a..b",
                ".a",
                "a.",
                "",
                &format!("{longest_label}a"),
                &too_long,
                "ex ample.com",
                "bücher.example",
            ],
        );
    }

    #[test]
    fn ip_addresses() {
        check(
            "ip",
            &[
                "10.0.0.1",
                "::1",
                "2001:db8::8a2e:370:7334",
                "::ffff:192.0.2.1",
            ],
            &[
                "1.2.3",
                "10.0.0.256",
                "010.0.0.1",
                "fe80::1%eth0",
                "::1::",
                " 10.0.0.1",
                "",
            ],
        );
        check(
            "ipv4",
            &["0.0.0.0", "255.255.255.255"],
            &["::1", "1.2.3.4.5", "1.2.3.-4", "01.2.3.4"],
        );
        check(
            "ipv6",
            &["::", "fe80::1", "1:2:3:4:5:6:7:8"],
            &["10.0.0.1", "1:2:3:4:5:6:7:8:9", "[::1]", "g::1"],
        );
    }

    #[test]
    fn uri() {
        check(
            "uri",
            &[
                "https://example.com/x?q=1#frag",
                "urn:isbn:0451450523",
                "mailto:a@example.com",
                "a:b",
                "http://[::1]:8080/",
                "file:///etc/hosts",
                "https://example.com/%20x",
            ],
            &[
                "a:<script>",
                "no scheme",
                "/relative/path",
                "//example.com",
                "1http://x",
                "http://exa mple.com",
                "https://example.com/%zz",
                "http://[::1/",
                "",
            ],
        );
    }

    #[test]
    fn port() {
        check(
            "port",
            &["1", "80", "8080", "65535"],
            &[
                "+80", "-1", "0", "080", "65536", "70000", "80 ", "8O", "", "1e3",
            ],
        );
        assert_eq!(is_valid("port", &Value::Int(443)), Some(true));
        assert_eq!(is_valid("port", &Value::Int(0)), Some(false));
        assert_eq!(is_valid("port", &Value::Int(65536)), Some(false));
        assert_eq!(is_valid("port", &Value::Float(80.0)), None);
    }

    #[test]
    fn percent() {
        check(
            "percent",
            &["0", "50%", "100%", "99.5", "0.0%"],
            &[
                "150%", "100.1", "-1", "+5", "50 %", "%", ".5", "5.", "1e1", "NaN", "inf", "",
            ],
        );
        assert_eq!(is_valid("percent", &Value::Float(12.5)), Some(true));
        assert_eq!(is_valid("percent", &Value::Int(101)), Some(false));
        assert_eq!(is_valid("percent", &Value::Bool(true)), None);
    }

    #[test]
    fn duration_follows_go() {
        let ns = |s: &str| go_duration_nanos(s);
        assert_eq!(ns("0"), Some(0));
        assert_eq!(ns("-0"), Some(0));
        assert_eq!(ns("1h30m"), Some(5_400_000_000_000));
        assert_eq!(ns("300ms"), Some(300_000_000));
        assert_eq!(ns("-1.5h"), Some(-5_400_000_000_000));
        assert_eq!(ns(".5s"), Some(500_000_000));
        assert_eq!(ns("5.s"), Some(5_000_000_000));
        assert_eq!(ns("1µs"), Some(1_000));
        assert_eq!(ns("1μs"), Some(1_000));
        assert_eq!(ns("1h1h"), Some(7_200_000_000_000));
        assert_eq!(ns("2562047h"), Some(2_562_047 * 3_600_000_000_000));
        assert_eq!(ns("2562047h47m16.854775807s"), Some(i64::MAX.into()));
        assert_eq!(ns("-2562047h47m16.854775808s"), Some(i64::MIN.into()));
        for bad in [
            "",
            "1",
            "+",
            "-",
            "1x",
            "1hm",
            "h",
            ".s",
            "1.2.3s",
            "9999999999h",
            "2562048h",
            "2562047h47m16.854775808s",
            "9223372036854775808ns",
            "1 h",
            "1H",
        ] {
            assert_eq!(ns(bad), None, "{bad:?}");
        }
        check("duration", &["1h30m", "0"], &["9999999999h", "1x"]);
    }

    #[test]
    fn quantity() {
        check(
            "quantity",
            &[
                "1", "1.5Gi", "100m", "2e3", "1E-2", "+1k", "-1", ".5", "1.", "5Ei",
            ],
            &["1.5GB", "", ".", "1.2.3", "Gi", "1e", "1 Gi", "1ki", "0x10"],
        );
    }
}
