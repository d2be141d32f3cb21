"""A host of libdaemonset's list-watch loop (ds_controller_step(3)) in Python,
with the standard library only: the library decides every list, watch, wait,
retry and Lease call; this module performs them over HTTP with http.client
and hands the bytes back as they arrive. The loop is host-agnostic: dsrun
(examples/controller) runs the same loop on libcurl's multi interface.

    from daemonset import watchloop
    with watchloop.WatchLoop("http://127.0.0.1:8001", options={"seed": "1"}) as loop:
        loop.run(stop=lambda: loop.converged(), timeout=120)

One thread runs the loop and is the only one that calls the library. Each
call the library starts gets a reader thread that makes the request and puts
what comes back - the status, the body in pieces, how it ended - into a
bounded queue the loop drains: a slow loop slows the readers, memory stays
bounded, and the library's maxDocumentBytes bounds what it keeps. A call the
library closes (a silent watch, a reply too large, a malformed event) has its
socket shut down. TLS is verified (ssl.create_default_context); http.client
never follows redirects; a bearer token goes into the Authorization header
and nowhere else.

The syncs' writes (ds_transport(3)) go through HttpTransport, on the loop's
thread, as daemonset.controller.Controller calls them.
"""

from __future__ import annotations

import ctypes
import http.client
import json
import queue
import socket
import ssl
import sys
import threading
import time
import urllib.parse
from typing import Any, Callable, Dict, List, Optional, Tuple, cast

from ._native import lib, call, take_json, encode
from . import controller
from .core import OptionsArg

__all__ = ["WatchLoop", "HttpTransport", "WAIT", "LIST", "WATCH", "CLOSE", "GET", "CREATE", "UPDATE", "LOG",
           "STOPPED"]

# ds_io_op
WAIT, LIST, WATCH, CLOSE, GET, CREATE, UPDATE, LOG, STOPPED = range(9)
_LEVELS = ("info", "warning", "error")

_V = ctypes.c_void_p
_P = ctypes.c_char_p
_OUT = ctypes.POINTER(ctypes.c_void_p)


class _Io(ctypes.Structure):
    """ds_io"""
    _fields_ = [
        ("size", ctypes.c_size_t),
        ("op", ctypes.c_int),
        ("id", ctypes.c_uint64),
        ("method", _P),
        ("path", _P),
        ("resource", _P),
        ("namespace_", _P),
        ("name", _P),
        ("resource_version", _P),
        ("timeout_seconds", ctypes.c_int64),
        ("allow_watch_bookmarks", ctypes.c_int),
        ("timeout_ms", ctypes.c_int64),
        ("body", _P),
        ("wait_ms", ctypes.c_int64),
        ("level", ctypes.c_int),
        ("message", _P),
    ]


lib.ds_controller_step.argtypes = [_V, ctypes.c_int64, ctypes.POINTER(_Io), _V]
lib.ds_controller_step.restype = ctypes.c_int
lib.ds_controller_io_response.argtypes = [_V, ctypes.c_uint64, ctypes.c_int, ctypes.c_int64, _V]
lib.ds_controller_io_response.restype = ctypes.c_int
lib.ds_controller_io_data.argtypes = [_V, ctypes.c_uint64, _P, ctypes.c_size_t, ctypes.c_int64, _V]
lib.ds_controller_io_data.restype = ctypes.c_int
lib.ds_controller_io_end.argtypes = [_V, ctypes.c_uint64, _P, ctypes.c_int64, _V]
lib.ds_controller_io_end.restype = ctypes.c_int
lib.ds_controller_stop.argtypes = [_V, ctypes.c_int64, _V]
lib.ds_controller_stop.restype = ctypes.c_int
lib.ds_controller_loop_status.argtypes = [_V, ctypes.c_int64, _OUT, _V]
lib.ds_controller_loop_status.restype = ctypes.c_int

_CHUNK = 64 << 10  # a reader hands over at most this much at a time
_QUEUE = 256        # pieces waiting for the loop: 16 MiB at most


def _now_ms() -> int:
    return int(time.time() * 1000)


