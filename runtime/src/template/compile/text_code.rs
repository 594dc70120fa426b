//! The strings of `#@yaml/text-templated-strings` compiled into the program: each piece of
//! the text (see [`text_template`]) a statement on its line, its code code of the template.

use super::*;
use crate::template::code_scan::{program_end, CODE_BLANKS};

impl Compiler {
    /// The code of a string of `#@yaml/text-templated-strings` (see [`text_template`]) that
    /// ends in `SETTER(TEXT)`: statements that gather its pieces in a list, each on its line of
    /// the text (`line` the first). Its code is code of the template, as in ytt: its blocks
    /// are the template's (an `end` in the text may close a block opened by a code line).
    pub(super) fn templated_text(
        &mut self,
        line: u32,
        text: &str,
        setter: &str,
    ) -> Result<(), CompileError> {
        // [`refused`] turns away a text that ytt's lexer refuses before this runs.
        let pieces = match text_template::pieces(text, line) {
            Ok(Some(pieces)) => pieces,
            Ok(None) => return Ok(()),
            Err(message) => return Err(CompileError::new(line, &message)),
        };
        let depth = self.depth();
        if pieces.iter().all(|p| p.kind != PieceKind::Code) {
            // Texts and values only: one statement, a list with an item on each piece's line.
            // (A statement per piece growing a list makes starlark-rust collect garbage before
            // each one, copying the list each time: quadratic in the number of pieces.)
            // ytt's text context around the pieces ([`gen::TEXT_START`]).
            let (start, end) = (self.names.of(gen::TEXT_START), self.names.of(gen::TEXT_END));
            self.emit(
                line,
                depth,
                &format!("{setter}({end}(\"\".join({start}([]) + ["),
            );
            for k in 0..pieces.len() {
                let code = self.value_code(line, depth + 1, "", &pieces, k)?;
                self.emit_piece(line, &pieces, k, depth + 1, &format!("{code},"));
            }
            self.emit(line, depth, "])))");
            return Ok(());
        }
        let pieces_list = self.names.of(gen::TEXT_PIECES);
        let start = self.names.of(gen::TEXT_START);
        self.emit(line, depth, &format!("{pieces_list} = {start}([])"));
        for (k, p) in pieces.iter().enumerate() {
            let at = line + p.line - 1;
            if p.kind == PieceKind::Code {
                // starlark-go's scanner reads a NUL (outside string literals) as the end of the
                // program: the code before it runs, and ytt's contexts are left open (as for a
                // map key holding one).
                let (code, ends_program) = match program_end(p.code) {
                    Some(nul) => (&p.code[..nul], true),
                    None => (p.code, false),
                };
                // Each line of the code is a line of code of its own, as in ytt (quoted as
                // it is); starlark-go's scanner ends a line at `\r` too.
                let codes: Vec<&str> = key_code::starlark_lines(code).collect();
                if ends_program {
                    // (Each line quoted whole, the NUL and what follows it on its line too.)
                    let quotes = key_code::starlark_lines(p.code);
                    for ((i, code), quote) in (0..).zip(&codes).zip(quotes) {
                        self.text_code_quoting(at + i, code, i > 0, quote)?;
                    }
                    return Err(CompileError::program_end(at));
                }
                for (i, code) in (0..).zip(&codes) {
                    // A text follows every code.
                    let next = match codes.get(i as usize + 1) {
                        Some(code) => (at + i + 1, *code),
                        None => (line + pieces[k + 1].line - 1, pieces[k + 1].quote),
                    };
                    self.text_code(at + i, code, i > 0)
                        .map_err(|e| e.past(next))?;
                    self.reached_quoting(next.0, Some(next.1));
                }
                continue;
            }
            if self.scanner.in_brackets() {
                // ytt's code for a text is two lines (its node's start, then its value): in
                // brackets a code piece left open, its parser stops at the second's name.
                self.emit_quoting(at, self.depth(), "None", p.quote);
            }
            let append = format!("{pieces_list}.append(");
            let code = self.value_code(line, self.depth(), &append, &pieces, k)?;
            self.emit_piece(line, &pieces, k, self.depth(), &format!("{append}{code})"));
        }
        let end = self.names.of(gen::TEXT_END);
        let join = format!("{setter}({end}(\"\".join({pieces_list})))");
        self.emit(line, self.depth(), &join);
        Ok(())
    }

