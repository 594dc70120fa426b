//! go-yaml's reader: the characters it refuses, and when it meets them.
//!
//! go-yaml (libyaml's reader, `yaml_parser_update_buffer`) reads its input 512 bytes at a time
//! into a raw buffer and decodes the whole buffer as soon as its scanner wants a character past
//! those decoded (a character cut at the buffer's end waits for the next read, which starts
//! with it). Each character is checked as it is decoded: bytes that are not UTF-8 and control
//! characters stop the reader. Such a character past the first 512 bytes is therefore met only
//! when the scanner reads that far: a syntax error before that point is the one go-yaml
//! reports. ytt hands go-yaml a text that does not start with `---` with a `---` line put
//! before it, which moves the reads' boundaries by those 4 bytes.

/// Where go-yaml's reader stops in a file: its complaint, and how many of the file's
/// characters it hands the scanner before the read that holds the bad character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReaderStop {
    pub message: &'static str,
    /// The file's characters decoded before the failing read (0: the first read, before any
    /// token); the scanner asking for the next one meets the error.
    pub chars_before: usize,
}

/// The size of go-yaml's raw buffer (`input_raw_buffer_size`).
const RAW_BUFFER: usize = 512;

/// The line ytt puts before a text that does not start with a document (see
/// [`super::parse::starts_with_document_marker`]).
const PUT_BEFORE: &[u8] = b"---\n";

/// One character as go-yaml's reader decodes it at the start of `bytes`.
pub(crate) enum Decoded {
    /// A character of this many bytes that the reader takes.
    Char(usize),
    /// A character longer than `bytes`.
    Cut,
    /// The reader's complaint about the bytes.
    Refused(&'static str),
}

/// The character at the start of `bytes` (not empty), decoded and checked as go-yaml's reader
/// does; control characters are refused when `controls` is set.
pub(crate) fn decode(bytes: &[u8], controls: bool) -> Decoded {
    let b = bytes[0];
    let (width, first) = match b {
        _ if b & 0x80 == 0 => (1, b & 0x7f),
        _ if b & 0xe0 == 0xc0 => (2, b & 0x1f),
        _ if b & 0xf0 == 0xe0 => (3, b & 0x0f),
        _ if b & 0xf8 == 0xf0 => (4, b & 0x07),
        _ => return Decoded::Refused("invalid leading UTF-8 octet"),
    };
    if width > bytes.len() {
        return Decoded::Cut;
    }
    let mut value = u32::from(first);
    for t in &bytes[1..width] {
        if t & 0xc0 != 0x80 {
            return Decoded::Refused("invalid trailing UTF-8 octet");
        }
        value = (value << 6) | u32::from(t & 0x3f);
    }
    let shortest = match width {
        1 => true,
        2 => value >= 0x80,
        3 => value >= 0x800,
        _ => value >= 0x10000,
    };
    if !shortest {
        return Decoded::Refused("invalid length of a UTF-8 sequence");
    }
    let Some(c) = char::from_u32(value).filter(|_| value <= 0x10ffff) else {
        return Decoded::Refused("invalid Unicode character");
    };
    if controls && !allows(c) {
        return Decoded::Refused("control characters are not allowed");
    }
    Decoded::Char(width)
}

/// Whether go-yaml's reader takes the character `c` (libyaml's printable characters, tab,
/// line breaks and NEL); any other is `control characters are not allowed`.
pub(crate) fn allows(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | ' '..='~' | '\u{85}' | '\u{A0}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}')
        || c >= '\u{10000}'
}

/// Whether go-yaml's reader refuses a character of `text` ([`allows`]). Every byte of every
/// file passes here, so eight at a time: only a word holding a byte that may start a refused
/// character (below a space, DEL, past ASCII) is looked at byte by byte ([`refuses_in`]).
pub fn refuses_any(text: &str) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    // Whether a byte of `x` is below `n` (at most 0x80): exact about whether there is one.
    let below = |x: u64, n: u64| x.wrapping_sub(ONES * n) & !x & HIGH != 0;
    // 0x80 in each byte of `x` that is 0, exactly.
    let zeros = |x: u64| !(((x & LOW) + LOW) | x | LOW);
    let mut words = text.as_bytes().chunks_exact(8);
    let mut at = 0;
    for word in &mut words {
        let x = u64::from_le_bytes(word.try_into().unwrap_or_default());
        // (Line breaks, in most words, made 0x2A first.)
        let breaks_past_space = x | (zeros(x ^ (ONES * u64::from(b'\n'))) >> 2);
        if (x & HIGH != 0 || below(breaks_past_space, 0x20) || below(x ^ (ONES * 0x7f), 1))
            && refuses_in(text, at..at + 8)
        {
            return true;
        }
        at += 8;
    }
    refuses_in(text, at..text.len())
}

/// Whether a character go-yaml's reader refuses starts at a byte of `text` in `range`: ASCII
/// controls and DEL, and past ASCII only after 0xC2 (U+0080–U+009F) or 0xEF (U+FFFE, U+FFFF);
/// `text` being UTF-8, it holds no surrogate.
fn refuses_in(text: &str, range: std::ops::Range<usize>) -> bool {
    let bytes = &text.as_bytes()[range.clone()];
    bytes.iter().zip(range).any(|(&b, i)| match b {
        b'\t' | b'\n' | b'\r' => false,
        0..=0x1f | 0x7f => true,
        0xc2 | 0xef => text[i..].chars().next().is_some_and(|c| !allows(c)),
        _ => false,
    })
}

