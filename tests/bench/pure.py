"""make bench, the pure functions from Python (run by tests/bench/run.sh after the C benchmark):

    pure.py INPUTS.json BENCH.json

INPUTS.json holds the objects the C benchmark measured (tests/bench/pure.c writes it), BENCH.json its
figures. Prints, on the same objects: pure.tolerates_taint on parsed objects against ToleratesTaint
rewritten in ten lines of Python; one DaemonSet against 10,000 parsed nodes in one batch call,
against the same batch from C; and tolerates_taint on documents. Each figure is the best of several
runs. Writes the figures to BENCH_python.json beside BENCH.json. Standard library only.
"""

import json
import os
import sys
import time

from daemonset import pure


def py_tolerates(tol, taint):
    """Toleration.ToleratesTaint in ten lines of Python (no Gt/Lt: the gate is off by default)."""
    effect = tol.get("effect") or ""
    if effect and effect != (taint.get("effect") or ""):
        return False
    key = tol.get("key") or ""
    if key and key != (taint.get("key") or ""):
        return False
    op = tol.get("operator") or ""
    if op == "Exists":
        return True
    return op in ("", "Equal") and (tol.get("value") or "") == (taint.get("value") or "")


def best_ns(fn, calls, reps=7):
    """ns per call of fn(): the best of reps runs of calls calls."""
    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        for _ in range(calls):
            fn()
        t = time.perf_counter() - t
        best = min(best, t)
    return best * 1e9 / calls


def main():
    inputs_path, bench_path = sys.argv[1], sys.argv[2]
    with open(inputs_path) as f:
        inputs = json.load(f)
    with open(bench_path) as f:
        c = json.load(f).get("pure", {})
    tol_d, taint_d = json.loads(inputs["toleration"]), json.loads(inputs["taint"])
    tol, taint = pure.Object(tol_d, "Toleration"), pure.Object(taint_d, "Taint")
    assert pure.tolerates_taint(tol, taint) == py_tolerates(tol_d, taint_d) is True
    obj_ns = best_ns(lambda: pure.tolerates_taint(tol, taint), 20000)
    py_ns = best_ns(lambda: py_tolerates(tol_d, taint_d), 20000)
    text_ns = best_ns(lambda: pure.tolerates_taint(tol_d, taint_d), 2000)

    node = json.loads(inputs["node"])
    ds = pure.Object(inputs["daemonset"], "DaemonSet")
    n = c.get("batch", {}).get("nodes", 10000)
    objs = []
    for i in range(n):
        node["metadata"]["name"] = "gpu-node-%d" % i
        objs.append(pure.Object(node, "Node"))
    nodes = pure.ObjectArray(objs)
    res = pure.node_should_run_nodes(ds, nodes)
    assert len(res) == n and res[0] == (True, True)
    batch_ns = best_ns(lambda: pure.node_should_run_nodes(ds, nodes), 1, reps=9)
    c_batch_ns = c.get("batch", {}).get("batchNsPerNode", 0) * n
    out = {"toleratesTaintObjectsNs": obj_ns, "toleratesTaintPythonNs": py_ns, "toleratesTaintTextNs": text_ns,
           "batchNodes": n, "batchPythonMs": batch_ns / 1e6, "batchCMs": c_batch_ns / 1e6}
    with open(os.path.splitext(bench_path)[0] + "_python.json", "w") as f:
        json.dump(out, f, indent=2)
    print("\nFrom Python (daemonset.pure, ctypes):")
    print("  tolerates_taint on parsed objects %.0f ns, the ten-line Python rewrite %.0f ns (%.1fx); on "
          "documents %.0f ns" % (obj_ns, py_ns, obj_ns / py_ns, text_ns))
    if c_batch_ns:
        print("  one DaemonSet against %d parsed nodes, one batch call: %.2f ms from Python, %.2f ms from C "
              "(%.2fx)" % (n, batch_ns / 1e6, c_batch_ns / 1e6, batch_ns / c_batch_ns))


if __name__ == "__main__":
    main()
