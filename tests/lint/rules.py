#!/usr/bin/env python3
"""The rules lib/README.md states, checked (make lint; make check runs all but the formatting).

    rules.py [--root DIR] [--objs DIR] [--clang-format PROG] CHECK...

CHECK is one or more of:
  includes  lib/LAYER includes (in either form, "..." or <...>) its own layer's headers and those of the
            layers below it, never above; below api, no public header but daemonset/common.h (the controller
            also daemonset/controller.h, whose transport and lease structs it drives); "..." names its folder
  names     no two .c files of lib/ share a name
  symbols   from the object files (nm): every global symbol of lib/ is dsi_* or ds_*; only api and
            scenario define ds_* (local symbols too); no object refers to a symbol defined in a layer
            above its own (calls, not only includes); every ds_* defined is declared in a header
  pure      from the object files: the layers below controller read no clock and do no I/O of their own
            (core/files.c reads the files a caller names); no layer keeps global mutable state (writable
            data or bss; numfmt's C locale, made once, is the one exception)
  exports   lib/api/libdaemonset.map and the DS_EXTERN declarations of include/ name the same functions,
            each in one version node; a DS_DEPRECATED name is hidden by DS_NO_DEPRECATED and names a
            current successor, and a name whose successor is the same name with a 2 is DS_DEPRECATED
  format    clang-format --dry-run over the C files of lib/ include/ examples/ tests/ (honouring
            clang-format off) finds nothing
  all       every one of them

--root is the tree (default: this checkout), --objs the object directory of its lib/ (default
ROOT/build/obj/lib; only the objects of lib/*/*.c that exist now are read). Each finding is one line
"rules: <check>: <file>: what"; the exit status is 1 when there is one, 2 when a check cannot run.
tests/lint/test_rules.py plants each kind of violation in a scratch copy and expects it to fail.
SPDX-License-Identifier: Apache-2.0
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

ORDER = ["core", "model", "apiserver", "sched", "daemon", "pss", "ops", "controller", "api", "scenario"]
RANK = {layer: i for i, layer in enumerate(ORDER)}
PUBLIC_LAYERS = ("api", "scenario")  # define ds_*, include any public header
# Public headers a layer below api may include: common.h everywhere; the controller drives the
# host's transport vtable and reads the lease config, public structs of daemonset/controller.h.
PUBLIC_BELOW_API = {"daemonset/common.h": None, "daemonset/controller.h": {"controller"}}
PURE = ORDER[:ORDER.index("controller")]
# What the pure layers must not call: a clock, randomness, the environment, processes, and I/O (a
# denylist, so that a compiler's own helpers (__memcpy_chk, __isoc23_strtol, ...) need no entry).
CLOCKS = {"time", "clock", "clock_gettime", "gettimeofday", "ftime", "timespec_get", "localtime", "localtime_r",
          "gmtime", "gmtime_r", "mktime", "timegm", "strftime"}
HOST = {"getenv", "secure_getenv", "rand", "rand_r", "random", "srand", "srandom", "drand48", "getrandom",
        "arc4random", "sleep", "usleep", "nanosleep", "system", "popen", "fork", "execv", "execve", "execvp",
        "exit", "_exit", "abort", "signal", "sigaction", "socket", "connect", "send", "recv", "read", "write",
        "printf", "fprintf", "vfprintf", "puts", "fputs", "putchar", "fputc", "fwrite", "perror", "dlopen",
        "pthread_create", "pthread_mutex_lock"}
FILES = {"open", "openat", "close", "fopen", "fopen64", "fdopen", "fread", "fclose", "ferror", "fileno", "stat",
         "stat64", "fstat", "fstat64", "lstat", "opendir", "readdir", "readdir64", "closedir", "mmap", "munmap"}
FILE_READERS = {("core", "files.o"), ("core", "alloc.o")}  # files a caller names; alloc maps anonymous memory
# Writable static data allowed: numfmt's C locale, created once (pthread_once) and only read afterwards.
STATE_EXCEPTIONS = {("core", "numfmt.o", "c_locale"), ("core", "numfmt.o", "c_locale_once")}
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]*)[>"]')
FORMAT_DIRS = ("lib", "include", "examples", "tests")


class Report:
    def __init__(self):
        self.findings = 0

    def fail(self, check, where, what):
        self.findings += 1
        print(f"rules: {check}: {where}: {what}")


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def lib_layers(root, rep):
    """The layer folders of lib/, each with its rank; an unknown folder is a finding."""
    out = []
    for name in sorted(os.listdir(os.path.join(root, "lib"))):
        if not os.path.isdir(os.path.join(root, "lib", name)):
            continue
        if name not in RANK:
            rep.fail("includes", f"lib/{name}", "not a known layer (add it to ORDER in tests/lint/rules.py and "
                     "to lib/README.md)")
            continue
        out.append(name)
    return out


def layer_files(root, layer, exts):
    d = os.path.join(root, "lib", layer)
    return [os.path.join("lib", layer, f) for f in sorted(os.listdir(d)) if f.endswith(exts)]


def included_layer(layer, inc):
    """The lib/ folder an include names ("model/pod.h", "../model/pod.h"), or None."""
    path = os.path.normpath(os.path.join(layer, inc)) if inc.startswith("..") else inc
    first = path.split("/", 1)[0]
    return first if "/" in path else None


def check_includes(root, rep):
    for layer in lib_layers(root, rep):
        r = RANK[layer]
        for f in layer_files(root, layer, (".c", ".h")):
            with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
                for n, line in enumerate(fh, 1):
                    m = INCLUDE_RE.match(line)
                    if not m:
                        continue
                    quoted, inc = m.group(1) == '"', m.group(2)
                    where = f"{f}:{n}"
                    if inc == "daemonset.h" or inc.startswith("daemonset/"):
                        if layer in PUBLIC_LAYERS:
                            continue
                        if inc in PUBLIC_BELOW_API and (PUBLIC_BELOW_API[inc] is None or
                                                        layer in PUBLIC_BELOW_API[inc]):
                            continue
                        rep.fail("includes", where, f"{layer} includes the public header {inc} (below api only "
                                 "daemonset/common.h, and daemonset/controller.h in controller)")
                        continue
                    to = included_layer(layer, inc)
                    if to is None or to not in RANK:
                        if quoted:
                            rep.fail("includes", where, f'includes "{inc}", not a header of a lib/ layer '
                                     '(name it with its layer folder; system headers take <...>)')
                        continue  # <stdio.h>, <sys/mman.h>, <jansson.h>
                    if RANK[to] > r:
                        rep.fail("includes", where, f"{layer} includes {inc}, a header of {to}, which is above it")


def check_names(root, rep):
    seen = {}
    for layer in lib_layers(root, rep):
        for f in layer_files(root, layer, (".c",)):
            base = os.path.basename(f)
            if base in seen:
                rep.fail("names", f, f"shares its name with {seen[base]} (a name in a profile or a stack trace "
                         "must be one file)")
            else:
                seen[base] = f


def objects(root, objs):
    """[(object, layer)] for lib/*/*.c as they are now (a stale object of a removed file is not read)."""
    files = []
    for layer in ORDER:
        if not os.path.isdir(os.path.join(root, "lib", layer)):
            continue
        for f in layer_files(root, layer, (".c",)):
            o = os.path.join(objs, layer, os.path.basename(f)[:-2] + ".o")
            if not os.path.exists(o):
                print(f"rules: {o} is missing (build the library first: make lib)")
                sys.exit(2)
            files.append((o, layer))
    return files


def nm_symbols(root, objs, rep):
    """(defined, undefined): defined[name] = (object, layer, global?); undefined = [(object, layer, name)]."""
    files = objects(root, objs)
    layer_of = dict(files)
    res = subprocess.run(["nm", "-P", "-A"] + [o for o, _ in files], capture_output=True, text=True)
    if res.returncode != 0:
        print(f"rules: symbols: nm failed: {res.stderr.strip()}")
        sys.exit(2)
    defined, undefined = {}, []
    for line in res.stdout.splitlines():
        obj, _, rest = line.partition(": ")
        parts = rest.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        layer = layer_of.get(obj)
        if layer is None:
            continue
        if kind == "U":
            undefined.append((obj, layer, name))
        elif kind not in ("N", "a") and not name.startswith("."):
            if kind.isupper() or name not in defined:
                defined[name] = (obj, layer, kind.isupper())
            if name.startswith("ds_") and layer not in PUBLIC_LAYERS:
                rep.fail("symbols", obj, f"{layer} defines {name}; only api and scenario define ds_* "
                         "(internal names are dsi_*)")
    return defined, undefined


def check_pure(root, objs, rep):
    _, undefined = nm_symbols(root, objs, Report())
    for obj, layer, name in undefined:
        if layer not in PURE:
            continue
        if name in CLOCKS:
            rep.fail("pure", obj, f"{layer} calls {name}: the pure layers read no clock (time is a parameter)")
        elif name in HOST:
            rep.fail("pure", obj, f"{layer} calls {name}: the pure layers never reach the host or the process")
        elif name in FILES and (layer, os.path.basename(obj)) not in FILE_READERS:
            rep.fail("pure", obj, f"{layer} calls {name}: of the pure layers only core/files.c reads files")
    files = objects(root, objs)
    res = subprocess.run(["objdump", "-t"] + [o for o, _ in files], capture_output=True, text=True)
    if res.returncode != 0:
        print(f"rules: pure: objdump failed: {res.stderr.strip()}")
        sys.exit(2)
    layer_of, obj = dict(files), None
    for line in res.stdout.splitlines():
        m = re.match(r"^(\S+\.o):\s+file format", line)
        if m:
            obj = m.group(1)
            continue
        m = re.match(r"^[0-9a-f]+\s+([lgw!u ]+)\s*O\s+(\S+)\s+[0-9a-f]+\s+(\S+)$", line)
        if not m or obj not in layer_of:
            continue
        section, name = m.group(2), m.group(3)
        writable = re.match(r"^\.(data|bss|tdata|tbss)\b", section) and not section.startswith(".data.rel.ro")
        if section == "*COM*":
            writable = True
        if writable and (layer_of[obj], os.path.basename(obj), name) not in STATE_EXCEPTIONS:
            rep.fail("pure", obj, f"{name} is writable static data ({section}): the library keeps no global "
                     "mutable state")


def header_functions(root):
    """name -> header for every DS_EXTERN function declared under include/."""
    out = {}
    for d, _, names in os.walk(os.path.join(root, "include")):
        for h in sorted(names):
            if not h.endswith(".h"):
                continue
            p = os.path.join(d, h)
            text = read(p)
            text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
            text = re.sub(r"^\s*#.*$", " ", text, flags=re.M)  # the DS_EXTERN definition itself
            for m in re.finditer(r"\bDS_EXTERN\b[^;{]*?\b(ds_\w+)\s*\(", text):
                out[m.group(1)] = os.path.relpath(p, root)
    return out


def check_symbols(root, objs, rep):
    defined, undefined = nm_symbols(root, objs, rep)
    for name, (obj, layer, is_global) in sorted(defined.items()):
        if is_global and not (name.startswith("dsi_") or name.startswith("ds_")):
            rep.fail("symbols", obj, f"the global symbol {name} is neither dsi_* (internal) nor ds_* (public)")
    for obj, layer, name in undefined:
        d = defined.get(name)
        if d and d[2] and RANK[d[1]] > RANK[layer]:
            rep.fail("symbols", obj, f"{layer} refers to {name}, defined in {d[0]} ({d[1]}, above it)")
    declared = header_functions(root)
    for name, (obj, layer, is_global) in sorted(defined.items()):
        if is_global and name.startswith("ds_") and name not in declared:
            rep.fail("symbols", obj, f"defines {name}, which no header under include/ declares (it would not "
                     "be exported: internal names are dsi_*)")


def map_nodes(root):
    """[(node, [names])] of the linker script, in order."""
    p = os.path.join(root, "lib", "api", "libdaemonset.map")
    text = re.sub(r"/\*.*?\*/", " ", read(p), flags=re.S)
    nodes = []
    for m in re.finditer(r"(\w[\w.]*)\s*\{(.*?)\}", text, flags=re.S):
        body = m.group(2)
        glob = body.split("local:")[0]
        names = re.findall(r"([\w*?]+)\s*;", glob.replace("global:", " "))
        nodes.append((m.group(1), names))
    return nodes


