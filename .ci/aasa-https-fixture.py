#!/usr/bin/env python3
"""A one-file HTTPS origin and Apple-CDN stand-in for .ci/deb-check's `aasa-monitor check` of the packaged binary.

Serves the same AASA file at /.well-known/apple-app-site-association (the origin) and at /a/v1/<domain> (Apple's
CDN, with the headers Apple sends), on 127.0.0.1 only, with the certificate and key given. Writes the port it
bound to the file named by its third argument, so the caller waits for that file instead of sleeping.
Usage: aasa-https-fixture.py CERT KEY PORT_FILE
"""
import http.server
import os
import ssl
import sys

AASA = (b'{"applinks":{"details":[{"appIDs":["9JA89QQLNQ.com.example.shop"],'
        b'"components":[{"/":"/products/*"}]}]}}')


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        headers = {"Content-Type": "application/json"}
        if self.path.startswith("/a/v1/"):
            headers.update({"Cache-Control": "max-age=21600", "Age": "60", "Apple-Origin-Format": "json"})
        elif self.path != "/.well-known/apple-app-site-association":
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(AASA)))
        self.end_headers()
        self.wfile.write(AASA)

    def log_message(self, *args):
        pass


def main():
    certificate, key, port_file = sys.argv[1:4]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certificate, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    with open(port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(port_file + ".tmp", port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
