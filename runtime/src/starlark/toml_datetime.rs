//! BurntSushi's check of a datetime the lexer read (`valueDatetime` of its v1.2.1): the text,
//! with ` ` and `t` made `T` and `z` made `Z`, must be one of four layouts as Go's
//! `time.ParseInLocation` reads them, or the decoder says `Invalid TOML Datetime: "..."`.
//! (A datetime it takes is a Go `time.Time`, which ytt cannot convert: its panic, not an error.)

/// One element of a Go time layout.
#[derive(Clone, Copy)]
enum Element {
    /// `2006`: four characters, read as an integer.
    Year,
    /// `01`: two digits, 1 to 12.
    Month,
    /// `02`: two digits, checked against the month's days at the end.
    Day,
    /// `15`: one or two digits, 0 to 23.
    Hour,
    /// `04`: two digits, 0 to 59.
    Minute,
    /// `05`: two digits, 0 to 59.
    Second,
    /// `.999999999`: a `.` or `,` and one to nine digits (the Go that built ytt's takes no
    /// more: a tenth is left to the next element, which refuses it), or nothing.
    Fraction,
    /// `Z07:00`: `Z`, or a sign, two digits, `:` and two digits.
    Zone,
    /// Text that must be there as it is.
    Literal(u8),
}

use Element::*;

/// A local datetime's layout (`2006-01-02T15:04:05.999999999`).
const DATETIME: &[Element] = &[
    Year,
    Literal(b'-'),
    Month,
    Literal(b'-'),
    Day,
    Literal(b'T'),
    Hour,
    Literal(b':'),
    Minute,
    Literal(b':'),
    Second,
    Fraction,
];

/// BurntSushi's layouts, tried in order: `time.RFC3339Nano` (a local datetime's and a zone), a
/// local datetime, a local date and a local time; each with whether a zone ends it.
const LAYOUTS: [(&[Element], bool); 4] = [
    (DATETIME, true),
    (DATETIME, false),
    (&[Year, Literal(b'-'), Month, Literal(b'-'), Day], false),
    (
        &[Hour, Literal(b':'), Minute, Literal(b':'), Second, Fraction],
        false,
    ),
];

/// BurntSushi's refusal of the datetime `text` (the lexer's item), if any.
pub(super) fn datetime_problem(text: &str) -> Option<String> {
    let replaced: String = text
        .chars()
        .map(|c| match c {
            ' ' | 't' => 'T',
            'z' => 'Z',
            c => c,
        })
        .collect();
    let parses = LAYOUTS
        .iter()
        .any(|&(layout, zone)| parses(layout, zone, replaced.as_bytes()));
    (!parses).then(|| {
        format!(
            "Invalid TOML Datetime: {}.",
            super::toml_lexer::quote_text(replaced.as_bytes())
        )
    })
}

/// Go's `getnum`: two digits, or (not `fixed`) one; the number and what follows.
fn number(value: &[u8], fixed: bool) -> Option<(u32, &[u8])> {
    let digit = |i: usize| {
        value
            .get(i)
            .filter(|b| b.is_ascii_digit())
            .map(|b| u32::from(b - b'0'))
    };
    let first = digit(0)?;
    match digit(1) {
        Some(second) => Some((first * 10 + second, &value[2..])),
        None if fixed => None,
        None => Some((first, &value[1..])),
    }
}

/// Whether Go's `time.Parse` reads all of `value` by `layout` (and a zone after it if `zone`),
/// the date a real one.
fn parses(layout: &[Element], zone: bool, mut value: &[u8]) -> bool {
    let (mut year, mut month, mut day) = (0i64, 1u32, 1u32);
    let zone = zone.then_some(&Zone);
    for element in layout.iter().chain(zone) {
        value = match *element {
            Literal(c) => match value.split_first() {
                Some((&first, rest)) if first == c => rest,
                _ => return false,
            },
            Year => {
                // Go's atoi of four characters: the lexer's datetime starts with a digit.
                let Some(digits) = value.get(..4).filter(|d| d.iter().all(u8::is_ascii_digit))
                else {
                    return false;
                };
                year = digits.iter().fold(0, |y, d| y * 10 + i64::from(d - b'0'));
                &value[4..]
            }
            Month | Day | Hour | Minute | Second => {
                let Some((n, rest)) = number(value, !matches!(element, Hour)) else {
                    return false;
                };
                let in_range = match element {
                    Month => (1..=12).contains(&n),
                    Day => n <= 31,
                    Hour => n < 24,
                    _ => n < 60,
                };
                if !in_range {
                    return false;
                }
                match element {
                    Month => month = n,
                    Day => day = n,
                    _ => {}
                }
                rest
            }
            Fraction => match value {
                [b'.' | b',', d, ..] if d.is_ascii_digit() => {
                    let digits = value[1..]
                        .iter()
                        .take(9)
                        .take_while(|b| b.is_ascii_digit())
                        .count();
                    &value[1 + digits..]
                }
                _ => value,
            },
            Zone => match value {
                [b'Z', rest @ ..] => rest,
                // Any two digits of hours and of minutes (ytt's Go checks no range: `+25:00`
                // is a time ytt cannot convert).
                [sign, rest @ ..] if value.len() >= 6 && value[3] == b':' => {
                    let digits = number(&rest[..2], true).and(number(&rest[3..5], true));
                    if digits.is_none() || !matches!(sign, b'+' | b'-') {
                        return false;
                    }
                    &value[6..]
                }
                _ => return false,
            },
        };
    }
    value.is_empty() && (1..=days_in(month, year)).contains(&day)
}

/// The days of `month` in `year` (Go's `daysIn`).
fn days_in(month: u32, year: i64) -> u32 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::datetime_problem;

    #[test]
    fn go_reads_the_four_layouts_and_refuses_the_rest() {
        for ok in [
            "1979-05-27T07:32:00Z",
            "1979-05-27 07:32:00.999-07:00",
            "1979-05-27t07:32:00z",
            "1979-05-27T07:32:00",
            "2000-02-29",
            "7:32:00",
            "07:32:00.5",
            "07:32:00.123456789",
            "1979-05-27T07:32:00.123456789+01:00",
            "1979-05-27T07:32:00+25:00",
        ] {
            assert_eq!(datetime_problem(ok), None, "{ok}");
        }
        for (bad, words) in [
            ("1979-13-27T07:32:00Z", "\"1979-13-27T07:32:00Z\""),
            ("1979-05-27 07:32", "\"1979-05-27T07:32\""),
            ("1900-02-29", "\"1900-02-29\""),
            ("07:32:61", "\"07:32:61\""),
            ("07:32:00.", "\"07:32:00.\""),
            ("07:32:00.1234567890", "\"07:32:00.1234567890\""),
            (
                "1979-05-27T07:32:00.1234567890Z",
                "\"1979-05-27T07:32:00.1234567890Z\"",
            ),
            ("1979-05-27T07:32:00-0700", "\"1979-05-27T07:32:00-0700\""),
        ] {
            assert_eq!(
                datetime_problem(bad),
                Some(format!("Invalid TOML Datetime: {words}.")),
            );
        }
    }
}
