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
    def screen(self, width, *args, height=60, joined=False):
        """Run dsctl in a tmux pane of width columns; returns (text, text with escapes). joined: the lines as
        dsctl wrote them, a line the terminal wrapped joined again (tmux capture-pane -J), whole history."""
        name = "dsctl-" + uuid.uuid4().hex[:8]
        done = os.path.join("/tmp", name + ".done")
        cmd = " ".join([DSCTL, "-f", CLUSTER, "--now", NOW] + ["'%s'" % a for a in args])
        # COLUMNS unset: dsctl must find the width from the terminal itself
        subprocess.run(["tmux", "-L", name, "new-session", "-d", "-x", str(width), "-y", str(height), "-s", name,
                        "env -u NO_COLOR -u COLUMNS TERM=xterm-256color %s; touch %s; sleep 60" % (cmd, done)],
                       check=True)
        try:
            for _ in range(200):
                if os.path.exists(done):
                    break
                time.sleep(0.05)
            self.assertTrue(os.path.exists(done), "dsctl did not finish in the pane")
            extra = ["-J", "-S", "-"] if joined else []
            plain = subprocess.run(["tmux", "-L", name, "capture-pane", "-p"] + extra + ["-t", name],
                                   capture_output=True, text=True, check=True).stdout
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

    # Every command that prints a table, as a person first runs it (wide output is as wide as its content,
    # as kubectl's is, and not among them).
    TABLE_COMMANDS = [
        ("get",), ("get", "ds"), ("get", "nodes"), ("get", "pods"), ("get", "controllerrevisions"), ("get", "pdb"),
        ("get", "ds,no"), ("explain", "fluentd-logging"), ("explain", "fluentd-logging", "--summary"),
        ("explain", "fluentd-logging", "gpu-1"), ("explain", "node-exporter"), ("plan", "fluentd-logging"),
        ("status", "fluentd-logging"), ("history", "fluentd-logging"), ("rollout", "fluentd-logging"),
        ("rollout", "fluentd-logging", "--image", "fluentd=fluent/fluentd:v1.18", "--strategy", "maxUnavailable=2"),
        ("rollout", "status", "ds/fluentd-logging"), ("rollout", "history", "ds/fluentd-logging"),
        ("audit",), ("audit", "fluentd-logging"), ("drain", "worker-1", "--ignore-daemonsets"),
        ("cordon", "worker-1"), ("uncordon", "worker-3"),
        ("upgrade", "--ignore-daemonsets", "--delete-emptydir-data", "--force"), ("demo",),
    ]

    def test_every_table_fits_80_and_120_columns(self):
        """At 80 and 120 columns no line of any table command passes the edge (the issue: explain, --summary and
        audit ran past 80 and wrapped at 120). The lines are captured as dsctl wrote them (-J joins what the
        terminal wrapped), so a line that is too long shows as one."""
        for width in (80, 120):
            for args in self.TABLE_COMMANDS:
                with self.subTest(width=width, args=args):
                    text, _ = self.screen(width, *args, height=50, joined=True)
                    lines = [line.rstrip() for line in text.splitlines()]
                    self.assertGreater(len([line for line in lines if line]), 1, text)
                    long = [line for line in lines if len(line) > width]
                    self.assertEqual(long, [], "\n".join(long))

    def test_columns_overrides_the_terminal(self):
        """COLUMNS, when set, is the width (also through a pipe, where there is no terminal)."""
        p = subprocess.run([DSCTL, "-f", CLUSTER, "--now", NOW, "--color=never", "audit", "fluentd-logging"],
                           capture_output=True, text=True, env=dict(os.environ, COLUMNS="80"))
        self.assertTrue(all(len(line) <= 80 for line in p.stdout.splitlines()), p.stdout)
        self.assertIn("\nSEVERITY  ", p.stdout)
        p = subprocess.run([DSCTL, "-f", CLUSTER, "--now", NOW, "--color=never", "audit", "fluentd-logging"],
                           capture_output=True, text=True, env={k: v for k, v in os.environ.items() if k != "COLUMNS"})
        self.assertTrue(any(len(line) > 200 for line in p.stdout.splitlines()), "no width: no wrapping")

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