def deprecations(root, rep):
    """Each DS_DEPRECATED("successor") declaration: inside #ifndef DS_NO_DEPRECATED, naming a declared successor
    that is not itself deprecated."""
    declared = header_functions(root)
    found = {}
    for h in sorted(set(declared.values())):
        text = re.sub(r"/\*.*?\*/", " ", read(os.path.join(root, h)), flags=re.S)
        hidden = [(m.start(), text.index("#endif", m.end())) for m in re.finditer(r"#ifndef DS_NO_DEPRECATED\b", text)]
        for m in re.finditer(r"\bDS_EXTERN\s+DS_DEPRECATED\(\"(\w+)\"\)[^;{]*?\b(ds_\w+)\s*\(", text):
            found[m.group(2)] = m.group(1)
            if not any(a < m.start() < b for a, b in hidden):
                rep.fail("exports", h, f"{m.group(2)} is deprecated outside #ifndef DS_NO_DEPRECATED")
    for old, new in sorted(found.items()):
        if new not in declared or new in found:
            rep.fail("exports", declared[old], f"{old} is deprecated for {new}, which is not a current function")
    # a successor that only adds an argument keeps the name with a 2 (daemonset(7), CONVENTIONS): the
    # name without it is then superseded and must say so
    for new in sorted(declared):
        old = new[:-1]
        if new.endswith("2") and old in declared and found.get(old) != new:
            rep.fail("exports", declared[old], f"{old} has the successor {new} but is not declared "
                     f"DS_DEPRECATED(\"{new}\") inside #ifndef DS_NO_DEPRECATED")
    return found


