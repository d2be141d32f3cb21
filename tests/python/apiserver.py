"""A stand-in for the Kubernetes API server, Python standard library only.

No kube-apiserver runs on the machines that test libdaemonset, so the libcurl
transport of examples/controller is tested against this: the REST paths of
the core, apps and coordination groups, JSON bodies, the real status codes
(201 on create, 404 and 409 with a Status body, 422), resourceVersion and uid
generation, generateName, DeleteOptions preconditions, the status subresource
with optimistic concurrency, merge and strategic-merge patches (owner
references), DaemonSet generation bookkeeping, and watches (?watch=1 from a
resourceVersion: newline-delimited JSON events over a chunked response, 410
Gone for versions no longer kept). A kubelet thread binds pods pinned to a
node and makes them Running and Ready after a delay; graceful deletion is
optional. Faults can be injected per method and path.

    store = Store(ready_after=0.3)
    store.load(objects)
    server = serve(store)              # a thread; server.url is http://127.0.0.1:PORT
    ...
    server.stop()

Like kube-apiserver it can serve HTTPS and require a bearer token (the plain
HTTP default with no authentication is what `kubectl proxy` offers):

    server = serve(store, certfile="server.crt", keyfile="server.key", tokens={"secret"})
    # server.url is https://127.0.0.1:PORT; a request without "Authorization: Bearer secret"
    # gets 401 and kube-apiserver's Status body. server.tokens can be changed while it runs
    # (under store.cond); store.authorizations has the Authorization header of every request.

`python3 apiserver.py [--port 8001] [--cert CRT --key KEY] [--token T]... FILE.json...`
runs one (FILE: a JSON array or List).
"""

import copy
import http.server
import json
import random
import socket
import ssl
import string
import sys
import threading
import time
import urllib.parse

RESOURCES = {
    # resource: (kind, apiVersion, namespaced, qualified name for messages)
    "nodes": ("Node", "v1", False, "nodes"),
    "pods": ("Pod", "v1", True, "pods"),
    "events": ("Event", "v1", True, "events"),
    "daemonsets": ("DaemonSet", "apps/v1", True, "daemonsets.apps"),
    "controllerrevisions": ("ControllerRevision", "apps/v1", True, "controllerrevisions.apps"),
    "leases": ("Lease", "coordination.k8s.io/v1", True, "leases.coordination.k8s.io"),
}
WATCHED = ("nodes", "pods", "daemonsets", "controllerrevisions")
KIND_TO_RESOURCE = {v[0]: k for k, v in RESOURCES.items()}
GROUP_PREFIX = {"v1": "/api/v1", "apps/v1": "/apis/apps/v1", "coordination.k8s.io/v1": "/apis/coordination.k8s.io/v1"}
HISTORY = 5000  # watch events kept; older resourceVersions get 410 Gone


def now_rfc3339(t=None):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() if t is None else t))


def parse_rfc3339(s):
    return time.mktime(time.strptime(s[:19], "%Y-%m-%dT%H:%M:%S")) - time.timezone


class ApiError(Exception):
    def __init__(self, code, reason, message, name="", resource=""):
        super().__init__(message)
        self.code, self.reason, self.message = code, reason, message
        self.name, self.resource = name, resource

    def status(self):
        return {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                "message": self.message, "reason": self.reason,
                "details": {"name": self.name, "kind": self.resource}, "code": self.code}


