//! The base protocol's framing, read with bounds and resynchronised after a malformed frame.
//!
//! A frame is a header block (`Name: value` lines, each ended by `\r\n`, then an empty line)
//! and a body of `Content-Length` bytes. Whatever a client sends, reading stays bounded and in
//! step:
//!
//! - a header line is at most [`MAX_HEADER_LINE`] bytes and a header block at most
//!   [`MAX_HEADER_LINES`] lines;
//! - a `Content-Length` must be decimal digits and at most the document limit (tosca-core's
//!   [`LoaderOptions::max_file_size`](tosca_core::LoaderOptions::max_file_size)): a larger one is
//!   refused before anything is allocated for it, and a body is never allocated ahead of its
//!   bytes;
//! - after a malformed frame (a bad or missing length, a line ended by a bare `\n`, a body that
//!   is not JSON), the reader skips to the next `Content-Length: <digits>\r\n` anywhere in the
//!   stream, searching from just after where the bad frame began (for a body that is not JSON,
//!   from the body's first byte: a length too long swallowed the next frame's header), so a
//!   miscounted frame costs that frame only.

use std::io::{self, Read};

/// The longest header line read (a longer one is a malformed frame).
pub(crate) const MAX_HEADER_LINE: usize = 8 * 1024;

/// The most lines a header block may have.
pub(crate) const MAX_HEADER_LINES: usize = 32;

/// The header that starts a frame, matched without regard to case.
const CONTENT_LENGTH: &[u8] = b"content-length";

/// The most digits of a length (`u64::MAX` has 20).
const MAX_DIGITS: usize = 20;

/// How much is read from the stream at a time.
const CHUNK: usize = 64 * 1024;

/// What reading a frame gave.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Frame {
    /// A well-framed body that is JSON.
    Json(serde_json::Value),
    /// A malformed frame, skipped; why.
    Malformed(String),
}

/// Reads frames from a byte stream.
pub(crate) struct FrameReader<R> {
    input: R,
    /// Bytes read and not consumed start at `start`.
    buffer: Vec<u8>,
    start: usize,
    /// The longest body accepted.
    max_body: u64,
    /// A malformed frame was seen: skip to the next `Content-Length: <digits>\r\n`.
    resynchronise: bool,
    /// The stream ended.
    ended: bool,
}

/// Where a frame's parse stopped.
enum Parsed {
    /// The body is at `start + body.0 .. start + body.1`.
    Body(usize, usize),
    Malformed(String),
    /// The stream ended before the frame did.
    End,
}

impl<R: Read> FrameReader<R> {
    /// A reader of `input` accepting bodies of at most `max_body` bytes.
    pub(crate) fn new(input: R, max_body: u64) -> FrameReader<R> {
        FrameReader { input, buffer: Vec::new(), start: 0, max_body, resynchronise: false, ended: false }
    }

    /// The next frame; `None` at the end of the stream.
    pub(crate) fn next_frame(&mut self) -> io::Result<Option<Frame>> {
        if self.resynchronise {
            if !self.seek_header()? {
                return Ok(None);
            }
            self.resynchronise = false;
        }
        match self.parse()? {
            Parsed::End => Ok(None),
            Parsed::Malformed(reason) => {
                // Searched again from just after where this frame began.
                self.consume(1);
                self.resynchronise = true;
                Ok(Some(Frame::Malformed(reason)))
            }
            Parsed::Body(from, to) => {
                let body = &self.buffer[self.start + from..self.start + to];
                match serde_json::from_slice(body) {
                    Ok(value) => {
                        self.consume(to);
                        Ok(Some(Frame::Json(value)))
                    }
                    Err(error) => {
                        // Perhaps a length too long that swallowed the next header: searched
                        // again from the body's first byte.
                        self.consume(from);
                        self.resynchronise = true;
                        Ok(Some(Frame::Malformed(format!("a body of {} bytes that is not JSON: {error}", to - from))))
                    }
                }
            }
        }
    }

    /// Parses the frame at `start` without consuming it (offsets relative to `start`).
    fn parse(&mut self) -> io::Result<Parsed> {
        let mut at = 0;
        let mut length = None;
        let mut lines = 0;
        loop {
            let Some(line_end) = self.line_end(at)? else { return Ok(Parsed::End) };
            let Some(end) = line_end else {
                return Ok(Parsed::Malformed(format!("a header line longer than {MAX_HEADER_LINE} bytes")));
            };
            let line = &self.buffer[self.start + at..self.start + end];
            at = end + 1;
            let Some(line) = line.strip_suffix(b"\r") else {
                return Ok(Parsed::Malformed("a header line ended by a bare line feed, not CRLF".into()));
            };
            if line.is_empty() {
                break;
            }
            lines += 1;
            if lines > MAX_HEADER_LINES {
                return Ok(Parsed::Malformed(format!("more than {MAX_HEADER_LINES} header lines")));
            }
            let Some(colon) = line.iter().position(|&byte| byte == b':') else {
                return Ok(Parsed::Malformed(format!("a header line without a colon: {}", shown(line))));
            };
            let (name, value) = (line[..colon].trim_ascii(), line[colon + 1..].trim_ascii());
            if name.eq_ignore_ascii_case(CONTENT_LENGTH) {
                if length.is_some() {
                    return Ok(Parsed::Malformed("two Content-Length headers".into()));
                }
                match parse_length(value) {
                    Some(value) if value <= self.max_body => length = Some(value as usize),
                    Some(value) => {
                        return Ok(Parsed::Malformed(format!(
                            "a Content-Length of {value} bytes, over the limit of {}",
                            self.max_body
                        )));
                    }
                    None => return Ok(Parsed::Malformed(format!("a Content-Length of {}", shown(value)))),
                }
            }
        }
        let Some(length) = length else { return Ok(Parsed::Malformed("a header without Content-Length".into())) };
        while self.buffer.len() - self.start < at + length {
            if !self.fill()? {
                return Ok(Parsed::End);
            }
        }
        Ok(Parsed::Body(at, at + length))
    }

