"""An HTTPS server on 127.0.0.1 for RiffleKit's tests: a self-signed certificate for 127.0.0.1
(cert.pem, key.pem beside this file, valid until 2126). Writes its port to the file named by its
argument, then answers every GET with a small JSON body until it is terminated."""
import http.server, os, signal, ssl, sys

# Started from a test process that runs many tests at once: let go of any descriptor inherited from it
# (another test's pipe held here would never reach end-of-file), and take SIGTERM as asked.
os.closerange(3, 4096)
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})

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
with open(sys.argv[1] + ".tmp", "w") as out:
    out.write(str(server.server_address[1]))
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
server.serve_forever()
