"""dsctl's tables as a person sees them: in a real terminal (tmux), in colour, at a given width.

The pane is captured as text after dsctl ran in it: colours are on (a terminal, --color=auto), the
columns must still line up, no line may pass the terminal's width, and a wrapped reason continues
under its own column. Skipped without tmux (sh tests/tools.sh shells installs it).
"""

import os
import shutil
import subprocess
import time
import unittest
import uuid

from test_dsctl import CLUSTER, DSCTL, NOW, setUpModule  # noqa: F401


@unittest.skipUnless(shutil.which("tmux"), "tmux is not installed (sh tests/tools.sh shells)")
class TerminalTables(unittest.TestCase):
    def screen(self, width, *args):
        """Run dsctl in a tmux pane of width columns; returns (text, text with escapes)."""
        name = "dsctl-" + uuid.uuid4().hex[:8]
        done = os.path.join("/tmp", name + ".done")
        cmd = " ".join([DSCTL, "-f", CLUSTER, "--now", NOW] + ["'%s'" % a for a in args])
        subprocess.run(["tmux", "-L", name, "new-session", "-d", "-x", str(width), "-y", "60", "-s", name,
                        "env -u NO_COLOR TERM=xterm-256color %s; touch %s; sleep 60" % (cmd, done)], check=True)
        try:
            for _ in range(200):
                if os.path.exists(done):
                    break
                time.sleep(0.05)
            self.assertTrue(os.path.exists(done), "dsctl did not finish in the pane")
            plain = subprocess.run(["tmux", "-L", name, "capture-pane", "-p", "-t", name], capture_output=True,
                                   text=True, check=True).stdout
            escaped = subprocess.run(["tmux", "-L", name, "capture-pane", "-p", "-e", "-t", name],
                                     capture_output=True, text=True, check=True).stdout
            return plain.rstrip("\n") + "\n", escaped
        finally:
            subprocess.run(["tmux", "-L", name, "kill-server"], capture_output=True)
            if os.path.exists(done):
                os.remove(done)

    def test_explain_in_colour_aligns_and_wraps(self):
        text, escaped = self.screen(100, "explain", "fluentd-logging")
        self.assertIn("\x1b[", escaped, "a terminal gets colours")
        lines = text.splitlines()
        self.assertTrue(all(len(line) <= 100 for line in lines), text)
        header = next(i for i, line in enumerate(lines) if line.startswith("NODE"))
        status, why = lines[header].index("STATUS"), lines[header].index("WHY")
        rows = [line for line in lines[header + 1:] if line.startswith(("cp-", "gpu-", "worker-"))]
        self.assertEqual(len(rows), 6, text)
        for row in rows:  # every status starts under its header, coloured or not
            self.assertRegex(row[status:], r"^(placed|create|not-placed) ", row)
        cont = [line for line in lines[header + 1:] if line.startswith(" ") and line.strip()]
        self.assertTrue(cont, "the taint reasons are longer than the pane: they wrap\n" + text)
        for line in cont:
            self.assertEqual(len(line) - len(line.lstrip(" ")), why, line)

    def test_audit_severity_column(self):
        text, escaped = self.screen(160, "audit", "fluentd-logging")
        lines = text.splitlines()
        header = next(i for i, line in enumerate(lines) if line.startswith("SEVERITY"))
        field = lines[header].index("FIELD")
        for line in lines[header + 1:]:
            if line.split() and line.split()[0] in ("critical", "high", "medium", "low", "info"):
                self.assertEqual(line[field - 3:field], "   ", line)
                self.assertNotEqual(line[field], " ", line)


if __name__ == "__main__":
    unittest.main()
