//! A small WebDriver client for browser tests: drives headless Chromium through its own
//! chromedriver process, speaking plain HTTP/1.1 over loopback with only `serde_json`.
//! Without Chromium or chromedriver the tests do not run, and say so (see `external`,
//! which a test crate that includes this module declares beside it).
//!
//! Over 600 lines, and kept whole: one WebDriver client, each request beside the next.

// Test crates include this file as a module and each uses only part of it.
#![allow(dead_code, unreachable_pub)]

use crate::external::{Tool, find_program};
use serde_json::{Value, json};
use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Once;
use std::sync::atomic::{AtomicU32, Ordering};
use std::thread::sleep;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// What the browser tests need, and `LAGRANGE_REQUIRE_BROWSER`, which makes them mandatory.
pub static BROWSER: Tool = Tool {
    skipped: "the browser tests",
    programs: "Chromium and chromedriver",
    install: "apt-get install chromium chromium-driver",
    require: "LAGRANGE_REQUIRE_BROWSER",
    explained: Once::new(),
};
/// How long chromedriver may take to accept connections and report itself ready.
const STARTUP_TIMEOUT: Duration = Duration::from_secs(20);
/// Upper bound for one WebDriver command, above chromedriver's own page-load and script timeouts.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(60);
/// Timeouts handed to chromedriver for page loads and scripts, in milliseconds.
const DRIVER_TIMEOUT_MS: u64 = 30_000;
/// How a request that ran out of time fails; the browser is then taken to be hung.
const NO_ANSWER: &str = "no answer in time";
/// The W3C key of an element reference.
const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

/// A headless Chromium session driven through a chromedriver child process; dropping it
/// ends the session, stops chromedriver and removes the temporary profile.
pub struct Browser {
    driver: Child,
    port: u16,
    session: String,
    browser_pid: Option<u32>,
    temp_dir: PathBuf,
    /// Set once a command timed out: later ones fail at once instead of waiting again.
    hung: bool,
}

impl Browser {
    /// Starts chromedriver on a free loopback port and a headless Chromium session whose
    /// viewport (`innerWidth` x `innerHeight`, and so a screenshot) is `width` x `height`.
    /// `None` when Chromium or chromedriver is not installed and not required: the calling
    /// test has then said that it did not run, and returns. A missing program that
    /// [`BROWSER`] requires is an error, and so is a browser that does not start.
    pub fn start(width: u32, height: u32) -> Result<Option<Browser>, String> {
        let programs = find_program("chromium")
            .and_then(|chromium| find_program("chromedriver").map(|driver| (chromium, driver)));
        match programs {
            Ok((chromium, chromedriver)) => {
                Browser::launch(&chromium, &chromedriver, width, height).map(Some)
            }
            Err(why) => BROWSER.missing(&why).map(|()| None),
        }
    }