def merge_patch(target, patch):
    """RFC 7386."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    result = copy.deepcopy(target) if isinstance(target, dict) else {}
    for k, v in patch.items():
        if v is None:
            result.pop(k, None)
        else:
            result[k] = merge_patch(result.get(k), v)
    return result


def strategic_owner_refs(current, refs):
    """metadata.ownerReferences: merge key uid, "$patch": "delete"."""
    out = [copy.deepcopy(r) for r in (current or [])]
    for p in refs:
        idx = next((i for i, r in enumerate(out) if r.get("uid") == p.get("uid")), None)
        if p.get("$patch") == "delete":
            if idx is not None:
                out.pop(idx)
        elif idx is not None:
            out[idx] = merge_patch(out[idx], p)
        else:
            out.append(copy.deepcopy(p))
    return out


def controller_uid(obj):
    for r in obj.get("metadata", {}).get("ownerReferences") or []:
        if r.get("controller"):
            return r.get("uid")
    return None


def target_node(pod):
    spec = pod.get("spec", {})
    if spec.get("nodeName"):
        return spec["nodeName"]
    aff = spec.get("affinity", {}).get("nodeAffinity", {}).get("requiredDuringSchedulingIgnoredDuringExecution", {})
    for term in aff.get("nodeSelectorTerms") or []:
        for f in term.get("matchFields") or []:
            if f.get("key") == "metadata.name" and f.get("operator") == "In" and len(f.get("values") or []) == 1:
                return f["values"][0]
    return None


class Store:
    def __init__(self, ready_after=0.3, grace=0.0, seed=1, watch_timeout=3600.0):
        self.cond = threading.Condition()
        self.watch_timeout = watch_timeout  # the server ends every watch after this (as the real one does)
        self.watches = 0  # watch requests served
        self.rv = 1000
        self.uids = 0
        self.objects = {r: {} for r in RESOURCES}
        self.history = []  # (rv, resource, event)
        self.ready_after = ready_after
        self.grace = grace
        self.random = random.Random(seed)
        self.max_pods = {}  # (owner uid, node) -> most pods at once
        self.born = {}  # pod uid -> when the kubelet first saw it bound
        self.faults = []  # [method, path substring, code, remaining]
        self.requests = []  # (method, path) of every request
        self.authorizations = []  # the Authorization header of every request (None: none), in order
        self.unauthorized = 0  # requests answered 401
        self.stopped = False
        self.bookmark_every = None  # seconds: a BOOKMARK this often on watches that allow them
        self.bookmarks = 0  # bookmarks sent
        self.chunked_lists = False  # lists as a chunked reply, in pieces
        self.modes = []  # [method, path substring, mode, remaining, params]: see inject_mode
        self.malformed_offsets = []  # where each malformed watch line began in its stream
        self.huge_sent = []  # bytes of each huge reply that went out before the client hung up

    # ---- bookkeeping ----
    def _key(self, res, ns, name):
        return "%s/%s" % (ns, name) if RESOURCES[res][2] else name

    def _bump(self, obj):
        self.rv += 1
        obj.setdefault("metadata", {})["resourceVersion"] = str(self.rv)

    def _emit(self, res, typ, obj):
        if res in WATCHED:
            self.history.append((self.rv, res, {"type": typ, "object": copy.deepcopy(obj)}))
            del self.history[:-HISTORY]
            self.cond.notify_all()

    def _track(self, pod):
        owner, node = controller_uid(pod), target_node(pod)
        if not owner or not node:
            return
        n = sum(1 for p in self.objects["pods"].values() if controller_uid(p) == owner and target_node(p) == node)
        self.max_pods[(owner, node)] = max(self.max_pods.get((owner, node), 0), n)

    def max_pods_on_a_node(self, owner_uid):
        return max([n for (o, _), n in self.max_pods.items() if o == owner_uid] or [0])

    def _server_fields(self, res, obj, ns):
        kind, api, namespaced, _ = RESOURCES[res]
        meta = obj.setdefault("metadata", {})
        obj["kind"], obj["apiVersion"] = kind, api
        if namespaced:
            meta["namespace"] = ns
        if not meta.get("uid"):
            self.uids += 1
            meta["uid"] = "5e7f0000-0000-4000-8000-%012x" % self.uids
        meta.setdefault("creationTimestamp", now_rfc3339())
        if res == "daemonsets":
            meta.setdefault("generation", 1)
            meta.setdefault("annotations", {}).setdefault("deprecated.daemonset.template.generation", "1")
        if res == "pods":
            obj.setdefault("status", {"phase": "Pending"})
        self._bump(obj)

    def _not_found(self, res, name):
        return ApiError(404, "NotFound", '%s "%s" not found' % (RESOURCES[res][3], name), name, res)

    def _check_owner_refs(self, res, obj):
        if sum(1 for r in obj.get("metadata", {}).get("ownerReferences") or [] if r.get("controller")) > 1:
            name = obj["metadata"].get("name", "")
            raise ApiError(422, "Invalid", '%s "%s" is invalid: metadata.ownerReferences: Invalid value: "": '
                           'Only one reference can have Controller set to true' % (RESOURCES[res][0], name), name, res)

    @staticmethod
    def _ds_generation(old, cur):
        """The registry's PrepareForUpdate: generation follows spec, the template generation the template."""
        if old.get("spec") == cur.get("spec"):
            return
        meta = cur["metadata"]
        meta["generation"] = old["metadata"].get("generation", 1) + 1
        if old["spec"].get("template") != cur["spec"].get("template"):
            ann = meta.setdefault("annotations", {})
            ann["deprecated.daemonset.template.generation"] = str(
                int(ann.get("deprecated.daemonset.template.generation", "0")) + 1)

    # ---- the API ----
    def load(self, objects):
        with self.cond:
            for obj in objects:
                res = KIND_TO_RESOURCE.get(obj.get("kind"))
                if not res:
                    continue
                obj = copy.deepcopy(obj)
                ns = obj.get("metadata", {}).get("namespace") or "default"
                self._server_fields(res, obj, ns)
                self.objects[res][self._key(res, ns, obj["metadata"]["name"])] = obj
                self._emit(res, "ADDED", obj)

    def list(self, res, ns, selector=None):
        with self.cond:
            items = []
            for key in sorted(self.objects[res]):
                obj = self.objects[res][key]
                if ns and RESOURCES[res][2] and obj["metadata"].get("namespace") != ns:
                    continue
                labels = obj["metadata"].get("labels") or {}
                if selector and any(labels.get(k) != v for k, v in
                                    (t.split("=", 1) for t in selector.split(",") if "=" in t)):
                    continue
                items.append(copy.deepcopy(obj))
            kind, api = RESOURCES[res][0], RESOURCES[res][1]
            return {"kind": kind + "List", "apiVersion": api, "metadata": {"resourceVersion": str(self.rv)},
                    "items": items}

    def get(self, res, ns, name):
        with self.cond:
            obj = self.objects[res].get(self._key(res, ns, name))
            if obj is None:
                raise self._not_found(res, name)
            return copy.deepcopy(obj)

    def create(self, res, ns, obj):
        with self.cond:
            meta = obj.setdefault("metadata", {})
            for k in ("uid", "resourceVersion", "creationTimestamp", "deletionTimestamp"):
                meta.pop(k, None)
            if not meta.get("name") and meta.get("generateName"):
                while True:  # names.SimpleNameGenerator
                    name = meta["generateName"] + "".join(
                        self.random.choice("bcdfghjklmnpqrstvwxz2456789") for _ in range(5))
                    if self._key(res, ns, name) not in self.objects[res]:
                        break
                meta["name"] = name
            name = meta.get("name")
            if not name:
                raise ApiError(422, "Invalid", '%s "" is invalid: metadata.name: Required value: name or '
                               'generateName is required' % RESOURCES[res][0], "", res)
            key = self._key(res, ns, name)
            if key in self.objects[res]:
                raise ApiError(409, "AlreadyExists", '%s "%s" already exists' % (RESOURCES[res][3], name), name, res)
            self._check_owner_refs(res, obj)
            self._server_fields(res, obj, ns)
            self.objects[res][key] = obj
            self._emit(res, "ADDED", obj)
            if res == "pods":
                self._track(obj)
            return copy.deepcopy(obj)

    def delete(self, res, ns, name, options):
        with self.cond:
            key = self._key(res, ns, name)
            obj = self.objects[res].get(key)
            if obj is None:
                raise self._not_found(res, name)
            pre = (options or {}).get("preconditions") or {}
            if pre.get("uid") and pre["uid"] != obj["metadata"].get("uid"):
                raise ApiError(409, "Conflict", 'Operation cannot be fulfilled on %s "%s": Precondition failed: '
                               'UID in precondition: %s, UID in object meta: %s'
                               % (RESOURCES[res][3], name, pre["uid"], obj["metadata"].get("uid")), name, res)
            if pre.get("resourceVersion") and pre["resourceVersion"] != obj["metadata"].get("resourceVersion"):
                raise ApiError(409, "Conflict", 'Operation cannot be fulfilled on %s "%s": Precondition failed: '
                               'ResourceVersion in precondition: %s, ResourceVersion in object meta: %s'
                               % (RESOURCES[res][3], name, pre["resourceVersion"],
                                  obj["metadata"].get("resourceVersion")), name, res)
            grace = (options or {}).get("gracePeriodSeconds", self.grace)
            if res == "pods" and grace and grace > 0:
                if not obj["metadata"].get("deletionTimestamp"):
                    obj["metadata"]["deletionTimestamp"] = now_rfc3339(time.time() + grace)
                    obj["metadata"]["deletionGracePeriodSeconds"] = int(grace)
                    self._bump(obj)
                    self._emit(res, "MODIFIED", obj)
                return copy.deepcopy(obj)
            self._remove(res, key)
            return copy.deepcopy(obj)

    def _remove(self, res, key):
        obj = self.objects[res].pop(key)
        self._bump(obj)
        self._emit(res, "DELETED", obj)

    def update(self, res, ns, name, obj, status_only):
        with self.cond:
            key = self._key(res, ns, name)
            cur = self.objects[res].get(key)
            if cur is None:
                raise self._not_found(res, name)
            rv = obj.get("metadata", {}).get("resourceVersion")
            if not rv:
                raise ApiError(422, "Invalid", '%s "%s" is invalid: metadata.resourceVersion: Invalid value: 0x0: '
                               'must be specified for an update' % (RESOURCES[res][0], name), name, res)
            uid = obj.get("metadata", {}).get("uid")
            if rv != cur["metadata"]["resourceVersion"] or (uid and uid != cur["metadata"]["uid"]):
                raise ApiError(409, "Conflict", 'Operation cannot be fulfilled on %s "%s": the object has been '
                               'modified; please apply your changes to the latest version and try again'
                               % (RESOURCES[res][3], name), name, res)
            new = copy.deepcopy(cur)
            if status_only:
                new["status"] = copy.deepcopy(obj.get("status", {}))
            else:
                new["spec"] = copy.deepcopy(obj.get("spec"))
                for k in ("labels", "annotations", "ownerReferences"):
                    if k in obj.get("metadata", {}):
                        new["metadata"][k] = copy.deepcopy(obj["metadata"][k])
                if res == "daemonsets":
                    self._ds_generation(cur, new)
            self._check_owner_refs(res, new)
            self._bump(new)
            self.objects[res][key] = new
            self._emit(res, "MODIFIED", new)
            return copy.deepcopy(new)

    def patch(self, res, ns, name, patch, content_type):
        with self.cond:
            key = self._key(res, ns, name)
            cur = self.objects[res].get(key)
            if cur is None:
                raise self._not_found(res, name)
            patch = copy.deepcopy(patch)
            meta = patch.get("metadata") if isinstance(patch.get("metadata"), dict) else {}
            if meta.get("uid") and meta["uid"] != cur["metadata"]["uid"]:
                raise ApiError(422, "Invalid", '%s "%s" is invalid: metadata.uid: Invalid value: "%s": field is '
                               'immutable' % (RESOURCES[res][0], name, meta["uid"]), name, res)
            new = copy.deepcopy(cur)
            if content_type.startswith("application/strategic-merge-patch+json") and "ownerReferences" in meta:
                new["metadata"]["ownerReferences"] = strategic_owner_refs(cur["metadata"].get("ownerReferences"),
                                                                          meta.pop("ownerReferences") or [])
                if not new["metadata"]["ownerReferences"]:
                    del new["metadata"]["ownerReferences"]
            new = merge_patch(new, patch)
            self._check_owner_refs(res, new)
            if res == "daemonsets":
                self._ds_generation(cur, new)
            if new == cur:
                return new
            self._bump(new)
            self.objects[res][key] = new
            self._emit(res, "MODIFIED", new)
            if res == "pods":
                self._track(new)
            return copy.deepcopy(new)

    def events_after(self, res, ns, rv):
        """Watch events of res (in ns) with a resourceVersion above rv; None when rv is too old."""
        if self.history and rv < self.history[0][0] - 1 and rv < self.rv:
            return None
        return [e for (v, r, e) in self.history
                if v > rv and r == res and (not ns or e["object"]["metadata"].get("namespace") == ns)]

    # ---- the kubelet and the scheduler ----
    def tick(self):
        with self.cond:
            now = time.time()
            for key in sorted(self.objects["pods"]):
                pod = self.objects["pods"].get(key)
                meta = pod["metadata"]
                if meta.get("deletionTimestamp"):
                    if parse_rfc3339(meta["deletionTimestamp"]) <= now:
                        self._remove("pods", key)
                    continue
                spec = pod.setdefault("spec", {})
                if not spec.get("nodeName"):
                    node = target_node(pod)
                    if node and node in self.objects["nodes"]:
                        spec["nodeName"] = node
                        self._bump(pod)
                        self._emit("pods", "MODIFIED", pod)
                        self._track(pod)
                    continue
                if pod.get("status", {}).get("phase", "Pending") != "Pending":
                    continue
                born = self.born.setdefault(meta["uid"], now)
                if now - born < self.ready_after:
                    continue
                del self.born[meta["uid"]]
                t = now_rfc3339(now)
                pod["status"] = {"phase": "Running", "startTime": t,
                                 "conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": t}]}
                self._bump(pod)
                self._emit("pods", "MODIFIED", pod)


