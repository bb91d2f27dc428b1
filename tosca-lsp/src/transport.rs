//! The stdio transport: frames read by [`crate::framing`] (bounded, resynchronised after a
//! malformed frame), turned into lsp-server's messages, and lsp-server's messages written.
//!
//! lsp-server's own stdio transport ends the connection at the first message whose body is not
//! JSON-RPC and reads whatever length a header claims. A language server must keep serving, so
//! this reader owns the framing: a malformed frame is skipped, the client told in a
//! `window/logMessage`, and the next frame read. A request whose id lsp-server cannot hold (not
//! a string nor a 32-bit integer) is answered `InvalidRequest` with its id as sent, written as
//! raw JSON (lsp-server's `RequestId` cannot express it), never dropped nor read as a
//! notification.

use std::io::{self, Write};
use std::thread::JoinHandle;

use lsp_server::{Connection, ErrorCode, Message, Notification};
use lsp_types::notification::{LogMessage, Notification as _};
use lsp_types::{LogMessageParams, MessageType};
use serde_json::{Value, json};

use crate::framing::{Frame, FrameReader};

/// A connection over stdin and stdout, and the threads that serve it; bodies longer than
/// `max_body` bytes are refused.
pub(crate) fn stdio(max_body: u64) -> (Connection, Vec<JoinHandle<()>>) {
    let (writer_sender, writer_receiver) = crossbeam_channel::bounded::<Message>(0);
    let (raw_sender, raw_receiver) = crossbeam_channel::unbounded::<Value>();
    let (reader_sender, reader_receiver) = crossbeam_channel::bounded::<Message>(0);
    let writer = std::thread::spawn(move || {
        let stdout = io::stdout();
        let _ = write_all(&mut stdout.lock(), &writer_receiver, &raw_receiver);
    });
    let log = writer_sender.clone();
    let reader = std::thread::spawn(move || {
        let mut frames = FrameReader::new(io::stdin().lock(), max_body);
        while let Ok(Some(frame)) = frames.next_frame() {
            let Some(outcome) = read(frame) else { continue };
            let sent = match outcome {
                Read::Message(message) => {
                    let exit = matches!(&message, Message::Notification(notification) if notification.method == "exit");
                    if reader_sender.send(message).is_err() || exit {
                        return;
                    }
                    Ok(())
                }
                Read::Answer(answer) => raw_sender.send(answer).map_err(drop),
                Read::Log(message) => {
                    let params = LogMessageParams { typ: MessageType::ERROR, message };
                    log.send(Message::Notification(Notification::new(LogMessage::METHOD.to_owned(), params)))
                        .map_err(drop)
                }
            };
            if sent.is_err() {
                return;
            }
        }
    });
    (Connection { sender: writer_sender, receiver: reader_receiver }, vec![writer, reader])
}

/// Writes every message and raw answer until both channels are closed.
fn write_all(
    out: &mut impl Write,
    messages: &crossbeam_channel::Receiver<Message>,
    raw: &crossbeam_channel::Receiver<Value>,
) -> io::Result<()> {
    let (mut messages, mut raw) = (Some(messages), Some(raw));
    while messages.is_some() || raw.is_some() {
        let (no_messages, no_answers) = (crossbeam_channel::never(), crossbeam_channel::never());
        crossbeam_channel::select! {
            recv(messages.unwrap_or(&no_messages)) -> message => match message {
                Ok(message) => message.write(out)?,
                Err(_) => messages = None,
            },
            recv(raw.unwrap_or(&no_answers)) -> answer => match answer {
                Ok(answer) => {
                    let text = answer.to_string();
                    write!(out, "Content-Length: {}\r\n\r\n{text}", text.len())?;
                    out.flush()?;
                }
                Err(_) => raw = None,
            },
        }
    }
    Ok(())
}

