#!/usr/bin/env python3
"""A choosy-data catalog server for tests: serves ROOT with ETag and Last-Modified, answers
conditional requests with 304, logs every request, and injects faults.

Usage: catalog_server.py ROOT LOG FAULTS
Prints "PORT <n>" once listening on 127.0.0.1. LOG gets one line per request:
"<method> <path> <status> inm=<If-None-Match> ims=<If-Modified-Since> inj=<Injected>
cookie=<Cookie> length=<Content-Length> host=<Host>" (Injected: a header only a client that sends a
validator's CR back makes). HEAD is answered as GET, with the same body (a server that breaks
the protocol).
FAULTS is a JSON file re-read on every request: {"/app-data/x.json": "<fault>"}, where fault
is one of:
  404, 500            that status
  stall               headers never come (past every client timeout)
  truncate            Content-Length of the whole file, half of it sent, connection closed
  invalid             200 with a body that is not JSON
  huge                200 with a 5 MiB body, announced by Content-Length
  huge-chunked        200 with a 5 MiB body, chunked: no length known up front
  gzip-bomb           200 with a 5 MiB body gzip-compressed to a few KiB
  wrong-key           the file with every app type's key changed ("twitter" -> "not_twitter")
  bad-keys            the file with its key replaced by path-like keys ("../x", "a/b", ...)
  trickle             the file sent 256 bytes every 5 ms (crash tests kill clients mid-body)
  redirect-loop       301 to the same path, forever
  redirect:<url>      302 to <url>
  control-validators  200 with the file, an ETag holding a bare CR and a Last-Modified a ^A
or an object, for a link shortener: {"status": 301, "location": "...", "delay": 0.5, "body": "...",
"cookie": "..."}, every member optional (status 200): "{base}" in a location is this server's
http://127.0.0.1:<port> and "{localhost}" its http://localhost:<port>; "cookie" is sent as a
Set-Cookie header, after "delay" seconds.
"""
import email.utils
import gzip
import hashlib
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROOT, LOG, FAULTS = sys.argv[1], sys.argv[2], sys.argv[3]
log_lock = threading.Lock()


def faults():
    try:
        with open(FAULTS) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def record(self, status):
        with log_lock, open(LOG, "a") as f:
            f.write("%s %s %d inm=%s ims=%s inj=%s cookie=%s length=%s host=%s\n" % (
                self.command, self.path, status,
                self.headers.get("If-None-Match", ""), self.headers.get("If-Modified-Since", ""),
                self.headers.get("Injected", ""), self.headers.get("Cookie", ""),
                self.headers.get("Content-Length", ""), self.headers.get("Host", "")))

    def send(self, status, body=b"", headers=None):
        self.record(status)
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if body:
            self.wfile.write(body)

    def send_chunked(self, body):
        self.record(200)
        self.send_response(200)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for start in range(0, len(body), 65536):
            chunk = body[start:start + 65536]
            self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        self.wfile.write(b"0\r\n\r\n")
        self.close_connection = True

    def do_GET(self):
        try:
            self.serve()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client gave up (a size limit, a kill): expected

    do_HEAD = do_GET

    def serve(self):
        fault = faults().get(self.path)
        if isinstance(fault, dict):
            return self.shorten(fault)
        if fault == "404":
            return self.send(404, b"not found")
        if fault == "500":
            return self.send(500, b"boom")
        if fault == "stall":
            self.record(0)
            time.sleep(60)
            return
        if fault == "redirect-loop":
            return self.send(301, headers={"Location": self.path})
        if fault and fault.startswith("redirect:"):
            return self.send(302, headers={"Location": fault[len("redirect:"):]})
        if fault == "huge":
            return self.send(200, b"[" + b" " * (5 << 20) + b"]")
        if fault == "huge-chunked":
            return self.send_chunked(b"[" + b" " * (5 << 20) + b"]")
        if fault == "gzip-bomb":
            body = gzip.compress(b"[" + b" " * (5 << 20) + b"]")
            return self.send(200, body, {"Content-Encoding": "gzip", "Content-Type": "application/json"})
        if fault == "invalid":
            return self.send(200, b"{this is not json")

        path = os.path.normpath(os.path.join(ROOT, self.path.lstrip("/")))
        if not path.startswith(os.path.abspath(ROOT)) or not os.path.isfile(path):
            return self.send(404, b"not found")
        with open(path, "rb") as f:
            body = f.read()
        if fault == "wrong-key":
            types = json.loads(body)
            for t in types:
                t["key"] = "not_" + t["key"]
            body = json.dumps(types).encode()
        if fault == "bad-keys":
            template = json.loads(body)[0]
            body = json.dumps([dict(template, key=k) for k in ["../x", "a/b", "..", "/tmp/x", "x/../../y"]]).encode()
        etag = '"%s"' % hashlib.sha1(body).hexdigest()
        modified = email.utils.formatdate(os.path.getmtime(path), usegmt=True)
        if fault == "truncate":
            self.record(200)
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        if fault == "trickle":
            self.record(200)
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            for start in range(0, len(body), 256):
                self.wfile.write(body[start:start + 256])
                self.wfile.flush()
                time.sleep(0.005)
            return
        if fault == "control-validators":
            etag, modified = '"a\rInjected: 1"', "Mon, 01 Jan 2024 00:00:00\x01GMT"
        if self.headers.get("If-None-Match") == etag:
            return self.send(304, headers={"ETag": etag, "Last-Modified": modified})
        self.send(200, body, {"ETag": etag, "Last-Modified": modified, "Content-Type": "application/json"})

    def shorten(self, answer):
        time.sleep(answer.get("delay", 0))
        port = self.server.server_address[1]
        headers = {}
        if "location" in answer:
            location = answer["location"].replace("{base}", "http://127.0.0.1:%d" % port)
            headers["Location"] = location.replace("{localhost}", "http://localhost:%d" % port)
        if "cookie" in answer:
            headers["Set-Cookie"] = answer["cookie"]
        self.send(answer.get("status", 200), answer.get("body", "").encode(), headers)


class Server(ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        # Tests kill choosy mid-download: a client that hangs up is expected, not an error.
        if not isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            super().handle_error(request, client_address)


server = Server(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print("PORT %d" % server.server_address[1], flush=True)
server.serve_forever()