def check_exports(root, rep):
    declared = header_functions(root)
    deprecations(root, rep)
    where = {}
    for node, names in map_nodes(root):
        for name in names:
            if not re.fullmatch(r"ds_\w+", name):
                rep.fail("exports", "lib/api/libdaemonset.map", f"{node} lists '{name}' (every name is written "
                         "out: a pattern would put new functions in an old node silently)")
                continue
            if name in where:
                rep.fail("exports", "lib/api/libdaemonset.map", f"{name} is in {where[name]} and {node}")
            where[name] = node
            if name not in declared:
                rep.fail("exports", "lib/api/libdaemonset.map", f"{node} exports {name}, which no header under "
                         "include/ declares")
    for name, h in sorted(declared.items()):
        if name not in where:
            rep.fail("exports", h, f"declares {name}, which no version node of lib/api/libdaemonset.map lists "
                     "(new names go in the newest node)")


def c_files(root):
    out = []
    for top in FORMAT_DIRS:
        for d, dirs, names in os.walk(os.path.join(root, top)):
            dirs.sort()
            out += [os.path.join(d, n) for n in sorted(names) if n.endswith((".c", ".h"))]
    return out


def check_format(root, prog, rep):
    if not shutil.which(prog):
        print(f"rules: format: {prog} not found (sh tests/tools.sh lint installs it)")
        sys.exit(2)
    files = c_files(root)
    res = subprocess.run([prog, "--dry-run", "--Werror", f"--style=file:{os.path.join(root, '.clang-format')}"]
                         + files, capture_output=True, text=True, cwd=root)
    bad = sorted({m.group(1) for m in re.finditer(r"^(\S+?):\d+:\d+: (?:error|warning)", res.stderr, re.M)})
    for f in bad:
        rep.fail("format", os.path.relpath(f, root), f"differs from .clang-format (run: {prog} -i {os.path.relpath(f, root)})")
    if res.returncode != 0 and not bad:
        print(f"rules: format: {prog} failed: {res.stderr.strip()[:500]}")
        sys.exit(2)
    return len(files)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.normpath(os.path.join(here, "..", "..")))
    ap.add_argument("--objs")
    ap.add_argument("--clang-format", default=os.environ.get("CLANG_FORMAT", "clang-format"))
    ap.add_argument("checks", nargs="+", choices=["includes", "names", "symbols", "pure", "exports", "format", "all"])
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    objs = a.objs or os.path.join(root, "build", "obj", "lib")
    checks = ["includes", "names", "symbols", "pure", "exports", "format"] if "all" in a.checks else a.checks
    rep = Report()
    said = []
    for c in checks:
        before = rep.findings
        if c == "includes":
            check_includes(root, rep)
            said.append("every include of lib/ points down")
        elif c == "names":
            check_names(root, rep)
            said.append("no two .c files share a name")
        elif c == "symbols":
            check_symbols(root, objs, rep)
            said.append("no object refers up, ds_* only in api and scenario")
        elif c == "pure":
            check_pure(root, objs, rep)
            said.append("below controller no clock and no host, and no global mutable state")
        elif c == "exports":
            check_exports(root, rep)
            said.append("the map and the headers agree")
        elif c == "format":
            n = check_format(root, a.clang_format, rep)
            said.append(f"{n} C files as .clang-format says")
        if rep.findings != before:
            said.pop()
    if rep.findings:
        print(f"rules: FAILED ({rep.findings} finding{'s' if rep.findings != 1 else ''}; the rules are in "
              "lib/README.md)")
        return 1
    print("rules: " + "; ".join(said))
    return 0


if __name__ == "__main__":
    sys.exit(main())