/// What a frame gives the server.
#[derive(Debug)]
pub(crate) enum Read {
    /// A message to serve.
    Message(Message),
    /// An error answer to write as is (to a request whose id lsp-server cannot hold).
    Answer(Value),
    /// A frame skipped, told to the client in a log message.
    Log(String),
}

/// What the server makes of `frame`; `None` for nothing at all (a response to a request the
/// server never sends has nowhere to go, but is still JSON-RPC).
pub(crate) fn read(frame: Frame) -> Option<Read> {
    let value = match frame {
        Frame::Json(value) => value,
        Frame::Malformed(reason) => {
            return Some(Read::Log(format!("puccini-rs lsp: skipped a malformed message: {reason}")));
        }
    };
    if !value.is_object() {
        return Some(Read::Log("puccini-rs lsp: skipped a message that is not a JSON object".into()));
    }
    let request_id = value.get("method").and(value.get("id")).filter(|id| !id.is_null()).cloned();
    if let Some(id) = request_id {
        if valid_id(&id)
            && let Ok(request @ Message::Request(_)) = serde_json::from_value::<Message>(value)
        {
            return Some(Read::Message(request));
        }
        // JSON-RPC: an invalid request is answered with its id when it can be read (a number,
        // a string), else with `null`.
        let id = if id.is_number() || id.is_string() { id } else { Value::Null };
        return Some(Read::Answer(json!({
            "jsonrpc": "2.0",
            "id": id,
            "error": {
                "code": ErrorCode::InvalidRequest as i32,
                "message": "puccini-rs lsp: not a request (its id must be a string or an integer of 32 bits, \
                            its method a string)",
            },
        })));
    }
    match serde_json::from_value::<Message>(value) {
        Ok(Message::Response(_)) => None,
        Ok(message) => Some(Read::Message(message)),
        Err(error) => Some(Read::Log(format!("puccini-rs lsp: skipped a message that is not JSON-RPC: {error}"))),
    }
}

/// Whether lsp-server can hold `id`: a string or an integer of 32 bits.
fn valid_id(id: &Value) -> bool {
    id.is_string() || id.as_i64().is_some_and(|number| i32::try_from(number).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(body: &str) -> Option<Read> {
        read(Frame::Json(serde_json::from_str(body).expect("JSON")))
    }

    #[test]
    fn requests_with_ids_lsp_server_cannot_hold_are_answered_with_an_error() {
        for (id, echoed) in [
            ("2147483648", json!(2_147_483_648_u64)),
            ("-2147483649", json!(-2_147_483_649_i64)),
            ("1.5", json!(1.5)),
            ("true", Value::Null),
            ("{}", Value::Null),
            ("[1]", Value::Null),
        ] {
            let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"textDocument/hover","params":{{}}}}"#);
            match answer(&body) {
                Some(Read::Answer(answer)) => {
                    assert_eq!(answer["id"], echoed, "id {id}");
                    assert_eq!(answer["error"]["code"], -32600, "id {id}");
                }
                other => panic!("id {id}: {other:?}"),
            }
        }
    }

    #[test]
    fn valid_messages_are_served_and_others_logged() {
        for id in ["2147483647", "-2147483648", "\"x\""] {
            let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"m"}}"#);
            assert!(matches!(answer(&body), Some(Read::Message(Message::Request(_)))), "id {id}");
        }
        let notification = r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
        assert!(matches!(answer(notification), Some(Read::Message(Message::Notification(_)))));
        assert!(answer(r#"{"jsonrpc":"2.0","id":1,"result":null}"#).is_none());
        assert!(matches!(answer("[1, 2]"), Some(Read::Log(_))));
        assert!(
            matches!(answer(r#"{"jsonrpc":"2.0","id":1,"method":3}"#), Some(Read::Answer(answer)) if answer["id"] == 1)
        );
        assert!(matches!(read(Frame::Malformed("why".into())), Some(Read::Log(message)) if message.contains("why")));
    }
}
