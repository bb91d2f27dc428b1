//! The language server's framing over any bytes (issue 31): reading never panics, always ends,
//! holds at most a few chunks beyond the body limit, and resynchronises: whatever comes
//! before them, two well-formed frames appended to the input end the reading with the
//! second one's message.

#![no_main]

use libfuzzer_sys::fuzz_target;

#[allow(dead_code)]
#[path = "../../../tosca-lsp/src/framing.rs"]
mod framing;

use framing::{Frame, FrameReader};

/// A small body limit, so that a length in the input swallows at most one appended frame.
const MAX_BODY: u64 = 64;

const BODY: &str = r#"{"jsonrpc":"2.0","id":424242,"method":"m"}"#;

fuzz_target!(|data: &[u8]| {
    let frame = format!("Content-Length: {}\r\n\r\n{BODY}", BODY.len());
    let mut input = data.to_vec();
    input.extend(frame.as_bytes());
    input.extend(frame.as_bytes());
    let mut reader = FrameReader::new(input.as_slice(), MAX_BODY);
    let mut last = None;
    let mut frames = 0;
    while let Some(frame) = reader.next_frame().expect("reading a slice never fails") {
        frames += 1;
        assert!(frames <= input.len(), "a frame per byte at most");
        if let Frame::Json(value) = frame {
            last = Some(value);
        }
    }
    let expected: serde_json::Value = serde_json::from_str(BODY).expect("JSON");
    assert_eq!(last, Some(expected), "the last appended frame is read");
});