    /// Starts `chromedriver` and, through it, a session of `chromium` (see [`Browser::start`]).
    fn launch(
        chromium: &Path,
        chromedriver: &Path,
        width: u32,
        height: u32,
    ) -> Result<Browser, String> {
        let temp_dir = fresh_temp_dir()?;
        let profile = temp_dir.join("profile");
        let spawned = free_port().and_then(|port| {
            let log = File::create(temp_dir.join("chromedriver.log"))
                .map_err(|e| format!("cannot create the chromedriver log: {e}"))?;
            let log2 = log.try_clone().map_err(|e| e.to_string())?;
            Command::new(chromedriver)
                .arg(format!("--port={port}"))
                .stdin(Stdio::null())
                .stdout(log)
                .stderr(log2)
                .spawn()
                .map(|child| (child, port))
                .map_err(|e| format!("cannot run {}: {e}", chromedriver.display()))
        });
        let (driver, port) = match spawned {
            Ok(spawned) => spawned,
            Err(e) => {
                let _ = fs::remove_dir_all(&temp_dir);
                return Err(e);
            }
        };
        // From here on, Drop cleans up whatever fails.
        let mut browser = Browser {
            driver,
            port,
            session: String::new(),
            browser_pid: None,
            temp_dir,
            hung: false,
        };
        browser.wait_until_ready()?;
        let args = [
            "--headless".to_string(),
            "--no-sandbox".to_string(),
            "--disable-gpu".to_string(),
            "--disable-quic".to_string(),
            "--no-first-run".to_string(),
            "--disable-background-networking".to_string(),
            "--disable-component-update".to_string(),
            "--disable-sync".to_string(),
            format!("--user-data-dir={}", profile.display()),
            format!("--window-size={width},{height}"),
        ];
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "pageLoadStrategy": "normal",
            "timeouts": {"implicit": 0, "pageLoad": DRIVER_TIMEOUT_MS, "script": DRIVER_TIMEOUT_MS},
            "goog:chromeOptions": {"binary": chromium.to_string_lossy(), "args": args},
            "goog:loggingPrefs": {"browser": "ALL"},
        }}});
        let created = browser
            .http("POST", "/session", Some(&capabilities), COMMAND_TIMEOUT)
            .map_err(|e| format!("cannot start Chromium: {e}{}", browser.driver_log_tail()))?;
        browser.session = created["sessionId"]
            .as_str()
            .ok_or_else(|| format!("no sessionId in the new session: {created}"))?
            .to_string();
        browser.browser_pid = created["capabilities"]["goog:processID"]
            .as_u64()
            .and_then(|pid| u32::try_from(pid).ok());
        browser.fit_viewport(width, height)?;
        Ok(browser)
    }

    /// Loads the file at the absolute `path` as a `file://` URL and waits for its load event.
    pub fn open(&mut self, path: &Path) -> Result<(), String> {
        if !path.is_absolute() {
            return Err(format!("not an absolute path: {}", path.display()));
        }
        if !path.is_file() {
            return Err(format!("no such file: {}", path.display()));
        }
        let url = file_url(path)?;
        self.command("POST", "/url", Some(json!({ "url": url })))?;
        let state = self.script("return document.readyState")?;
        if state != "complete" {
            return Err(format!("{url} is not loaded: readyState {state}"));
        }
        Ok(())
    }

    /// Runs `js` as the body of a function in the page and returns what it `return`s.
    pub fn script(&mut self, js: &str) -> Result<Value, String> {
        self.command(
            "POST",
            "/execute/sync",
            Some(json!({"script": js, "args": []})),
        )
    }

    /// A PNG of the viewport.
    pub fn screenshot(&mut self) -> Result<Vec<u8>, String> {
        let data = self.command("GET", "/screenshot", None)?;
        decode_png(&data)
    }

    /// A PNG of the first element that matches the CSS selector `css`.
    pub fn element_screenshot(&mut self, css: &str) -> Result<Vec<u8>, String> {
        let found = self.command(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        )?;
        let id = found[ELEMENT_KEY]
            .as_str()
            .ok_or_else(|| format!("no element reference for {css:?}: {found}"))?
            .to_string();
        let data = self.command("GET", &format!("/element/{id}/screenshot"), None)?;
        decode_png(&data)
    }

    /// The browser console's SEVERE messages (`console.error`, uncaught exceptions, failed
    /// loads) logged since the previous call: chromedriver hands each message out once.
    pub fn console_errors(&mut self) -> Result<Vec<String>, String> {
        let body = json!({"type": "browser"});
        let entries = match self.command("POST", "/se/log", Some(body.clone())) {
            Err(e) if e.contains("unknown command") => self.command("POST", "/log", Some(body))?,
            other => other?,
        };
        let entries = entries
            .as_array()
            .ok_or_else(|| format!("the browser log is not a list: {entries}"))?;
        Ok(entries
            .iter()
            .filter(|entry| entry["level"] == "SEVERE")
            .map(|entry| entry["message"].as_str().unwrap_or_default().to_string())
            .collect())
    }

    /// Sends a command of this session, `suffix` being the path after `/session/{id}`.
    fn command(
        &mut self,
        method: &str,
        suffix: &str,
        body: Option<Value>,
    ) -> Result<Value, String> {
        if self.hung {
            return Err(format!(
                "WebDriver {method} {suffix}: not sent, the browser stopped answering earlier"
            ));
        }
        let path = format!("/session/{}{suffix}", self.session);
        let result = self.http(method, &path, body.as_ref(), COMMAND_TIMEOUT);
        if let Err(e) = &result {
            self.hung = e.contains(NO_ANSWER);
        }
        result
    }

    /// Sends one request to chromedriver and returns the `value` of a successful answer.
    fn http(
        &self,
        method: &str,
        path: &str,
        body: Option<&Value>,
        timeout: Duration,
    ) -> Result<Value, String> {
        let (status, answer) = http_request(self.port, method, path, body, timeout)
            .map_err(|e| format!("WebDriver {method} {path}: {e}"))?;
        let mut answer = match answer {
            Value::Object(map) => map,
            other => return Err(format!("WebDriver {method} {path}: HTTP {status}: {other}")),
        };
        let value = answer.remove("value").unwrap_or(Value::Null);
        if status == 200 {
            return Ok(value);
        }
        let error = value["error"].as_str().unwrap_or("error");
        let message = value["message"].as_str().unwrap_or_default();
        Err(format!(
            "WebDriver {method} {path}: HTTP {status}: {error}: {message}"
        ))
    }

    /// Waits until chromedriver answers `/status` with `ready`, retrying refused connections.
    fn wait_until_ready(&mut self) -> Result<(), String> {
        let deadline = Instant::now() + STARTUP_TIMEOUT;
        loop {
            if let Ok(Some(status)) = self.driver.try_wait() {
                return Err(format!(
                    "chromedriver exited at startup ({status}){}",
                    self.driver_log_tail()
                ));
            }
            let last = match self.http("GET", "/status", None, Duration::from_secs(5)) {
                Ok(status) if status["ready"] == true => return Ok(()),
                Ok(status) => format!("not ready: {status}"),
                Err(e) => e,
            };
            if Instant::now() >= deadline {
                return Err(format!(
                    "chromedriver on port {} not ready after {STARTUP_TIMEOUT:?}: {last}{}",
                    self.port,
                    self.driver_log_tail()
                ));
            }
            sleep(Duration::from_millis(50));
        }
    }

    /// Resizes the window so that the viewport, not the whole window, is `width` x `height`:
    /// headless Chromium reserves room for browser controls it does not draw.
    fn fit_viewport(&mut self, width: u32, height: u32) -> Result<(), String> {
        let measure = "return [innerWidth, innerHeight, outerWidth, outerHeight]";
        let sizes = |value: Value| -> Result<[i64; 4], String> {
            let list: Vec<i64> = value
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_i64).collect())
                .unwrap_or_default();
            list.try_into()
                .map_err(|_| format!("cannot measure the window: {value}"))
        };
        let [inner_w, inner_h, outer_w, outer_h] = sizes(self.script(measure)?)?;
        let (width, height) = (i64::from(width), i64::from(height));
        if (inner_w, inner_h) == (width, height) {
            return Ok(());
        }
        let rect =
            json!({"width": width + outer_w - inner_w, "height": height + outer_h - inner_h});
        self.command("POST", "/window/rect", Some(rect))?;
        let [inner_w, inner_h, ..] = sizes(self.script(measure)?)?;
        if (inner_w, inner_h) != (width, height) {
            return Err(format!(
                "the viewport is {inner_w}x{inner_h}, not the {width}x{height} asked for"
            ));
        }
        Ok(())
    }

    /// The end of chromedriver's output, to explain a failed start.
    fn driver_log_tail(&self) -> String {
        let log = fs::read_to_string(self.temp_dir.join("chromedriver.log")).unwrap_or_default();
        let lines: Vec<&str> = log.lines().collect();
        let tail = lines[lines.len().saturating_sub(20)..].join("\n");
        if tail.is_empty() {
            String::new()
        } else {
            format!("\nchromedriver output:\n{tail}")
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let quit = !self.session.is_empty()
            && !self.hung
            && self
                .http(
                    "DELETE",
                    &format!("/session/{}", self.session),
                    None,
                    Duration::from_secs(10),
                )
                .is_ok();
        // Chromium outlives a killed chromedriver: end it by its own process id.
        if let (false, Some(pid)) = (quit, self.browser_pid) {
            let _ = Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        // Chromium may still be writing its profile for a moment after it quits.
        for _ in 0..40 {
            if fs::remove_dir_all(&self.temp_dir).is_ok() || !self.temp_dir.exists() {
                break;
            }
            sleep(Duration::from_millis(50));
        }
    }
}

/// A new, empty directory under the system's temporary directory.
fn fresh_temp_dir() -> Result<PathBuf, String> {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or_default();
    let dir = std::env::temp_dir().join(format!(
        "browser-test-{}-{nanos}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    fs::create_dir(&dir)
        .map(|()| dir.clone())
        .map_err(|e| format!("cannot create {}: {e}", dir.display()))
}

/// A loopback port that was free a moment ago.
fn free_port() -> Result<u16, String> {
    TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .and_then(|listener| listener.local_addr())
        .map(|addr| addr.port())
        .map_err(|e| format!("no free loopback port: {e}"))
}

/// The `file://` URL of an absolute path, percent-encoding all but unreserved characters.
fn file_url(path: &Path) -> Result<String, String> {
    let text = path
        .to_str()
        .ok_or_else(|| format!("not a UTF-8 path: {}", path.display()))?;
    let mut url = String::from("file://");
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            url.push(char::from(byte));
        } else {
            url.push_str(&format!("%{byte:02X}"));
        }
    }
    Ok(url)
}

/// The bytes of a base64 PNG that chromedriver returned.
fn decode_png(data: &Value) -> Result<Vec<u8>, String> {
    let text = data
        .as_str()
        .ok_or_else(|| format!("a screenshot is not a string: {data}"))?;
    let png = base64_decode(text)?;
    if !png.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Err("a screenshot is not a PNG".to_string());
    }
    Ok(png)
}

