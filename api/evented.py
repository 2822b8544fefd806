"""The gunicorn worker `chronicle serve` runs: gevent's, so that a connection costs a greenlet
and not a thread (a thousand idle event streams leave every other request its turn), with
deadlines on every connection.

- The request line and headers must arrive within gunicorn's `--keep-alive` seconds (the gevent
  worker reads each request under that timeout), so a client that trickles its headers is cut
  off instead of holding a place.
- Every single read or write on the socket must make progress within `SOCKET_TIMEOUT_S`: a
  body that stalls, or a stream whose reader stopped reading, ends the connection.
- What gunicorn refuses before the app sees the request (a request line over its limit: 414;
  headers over theirs: 431; a line it cannot parse: 400) is answered with one JSON error body,
  like every other error, not gunicorn's HTML page.
"""

from __future__ import annotations

import os
from typing import Any

from gunicorn.workers.ggevent import GeventWorker

from api.http_errors import answer_parser_errors_in_json

SOCKET_TIMEOUT_S = float(os.environ.get("CHRONICLE_SOCKET_TIMEOUT_S", "30"))


answer_parser_errors_in_json()


class ChronicleWorker(GeventWorker):  # type: ignore[misc]
    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        client.settimeout(SOCKET_TIMEOUT_S)
        super().handle(listener, client, addr)
