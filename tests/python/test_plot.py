"""dsctl rollout --plot and explain --plot: self-contained SVG (examples/dsctl/plot.c).

The pictures of examples/cluster and of a generated 5,000-node cluster are checked as XML against
the JSON they draw (every sample of every series, every wave, every node's tile and colour, the
legend's counts), then rendered by headless Chromium (Debian package chromium; the rendering tests
are skipped when it is absent) and the screenshots decoded (PNG with zlib) to check that they show
the chart: not blank, and in the colours of the legend.

dsctl is found as in test_dsctl.py: $DSCTL, else bin/dsctl next to $DAEMONSET_LIB's directory,
else build/bin/dsctl.
"""

import collections
import json
import os
import re
import shutil
import struct
import subprocess
import tempfile
import unittest
import xml.etree.ElementTree as ET
import zlib

import buildpaths

ROOT = buildpaths.ROOT
CLUSTER = os.path.join(ROOT, "examples", "cluster")
NOW = "2026-12-02T15:00:00Z"
SVG = "{http://www.w3.org/2000/svg}"


DSCTL = buildpaths.program("DSCTL", "bin", "dsctl")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def setUpModule():
    if not os.access(DSCTL, os.X_OK):
        raise RuntimeError("dsctl not found at %s: build it (make examples) or set DSCTL" % DSCTL)


def dsctl(*args, inputs=(CLUSTER,)):
    argv = [DSCTL, "--color=never", "--now", NOW]
    for i in inputs:
        argv += ["-f", i]
    p = subprocess.run(argv + list(args), capture_output=True, text=True, cwd=ROOT, timeout=120,
                       env=dict(os.environ, NO_COLOR="1"))
    return p.returncode, p.stdout, p.stderr


def gen_cluster(n, rollout=False):
    """n nodes where the DaemonSet kube-system/agent meets each of the eight explain statuses (a
    twentieth each but placed), or (rollout=True) runs revision 1 everywhere, ready to roll out."""
    uid = "0a9e7c1d-0000-4000-8000-000000000001"
    ds = {"apiVersion": "apps/v1", "kind": "DaemonSet",
          "metadata": {"name": "agent", "namespace": "kube-system", "uid": uid, "generation": 2,
                       "creationTimestamp": "2026-11-01T00:00:00Z",
                       "annotations": {"deprecated.daemonset.template.generation": "2"}},
          "spec": {"selector": {"matchLabels": {"app": "agent"}},
                   "template": {"metadata": {"labels": {"app": "agent"}},
                                "spec": {"nodeSelector": {"pool": "agents"},
                                         "priorityClassName": "system-node-critical",
                                         "containers": [{"name": "agent", "image": "agent:2", "resources": {
                                             "requests": {"cpu": "100m", "memory": "100Mi"}}}]}},
                   "updateStrategy": {"type": "RollingUpdate",
                                      "rollingUpdate": {"maxUnavailable": "10%", "maxSurge": 0}}}}

    def node(i, pool=True, cpu="4", taint=None):
        name = "node-%04d" % i
        nd = {"apiVersion": "v1", "kind": "Node",
              "metadata": {"name": name, "uid": "n-%d" % i, "creationTimestamp": "2026-11-01T00:00:00Z",
                           "labels": dict({"kubernetes.io/hostname": name}, **({"pool": "agents"} if pool else {}))},
              "spec": {}, "status": {"allocatable": {"cpu": cpu, "memory": "8Gi", "pods": "110"},
                                     "conditions": [{"type": "Ready", "status": "True"}]}}
        if taint:
            nd["spec"]["taints"] = [{"key": taint, "value": "x", "effect": "NoSchedule"}]
        return nd

    def pod(i, gen="2", bound=True, ready=True, name=None, cpu="100m", priority=None):
        node_name = "node-%04d" % i
        p = {"apiVersion": "v1", "kind": "Pod",
             "metadata": {"name": name or "agent-%04d" % i, "namespace": "kube-system", "uid": "p-%s-%d" % (name, i),
                          "creationTimestamp": "2026-11-02T00:00:00Z",
                          "labels": {"app": "other"} if name else {"app": "agent", "pod-template-generation": gen}},
             "spec": {"containers": [{"name": "c", "image": "agent:" + gen,
                                      "resources": {"requests": {"cpu": cpu, "memory": "100Mi"}}}]},
             "status": {"phase": "Running" if ready else "Pending",
                        "conditions": [{"type": "Ready", "status": "True" if ready else "False",
                                        "lastTransitionTime": "2026-11-02T00:01:00Z"}]}}
        if not name:
            p["metadata"]["ownerReferences"] = [{"apiVersion": "apps/v1", "kind": "DaemonSet", "name": "agent",
                                                 "uid": uid, "controller": True, "blockOwnerDeletion": True}]
        if priority is not None:
            p["spec"]["priority"] = priority
        if bound:
            p["spec"]["nodeName"] = node_name
        else:
            p["spec"]["affinity"] = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "In",
                                                        "values": [node_name]}]}]}}}
        return p

    items = [ds]
    for i in range(n):
        k = i % 20
        if rollout:
            items += [node(i), pod(i, gen="1")]
        elif k == 0:
            items += [node(i, pool=False)]                                       # not-placed
        elif k == 1:
            items += [node(i, pool=False), pod(i)]                               # evict
        elif k == 2:
            items += [node(i)]                                                   # create
        elif k == 3:
            items += [node(i, cpu="50m")]                                        # unschedulable
        elif k == 4:
            items += [node(i, taint="dedicated"), pod(i)]                        # kept
        elif k == 5:
            items += [node(i), pod(i, bound=False, ready=False)]                 # pending
        elif k == 6:
            items += [node(i, cpu="1"), pod(i, name="batch-%04d" % i, cpu="950m", priority=0)]  # needs-preemption
        else:
            items += [node(i), pod(i)]                                           # placed
    return json.dumps({"apiVersion": "v1", "kind": "List", "items": items})