UNAUTHORIZED = {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                "message": "Unauthorized", "reason": "Unauthorized", "code": 401}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    store = None  # set by serve()
    owner = None  # the Server

    def log_message(self, fmt, *args):  # quiet
        pass

    def setup(self):
        if isinstance(self.request, ssl.SSLSocket):  # the TLS handshake, in this request's thread
            self.request.settimeout(10)
            self.request.do_handshake()
            self.request.settimeout(None)
        super().setup()

    def _send(self, code, body):
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _route(self):
        """(resource, namespace, name, subresource, query) or raise ApiError."""
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        parts = [urllib.parse.unquote(p) for p in url.path.strip("/").split("/")]
        if parts[:2] == ["api", "v1"]:
            rest, group = parts[2:], "v1"
        elif len(parts) >= 3 and parts[0] == "apis":
            rest, group = parts[3:], parts[1] + "/" + parts[2]
        else:
            raise ApiError(404, "NotFound", "the server could not find the requested resource")
        ns = None
        if len(rest) >= 2 and rest[0] == "namespaces":
            ns, rest = rest[1], rest[2:]
        if not rest or rest[0] not in RESOURCES or RESOURCES[rest[0]][1] != group:
            raise ApiError(404, "NotFound", "the server could not find the requested resource")
        res, name = rest[0], rest[1] if len(rest) > 1 else None
        sub = rest[2] if len(rest) > 2 else None
        if RESOURCES[res][2] and name and not ns:
            raise ApiError(404, "NotFound", "the server could not find the requested resource")
        return res, ns, name, sub, query

    def _body(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        try:
            return json.loads(raw) if raw else None
        except ValueError as e:
            raise ApiError(400, "BadRequest", "the body is not JSON: %s" % e)

    def _authenticated(self):
        """Record the request; with tokens required, only "Authorization: Bearer <one of them>" passes
        (kube-apiserver's bearer token authenticator, then 401 and its Status body)."""
        st, auth = self.store, self.headers.get("Authorization")
        with st.cond:
            st.requests.append((self.command, self.path))
            st.authorizations.append(auth)
            tokens = self.owner.tokens
            if tokens is None:
                return True
            parts = (auth or "").strip().split(" ")  # bearertoken.Authenticator.AuthenticateRequest
            if len(parts) >= 2 and parts[0].lower() == "bearer" and parts[1] and parts[1] in tokens:
                return True
            st.unauthorized += 1
            return False

    def _fault(self):
        st = self.store
        with st.cond:
            for f in st.faults:
                if f[3] != 0 and f[0] == self.command and f[1] in self.path:
                    f[3] -= 1
                    return ApiError(f[2], "InternalError" if f[2] >= 500 else "Conflict", "injected fault %d" % f[2])
        return None

    def _mode(self):
        st = self.store
        with st.cond:
            for m in st.modes:
                if m[3] != 0 and m[0] == self.command and m[1] in self.path:
                    m[3] -= 1
                    return [m[0], m[1], m[2], 1, m[4]]
        return None

    def _reset(self, data):
        """Half the answer, then a reset (SO_LINGER 0: the client sees RST, not a clean end)."""
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data[:len(data) // 2])
        self.wfile.flush()
        import struct
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.close_connection = True

    def _huge(self, size):
        """A list reply of size bytes, made as it goes (never held whole), chunked; stops when the
        client hangs up."""
        st = self.store
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        head = b'{"kind":"NodeList","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":['
        item = b'{"metadata":{"name":"n","labels":{"filler":"' + b"x" * 900 + b'"}}},'
        piece = head + item * 64
        sent = 0
        try:
            while sent < size and not st.stopped:
                data = piece if sent else head + item * 63
                self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                sent += len(data)
            self.wfile.write(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass
        with st.cond:
            st.huge_sent.append(sent)
        self.close_connection = True

    def _list_reply(self, body):
        if not self.store.chunked_lists:
            return self._send(200, body)
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for i in range(0, len(data), 1000):
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data[i:i + 1000]), data[i:i + 1000]))
        self.wfile.write(b"0\r\n\r\n")

    def _handle(self, method):
        st = self.store
        try:
            if not self._authenticated():
                self.rfile.read(int(self.headers.get("Content-Length") or 0))  # keep the connection usable
                return self._send(401, UNAUTHORIZED)
            mode = self._mode()
            if mode and mode[2] == "redirect":
                self.send_response(302)
                self.send_header("Location", mode[4]["to"] + self.path)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            if mode and mode[2] == "huge":
                return self._huge(mode[4].get("size", 1 << 30))
            fault = self._fault()
            body = self._body() if method in ("POST", "PUT", "PATCH", "DELETE") else None
            if fault:
                raise fault
            res, ns, name, sub, query = self._route()
            if method == "GET" and not name:
                if query.get("watch") in ("1", "true"):
                    return self._watch(res, ns, query, mode)
                if mode and mode[2] == "reset":
                    return self._reset(json.dumps(st.list(res, ns, query.get("labelSelector"))).encode())
                return self._list_reply(st.list(res, ns, query.get("labelSelector")))
            if method == "GET":
                return self._send(200, st.get(res, ns, name))
            if method == "POST" and not name:
                if not isinstance(body, dict):
                    raise ApiError(400, "BadRequest", "the body must be an object")
                return self._send(201, st.create(res, ns or "default", body))
            if method == "DELETE" and name:
                return self._send(200, st.delete(res, ns, name, body))
            if method == "PUT" and name and sub in (None, "status"):
                return self._send(200, st.update(res, ns, name, body or {}, sub == "status"))
            if method == "PATCH" and name and sub is None:
                ctype = self.headers.get("Content-Type", "")
                if not (ctype.startswith("application/merge-patch+json") or
                        ctype.startswith("application/strategic-merge-patch+json")):
                    raise ApiError(415, "UnsupportedMediaType", "the body of the request was in an unknown format")
                return self._send(200, st.patch(res, ns, name, body or {}, ctype))
            raise ApiError(405, "MethodNotAllowed", "the server does not allow this method on the requested resource")
        except ApiError as e:
            self._send(e.code, e.status())

    def _watch(self, res, ns, query, mode=None):
        """Newline-delimited watch events over a chunked response, from resourceVersion on; with
        allowWatchBookmarks, a BOOKMARK every store.bookmark_every seconds."""
        st = self.store
        rv = int(query.get("resourceVersion") or 0)
        bookmarks = query.get("allowWatchBookmarks") == "true" and st.bookmark_every
        next_bookmark = time.time() + (st.bookmark_every or 0)
        sent = [0]
        deadline = time.time() + min(float(query.get("timeoutSeconds") or 3600), st.watch_timeout)
        with st.cond:
            st.watches += 1
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

        def raw(data):
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            self.wfile.flush()
            sent[0] += len(data)

        def chunk(obj):
            if mode and mode[2] == "malformed" and sent[0] >= mode[4].get("after", 0):
                with st.cond:
                    st.malformed_offsets.append(sent[0])
                raw(b'{"type":"MODIFIED","object":{"kind":"Pod",}}\n')
                mode[2] = "done"
            raw((json.dumps(obj) + "\n").encode())

        if mode and mode[2] == "silent":  # headers, then nothing until the client gives up
            self.close_connection = True
            while not st.stopped and time.time() < deadline:
                time.sleep(0.05)
            return

        try:
            if rv == 0:  # no resourceVersion: the current state as ADDED events, then what follows
                with st.cond:
                    current, rv = st.list(res, ns)["items"], st.rv
                for obj in current:
                    chunk({"type": "ADDED", "object": obj})
            while time.time() < deadline and not st.stopped:
                with st.cond:
                    evs = st.events_after(res, ns, rv)
                    if evs == []:
                        st.cond.wait(0.2)
                        evs = st.events_after(res, ns, rv)
                if evs is None:
                    chunk({"type": "ERROR", "object": {"kind": "Status", "apiVersion": "v1", "status": "Failure",
                                                       "message": "too old resource version: %d" % rv,
                                                       "reason": "Expired", "code": 410}})
                    break
                for e in evs:
                    chunk(e)
                    rv = int(e["object"]["metadata"]["resourceVersion"])
                if bookmarks and time.time() >= next_bookmark:
                    with st.cond:
                        now_rv = st.rv if not st.events_after(res, ns, rv) else rv
                        st.bookmarks += 1
                    kind, api = RESOURCES[res][0], RESOURCES[res][1]
                    chunk({"type": "BOOKMARK", "object": {"kind": kind, "apiVersion": api,
                                                          "metadata": {"resourceVersion": str(now_rv)}}})
                    rv = now_rv
                    next_bookmark = time.time() + st.bookmark_every
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass
        self.close_connection = True

    def do_GET(self):
        self._handle("GET")

    def do_POST(self):
        self._handle("POST")

    def do_PUT(self):
        self._handle("PUT")

    def do_PATCH(self):
        self._handle("PATCH")

    def do_DELETE(self):
        self._handle("DELETE")


