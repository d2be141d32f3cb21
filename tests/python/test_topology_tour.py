"""The README's tour of the cluster-wide scheduler filters (examples/topology on the sample cluster)
shows what dsctl prints today, and the pure function agrees with explain on those nodes."""
import json
import os
import re
import subprocess
import unittest

import buildpaths

ROOT = buildpaths.ROOT


DSCTL = buildpaths.program("DSCTL", "bin", "dsctl")


def dsctl(*args):
    argv = [DSCTL, "--color=never", "-f", "examples/cluster", "-f", "examples/topology"] + list(args)
    p = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, timeout=60, env=dict(os.environ, NO_COLOR="1"))
    return p.returncode, p.stdout, p.stderr


class TopologyTour(unittest.TestCase):
    def test_readme_blocks(self):
        with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
            readme = f.read()
        for ds in ("node-cache", "zone-probe"):
            m = re.search(r"\$ dsctl -f examples/cluster -f examples/topology explain %s\n(.*?)(?=\$ dsctl|```)" % ds,
                          readme, re.S)
            self.assertIsNotNone(m, "the tour's %s block is gone from README.md" % ds)
            rc, out, err = dsctl("explain", ds)
            self.assertEqual((rc, out), (0, m.group(1)), err)

    def test_filters_listed(self):
        rc, out, err = dsctl("explain", "zone-probe", "-o", "json")
        self.assertEqual(rc, 0, err)
        rows = {r["node"]: r for r in json.loads(out)["rows"]}
        self.assertIn("PodTopologySpread", rows["worker-1"]["filters"]["ran"])
        self.assertEqual([s["plugin"] for s in rows["worker-1"]["scheduler"]], ["PodTopologySpread"])
        self.assertNotIn("scheduler", rows["worker-4"])
        self.assertIn("InterPodAffinity", rows["worker-4"]["filters"]["skipped"])


if __name__ == "__main__":
    unittest.main()