class _Server:
    """Where requests go: scheme, host, port, TLS context, the Authorization header."""

    def __init__(self, base_url: str, token: Optional[str], cafile: Optional[str],
                 context: Optional[ssl.SSLContext]) -> None:
        url = urllib.parse.urlsplit(base_url)
        if url.scheme not in ("http", "https") or not url.hostname:
            raise ValueError("expected an http:// or https:// URL, got %r" % base_url)
        self.https = url.scheme == "https"
        self.host = url.hostname
        self.port = url.port
        self.prefix = url.path.rstrip("/")
        self.context = context or (ssl.create_default_context(cafile=cafile) if self.https else None)
        self.headers = {"Accept": "application/json"}
        if token:
            self.headers["Authorization"] = "Bearer " + token

    def connect(self, timeout: Optional[float]) -> http.client.HTTPConnection:
        """A new connection to the server (TLS verified for https)."""
        if self.https:
            return http.client.HTTPSConnection(self.host, self.port, timeout=timeout, context=self.context)
        return http.client.HTTPConnection(self.host, self.port, timeout=timeout)


class HttpTransport:
    """The syncs' writes (the transport protocol of daemonset.controller) over HTTP: each call a
    request, its answer read in pieces and refused beyond max_bytes (the library's
    maxDocumentBytes), an error answer's Status message raised as controller.TransportError."""

    _PREFIX = {"nodes": "/api/v1", "pods": "/api/v1", "events": "/api/v1", "daemonsets": "/apis/apps/v1",
               "controllerrevisions": "/apis/apps/v1", "leases": "/apis/coordination.k8s.io/v1"}

    def __init__(self, server: _Server, timeout: float = 30.0, max_bytes: int = 256 << 20) -> None:
        self._server = server
        self._timeout = timeout
        self._max = max_bytes

    def _path(self, resource: str, namespace: Optional[str], name: Optional[str] = None,
              sub: Optional[str] = None) -> str:
        p = self._server.prefix + self._PREFIX[resource]
        if namespace:
            p += "/namespaces/" + urllib.parse.quote(namespace, safe="")
        p += "/" + resource
        if name:
            p += "/" + urllib.parse.quote(name, safe="")
        if sub:
            p += "/" + sub
        return p

    def _do(self, method: str, path: str, body: Any = None, content_type: str = "application/json") -> Any:
        headers = dict(self._server.headers)
        data = None
        if body is not None:
            data = body if isinstance(body, (bytes, str)) else json.dumps(body)
            headers["Content-Type"] = content_type
        conn = self._server.connect(self._timeout)
        try:
            conn.request(method, path, body=data, headers=headers)
            resp = conn.getresponse()
            chunks: List[bytes] = []
            size = 0
            while True:
                piece = resp.read1(_CHUNK)
                if not piece:
                    break
                size += len(piece)
                if size > self._max:
                    raise controller.TransportError(controller.FATAL, "the reply is larger than maxDocumentBytes")
                chunks.append(piece)
            text = b"".join(chunks)
        except (OSError, http.client.HTTPException) as e:
            raise controller.TransportError(controller.TRANSIENT, "%s: %s" % (type(e).__name__, e))
        finally:
            conn.close()
        if 200 <= resp.status < 300:
            return json.loads(text) if text else None
        try:
            st = json.loads(text)
        except ValueError:
            st = {}
        message = st.get("message") if isinstance(st, dict) else None
        message = message or "the server answered HTTP %d" % resp.status
        reason = st.get("reason") if isinstance(st, dict) else None
        if resp.status == 404:
            result = controller.NOT_FOUND
        elif resp.status == 409:
            result = controller.ALREADY_EXISTS if reason == "AlreadyExists" else controller.CONFLICT
        elif resp.status == 422:
            result = controller.INVALID
        elif resp.status == 429 or resp.status >= 500:
            result = controller.TRANSIENT
        else:
            result = controller.FATAL
        raise controller.TransportError(result, message)

    def list(self, resource: str, namespace: Optional[str], selector: Optional[str]) -> Any:
        """GET the collection (for ds_controller_resync)."""
        query = "?labelSelector=" + urllib.parse.quote(selector, safe="") if selector else ""
        return self._do("GET", self._path(resource, namespace) + query)

    def get(self, resource: str, namespace: Optional[str], name: str) -> Any:
        """GET one object."""
        return self._do("GET", self._path(resource, namespace, name))

    def create(self, resource: str, namespace: Optional[str], body: Any) -> Any:
        """POST to the collection."""
        return self._do("POST", self._path(resource, namespace), body)

    def delete(self, resource: str, namespace: Optional[str], name: str, uid: Optional[str]) -> Any:
        """DELETE, with the uid as a precondition when given."""
        body = {"kind": "DeleteOptions", "apiVersion": "v1", "preconditions": {"uid": uid}} if uid else None
        return self._do("DELETE", self._path(resource, namespace, name), body)

    def update_status(self, resource: str, namespace: Optional[str], name: str, body: Any) -> Any:
        """PUT the status subresource."""
        return self._do("PUT", self._path(resource, namespace, name, "status"), body)

    def patch(self, resource: str, namespace: Optional[str], name: str, patch_type: str, body: Any) -> Any:
        """PATCH with patch_type as the Content-Type."""
        return self._do("PATCH", self._path(resource, namespace, name), body, patch_type)

    def record_event(self, namespace: Optional[str], body: Any) -> Any:
        """POST a core/v1 Event."""
        return self._do("POST", self._path("events", namespace), body)


