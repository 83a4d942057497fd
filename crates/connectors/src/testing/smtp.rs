//! A minimal in-process SMTP server that accepts every message and hands it to the test.

use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;

/// One message as the server received it.
#[derive(Debug, Clone)]
pub struct ReceivedMail {
    pub sender: String,
    pub recipients: Vec<String>,
    /// The DATA section, with quoted-printable soft line breaks undone.
    pub data: String,
}

pub struct FakeSmtpServer {
    port: u16,
    received: tokio::sync::Mutex<mpsc::UnboundedReceiver<ReceivedMail>>,
}

impl FakeSmtpServer {
    pub async fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind fake SMTP server");
        let port = listener.local_addr().expect("local addr").port();
        let (sender, received) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(serve_session(stream, sender.clone()));
            }
        });
        Self {
            port,
            received: tokio::sync::Mutex::new(received),
        }
    }

    /// `smtp://127.0.0.1:<port>`, plain SMTP.
    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    /// Waits (up to 10 s) for the next message.
    pub async fn next_message(&self) -> ReceivedMail {
        let mut received = self.received.lock().await;
        tokio::time::timeout(Duration::from_secs(10), received.recv())
            .await
            .expect("no mail arrived within 10 s")
            .expect("fake SMTP server stopped")
    }
}

async fn serve_session(stream: TcpStream, deliver: mpsc::UnboundedSender<ReceivedMail>) {
    let (read, mut write) = stream.into_split();
    let mut lines = BufReader::new(read).lines();
    let mut mail = ReceivedMail {
        sender: String::new(),
        recipients: Vec::new(),
        data: String::new(),
    };
    let _ = write.write_all(b"220 fake-smtp ready\r\n").await;
    while let Ok(Some(line)) = lines.next_line().await {
        let command = line.to_ascii_uppercase();
        let reply: &[u8] = if command.starts_with("EHLO") || command.starts_with("HELO") {
            b"250 fake-smtp\r\n"
        } else if command.starts_with("MAIL FROM:") {
            mail.sender = address_in(&line);
            b"250 OK\r\n"
        } else if command.starts_with("RCPT TO:") {
            mail.recipients.push(address_in(&line));
            b"250 OK\r\n"
        } else if command.starts_with("DATA") {
            let _ = write
                .write_all(b"354 End data with <CR><LF>.<CR><LF>\r\n")
                .await;
            let mut data = String::new();
            while let Ok(Some(line)) = lines.next_line().await {
                if line == "." {
                    break;
                }
                data.push_str(&line);
                data.push('\n');
            }
            mail.data = data.replace("=\n", "");
            let _ = deliver.send(std::mem::replace(
                &mut mail,
                ReceivedMail {
                    sender: String::new(),
                    recipients: Vec::new(),
                    data: String::new(),
                },
            ));
            b"250 OK queued\r\n"
        } else if command.starts_with("QUIT") {
            let _ = write.write_all(b"221 Bye\r\n").await;
            return;
        } else {
            b"250 OK\r\n"
        };
        if write.write_all(reply).await.is_err() {
            return;
        }
    }
}

fn address_in(line: &str) -> String {
    let start = line.find('<').map_or(0, |i| i + 1);
    let end = line.rfind('>').unwrap_or(line.len());
    line[start..end].to_owned()
}
