//! The stdio transport: lsp-server's framing and messages, with a reader that survives a
//! malformed message.
//!
//! lsp-server's own stdio transport ends the connection at the first message whose body is not
//! JSON-RPC (its reader thread returns the error). A language server must keep serving, so this
//! reader reads with the same `Message::read` and, when a message is malformed, skips it, tells
//! the client in a `window/logMessage` and goes on with the next one. A body whose header was
//! well-formed is consumed whole, so the stream stays in step; a broken header is skipped line
//! by line until the next well-formed one. (JSON-RPC would answer a parse error with an error
//! response of id `null`, which lsp-server's `RequestId` cannot express.)

use std::io::{self, BufReader};
use std::thread::JoinHandle;

use lsp_server::{Connection, Message, Notification};
use lsp_types::notification::{LogMessage, Notification as _};
use lsp_types::{LogMessageParams, MessageType};

/// A connection over stdin and stdout, and the threads that serve it.
pub(crate) fn stdio() -> (Connection, Vec<JoinHandle<()>>) {
    let (writer_sender, writer_receiver) = crossbeam_channel::bounded::<Message>(0);
    let (reader_sender, reader_receiver) = crossbeam_channel::bounded::<Message>(0);
    let writer = std::thread::spawn(move || {
        let stdout = io::stdout();
        let mut stdout = stdout.lock();
        for message in writer_receiver {
            if message.write(&mut stdout).is_err() {
                return;
            }
        }
    });
    let log = writer_sender.clone();
    let reader = std::thread::spawn(move || {
        let mut stdin = BufReader::new(io::stdin().lock());
        loop {
            match Message::read(&mut stdin) {
                Ok(Some(message)) => {
                    let exit = matches!(&message, Message::Notification(notification) if notification.method == "exit");
                    if reader_sender.send(message).is_err() || exit {
                        return;
                    }
                }
                Ok(None) => return,
                Err(error) if error.kind() == io::ErrorKind::InvalidData => {
                    let params = LogMessageParams {
                        typ: MessageType::ERROR,
                        message: format!("puccini-rs lsp: skipped a malformed message: {error}"),
                    };
                    if log
                        .send(Message::Notification(Notification::new(LogMessage::METHOD.to_owned(), params)))
                        .is_err()
                    {
                        return;
                    }
                }
                Err(_) => return,
            }
        }
    });
    (Connection { sender: writer_sender, receiver: reader_receiver }, vec![writer, reader])
}