/// Decodes standard or URL-safe base64, padded or not, skipping whitespace.
fn base64_decode(text: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let (mut bits, mut count) = (0u32, 0u32);
    for byte in text.bytes() {
        let digit = match byte {
            b'A'..=b'Z' => byte - b'A',
            b'a'..=b'z' => byte - b'a' + 26,
            b'0'..=b'9' => byte - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' => break,
            b' ' | b'\t' | b'\r' | b'\n' => continue,
            _ => return Err(format!("invalid base64 byte {byte:#04x}")),
        };
        bits = (bits << 6) | u32::from(digit);
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count) as u8);
            bits &= (1 << count) - 1;
        }
    }
    Ok(out)
}

/// Sends one HTTP/1.1 request to `127.0.0.1:port` and returns the status and JSON body.
/// The whole exchange, not just each read, is bounded by `timeout`.
fn http_request(
    port: u16,
    method: &str,
    path: &str,
    body: Option<&Value>,
    timeout: Duration,
) -> Result<(u16, Value), String> {
    let deadline = Instant::now() + timeout;
    let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let mut stream = TcpStream::connect_timeout(&address, Duration::from_secs(5))
        .map_err(|e| format!("cannot connect to {address}: {e}"))?;
    stream
        .set_write_timeout(Some(timeout))
        .map_err(|e| e.to_string())?;
    let payload = body.map(Value::to_string).unwrap_or_default();
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nAccept: application/json\r\n\
         Connection: close\r\nContent-Length: {}\r\n",
        payload.len()
    );
    if body.is_some() {
        request.push_str("Content-Type: application/json; charset=utf-8\r\n");
    }
    request.push_str("\r\n");
    request.push_str(&payload);
    stream
        .write_all(request.as_bytes())
        .map_err(|e| match e.kind() {
            io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut => NO_ANSWER.to_string(),
            _ => format!("cannot send the request: {e}"),
        })?;
    let mut reader = BufReader::new(DeadlineReader { stream, deadline });
    let (status, raw) = read_response(&mut reader)?;
    let value = if raw.iter().all(u8::is_ascii_whitespace) {
        Value::Null
    } else {
        serde_json::from_slice(&raw).map_err(|e| {
            let text = String::from_utf8_lossy(&raw);
            format!("HTTP {status}: not JSON ({e}): {text:.300}")
        })?
    };
    Ok((status, value))
}

