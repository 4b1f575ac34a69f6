//! The other side of GTP: driving an engine that runs as a child process (for `tengen match`).

use super::line::{read_line, Line, MAX_RESPONSE_LINE};
use std::ffi::OsStr;
use std::io::{self, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Most lines in one response (a 19x19 `showboard` takes about 25).
const MAX_RESPONSE_LINES: usize = 10_000;

/// Why a command got no proper response.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("cannot start `{0}`: {1}")]
    Spawn(String, io::Error),
    #[error("the engine closed its output (crashed or quit)")]
    Closed,
    #[error("no response within {0:?}")]
    Timeout(Duration),
    #[error("cannot write to the engine: {0}")]
    Write(io::Error),
    #[error("not a GTP response: {0:?}")]
    Protocol(String),
}

/// A GTP engine in a child process.
pub struct Client {
    /// The command line, for messages.
    pub command: String,
    child: Child,
    stdin: ChildStdin,
    /// The engine's output lines; `None` for a line longer than `MAX_RESPONSE_LINE`.
    lines: Receiver<Option<String>>,
}

/// Splits a command line into words as a POSIX shell does (quotes group words with spaces,
/// a backslash escapes); `None` when a quote is not closed or a backslash ends the line.
#[must_use]
pub fn split_command(s: &str) -> Option<Vec<String>> {
    shlex::split(s)
}

/// Debian installs games (GNU Go among them) here, and a root `PATH` often lacks it.
const GAMES_DIR: &str = "/usr/games";

/// What runs for `program`: itself when it names a path (`./x`, `/usr/bin/x`) or is found in
/// a directory of `path` (the `PATH` value), else `/usr/games/program` when that exists (so
/// `gnugo` works on Debian without `/usr/games` on the `PATH`), else itself (and starting it
/// fails with the system's message).
#[must_use]
pub fn find_program(program: &str, path: Option<&OsStr>) -> PathBuf {
    let as_given = PathBuf::from(program);
    if program.contains('/') || program.is_empty() {
        return as_given;
    }
    let on_path = path
        .into_iter()
        .flat_map(std::env::split_paths)
        .any(|dir| dir.join(program).is_file());
    let games = Path::new(GAMES_DIR).join(program);
    if !on_path && games.is_file() {
        games
    } else {
        as_given
    }
}

impl Client {
    /// Starts `argv[0]` with the other words as arguments; its stderr goes to `stderr`
    /// (inherited when `None`).
    pub fn spawn(argv: &[String], stderr: Option<Stdio>) -> Result<Client, ClientError> {
        let command = argv.join(" ");
        let Some((program, args)) = argv.split_first() else {
            return Err(ClientError::Spawn(
                command,
                io::Error::new(io::ErrorKind::InvalidInput, "empty command"),
            ));
        };
        let path = std::env::var_os("PATH");
        let mut child = Command::new(find_program(program, path.as_deref()))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr.unwrap_or_else(Stdio::inherit))
            .spawn()
            .map_err(|e| ClientError::Spawn(command.clone(), e))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let mut out = BufReader::new(child.stdout.take().expect("piped stdout"));
        // Bounded, line by line and in lines queued: an engine that floods its output waits.
        let (tx, lines) = mpsc::sync_channel(1024);
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            loop {
                let l = match read_line(&mut out, &mut buf, MAX_RESPONSE_LINE) {
                    Ok(Line::End) | Err(_) => break,
                    Ok(Line::Whole) => Some(
                        String::from_utf8_lossy(&buf)
                            .trim_end_matches(['\n', '\r'])
                            .to_string(),
                    ),
                    Ok(Line::TooLong) => None,
                };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Ok(Client {
            command,
            child,
            stdin,
            lines,
        })
    }

    /// Sends one command and waits up to `timeout` for its response: `Ok(Ok(text))` for
    /// success, `Ok(Err(message))` for a GTP failure.
    pub fn send(
        &mut self,
        cmd: &str,
        timeout: Duration,
    ) -> Result<Result<String, String>, ClientError> {
        writeln!(self.stdin, "{cmd}").map_err(ClientError::Write)?;
        self.stdin.flush().map_err(ClientError::Write)?;
        let deadline = Instant::now() + timeout;
        let mut lines: Vec<String> = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let l = match self.lines.recv_timeout(left) {
                Ok(Some(l)) => l,
                Ok(None) => {
                    return Err(ClientError::Protocol(format!(
                        "a response line longer than {MAX_RESPONSE_LINE} bytes"
                    )))
                }
                Err(RecvTimeoutError::Timeout) => return Err(ClientError::Timeout(timeout)),
                Err(RecvTimeoutError::Disconnected) => return Err(ClientError::Closed),
            };
            if l.trim().is_empty() {
                if lines.is_empty() {
                    continue;
                }
                break;
            }
            if lines.len() >= MAX_RESPONSE_LINES {
                return Err(ClientError::Protocol(format!(
                    "a response of more than {MAX_RESPONSE_LINES} lines"
                )));
            }
            lines.push(l);
        }
        let first = &lines[0];
        let status = first.chars().next().unwrap_or(' ');
        let after: String = first[status.len_utf8()..]
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .trim()
            .to_string();
        let mut text = after;
        for l in &lines[1..] {
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(l);
        }
        match status {
            '=' => Ok(Ok(text)),
            '?' => Ok(Err(text)),
            _ => Err(ClientError::Protocol(first.clone())),
        }
    }

    /// Asks the engine to quit and waits a moment for it; kills it if it lingers.
    pub fn quit(mut self) {
        let _ = self.send("quit", Duration::from_secs(2));
        let until = Instant::now() + Duration::from_secs(2);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::split_command;

    #[test]
    fn splits_words_and_quotes() {
        assert_eq!(
            split_command("gnugo --mode gtp  --level 10").unwrap(),
            ["gnugo", "--mode", "gtp", "--level", "10"]
        );
        assert_eq!(
            split_command("a 'b c' \"d\"e ''").unwrap(),
            ["a", "b c", "de", ""]
        );
        assert!(split_command("   ").unwrap().is_empty());
        // Issue 39, item 11: an unterminated quote is an error, not a word.
        assert_eq!(split_command("gnugo --mode 'gtp"), None);
    }
}