def pytest_y(scale, value):
    """The y of a value on a panel's scale (v0, y0, pixels per unit)."""
    v0, y0, per = scale
    return round(y0 + (value - v0) * per, 1)


def numbers(d):
    return [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", d)]


def texts(root):
    return ["".join(e.itertext()) for e in root.iter(SVG + "text")]


class Files(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def path(self, name):
        return os.path.join(self.dir.name, name)

    def plot(self, *args, inputs=(CLUSTER,), code=0):
        out = self.path("plot-%d.svg" % len(os.listdir(self.dir.name)))
        rc, stdout, err = dsctl(*args, "--plot", out, inputs=inputs)
        self.assertEqual(rc, code, err)
        root = ET.parse(out).getroot()  # well-formed XML, or this raises
        self.assertEqual(root.tag, SVG + "svg")
        self.assertFalse([e for e in root.iter() if e.tag in (SVG + "script", SVG + "foreignObject", SVG + "image")],
                         "the picture must be self-contained")
        return out, root, stdout


class TestRolloutPlot(Files):
    def check_chart(self, root, sim):
        """Every series goes through every sample, on the scale of its panel's tick labels: the nodes
        (updated, available, desired) above, the budgets (unavailable, surge, maxUnavailable, maxSurge)
        below."""
        scale = {}
        for name in ("nodes", "budget"):
            ticks = sorted((float("".join(e.itertext())), float(e.get("y")) - 5) for e in root.iter(SVG + "text")
                           if e.get("class") == "ytick" and e.get("data-panel") == name)
            self.assertGreaterEqual(len(ticks), 2, name)
            (v0, y0), (v1, y1) = ticks[0], ticks[-1]
            scale[name] = (v0, y0, (y1 - y0) / (v1 - v0))
        budgets = {e.get("data-budget"): (e.get("data-panel"), float(e.get("y1"))) for e in root.iter(SVG + "line")
                   if e.get("class") == "budget"}
        self.assertEqual(budgets, {
            "desired": ("nodes", pytest_y(scale["nodes"], sim["desired"])),
            "maxUnavailable": ("budget", pytest_y(scale["budget"], sim["maxUnavailable"])),
            "maxSurge": ("budget", pytest_y(scale["budget"], sim["maxSurge"]))})
        series = {e.get("data-series"): (e.get("data-panel"), e.get("d")) for e in root.iter(SVG + "path")
                  if e.get("class") == "series"}
        self.assertEqual({k: p for k, (p, d) in series.items()},
                         {"updated": "nodes", "available": "nodes", "unavailableForBudget": "budget",
                          "surge": "budget"})
        for key, (name, d) in series.items():
            self.assertEqual(d.count("V"), len(sim["timeline"]) - 1, key)
            ys = [float(m) for m in re.findall(r"(?:^M-?[\d.]+ |V)(-?[\d.]+)", d)]
            want = [pytest_y(scale[name], s[key]) for s in sim["timeline"]]
            for got, w in zip(ys, want):
                self.assertAlmostEqual(got, w, delta=0.11, msg=key)
            xs = numbers(d)[::2][:1] + [float(x) for x in re.findall(r"H(-?[\d.]+)", d)]
            self.assertEqual(xs, sorted(xs), "time goes right: " + key)
        waves = [g for g in root.iter(SVG + "g") if g.get("class") == "wave"]
        self.assertEqual([g.get("data-at") for g in waves], sorted({w["at"] for w in sim["waves"]}))
        return waves

    def test_example_rollout(self):
        rc, out, err = dsctl("-o", "json", "rollout", "fluentd-logging")
        sim = json.loads(out)
        path, root, stdout = self.plot("rollout", "fluentd-logging")
        self.assertIn("Rollout of kube-system/fluentd-logging: complete", stdout)  # the table as usual
        waves = self.check_chart(root, sim)
        tips = ["".join(g.find(SVG + "title").itertext()) for g in waves]
        self.assertIn("create on worker-4", tips[0])
        self.assertIn("delete fluentd-logging-q8m4n", tips[1])
        self.assertEqual(root.find(SVG + "title").text, "Rollout of kube-system/fluentd-logging")
        words = " ".join(texts(root))
        for legend in ["updated (new revision)", "available", "unavailable (as the budget counts)",
                       "surge (nodes with two pods)", "desired", "maxUnavailable budget", "maxSurge budget"]:
            self.assertIn(legend, texts(root))
        self.assertIn("complete after 25s", words)
        self.assertIn("maxUnavailable 1", words)
        end = [g for g in root.iter(SVG + "g") if g.get("class") in ("end", "stall")]
        self.assertEqual([g.get("class") for g in end], ["end"])

    def test_readme_example_is_current(self):
        """examples/dsctl/rollout-example.svg, shown in README.md, is what dsctl draws today."""
        with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
            self.assertIn("](examples/dsctl/rollout-example.svg)", f.read())
        rc, out, err = dsctl("rollout", "fluentd-logging", "--plot", "-")
        self.assertEqual(rc, 0, err)
        with open(os.path.join(ROOT, "examples", "dsctl", "rollout-example.svg"), encoding="utf-8") as f:
            self.assertEqual(out, f.read(), "regenerate it with the command README.md gives")

    def test_stall(self):
        rc, out, err = dsctl("--set", "simFailNodes=worker-4", "-o", "json", "rollout", "fluentd-logging")
        sim = json.loads(out)
        self.assertEqual(sim["result"], "stalled")
        path, root, stdout = self.plot("--set", "simFailNodes=worker-4", "rollout", "fluentd-logging", code=3)
        self.check_chart(root, sim)
        stall = [g for g in root.iter(SVG + "g") if g.get("class") == "stall"]
        self.assertEqual(len(stall), 1)
        words = " ".join(texts(stall[0]))
        self.assertIn("stalled at once", words)
        self.assertIn("new pods never become Ready", words)
        self.assertIn("nodes: worker-4", words)

    def test_many_waves(self):
        cluster = self.path("roll.json")
        with open(cluster, "w") as f:
            f.write(gen_cluster(300, rollout=True))
        rc, out, err = dsctl("-o", "json", "rollout", "agent", inputs=(cluster,))
        sim = json.loads(out)
        self.assertEqual((sim["result"], sim["maxUnavailable"]), ("complete", 30))
        path, root, stdout = self.plot("rollout", "agent", inputs=(cluster,))
        waves = self.check_chart(root, sim)
        self.assertGreaterEqual(len(waves), 20)
        labelled = [g for g in waves if g.find(SVG + "text") is not None]
        self.assertGreaterEqual(len(labelled), len(waves) // 2, "counts over most waves")

    def test_options(self):
        rc, out, err = dsctl("rollout", "fluentd-logging", "--plot", "-")
        self.assertEqual(rc, 0, err)
        self.assertTrue(out.startswith("<?xml"), out[:80])
        self.assertEqual(ET.fromstring(out.encode()).tag, SVG + "svg")
        rc, out, err = dsctl("--set", "simFailNodes=worker-4", "rollout", "fluentd-logging", "--plot", "-")
        self.assertEqual(rc, 3, "the exit status of the table: the rollout does not complete")
        self.assertIn('class="stall"', out)
        for args, message in [(["--plot"], "flag needs an argument: --plot"), (["--plot="], "--plot needs a file")]:
            with self.subTest(args=args):
                rc, out, err = dsctl("rollout", "fluentd-logging", *args)
                self.assertEqual(rc, 2, err)
                self.assertIn(message, err)
        bad = os.path.join(self.dir.name, "missing", "x.svg")
        rc, out, err = dsctl("rollout", "fluentd-logging", "--plot", bad)
        self.assertEqual(rc, 1)
        self.assertIn("cannot write " + bad, err)
        rc, out, err = dsctl("rollout", "nope", "--plot", self.path("n.svg"))
        self.assertEqual(rc, 1)
        self.assertFalse(os.path.exists(self.path("n.svg")))


class TestExplainPlot(Files):
    def check_map(self, root, doc):
        legend = {g.get("data-status"): g for g in root.iter(SVG + "g") if g.get("class") == "legend-item"}
        self.assertEqual(set(legend), {"placed", "create", "needs-preemption", "unschedulable", "not-evaluated",
                                       "pending", "kept", "evict", "not-placed"})
        fills = {s: g.find(SVG + "rect").get("fill") for s, g in legend.items()}
        self.assertEqual(len(set(fills.values())), 9, "one colour per status")
        counts = {s: int(g.get("data-count")) for s, g in legend.items()}
        self.assertEqual({s: c for s, c in counts.items() if c}, doc["summary"])
        for s, c in doc["summary"].items():
            self.assertIn("%s %d" % (s, c), texts(legend[s]))
        tiles = [g for g in root.iter(SVG + "g") if g.get("class") == "tile"]
        self.assertEqual([(t.get("data-node"), t.get("data-status")) for t in tiles],
                         [(r["node"], r["status"]) for r in doc["rows"]])
        for t in tiles:
            self.assertEqual(t.find(SVG + "rect").get("fill"), fills[t.get("data-status")], t.get("data-node"))
        return tiles

    def test_example_cluster(self):
        rc, out, err = dsctl("-o", "json", "explain", "fluentd-logging")
        doc = json.loads(out)
        path, root, stdout = self.plot("explain", "fluentd-logging")
        self.assertIn("DaemonSet kube-system/fluentd-logging over 6 nodes", stdout)
        tiles = self.check_map(root, doc)
        self.assertEqual([t.find(SVG + "text").text for t in tiles], [r["node"] for r in doc["rows"]])
        tip = "".join(tiles[0].find(SVG + "title").itertext())
        self.assertTrue(tip.startswith("cp-1: not-placed\n"), tip)
        self.assertIn("control-plane", tip)
        # one node
        path, root, stdout = self.plot("explain", "fluentd-logging", "worker-4")
        tiles = [g for g in root.iter(SVG + "g") if g.get("class") == "tile"]
        self.assertEqual([(t.get("data-node"), t.get("data-status")) for t in tiles], [("worker-4", "create")])

    def test_five_thousand_nodes(self):
        cluster = self.path("big.json")
        with open(cluster, "w") as f:
            f.write(gen_cluster(5000))
        rc, out, err = dsctl("-o", "json", "explain", "agent", inputs=(cluster,))
        doc = json.loads(out)
        self.assertEqual(len(doc["summary"]), 8, doc["summary"])
        path, root, stdout = self.plot("explain", "agent", inputs=(cluster,))
        tiles = self.check_map(root, doc)
        self.assertEqual(len(tiles), 5000)
        self.assertFalse([t for t in tiles if t.find(SVG + "text") is not None], "no names in tiny tiles")
        sizes = {(t.find(SVG + "rect").get("width"), t.find(SVG + "rect").get("height")) for t in tiles}
        self.assertEqual(len(sizes), 1)
        w, h = (int(x) for x in sizes.pop())
        self.assertGreaterEqual(min(w, h), 6, "tiles still visible")
        self.assertLessEqual(int(root.get("height")), 820)
        self.assertLessEqual(os.path.getsize(path), 2 << 20)

    def test_errors(self):
        rc, out, err = dsctl("explain", "fluentd-logging", "nope", "--plot", self.path("x.svg"))
        self.assertEqual(rc, 1)
        self.assertIn('nodes "nope" not found', err)
        self.assertFalse(os.path.exists(self.path("x.svg")))
        rc, out, err = dsctl("explain", "--plot")
        self.assertEqual(rc, 2)


# ---- in a browser ------------------------------------------------------------------------------

def decode_png(path):
    """(width, height, rows of (r, g, b) tuples) of an 8-bit RGB or RGBA PNG, not interlaced."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, head = 8, [], None
    while pos < len(data):
        n = int.from_bytes(data[pos:pos + 4], "big")
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    w, h, depth, colour, _, _, interlace = head
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError("unsupported PNG: depth %d, colour type %d, interlace %d" % (depth, colour, interlace))
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride, prev, rows, i = w * bpp, bytearray(w * bpp), [], 0
    for _ in range(h):
        kind, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        if kind == 1:
            for x in range(bpp, stride):
                line[x] = (line[x] + line[x - bpp]) & 255
        elif kind == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif kind == 3:
            for x in range(stride):
                line[x] = (line[x] + ((line[x - bpp] if x >= bpp else 0) + prev[x]) // 2) & 255
        elif kind == 4:
            for x in range(stride):
                a, b = (line[x - bpp] if x >= bpp else 0), prev[x]
                c = prev[x - bpp] if x >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        rows.append([tuple(line[x:x + 3]) for x in range(0, stride, bpp)])
    return w, h, rows


def rgb(hex_colour):
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


@unittest.skipUnless(CHROMIUM, "chromium is not installed (Debian: apt-get install chromium): SVGs not rendered")
class TestInChromium(Files):
    def screenshot(self, svg):
        png = svg[:-4] + ".png"
        profile = tempfile.mkdtemp()
        try:
            p = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                                "--no-first-run", "--disable-background-networking", "--disable-component-update",
                                "--disable-sync", "--user-data-dir=" + profile, "--screenshot=" + png,
                                "--window-size=1200,800", "file://" + svg],
                               capture_output=True, text=True, timeout=180)
        finally:
            shutil.rmtree(profile, ignore_errors=True)
        self.assertTrue(os.path.exists(png), p.stderr[-2000:])
        w, h, rows = decode_png(png)
        self.assertEqual((w, h), (1200, 800))
        pixels = collections.Counter(px for row in rows for px in row)  # colour: how many pixels
        return pixels, 1 - pixels[(255, 255, 255)] / (w * h), len(pixels)

    def near(self, pixels, colour, tolerance=30):
        """How many pixels are within tolerance (sum over r, g, b) of colour."""
        c = rgb(colour)
        return sum(n for px, n in pixels.items() if sum(abs(a - b) for a, b in zip(px, c)) <= tolerance)

    def test_rollout(self):
        path, root, stdout = self.plot("rollout", "fluentd-logging")
        pixels, inked, colours = self.screenshot(path)
        self.assertGreater(inked, 0.03, "the screenshot is (nearly) blank")
        self.assertGreater(colours, 20)
        for series in root.iter(SVG + "path"):
            if series.get("class") == "series" and series.get("data-series") in ("available", "unavailableForBudget"):
                self.assertGreater(self.near(pixels, series.get("stroke")), 200, series.get("data-series"))

    def test_explain(self):
        rc, out, err = dsctl("-o", "json", "explain", "fluentd-logging")
        summary = json.loads(out)["summary"]
        path, root, stdout = self.plot("explain", "fluentd-logging")
        self.check_colours(path, root, summary)

    def test_explain_five_thousand_nodes(self):
        cluster = self.path("big.json")
        with open(cluster, "w") as f:
            f.write(gen_cluster(5000))
        rc, out, err = dsctl("-o", "json", "explain", "agent", inputs=(cluster,))
        summary = json.loads(out)["summary"]
        path, root, stdout = self.plot("explain", "agent", inputs=(cluster,))
        pixels = self.check_colours(path, root, summary)
        placed = [g for g in root.iter(SVG + "g") if g.get("data-status") == "placed"][0].find(SVG + "rect").get("fill")
        self.assertGreater(self.near(pixels, placed, 0), 100000, "most of the map is placed nodes")

    def check_colours(self, path, root, summary):
        """Not blank, and each status that occurs shows in its colour: its legend swatch and at least half
        of the area of its tiles."""
        pixels, inked, colours = self.screenshot(path)
        self.assertGreater(inked, 0.03, "the screenshot is (nearly) blank")
        tile = next(g for g in root.iter(SVG + "g") if g.get("class") == "tile").find(SVG + "rect")
        area = int(tile.get("width")) * int(tile.get("height"))
        for g in root.iter(SVG + "g"):
            if g.get("class") == "legend-item" and g.get("data-status") in summary:
                swatch = g.find(SVG + "rect")
                want = int(swatch.get("width")) * int(swatch.get("height")) * 0.8 + summary[g.get("data-status")] * area / 2
                self.assertGreater(self.near(pixels, swatch.get("fill"), 0), want, g.get("data-status"))
        return pixels


MEASURE = """<!doctype html><html><body style="margin:0">%s<pre id="out"></pre><script>
const box = e => { const b = e.getBBox(); return {x: b.x, y: b.y, w: b.width, h: b.height,
                   panel: e.getAttribute("data-panel") || "", key: e.getAttribute("data-series") || "",
                   text: e.textContent}; };
const r = {};
for (const c of ["xtick", "ytick", "budget-label", "wave-count", "xlabel", "ylabel", "subtitle", "title"])
  r[c] = Array.from(document.querySelectorAll("svg text." + c)).map(box);
r.series = Array.from(document.querySelectorAll("svg path.series")).map(box);
r.waveLines = Array.from(document.querySelectorAll("svg g.wave line")).length;
document.getElementById("out").textContent = JSON.stringify(r);
</script></body></html>"""


def rollout_cluster(n):
    """n nodes on revision 1, rolled out with maxSurge 1 and maxUnavailable 0: one node at a time, 2n instants
    with a create or a delete (the issue's 200-node case, which drew 400 marks as a black bar)."""
    doc = json.loads(gen_cluster(n, rollout=True))
    doc["items"][0]["spec"]["updateStrategy"]["rollingUpdate"] = {"maxUnavailable": 0, "maxSurge": 1}
    return json.dumps(doc)


@unittest.skipUnless(CHROMIUM, "chromium is not installed (Debian: apt-get install chromium): SVGs not rendered")
class TestLegibleRollout(Files):
    """The rollout plot at 4, 200 and 1,000 nodes as Chromium lays it out: the tick labels of every axis apart
    (their rendered boxes, getBBox, do not overlap), the budget series not flattened against the number of
    nodes (each panel's widest series spans a good part of its height), the instants not a black band. The
    screenshots are written to $DSCTL_PLOT_DIR when it is set, to be looked at."""

    def chromium(self, *args):
        profile = tempfile.mkdtemp()
        try:
            return subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                                   "--no-first-run", "--disable-background-networking", "--disable-component-update",
                                   "--disable-sync", "--user-data-dir=" + profile] + list(args),
                                  capture_output=True, text=True, timeout=180)
        finally:
            shutil.rmtree(profile, ignore_errors=True)

    def measure(self, svg):
        html = svg[:-4] + ".html"
        with open(svg, encoding="utf-8") as f, open(html, "w", encoding="utf-8") as g:
            g.write(MEASURE % f.read().split("?>", 1)[1])
        p = self.chromium("--dump-dom", "file://" + html)
        m = re.search(r'<pre id="out">(.*?)</pre>', p.stdout, re.S)
        self.assertIsNotNone(m, p.stderr[-2000:])
        return json.loads(m.group(1).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"))

    def apart(self, boxes, what, gap=2):
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                overlap = (a["x"] < b["x"] + b["w"] + gap and b["x"] < a["x"] + a["w"] + gap and
                           a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"])
                self.assertFalse(overlap, "%s: %r and %r overlap" % (what, a["text"], b["text"]))

    def test_4_200_and_1000_nodes(self):
        shots = os.environ.get("DSCTL_PLOT_DIR")
        for n in (4, 200, 1000):
            with self.subTest(nodes=n):
                cluster = self.path("roll-%d.json" % n)
                with open(cluster, "w") as f:
                    f.write(rollout_cluster(n))
                rc, out, err = dsctl("-o", "json", "rollout", "agent", inputs=(cluster,))
                sim = json.loads(out)
                self.assertEqual((sim["result"], sim["maxSurge"], sim["maxSurgeSeen"]), ("complete", 1, 1))
                path, root, stdout = self.plot("rollout", "agent", inputs=(cluster,))
                self.check_layout(self.measure(path), sim, n)
                png = os.path.join(shots, "rollout-%d.png" % n) if shots else path[:-4] + ".png"
                self.chromium("--screenshot=" + png, "--window-size=1100,740", "file://" + path)
                self.check_strip(png, n)

    def check_layout(self, m, sim, n):
        self.apart(m["xtick"], "time ticks")
        self.assertGreaterEqual(len(m["xtick"]), 4)
        for name in ("nodes", "budget"):
            ticks = [b for b in m["ytick"] if b["panel"] == name]
            self.assertGreaterEqual(len(ticks), 3, name)
            self.apart(ticks, name + " ticks")
        self.apart(m["ytick"], "the two panels' ticks")
        self.apart(m["budget-label"], "budget labels")
        self.apart(m["wave-count"], "wave counts")
        self.apart(m["xtick"] + m["xlabel"], "the time axis")
        # each panel's height from its ticks, and the widest series of each against it
        for name, keys in (("nodes", ("updated", "available")), ("budget", ("unavailableForBudget", "surge"))):
            ticks = [b for b in m["ytick"] if b["panel"] == name]
            height = max(b["y"] for b in ticks) - min(b["y"] for b in ticks)
            spans = {b["key"]: b["h"] for b in m["series"] if b["key"] in keys}
            varies = [k for k in keys if len({s[k] for s in sim["timeline"]}) > 1]
            self.assertTrue(varies, name)
            widest = max(spans[k] for k in varies)
            self.assertGreater(widest, 0.4 * height, "%s: the series are flattened (%.0f of %.0f px)"
                               % (name, widest, height))
        # one mark per instant while they are apart; a strip of bars when there are hundreds
        instants = len({w["at"] for w in sim["waves"]})
        self.assertEqual(m["waveLines"], 2 * instants if n == 4 else 0, n)

    def check_strip(self, png, n):
        """Above the chart, the marks or the bars: never a band of dark pixels across."""
        w, h, rows = decode_png(png)
        band = rows[96:136]
        dark = sum(1 for row in band for px in row[80:930] if sum(px) < 3 * 90)
        self.assertLess(dark / (40 * 850), 0.05, "the instants are a dark band (%d px)" % dark)
        blue = sum(1 for row in band for px in row[80:930] if sum(abs(a - b) for a, b in zip(px, rgb("#1f77b4"))) < 40)
        self.assertGreater(blue, 20 if n == 4 else 500, "the creates show")


if __name__ == "__main__":
    unittest.main()