/// A socket whose reads all end by one deadline.
struct DeadlineReader {
    stream: TcpStream,
    deadline: Instant,
}

impl Read for DeadlineReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        let timed_out = || io::Error::new(io::ErrorKind::TimedOut, NO_ANSWER);
        if left.is_zero() {
            return Err(timed_out());
        }
        self.stream.set_read_timeout(Some(left))?;
        self.stream.read(buf).map_err(|e| match e.kind() {
            io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut => timed_out(),
            _ => e,
        })
    }
}

/// Reads an HTTP/1.1 response: the status code and the body, sized by Content-Length,
/// chunked transfer encoding, or the end of the connection.
fn read_response(reader: &mut impl BufRead) -> Result<(u16, Vec<u8>), String> {
    let status_line = read_line(reader)?;
    let status = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .ok_or_else(|| format!("not an HTTP status line: {status_line:?}"))?;
    let (mut length, mut chunked) = (None, false);
    loop {
        let line = read_line(reader)?;
        if line.is_empty() {
            break;
        }
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim();
        if name.trim().eq_ignore_ascii_case("content-length") {
            let n: usize = value
                .parse()
                .map_err(|_| format!("bad Content-Length {value:?}"))?;
            length = Some(n);
        } else if name.trim().eq_ignore_ascii_case("transfer-encoding") {
            chunked = value.to_ascii_lowercase().contains("chunked");
        }
    }
    let io_error = |e: io::Error| format!("cannot read the answer: {e}");
    let mut body = Vec::new();
    if chunked {
        loop {
            let line = read_line(reader)?;
            let size = line.split(';').next().unwrap_or_default().trim();
            let size =
                usize::from_str_radix(size, 16).map_err(|_| format!("bad chunk size {line:?}"))?;
            if size == 0 {
                while !read_line(reader)?.is_empty() {}
                break;
            }
            let start = body.len();
            body.resize(start + size, 0);
            reader.read_exact(&mut body[start..]).map_err(io_error)?;
            if !read_line(reader)?.is_empty() {
                return Err("no line break after a chunk".to_string());
            }
        }
    } else if let Some(length) = length {
        body.resize(length, 0);
        reader.read_exact(&mut body).map_err(io_error)?;
    } else {
        reader.read_to_end(&mut body).map_err(io_error)?;
    }
    Ok((status, body))
}

