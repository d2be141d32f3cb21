"""The README's tour of DynamicResources (examples/dra on the sample cluster) shows what dsctl
prints today, each row put to the scheduler lists DynamicResources as ran, and the pure function
agrees with explain on those nodes."""
import json
import os
import re
import subprocess
import unittest

import buildpaths

ROOT = buildpaths.ROOT


DSCTL = buildpaths.program("DSCTL", "bin", "dsctl")


def dsctl(*args):
    argv = [DSCTL, "--color=never", "-f", "examples/cluster", "-f", "examples/dra"] + list(args)
    p = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, timeout=60, env=dict(os.environ, NO_COLOR="1"))
    return p.returncode, p.stdout, p.stderr


class DraTour(unittest.TestCase):
    def test_readme_block(self):
        with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
            readme = f.read()
        m = re.search(r"\$ dsctl -f examples/cluster -f examples/dra explain gpu-monitor -n kube-system\n(.*?)```",
                      readme, re.S)
        self.assertIsNotNone(m, "the tour's gpu-monitor block is gone from README.md")
        rc, out, err = dsctl("explain", "gpu-monitor", "-n", "kube-system")
        self.assertEqual((rc, out), (0, m.group(1)), err)

    def test_rows(self):
        rc, out, err = dsctl("explain", "gpu-monitor", "-n", "kube-system", "-o", "json")
        self.assertEqual(rc, 0, err)
        rows = {r["node"]: r for r in json.loads(out)["rows"]}
        self.assertEqual(rows["worker-3"]["status"], "create")
        for node in ("gpu-1", "worker-1", "worker-2", "worker-4"):
            self.assertEqual(rows[node]["status"], "unschedulable", node)
            self.assertEqual([r["message"] for r in rows[node]["scheduler"]], ["cannot allocate all claims"], node)
        for node in ("gpu-1", "worker-1", "worker-2", "worker-3", "worker-4"):
            self.assertIn("DynamicResources", rows[node]["filters"]["ran"], node)
        self.assertNotIn("filters", rows["cp-1"])  # not placed: never put to the scheduler


if __name__ == "__main__":
    unittest.main()
