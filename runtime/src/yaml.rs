//! Reading and writing YAML the way ytt does.

mod apostrophe;
mod block;
mod bom;
mod builder;
mod comments;
pub mod emit;
mod flow_colon;
mod go_error;
mod go_quirks;
pub mod go_reader;
pub mod json;
mod libyaml_events;
mod one_byte;
pub mod parse;
mod raw_keys;
#[cfg(test)]
mod reader_tests;
mod saphyr_text;
pub mod scalar;
mod tag_uri;

/// The fast block reader against saphyr-parser on `src`, lenient and strict (for the reader
/// tests and the `readers` fuzz target). `Ok(true)` when the block reader read `src` and both
/// give the same nodes, lines, comments and document flags; `Ok(false)` when it left `src` to
/// saphyr-parser; `Err` describes a disagreement. Where the block reader stops at the depth
/// budget saphyr-parser must fail too; where it reads flow collections deeper than
/// saphyr-parser's 255 levels, saphyr-parser's error is expected.
#[doc(hidden)]
pub fn compare_readers(src: &str) -> Result<bool, String> {
    let mut answered = false;
    for strict in [false, true] {
        let depth = parse::budget::Depth::files();
        let full = parse::read_with_saphyr(src, strict, depth, None);
        let fast = match block::read(src, strict, depth.levels) {
            Ok(fast) => fast,
            Err(block::GaveUp::NeedsFullReader) => continue,
            Err(block::GaveUp::TooDeep { line }) => match full {
                Err(_) => continue,
                Ok(_) => {
                    return Err(format!(
                        "the block reader stopped at the depth budget (line {line}), saphyr-parser read it (strict: {strict})"
                    ))
                }
            },
        };
        answered = true;
        match full {
            // `Debug` output too, as `NaN` values are not equal to themselves.
            Ok(full) if fast == full || format!("{fast:?}") == format!("{full:?}") => {}
            Ok(full) => {
                return Err(format!(
                    "readers disagree (strict: {strict}):\n{fast:#?}\n{full:#?}"
                ))
            }
            Err(e) if e.message.contains(parse::SAPHYR_FLOW_LIMIT) => {}
            Err(e) => {
                return Err(format!(
                    "the block reader accepted what saphyr-parser rejects (strict: {strict}): {e:?}"
                ))
            }
        }
    }
    Ok(answered)
}