/// One line without its line break; an error at the end of the stream.
fn read_line(reader: &mut impl BufRead) -> Result<String, String> {
    let mut line = Vec::new();
    let n = reader
        .read_until(b'\n', &mut line)
        .map_err(|e| format!("cannot read the answer: {e}"))?;
    if n == 0 {
        return Err("the connection closed before the answer ended".to_string());
    }
    while line.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
        line.pop();
    }
    Ok(String::from_utf8_lossy(&line).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips_known_values() {
        assert_eq!(base64_decode("").unwrap(), b"");
        assert_eq!(base64_decode("Zg==").unwrap(), b"f");
        assert_eq!(base64_decode("Zm8=").unwrap(), b"fo");
        assert_eq!(base64_decode("Zm9v").unwrap(), b"foo");
        assert_eq!(base64_decode("Zm9vYg").unwrap(), b"foob");
        assert_eq!(base64_decode("iVBO\nRw0K").unwrap(), b"\x89PNG\r\n");
        assert_eq!(base64_decode("-_8=").unwrap(), [0xfb, 0xff]);
        assert!(base64_decode("Zm9v!").is_err());
    }

    #[test]
    fn responses_are_read_by_length_chunks_or_end() {
        let sized = "HTTP/1.1 200 OK\r\nContent-Length:11\r\n\r\n{\"value\":1}extra";
        assert_eq!(
            read_response(&mut sized.as_bytes()).unwrap(),
            (200, b"{\"value\":1}".to_vec())
        );
        let chunked = "HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n\
                       4;x=y\r\n{\"va\r\n7\r\nlue\":2}\r\n0\r\nTrailer: t\r\n\r\n";
        assert_eq!(
            read_response(&mut chunked.as_bytes()).unwrap(),
            (404, b"{\"value\":2}".to_vec())
        );
        let until_close = "HTTP/1.0 200 OK\r\n\r\n{}";
        assert_eq!(
            read_response(&mut until_close.as_bytes()).unwrap(),
            (200, b"{}".to_vec())
        );
        let cut = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n{}";
        assert!(read_response(&mut cut.as_bytes()).is_err());
    }

    #[test]
    fn file_urls_are_percent_encoded() {
        assert_eq!(
            file_url(Path::new("/tmp/a b/ä#.html")).unwrap(),
            "file:///tmp/a%20b/%C3%A4%23.html"
        );
    }
}