class _HTTPServer(http.server.ThreadingHTTPServer):
    daemon_threads = True
    ssl_context = None  # HTTPS when set

    def get_request(self):
        sock, addr = super().get_request()
        if self.ssl_context:  # the handshake happens in the request's thread (Handler.setup)
            sock = self.ssl_context.wrap_socket(sock, server_side=True, do_handshake_on_connect=False)
        return sock, addr

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], (ssl.SSLError, ConnectionError, socket.timeout)):
            super().handle_error(request, client_address)  # a client that refused our certificate: quiet


class _HTTPServer6(_HTTPServer):
    address_family = socket.AF_INET6


class Server:
    def __init__(self, store, port=0, tick=0.05, host="127.0.0.1", certfile=None, keyfile=None, tokens=None):
        handler = type("BoundHandler", (Handler,), {"store": store, "owner": self})
        self.tokens = set(tokens) if tokens is not None else None  # None: no authentication
        self.httpd = (_HTTPServer6 if ":" in host else _HTTPServer)((host, port), handler)
        if certfile:
            ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            ctx.load_cert_chain(certfile, keyfile)
            self.httpd.ssl_context = ctx
        self.store = store
        self.port = self.httpd.server_address[1]
        self.url = "%s://%s:%d" % ("https" if certfile else "http", "[%s]" % host if ":" in host else host,
                                   self.port)
        self._threads = [threading.Thread(target=self.httpd.serve_forever, daemon=True),
                         threading.Thread(target=self._kubelet, args=(tick,), daemon=True)]
        for t in self._threads:
            t.start()

    def _kubelet(self, tick):
        while not self.store.stopped:
            self.store.tick()
            time.sleep(tick)

    def stop(self):
        self.store.stopped = True
        with self.store.cond:
            self.store.cond.notify_all()
        self.httpd.shutdown()
        self.httpd.server_close()


