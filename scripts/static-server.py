#!/usr/bin/env python3
"""Serves a folder (default dist/) on 127.0.0.1 for the page and its end-to-end tests.

Usage: static-server.py DIR [PORT]. PORT 0 (the default) lets the OS pick a free port. The first
line on stdout is the URL, so scripts can start this in the background and read where it listens.
The standard library already maps .wasm to application/wasm (Python >= 3.11); it is set here
explicitly because WebAssembly.instantiateStreaming needs it and older Pythons lack it.
"""
import functools
import http.server
import sys


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".js": "text/javascript",
        ".mjs": "text/javascript",
    }

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        # Quiet: test output should show test results, not one line per request.
        pass


def main() -> None:
    directory = sys.argv[1] if len(sys.argv) > 1 else "dist"
    port = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    handler = functools.partial(Handler, directory=directory)
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as server:
        print(f"http://127.0.0.1:{server.server_address[1]}/", flush=True)
        server.serve_forever()


if __name__ == "__main__":
    main()