    /// The statement `text` of the text or `(@= @)` piece `k` of `pieces`, a text template on
    /// template line `line`. A value's code may hold line breaks (`(@= 'x'\n+ @)`): ytt's
    /// program holds it on one instruction, so an error on its n-th line is placed on ytt's
    /// n-th line of code after it, the way ytt numbers them (see [`lines_after`]).
    fn emit_piece(
        &mut self,
        line: u32,
        pieces: &[text_template::Piece],
        k: usize,
        depth: usize,
        text: &str,
    ) {
        let (first, p) = (self.line_map.len(), &pieces[k]);
        self.emit_quoting(line + p.line - 1, depth, text, p.quote);
        self.place_after(first, line, &pieces[k + 1..]);
    }

    /// The generated lines past `first` (the line of a piece's statement, whose value's code
    /// holds line breaks) placed on ytt's lines of code after the piece, before `after` (see
    /// [`lines_after`]): the last one's line and quote.
    fn place_after(
        &mut self,
        first: usize,
        line: u32,
        after: &[text_template::Piece],
    ) -> Option<(u32, Option<Box<str>>)> {
        let mut last = None;
        for (gen_line, (at, quote)) in
            (first + 1..self.line_map.len()).zip(lines_after(line, after))
        {
            self.line_map[gen_line] = at;
            if let Some(quote) = quote {
                self.quoted.push((gen_line, quote.into()));
            }
            last = Some((at, quote.map(Box::from)));
        }
        last
    }

    /// What a text or `(@= @)` piece `k` of `pieces`, a text template on template line
    /// `text_line`, is compiled into, after `opening` at `depth`: a value's code in
    /// parentheses, as ytt compiles it, where ytt's scanner refuses a `pass` and reads an `end`
    /// name as an outdent (the errors quote the piece; one past the code's first line is on
    /// ytt's line of code there, see [`Self::emit_piece`]).
    fn value_code(
        &mut self,
        text_line: u32,
        depth: usize,
        opening: &str,
        pieces: &[text_template::Piece],
        k: usize,
    ) -> Result<String, CompileError> {
        let p = &pieces[k];
        let line = text_line + p.line - 1;
        if p.kind == PieceKind::Text {
            return Ok(quote(p.code));
        }
        let quoting = |e: CompileError| match e.quote {
            Some(_) => e,
            None => e.quoting(p.quote),
        };
        let text = self.names.of(gen::TEXT);
        // A NUL outside string literals ends ytt's program inside the value's parentheses:
        // the parser's error at the end of the file comes next.
        let nul = program_end(p.code);
        // (starlark-go's scanner reads `\r\n` and `\r` as `\n`, in strings too)
        let code = &p.code[..nul.unwrap_or(p.code.len())];
        let code: std::borrow::Cow<str> = match code.contains('\r') {
            true => code.replace("\r\n", "\n").replace('\r', "\n").into(),
            false => code.into(),
        };
        let code: &str = &code;
        let close = if nul.is_some() { "" } else { "))" };
        let value_opening = format!("{opening}{text}((");
        // (ytt's scanner stops at whichever comes first: a `pass`, an `end` or the bracket.)
        let pass = crate::template::reserved_words::pass_position(code);
        let end = crate::template::lexer::end_name(code).map(|(at, _)| at);
        let first = pass.into_iter().chain(end).min();
        // (Inside the brackets of ytt's call and of the value.)
        let unmatched =
            unmatched_close(code, 2, nul.is_none()).filter(|&(at, _)| first.is_none_or(|f| at < f));
        let first = self.line_map.len();
        let compiled = match unmatched {
            Some((at, c)) => {
                let message = format!("unexpected '{}'", char::from(c));
                self.scanner_stop(line, depth, &value_opening, &code[..at], &message)
            }
            None => self.refuse_pass(line, depth, &value_opening, code),
        };
        let compiled = compiled.and_then(|()| {
            let code = format!("{text}(({}{close}", code.trim_matches(CODE_BLANKS));
            self.end_as_outdent(line, depth, &code, 0)
        });
        // The tokens before a scanner's stop were compiled on lines of their own: a syntax
        // error among them quotes the piece, on its code's first line; the stop stands on the
        // last.
        let compiled = match compiled {
            Err(e) if e.scanner_stop => {
                self.quoted.push((first, p.quote.into()));
                match self.place_after(first, text_line, &pieces[k + 1..]) {
                    Some((at, quote)) => Err(CompileError {
                        line: at,
                        quote: Some(quote.unwrap_or_else(|| p.quote.into())),
                        ..e
                    }),
                    None => Err(e),
                }
            }
            compiled => compiled,
        };
        let compiled = compiled.map_err(quoting)?;
        if nul.is_some() {
            self.emit_quoting(line, depth, &format!("{opening}{compiled}"), p.quote);
            return Err(CompileError::program_end(line));
        }
        Ok(compiled)
    }

