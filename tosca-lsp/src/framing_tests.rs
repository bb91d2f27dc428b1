use super::*;

/// A frame with a correct length around `body`.
fn frame(body: &str) -> Vec<u8> {
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

fn request(id: u32) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"m"}}"#)
}

/// Every frame of `bytes`: the ids of the JSON bodies, and `None` for each malformed frame.
fn read_all(bytes: &[u8], max_body: u64) -> Vec<Option<u64>> {
    let mut reader = FrameReader::new(bytes, max_body);
    let mut frames = Vec::new();
    while let Some(frame) = reader.next_frame().expect("reads") {
        frames.push(match frame {
            Frame::Json(value) => Some(value["id"].as_u64().expect("an id")),
            Frame::Malformed(_) => None,
        });
    }
    frames
}

/// `bad` then 20 good frames: every good frame is read, after at least one malformed one.
fn recovers_after(bad: &[u8]) {
    let mut bytes = bad.to_vec();
    for id in 1..=20 {
        bytes.extend(frame(&request(id)));
    }
    let frames = read_all(&bytes, 1 << 20);
    let ids: Vec<u64> = frames.iter().flatten().copied().collect();
    assert_eq!(ids, (1..=20).collect::<Vec<_>>(), "after {:?}: {frames:?}", String::from_utf8_lossy(bad));
    assert!(frames[0].is_none(), "the bad frame is reported");
}

#[test]
fn well_formed_frames_are_read_in_order() {
    let mut bytes = frame(&request(1));
    bytes.extend(b"content-length: 37\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n");
    bytes.extend(request(2).as_bytes());
    assert_eq!(read_all(&bytes, 1 << 20), vec![Some(1), Some(2)]);
}

#[test]
fn a_malformed_frame_costs_that_frame_only() {
    let body = request(99);
    for bad in [
        format!("Content-Length: abc\r\n\r\n{body}"),
        format!("Content-Length: -5\r\n\r\n{body}"),
        format!("Content-Length: \r\n\r\n{body}"),
        format!("Content-Type: text\r\n\r\n{body}"),
        format!("Bogus\r\n\r\n{body}"),
        format!("Content-Length: {}\n\n{body}", body.len()),
        format!("Content-Length: {}\r\n\n{body}", body.len()),
        // A length one short (a client counting characters), one long (swallows the next
        // header), and one too many lines.
        format!("Content-Length: {}\r\n\r\n{body}", body.len() - 1),
        format!("Content-Length: {}\r\n\r\n{body}", body.len() + 1),
        format!("{}\r\n", "X: y\r\n".repeat(MAX_HEADER_LINES + 1)),
        format!("Content-Length: 1\r\nContent-Length: 1\r\n\r\n{body}"),
    ] {
        recovers_after(bad.as_bytes());
    }
}

#[test]
fn a_body_that_is_not_json_is_skipped() {
    recovers_after(b"Content-Length: 9\r\n\r\n{not json");
    // Non-ASCII text counted in characters, not bytes: the body ends early.
    let body = r#"{"jsonrpc":"2.0","method":"x","params":"é"}"#;
    recovers_after(format!("Content-Length: {}\r\n\r\n{body}", body.chars().count()).as_bytes());
}

#[test]
fn lengths_over_the_limit_are_refused_before_any_allocation() {
    for length in ["1000000000000", "2000000000", "18446744073709551615", "18446744073709551616", "1048577"] {
        recovers_after(format!("Content-Length: {length}\r\n\r\n").as_bytes());
    }
    // At the limit is read.
    let body = format!("{:<1024}", request(7));
    assert_eq!(read_all(&frame(&body), 1024), vec![Some(7)]);
    assert_eq!(read_all(&frame(&body), 1023), vec![None]);
}

#[test]
fn header_lines_are_bounded() {
    let long = format!("X-Long: {}\r\n\r\n", "a".repeat(10 * MAX_HEADER_LINE));
    recovers_after(long.as_bytes());
    // A line without end, read a chunk at a time, holds no more than a few chunks.
    let endless = "a".repeat(5 * CHUNK);
    recovers_after(endless.as_bytes());
    let at_the_bound = format!("X-Long: {}\r\n", "a".repeat(MAX_HEADER_LINE - 8));
    let mut bytes = at_the_bound.into_bytes();
    bytes.extend(frame(&request(3)));
    assert_eq!(read_all(&bytes, 1 << 20), vec![Some(3)], "a line of exactly the bound is read");
}

#[test]
fn resynchronising_finds_a_header_split_across_reads() {
    /// A stream that gives one byte per read.
    struct Trickle<'a>(&'a [u8]);
    impl Read for Trickle<'_> {
        fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
            let Some((first, rest)) = self.0.split_first() else { return Ok(0) };
            buffer[0] = *first;
            self.0 = rest;
            Ok(1)
        }
    }
    let mut bytes = b"Content-Length: x\r\n\r\ngarbage Content-Length: 12x\r\n".to_vec();
    bytes.extend(frame(&request(5)));
    let mut reader = FrameReader::new(Trickle(&bytes), 1 << 20);
    assert!(matches!(reader.next_frame().expect("reads"), Some(Frame::Malformed(_))));
    assert_eq!(
        reader.next_frame().expect("reads"),
        Some(Frame::Json(serde_json::from_str(&request(5)).expect("JSON")))
    );
    assert_eq!(reader.next_frame().expect("reads"), None);
}

#[test]
fn a_stream_that_ends_mid_frame_ends() {
    assert_eq!(read_all(b"", 100), Vec::<Option<u64>>::new());
    assert_eq!(read_all(b"Content-Length: 50\r\n\r\n{", 100), Vec::<Option<u64>>::new());
    assert_eq!(read_all(b"Content-Le", 100), Vec::<Option<u64>>::new());
}