def serve(store, port=0, host="127.0.0.1", certfile=None, keyfile=None, tokens=None):
    """A server thread for store: HTTPS with certfile and keyfile (PEM); with tokens (a set of
    strings), every request must carry "Authorization: Bearer <token>" with one of them."""
    return Server(store, port, host=host, certfile=certfile, keyfile=keyfile, tokens=tokens)


def inject(store, method, path_part, code, count=1):
    """The next count requests of method whose path contains path_part answer code."""
    with store.cond:
        store.faults.append([method, path_part, code, count])


def inject_mode(store, method, path_part, mode, count=1, **params):
    """The next count (-1: all) requests of method whose path contains path_part are answered
    oddly: "reset" (a list: half of it, then a TCP reset), "silent" (a watch: headers, then
    nothing), "malformed" (a watch: a line that is not JSON once `after` bytes were sent, its
    offset kept in store.malformed_offsets), "huge" (a list of `size` bytes, default 1 GiB, made
    as it goes), "redirect" (302 to `to` + the same path)."""
    with store.cond:
        store.modes.append([method, path_part, mode, count, params])


if __name__ == "__main__":
    port, cert, key, tokens = 8001, None, None, None
    files = []
    args = sys.argv[1:]
    while args:
        a = args.pop(0)
        if a == "--port":
            port = int(args.pop(0))
        elif a == "--cert":
            cert = args.pop(0)
        elif a == "--key":
            key = args.pop(0)
        elif a == "--token":
            tokens = (tokens or set()) | {args.pop(0)}
        else:
            files.append(a)
    st = Store()
    for path in files:
        with open(path) as f:
            doc = json.load(f)
        st.load(doc.get("items", []) if isinstance(doc, dict) else doc)
    srv = serve(st, port, certfile=cert, keyfile=key, tokens=tokens)
    print("serving on", srv.url)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        srv.stop()