/// Where go-yaml's reader stops in the file `bytes` that ytt hands it, `None` where it reads
/// it all.
pub fn reader_stop(bytes: &[u8]) -> Option<ReaderStop> {
    // Most files: valid UTF-8 without a control character.
    if std::str::from_utf8(bytes).is_ok_and(|text| !refuses_any(text)) {
        return None;
    }
    let text_start = String::from_utf8_lossy(bytes);
    let put_before = match super::parse::starts_with_document_marker(&text_start) {
        true => &[][..],
        false => PUT_BEFORE,
    };
    let raw: Vec<u8> = [put_before, bytes].concat();
    // (go-yaml skips a byte-order mark at the start of its input; ytt's `---` line or the
    // marker that spares it comes before one.)
    let (mut start, mut at, mut decoded) = (0, 0, 0);
    loop {
        let end = raw.len().min(start + RAW_BUFFER);
        // The characters decoded before this read, the file's only.
        let before = decoded;
        while at < end {
            match decode(&raw[at..end], true) {
                Decoded::Char(width) => {
                    decoded += usize::from(at >= put_before.len());
                    at += width;
                }
                // The next read starts with the cut character; at the end of the input, the
                // reader complains once the scanner asks for it (a read that finds no more).
                Decoded::Cut if end < raw.len() => break,
                Decoded::Cut => {
                    return Some(ReaderStop {
                        message: "incomplete UTF-8 octet sequence",
                        chars_before: decoded,
                    })
                }
                Decoded::Refused(message) => {
                    return Some(ReaderStop {
                        message,
                        chars_before: before,
                    })
                }
            }
        }
        if at >= raw.len() {
            return None;
        }
        start = at;
    }
}

/// The bytes of a text handed to libyaml-safer up to the character where go-yaml's reader
/// stops ([`ReaderStop::chars_before`]), where reading on is an I/O error.
///
/// They are handed over [`READ_CHUNK`] bytes at a time: libyaml-safer decodes all it is given
/// into its buffer of characters (4 bytes each), and given the whole text it held 4 times the
/// text at once. A text holding a character libyaml-safer refuses is handed over whole, as
/// before: it refuses it as it decodes it, so that its error comes before any token's.
pub(super) struct ReadTo<'a> {
    bytes: &'a [u8],
    at: usize,
    stop: Option<usize>,
    /// The most bytes handed over at once.
    chunk: usize,
}

/// Bytes of a text [`ReadTo`] hands to libyaml-safer at once.
const READ_CHUNK: usize = 64 << 10;

impl<'a> ReadTo<'a> {
    pub(super) fn new(text: &'a str, stop: Option<usize>) -> Self {
        let stop = stop.map(|chars| {
            text.char_indices()
                .nth(chars)
                .map_or(text.len(), |(i, _)| i)
        });
        ReadTo {
            bytes: text.as_bytes(),
            at: 0,
            stop,
            chunk: match refuses_any(text) {
                true => usize::MAX,
                false => READ_CHUNK,
            },
        }
    }
}

impl std::io::Read for ReadTo<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = std::io::BufRead::fill_buf(self)?.len().min(buf.len());
        buf[..n].copy_from_slice(&self.bytes[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

impl std::io::BufRead for ReadTo<'_> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        match self.stop {
            Some(stop) if self.at >= stop => Err(std::io::Error::other("go-yaml's reader stops")),
            stop => {
                let end = stop.unwrap_or(self.bytes.len());
                Ok(&self.bytes[self.at..end.min(self.at.saturating_add(self.chunk))])
            }
        }
    }

    fn consume(&mut self, amount: usize) {
        self.at += amount;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time scan finds what [`allows`] refuses, wherever in a word it is.
    #[test]
    fn refuses_any_is_allows_on_every_character() {
        let chars = (0..0x1_0000).chain((0x1_0000..=0x10_ffff).step_by(4099));
        for c in chars.filter_map(char::from_u32) {
            for at in [0, 3, 7, 8, 13] {
                let text = format!("{}{c}\nab\ncdefghij", "x".repeat(at));
                assert_eq!(refuses_any(&text), !allows(c), "{c:?} at {at}");
            }
        }
        assert!(!refuses_any("a: 1\r\n\tb: \u{85}\u{a0}\u{fffd}\n"));
    }

    #[test]
    fn a_bad_character_in_the_first_read_stops_the_reader_at_once() {
        let stop = reader_stop(b"a: \x01\n").unwrap();
        assert_eq!(stop.chars_before, 0);
        assert_eq!(stop.message, "control characters are not allowed");
        // 4 bytes of `---\n` put before the text: its byte 507 is the read's last.
        let mut text = vec![b'x'; 507];
        text.push(0xff);
        assert_eq!(reader_stop(&text).unwrap().chars_before, 0);
        text.insert(0, b'x');
        assert_eq!(reader_stop(&text).unwrap().chars_before, 508);
    }

    #[test]
    fn a_character_cut_by_a_read_is_decoded_in_the_next() {
        // A C1 control character at bytes 510 and 511 of the text (which starts with a
        // document): decoded in the first read; at 511 and 512, in the second.
        let mut text = b"--- ".to_vec();
        text.extend(vec![b'x'; 506]);
        text.extend("\u{80}".as_bytes());
        assert_eq!(reader_stop(&text).unwrap().chars_before, 0);
        text.insert(4, b'x');
        assert_eq!(reader_stop(&text).unwrap().chars_before, 511);
        // Bytes cut at the end of the input: refused when the scanner reads past the rest.
        let stop = reader_stop(b"--- a\xe2\x82").unwrap();
        assert_eq!(stop.message, "incomplete UTF-8 octet sequence");
        assert_eq!(stop.chars_before, 5);
    }
}