    /// The statement `code` of a text template, on template line `line`, quoted as it is: a
    /// code line of the template. An `end` that starts its code piece (not on a line of its
    /// own, `own_line`, of a piece of several lines) quotes nothing: no error stands on it.
    fn text_code(&mut self, line: u32, code: &str, own_line: bool) -> Result<(), CompileError> {
        self.text_code_quoting(line, code, own_line, code)
    }

    /// [`Self::text_code`], its errors quoting `quoted`.
    fn text_code_quoting(
        &mut self,
        line: u32,
        code: &str,
        own_line: bool,
        quoted: &str,
    ) -> Result<(), CompileError> {
        let (first_gen, blocks) = (self.line_map.len(), self.blocks.len());
        let quote = if first_word(code.trim()) == "end" && !own_line {
            ""
        } else {
            quoted
        };
        let comment = Comment {
            line,
            text: code.to_string(),
        };
        let compiled = self.code(&comment).map_err(|e| match e.quote {
            Some(_) => e,
            None => e.quoting(quote),
        });
        // (Also the lines compiled before an error: a syntax error on them comes first.)
        for gen_line in first_gen..self.line_map.len() {
            self.quoted.push((gen_line, quote.into()));
        }
        compiled?;
        // A block it opened (or an `else` reopened) names this code when left open.
        let opened = match self.blocks.len().cmp(&blocks) {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Equal => matches!(first_word(code.trim()), "else" | "elif"),
            std::cmp::Ordering::Less => false,
        };
        let new_def = self.blocks.len() > blocks;
        let Some(block) = self.blocks.last_mut().filter(|_| opened) else {
            return Ok(());
        };
        block.quote = Some(quote.into());
        // A function opened here has the text up to its `end` in its body (a text piece
        // follows every code piece): a text context of its own, as in ytt.
        if block.is_def && new_def {
            block.builds_text = true;
            let pieces_list = self.names.of(gen::TEXT_PIECES);
            let start = self.names.of(gen::TEXT_START);
            let text = format!("{pieces_list} = {start}([])");
            self.emit_quoting(line, self.depth(), &text, quote);
        }
        Ok(())
    }

    /// [`Compiler::emit`], for a line whose errors quote `quote` (see [`Program::quoted`]).
    fn emit_quoting(&mut self, line: u32, depth: usize, text: &str, quote: &str) {
        self.quoted.push((self.line_map.len(), quote.into()));
        self.emit(line, depth, text);
    }
}

/// Where ytt's scanner refuses a closing bracket of `code`, read inside `depth` brackets (a
/// text template's value, which ytt compiles into `__ytt_tplN_set_node(N, (CODE))`, inside 2):
/// one that closes nothing there (the code's own, or at its end one of those that close the
/// brackets it is read in, when they follow it: `closed`), and the bracket. (A comment in the
/// code runs over those brackets.)
pub(super) fn unmatched_close(code: &str, start: usize, closed: bool) -> Option<(usize, u8)> {
    let mut depth = start;
    for (at, c) in crate::template::code_scan::code_bytes(code) {
        match c {
            b'#' => return None,
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if depth == 0 => return Some((at, c)),
            b')' | b']' | b'}' => depth -= 1,
            _ => {}
        }
    }
    (closed && depth < start).then_some((code.len(), b')'))
}

/// ytt's lines of code after a text template's piece, before `pieces` (the pieces after it, of
/// a text on template line `line`), each a line and what an error there quotes: two for a text
/// or a value (its node's start, its value), one for each line of a statement's code, then the
/// text's node (which quotes its template line: `None`). (ytt's next line is generated: an
/// error there is left on the node's line.)
fn lines_after<'a>(
    line: u32,
    pieces: &'a [text_template::Piece<'a>],
) -> impl Iterator<Item = (u32, Option<&'a str>)> + 'a {
    let of_piece = move |p: &'a text_template::Piece<'a>| {
        let at = line + p.line - 1;
        let lines: Box<dyn Iterator<Item = (u32, Option<&'a str>)>> = match p.kind {
            // (ytt splits a statement's code into its lines at `\n` only, a `\r` staying in
            // the line it quotes: not starlark-go's lines)
            PieceKind::Code => Box::new((at..).zip(p.code.split('\n').map(Some))),
            PieceKind::Text | PieceKind::Value => Box::new([(at, Some(p.quote)); 2].into_iter()),
        };
        lines
    };
    pieces.iter().flat_map(of_piece).chain([(line, None)])
}
