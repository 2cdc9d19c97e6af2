"""moto_server with DynamoDB requests serialised.

moto's in-memory DynamoDB checks a condition and then writes without a lock, and its server is threaded: two
conditional writes racing on one item can both pass their condition (seen for TransactWriteItems in 2 of 300 races,
and for PutItem under load). DynamoDB itself never lets that happen, and fanin's correctness rests on it, so the tests
run moto with one lock around every DynamoDB request. Other services (SQS long polls in particular) stay concurrent.

Usage: python3 moto_serialized_dynamodb.py -H 127.0.0.1 -p PORT
"""
import argparse
import io
import threading

from moto.server import DomainDispatcherApplication, create_backend_app
from werkzeug.serving import run_simple

_lock = threading.Lock()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("-H", "--host", default="127.0.0.1")
    parser.add_argument("-p", "--port", type=int, required=True)
    args = parser.parse_args()
    app = DomainDispatcherApplication(create_backend_app)

    def serialised(environ, start_response):
        if environ.get("HTTP_X_AMZ_TARGET", "").startswith("DynamoDB"):
            # The body is read before the lock is taken: a client that sent its headers and then went away (a thread
            # interrupted mid-request) would otherwise hold the lock, and every DynamoDB call behind it, until its
            # socket closed.
            length = environ.get("CONTENT_LENGTH")
            if length:
                environ["wsgi.input"] = io.BytesIO(environ["wsgi.input"].read(int(length)))
            with _lock:
                result = app(environ, start_response)
                try:
                    body = b"".join(result)
                finally:
                    close = getattr(result, "close", None)
                    if close is not None:
                        close()
                return [body]
        return app(environ, start_response)

    run_simple(args.host, args.port, serialised, threaded=True, use_reloader=False)


if __name__ == "__main__":
    main()
