//! Where ytt shows a syntax error read on code that ytt lays out otherwise than the program
//! here: a node's annotations and start (a bracket left open before a node), and the lines ytt
//! generates with no template line of their own (the template's end, the empty document that
//! holds the code lines after a file's last node).

use crate::template::compile::Program;
use crate::template::generated_names::{ANN, SET, START};
use crate::template::TemplateError;

/// The line ytt's code for the node starting at generated line `gen_line` begins on: its
/// annotations' code comes before the node's own (the program here starts the node first, so
/// that the annotations apply to it), so a syntax error read at the end of the line before, or
/// inside the start (`#@ def f(` before an annotated node), is placed on the node's first
/// annotation.
pub(super) fn next_node_line(program: &Program, gen_line: usize) -> Option<u32> {
    let names = &program.names;
    let mut lines = program.source.lines().skip(gen_line);
    if !names.starts(lines.next()?.trim_start(), START, "(") {
        return None;
    }
    let annotations = lines.take_while(|l| names.starts(l.trim_start(), ANN, "("));
    // (The document that annotations after the last node make has no line: 0.)
    (gen_line..)
        .zip(std::iter::once(()).chain(annotations.map(|_| ())))
        .filter_map(|(i, ())| program.line_map.get(i).copied())
        .filter(|&line| line > 0)
        .min()
}

/// The line ytt shows for a syntax error read at the start of generated line `gen_line`, a
/// node's first annotation or the line after a node's start, when the code before it left a
/// bracket open: the node's first line of code then continued the bracket, and the error is on
/// its second. ytt's code for a node is its annotations, then its start, then its value's (a
/// scalar's, or a map or array node's start, on the node's line); here the start comes first
/// (so that the annotations apply to it) and a value has no line of its own: ytt's second line
/// is the node's second annotation, or else its start, or its value's. A node with no line of
/// its own (the document that annotations after the last node make) has ytt's start generated
/// after its annotations: the trailing document's start, written here after them. Returns the
/// generated line of this program that stands for ytt's second line.
pub(super) fn second_node_line(program: &Program, gen_line: usize) -> Option<usize> {
    let names = &program.names;
    let code = |i: usize| program.source.lines().nth(i).map(str::trim_start);
    let is =
        |i: usize, name: &str, after: &str| code(i).is_some_and(|l| names.starts(l, name, after));
    let node = names.strip(code(gen_line.checked_sub(1)?)?, START, "(")?;
    if !left_open(program, gen_line) {
        // The error is the line's own first token (`a:` then `#@ = 1`).
        return None;
    }
    let second = if is(gen_line, ANN, "(") {
        match (
            is(gen_line + 1, ANN, "("),
            program.line_map.get(gen_line - 1),
        ) {
            (true, _) => gen_line + 1,
            (false, Some(0)) => program.trailing_document?.0,
            (false, _) => gen_line - 1,
        }
    } else {
        // A node without annotations or code: ytt sets a scalar value on the node's line, and
        // a map or array value is a node of its own, started on the node's line.
        let id: usize = node.split(')').next()?.parse().ok()?;
        program.nodes.get(id)?;
        if is(gen_line, SET, "") {
            return None;
        }
        gen_line - 1
    };
    Some(second)
}

/// Whether the program's lines before generated line `gen_line` leave a bracket, a string or a
/// `\` continuation open.
fn left_open(program: &Program, gen_line: usize) -> bool {
    lines_leave_open(program.source.lines().take(gen_line))
}

/// Whether `lines` of a program leave a bracket, a string or a `\` continuation open.
fn lines_leave_open<'a>(lines: impl Iterator<Item = &'a str>) -> bool {
    let mut scanner = crate::template::lexer::LineScanner::default();
    lines.for_each(|line| _ = scanner.scan(line.trim_start()));
    scanner.is_open()
}

