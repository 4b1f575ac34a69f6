//! Reading a peer's lines with a bound on their length, so that what a controller or an engine
//! sends cannot make us allocate without limit.

use std::io::{self, BufRead, Read};

/// Longest GTP command line the server reads (newline included): far more than any command
/// takes (a `play` is a dozen bytes, a `loadsgf` a path).
pub const MAX_COMMAND_LINE: usize = 64 << 10;

/// Longest response line read from an engine (newline included): an analysis line of a 19x19
/// board with every move and its variation is a few tens of kilobytes.
pub const MAX_RESPONSE_LINE: usize = 1 << 20;

/// What [`read_line`] read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line, in the buffer (with its newline, unless it was the last one).
    Whole,
    /// A line longer than the bound: its first bytes are in the buffer, the rest was read
    /// and dropped up to its newline.
    TooLong,
    /// The end of the input.
    End,
}

/// Reads one line of at most `max` bytes into `buf` (cleared first). A longer line is skipped
/// to its end without being kept, so memory stays within `max` whatever the input.
pub fn read_line<R: BufRead>(r: &mut R, buf: &mut Vec<u8>, max: usize) -> io::Result<Line> {
    buf.clear();
    let n = r.by_ref().take(max as u64).read_until(b'\n', buf)?;
    if n == 0 {
        return Ok(Line::End);
    }
    if buf.ends_with(b"\n") || n < max || r.fill_buf()?.is_empty() {
        // A line, or the last one, without a newline, of at most `max` bytes.
        return Ok(Line::Whole);
    }
    // `max` bytes and more to come before the newline: drop the rest of the line.
    loop {
        let chunk = r.fill_buf()?;
        if chunk.is_empty() {
            break;
        }
        match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => {
                r.consume(i + 1);
                break;
            }
            None => {
                let len = chunk.len();
                r.consume(len);
            }
        }
    }
    Ok(Line::TooLong)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    #[test]
    fn long_lines_are_cut_and_skipped() {
        let mut input = Cursor::new(b"ok\nxxxxxxxxxx\nlast".to_vec());
        let mut buf = Vec::new();
        assert_eq!(read_line(&mut input, &mut buf, 4).unwrap(), Line::Whole);
        assert_eq!(buf, b"ok\n");
        assert_eq!(read_line(&mut input, &mut buf, 4).unwrap(), Line::TooLong);
        assert_eq!(buf, b"xxxx");
        assert_eq!(read_line(&mut input, &mut buf, 4).unwrap(), Line::Whole);
        assert_eq!(buf, b"last");
        assert_eq!(read_line(&mut input, &mut buf, 4).unwrap(), Line::End);
    }

    #[test]
    fn a_line_of_exactly_the_bound_is_whole() {
        let mut input = Cursor::new(b"abc\nd".to_vec());
        let mut buf = Vec::new();
        assert_eq!(read_line(&mut input, &mut buf, 4).unwrap(), Line::Whole);
        assert_eq!(buf, b"abc\n");
    }

    /// An endless line (`/dev/zero` as input) is read through without growing the buffer.
    #[test]
    fn an_endless_line_keeps_memory_bounded() {
        let mut input = io::BufReader::new(io::repeat(b'x').take(10 << 20));
        let mut buf = Vec::new();
        assert_eq!(
            read_line(&mut input, &mut buf, 1024).unwrap(),
            Line::TooLong
        );
        assert!(buf.capacity() < 1 << 20, "{}", buf.capacity());
        assert_eq!(read_line(&mut input, &mut buf, 1024).unwrap(), Line::End);
    }
}
