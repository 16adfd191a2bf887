"""An HTTPS server on 127.0.0.1 for RiffleKit's tests: a self-signed certificate for 127.0.0.1
(cert.pem, key.pem beside this file, valid until 2126). Prints its port, then answers every GET with
a small JSON body until its standard input closes."""
import http.server, os, ssl, sys, threading

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_GET(self):
        body = b'{"tls": true}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass

here = os.path.dirname(os.path.abspath(__file__))
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(os.path.join(here, "cert.pem"), os.path.join(here, "key.pem"))
server.socket = context.wrap_socket(server.socket, server_side=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
print(server.server_address[1], flush=True)
sys.stdin.read()  # the test closes it (or exits) to stop the server