/// The line ytt shows for a syntax error read on generated line `gen_line` after a node's
/// annotations (a comment after the last one hid its closing parenthesis): ytt starts a node
/// after its annotations, so the token there is on the node's line. When the line after them
/// went on with what they left open (`#@schema/nullable # why`, `#@schema/desc (# why`), as
/// the node's start does in ytt, the token is on ytt's next line: the node's value code or
/// else the node's own line.
pub(super) fn after_annotations_line(program: &Program, gen_line: usize) -> Option<u32> {
    let names = &program.names;
    let lines: Vec<&str> = program.source.lines().take(gen_line + 1).collect();
    let is = |i: usize, name: &str, after: &str| {
        lines
            .get(i)
            .is_some_and(|l| names.starts(l.trim_start(), name, after))
    };
    let annotation = |i: usize| is(i, ANN, "(");
    // The annotations' lines before `end` leave a bracket open (a comment hid a closing
    // parenthesis); otherwise the error is the line's own (`#@ \u{feff}` after a document's
    // `#@data/values`).
    let annotations_left_open = |end: usize| {
        let first = (0..end).rev().take_while(|&i| annotation(i)).last();
        lines_leave_open(lines[first.unwrap_or(end)..end].iter().copied())
    };
    let (last, argument) = match gen_line {
        g if g >= 1 && annotation(g - 1) && !annotation(g) && annotations_left_open(g) => {
            (g - 1, None)
        }
        g if g >= 2 && annotation(g - 2) && !annotation(g - 1) && annotations_left_open(g - 1) => {
            (g - 2, Some(g - 1))
        }
        _ => return None,
    };
    let start = (0..last)
        .rev()
        .find(|&i| !annotation(i))
        .filter(|&i| is(i, START, "("))?;
    // A map or array value is a node of its own in ytt, started on the node's line.
    let at = match argument {
        Some(a) if is(a, SET, "(") => a,
        _ => start,
    };
    program.line_map.get(at).copied()
}

/// For an error on ytt's code for the document that holds the file's code lines after its
/// last node ([`Program::trailing_document`]): the last template line before it, where ytt
/// shows the error, and the generated line it is on.
pub(super) fn in_trailing_document(
    program: &Program,
    gen_line: usize,
) -> Option<(u32, Box<crate::template::Generated>)> {
    use crate::template::GeneratedLine::{TrailingDocumentStart, TrailingDocumentValue};
    let (first, number) = program.trailing_document?;
    let code = match gen_line.checked_sub(first)? {
        0 => TrailingDocumentStart(number),
        1 => TrailingDocumentValue(number),
        _ => return None,
    };
    let line = program.line_map[..first].iter().rev().find(|&&l| l > 0)?;
    let generated = crate::template::Generated {
        template: 0, // the template's number is given in `run`
        line: code,
        after: None,
    };
    Some((*line, Box::new(generated)))
}

/// A syntax error on the code that closes the template (no template line of its own: a
/// comment after the last node's value code hid the code's closing parenthesis) is where ytt
/// shows it: on the template's last line of code, then on the generated line that ends it.
pub(super) fn at_template_end(error: &mut TemplateError, program: &Program, template_id: u32) {
    if !error.compile_time || error.line != Some(0) || error.generated.is_some() {
        return;
    }
    let Some(&last) = program.line_map.iter().rev().find(|&&line| line > 0) else {
        return;
    };
    error.line = Some(last);
    error.generated = Some(Box::new(crate::template::Generated {
        template: template_id,
        line: crate::template::GeneratedLine::End,
        after: None,
    }));
}

/// For an error at the start of ytt's code for the node started on generated line `gen_line`,
/// when that code starts with a line ytt generates ([`NodeInfo::starts_generated`], a map item
/// whose key is a text template): the template line ytt shows before it (the last line of
/// code before it that has one) and the generated line, followed by the node's line.
///
/// [`NodeInfo::starts_generated`]: crate::template::compile::NodeInfo::starts_generated
pub(super) fn node_start_generated(
    program: &Program,
    gen_line: usize,
) -> Option<(u32, Box<crate::template::Generated>)> {
    let code = program.source.lines().nth(gen_line)?.trim_start();
    let id: usize = program
        .names
        .strip(code, START, "(")?
        .split(')')
        .next()?
        .parse()
        .ok()?;
    let node = program.nodes.get(id).filter(|n| n.starts_generated)?;
    // The nodes ended before this one are ended on its line here (where ytt has no line):
    // ytt's code before it is the code lines above it and the nodes before.
    let before = program.line_map[..gen_line]
        .iter()
        .rev()
        .find(|&&l| l > 0 && l < node.line)?;
    Some((*before, text_start(node.line)))
}

/// [`node_start_generated`] for a syntax error on the line after the node's start: ytt's
/// second generated line (the code before left a bracket open after a `,` or an operator,
/// which takes ytt's first generated line in as it takes schemac's node start).
pub(super) fn node_second_line_generated(
    program: &Program,
    gen_line: usize,
) -> Option<(u32, Box<crate::template::Generated>)> {
    let (before, mut code) = node_start_generated(program, gen_line.checked_sub(1)?)?;
    code.line = crate::template::GeneratedLine::TextContextStart;
    Some((before, code))
}

/// ytt's generated first line of a map item whose key is a text template, followed by the
/// item's line `after`.
pub(crate) fn text_start(after: u32) -> Box<crate::template::Generated> {
    Box::new(crate::template::Generated {
        template: 0, // the template's number is given in `run`
        line: crate::template::GeneratedLine::TextStart,
        after: Some(after),
    })
}
