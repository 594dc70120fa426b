//! Go's `encoding/base64`, as ytt's `@ytt:base64` functions and go-yaml's `!!binary` use it.

/// A Go base64 encoding: the URL alphabet (`url`), no padding (`raw`), decoding refusing set
/// bits after the last byte (`strict`). The default is Go's `base64.StdEncoding`.
#[derive(Default)]
pub(crate) struct Base64 {
    pub url: bool,
    pub raw: bool,
    pub strict: bool,
}

impl Base64 {
    /// `bytes` in this encoding (`@ytt:base64`'s `encode`).
    #[cfg(feature = "starlark")]
    pub(crate) fn encode(&self, bytes: &[u8]) -> String {
        use base64::engine::general_purpose::{
            STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD,
        };
        use base64::Engine as _;
        match (self.url, self.raw) {
            (false, false) => STANDARD.encode(bytes),
            (false, true) => STANDARD_NO_PAD.encode(bytes),
            (true, false) => URL_SAFE.encode(bytes),
            (true, true) => URL_SAFE_NO_PAD.encode(bytes),
        }
    }
}

/// Go's `base64` decoding (`DecodeString` of the encoding `enc` gives): padding required unless
/// raw, line breaks skipped, the bits after the last full byte ignored unless strict; an error
/// names the offset of the first bad byte as Go does.
pub(crate) fn decode(src: &[u8], enc: &Base64) -> Result<Vec<u8>, usize> {
    let sextet = if enc.url { &URL_SEXTETS } else { &STD_SEXTETS };
    let is_break = |b: u8| b == b'\n' || b == b'\r';
    let skip_breaks = |mut at: usize| {
        while at < src.len() && is_break(src[at]) {
            at += 1;
        }
        at
    };
    let mut out = Vec::with_capacity(src.len() / 4 * 3);
    let mut at = 0;
    loop {
        // One quantum: up to four symbols, `count` of them before padding or the end.
        let mut sextets = [0u8; 4];
        let mut count = 0;
        let mut finished = false;
        while count < 4 {
            if at == src.len() {
                if count == 0 {
                    return Ok(out);
                }
                if count == 1 || !enc.raw {
                    return Err(at - count);
                }
                finished = true;
                break;
            }
            let b = src[at];
            at += 1;
            if let Some(i) = sextet[b as usize] {
                sextets[count] = i;
                count += 1;
                continue;
            }
            if is_break(b) {
                continue;
            }
            if b != b'=' || count < 2 || enc.raw {
                return Err(at - 1);
            }
            if count == 2 {
                // `==` is due: the second `=` must follow, line breaks aside.
                at = skip_breaks(at);
                if at == src.len() {
                    return Err(src.len());
                }
                if src[at] != b'=' {
                    return Err(at - 1);
                }
                at += 1;
            }
            at = skip_breaks(at);
            if at < src.len() {
                return Err(at);
            }
            finished = true;
            break;
        }
        let bits = sextets
            .iter()
            .fold(0u32, |acc, &s| (acc << 6) | u32::from(s));
        let bytes = bits.to_be_bytes();
        // Strict: the bits after the last byte of a short quantum must be zero.
        if enc.strict && count < 4 && bytes[count..].iter().any(|&b| b != 0) {
            return Err(at - (4 - count));
        }
        out.extend_from_slice(&bytes[1..count]);
        if finished {
            return Ok(out);
        }
    }
}

/// Each byte's value in the standard alphabet (`+`, `/`), `None` for a byte outside it.
static STD_SEXTETS: [Option<u8>; 256] =
    sextets(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/");
/// Each byte's value in the URL alphabet (`-`, `_`).
static URL_SEXTETS: [Option<u8>; 256] =
    sextets(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_");

const fn sextets(alphabet: &[u8; 64]) -> [Option<u8>; 256] {
    let mut table = [None; 256];
    let mut i = 0;
    while i < 64 {
        table[alphabet[i] as usize] = Some(i as u8);
        i += 1;
    }
    table
}
