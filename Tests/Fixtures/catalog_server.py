#!/usr/bin/env python3
"""A choosy-data catalog server for tests: serves ROOT with ETag and Last-Modified, answers
conditional requests with 304, logs every request, and injects faults.

Usage: catalog_server.py ROOT LOG FAULTS
Prints "PORT <n>" once listening on 127.0.0.1. LOG gets one line per request:
"<method> <path> <status> inm=<If-None-Match> ims=<If-Modified-Since>".
FAULTS is a JSON file re-read on every request: {"/app-data/x.json": "<fault>"}, where fault
is one of: 404, 500, stall, truncate, invalid, huge, redirect-loop, redirect:<path>.
"""
import email.utils
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
            f.write("%s %s %d inm=%s ims=%s\n" % (
                self.command, self.path, status,
                self.headers.get("If-None-Match", ""), self.headers.get("If-Modified-Since", "")))

    def send(self, status, body=b"", headers=None):
        self.record(status)
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if body:
            self.wfile.write(body)

    def do_GET(self):
        fault = faults().get(self.path)
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
        if fault == "invalid":
            return self.send(200, b"{this is not json")

        path = os.path.normpath(os.path.join(ROOT, self.path.lstrip("/")))
        if not path.startswith(os.path.abspath(ROOT)) or not os.path.isfile(path):
            return self.send(404, b"not found")
        with open(path, "rb") as f:
            body = f.read()
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
        if self.headers.get("If-None-Match") == etag:
            return self.send(304, headers={"ETag": etag, "Last-Modified": modified})
        self.send(200, body, {"ETag": etag, "Last-Modified": modified, "Content-Type": "application/json"})


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print("PORT %d" % server.server_address[1], flush=True)
server.serve_forever()