class _Call:
    """A call of the loop: its reader thread and its connection."""

    def __init__(self, id: int) -> None:
        self.id = id
        self.conn: Optional[http.client.HTTPConnection] = None
        self.closed = False
        self.lock = threading.Lock()

    def close(self) -> None:
        """Shut the connection down: its reader wakes and ends."""
        with self.lock:
            self.closed = True
            conn = self.conn
        if conn is not None and conn.sock is not None:
            try:
                conn.sock.shutdown(socket.SHUT_RDWR)  # wakes the reader
            except OSError:
                pass
        if conn is not None:
            conn.close()


class WatchLoop:
    """The controller and its loop, over the API server at base_url.

    options: a dict or daemonset.Options (maxDocumentBytes, seed, relistPeriod, ...);
    token: a bearer token; cafile: the CA that signed the server's certificate
    (else the system's); namespace: watch one namespace; lease: a
    controller.LeaseConfig to lead first; log: called with (level, message)
    for each log line of the library (default: stderr)."""

    def __init__(self, base_url: str, options: OptionsArg = None, token: Optional[str] = None,
                 cafile: Optional[str] = None, namespace: Optional[str] = None,
                 lease: Optional[controller.LeaseConfig] = None,
                 log: Optional[Callable[[str, str], None]] = None, context: Optional[ssl.SSLContext] = None) -> None:
        self._server = _Server(base_url, token, cafile, context)
        max_bytes = 256 << 20
        if isinstance(options, dict) and "maxDocumentBytes" in options:
            max_bytes = int(options["maxDocumentBytes"])
        self.transport = HttpTransport(self._server, max_bytes=max_bytes)
        self.controller = controller.Controller(self.transport, options, namespace=namespace, lease=lease)
        self._log = log or (lambda level, msg: print("%s: %s" % (level, msg), file=sys.stderr))
        self._q: "queue.Queue[Tuple[str, int, Any]]" = queue.Queue(_QUEUE)
        self._calls: Dict[int, _Call] = {}
        self.stopped = False
        self.requests = 0  # calls started

    # ---- the calls ----
    def _reader(self, c: _Call, method: str, path: str, body: Optional[bytes]) -> None:
        conn = self._server.connect(timeout=None)  # the library closes what takes too long
        resp = None
        try:
            with c.lock:
                if c.closed:
                    return
                c.conn = conn
            headers = dict(self._server.headers)
            if body is not None:
                headers["Content-Type"] = "application/json"
            conn.request(method, self._server.prefix + path, body=body, headers=headers)
            resp = conn.getresponse()
            self._q.put(("status", c.id, resp.status))
            while True:
                piece = resp.read1(_CHUNK)
                if not piece:
                    break
                self._q.put(("data", c.id, piece))
            self._q.put(("end", c.id, None))
        except Exception as e:  # noqa: BLE001 - every failure is the call's end, told to the library
            if not c.closed:
                self._q.put(("end", c.id, "%s: %s" % (type(e).__name__, e)))
        finally:
            if resp is not None:
                resp.close()
            conn.close()

    def _start(self, io: _Io) -> None:
        c = _Call(io.id)
        self._calls[c.id] = c
        self.requests += 1
        body = io.body if io.body is not None else None
        t = threading.Thread(target=self._reader, args=(c, io.method.decode(), io.path.decode(), body), daemon=True)
        t.start()

    def _close(self, id: int) -> None:
        c = self._calls.pop(id, None)
        if c is not None:
            c.close()

    def _hand_over(self, item: Tuple[str, int, Any]) -> None:
        kind, id, value = item
        ctrl = self.controller
        if id not in self._calls:
            return  # closed: what was on its way is dropped
        now = _now_ms()
        if kind == "status":
            rc = call(lib.ds_controller_io_response, ctrl, id, value, now)
        elif kind == "data":
            rc = call(lib.ds_controller_io_data, ctrl, id, value, len(value), now)
        else:
            rc = call(lib.ds_controller_io_end, ctrl, id, encode(value), now)
            self._calls.pop(id, None)
            return
        if rc == 1:  # the library gave the call up: abort it
            self._close(id)

    def _wait(self, wait_ms: int) -> None:
        timeout = 1.0 if wait_ms < 0 or wait_ms > 1000 else wait_ms / 1000.0
        try:
            item = self._q.get(timeout=timeout)
        except queue.Empty:
            return
        self._hand_over(item)
        while True:
            try:
                item = self._q.get_nowait()
            except queue.Empty:
                return
            self._hand_over(item)

    # ---- the loop ----
    def step(self) -> int:
        """One action of the library, performed; returns its op (WAIT after waiting)."""
        io = _Io(ctypes.sizeof(_Io))
        op = call(lib.ds_controller_step, self.controller, _now_ms(), ctypes.byref(io))
        if op == LOG:
            self._log(_LEVELS[io.level] if 0 <= io.level < 3 else "info", io.message.decode("utf-8", "replace"))
        elif op == CLOSE:
            self._close(io.id)
        elif op == STOPPED:
            self.stopped = True
        elif op == WAIT:
            self._wait(io.wait_ms)
        else:
            self._start(io)
        return op

    def stop(self) -> None:
        """Close every call, give the lease up when held; run() then ends."""
        call(lib.ds_controller_stop, self.controller, _now_ms())

    def run(self, stop: Optional[Callable[[], bool]] = None, timeout: Optional[float] = None) -> bool:
        """Run the loop until stop() is true (then stop the controller and let it finish), or for
        timeout seconds, or until the controller stops (leadership lost). Returns stop()'s last answer."""
        end = None if timeout is None else time.monotonic() + timeout
        done = False
        stopping = False
        while not self.stopped:
            if not stopping and ((stop is not None and stop()) or (end is not None and time.monotonic() >= end)):
                done = stop is not None and stop()
                self.stop()
                stopping = True
            self.step()
        return done

    def status(self) -> Dict[str, Any]:
        """The loop's state (ds_controller_loop_status(3))."""
        out = ctypes.c_void_p()
        call(lib.ds_controller_loop_status, self.controller, _now_ms(), ctypes.byref(out))
        return cast("Dict[str, Any]", take_json(out.value))

    def converged(self) -> bool:
        """Every DaemonSet the controller knows reports its current generation rolled out (from its
        own snapshot, as dsrun judges it)."""
        summary = self.controller.summary()
        sets = summary.get("daemonSets") or []
        if not sets:
            return False
        for d in sets:
            ds = self.controller.get("DaemonSet", d["namespace"], d["name"]) or {}
            st = ds.get("status") or {}
            want = st.get("desiredNumberScheduled", 0)
            if (st.get("observedGeneration", 0) < ds.get("metadata", {}).get("generation", 0)
                    or st.get("updatedNumberScheduled", 0) != want or st.get("numberAvailable", 0) != want):
                return False
        return True

    def close(self) -> None:
        """Abort every call and free the controller."""
        for id in list(self._calls):
            self._close(id)
        self.controller.close()

    def __enter__(self) -> "WatchLoop":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