    /// The offset of the `\n` ending the line at `at`: `Some(None)` when the line is longer than
    /// [`MAX_HEADER_LINE`], `None` when the stream ends first.
    fn line_end(&mut self, at: usize) -> io::Result<Option<Option<usize>>> {
        let mut searched = 0;
        loop {
            let available = &self.buffer[self.start + at..];
            if let Some(offset) = available[searched..].iter().position(|&byte| byte == b'\n') {
                let end = searched + offset;
                // The line's bytes before its `\r\n` count against the bound.
                return Ok(Some((end <= MAX_HEADER_LINE + 1).then_some(at + end)));
            }
            searched = available.len();
            if searched > MAX_HEADER_LINE + 1 {
                return Ok(Some(None));
            }
            if !self.fill()? {
                return Ok(None);
            }
        }
    }

    /// Skips to the next `Content-Length: <digits>\r\n`; whether one was found before the end.
    fn seek_header(&mut self) -> io::Result<bool> {
        loop {
            let available = &self.buffer[self.start..];
            let mut at = 0;
            let mut incomplete = None;
            while let Some(offset) = find_name(&available[at..]) {
                let candidate = at + offset;
                match header_at(&available[candidate..]) {
                    Some(true) => {
                        self.consume(candidate);
                        return Ok(true);
                    }
                    // Perhaps one once more bytes come: kept from here.
                    None => {
                        incomplete = Some(candidate);
                        break;
                    }
                    Some(false) => at = candidate + 1,
                }
            }
            // Everything before a possible start of the name is skipped.
            let keep_from =
                incomplete.unwrap_or_else(|| available.len().saturating_sub(CONTENT_LENGTH.len() - 1).max(at));
            self.consume(keep_from);
            if !self.fill()? {
                return Ok(false);
            }
        }
    }

    /// Reads more of the stream into the buffer; whether anything came.
    fn fill(&mut self) -> io::Result<bool> {
        if self.ended {
            return Ok(false);
        }
        if self.start > 0 {
            self.buffer.drain(..self.start);
            self.start = 0;
        }
        let mut chunk = [0; CHUNK];
        loop {
            match self.input.read(&mut chunk) {
                Ok(0) => {
                    self.ended = true;
                    return Ok(false);
                }
                Ok(read) => {
                    self.buffer.extend_from_slice(&chunk[..read]);
                    return Ok(true);
                }
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => return Err(error),
            }
        }
    }

    fn consume(&mut self, bytes: usize) {
        self.start += bytes;
        if self.start == self.buffer.len() {
            self.buffer.clear();
            self.start = 0;
            // The room a large body took is given back once it is read.
            if self.buffer.capacity() > 4 * CHUNK {
                self.buffer.shrink_to(CHUNK);
            }
        }
    }
}

/// The offset of the first `content-length` (any case) in `bytes`.
fn find_name(bytes: &[u8]) -> Option<usize> {
    bytes.windows(CONTENT_LENGTH.len()).position(|window| window.eq_ignore_ascii_case(CONTENT_LENGTH))
}

/// Whether `bytes` start with `Content-Length: <digits>\r\n` (spaces around the digits
/// allowed, at most [`MAX_DIGITS`] digits); `None` when more bytes are needed to tell.
fn header_at(bytes: &[u8]) -> Option<bool> {
    let mut rest = bytes.get(CONTENT_LENGTH.len()..)?;
    match rest.first()? {
        b':' => rest = &rest[1..],
        _ => return Some(false),
    }
    let spaces = rest.iter().take_while(|&&byte| byte == b' ').count();
    if spaces > MAX_DIGITS {
        return Some(false);
    }
    rest = &rest[spaces..];
    let digits = rest.iter().take_while(|byte| byte.is_ascii_digit()).count();
    if digits > MAX_DIGITS {
        return Some(false);
    }
    if digits == rest.len() {
        return None;
    }
    if digits == 0 {
        return Some(false);
    }
    match rest.get(digits..digits + 2) {
        Some(b"\r\n") => Some(true),
        Some(_) => Some(false),
        None if rest[digits] == b'\r' => None,
        None => Some(false),
    }
}

/// A length of decimal digits that fits in a `u64`.
fn parse_length(value: &[u8]) -> Option<u64> {
    if value.is_empty() || value.len() > MAX_DIGITS || !value.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(value).ok()?.parse().ok()
}

/// At most 60 characters of a header's bytes, for a message.
fn shown(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(60)]);
    format!("`{}`{}", text.escape_debug(), if bytes.len() > 60 { "…" } else { "" })
}

#[cfg(test)]
#[path = "framing_tests.rs"]
mod tests;
