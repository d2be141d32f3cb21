"""The build backend of the daemonset package (PEP 517 and PEP 660), and its
installer for `make install`. Standard library only, so that
`pip install ./examples/python` needs no package index: pip's isolated build
environment has nothing to install (pyproject.toml: requires = []).

Hooks: build_wheel, build_editable, build_sdist, and the get_requires_*
hooks (nothing). A wheel carries its own copy of the C library: build_wheel
runs `make lib` in the source tree the package sits in (examples/python of a
checkout: the repository's Makefile and build/, as `make` itself builds it;
an sdist carries the C sources under csrc/) and puts libdaemonset.so.1 into
daemonset/_lib/, where the package looks first, so that `pip install
./examples/python` into a fresh virtual environment is all a Python user does
(the wheel is then tagged for this platform). Building it needs what `make`
needs: a C compiler, make, pkg-config, jansson and libyaml (Debian:
gcc make pkg-config libjansson-dev libyaml-dev). One config setting:
libdir=DIR (pip install -C libdir=DIR) writes daemonset/_config.py into the
wheel, recording where an installed libdaemonset.so.1 is, and leaves the
library out (the package then loads that one; daemonset/_native.py).
Editable installs carry no copy either: they use build/lib of the checkout.

Command line (the Makefile's install and uninstall rules):
    python3 daemonset_build.py sitedir PREFIX
        the directory packages go to for PREFIX with this Python: Debian's
        pythons use dist-packages (on their sys.path for /usr/local),
        others the posix_prefix scheme's site-packages; a virtual
        environment's own directory when PREFIX is its prefix
    python3 daemonset_build.py install [--root DESTDIR] [--libdir DIR] [--pythondir DIR] PREFIX
        installs the package, with a dist-info directory pip recognises
        (pip list, pip uninstall), into DESTDIR + pythondir; --libdir is
        recorded as it will be after installation (without DESTDIR)
    python3 daemonset_build.py uninstall [--root DESTDIR] [--pythondir DIR] PREFIX
"""

import argparse
import base64
import csv
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(HERE)  # examples/python
SONAME = "libdaemonset.so.1"
BUNDLED = "daemonset/_lib/" + SONAME  # where a wheel carries the library (daemonset/_native.py looks there)
# What make needs of the tree to build the library, and what an sdist carries of it under csrc/
C_SOURCES = ("Makefile", "LICENSE", "include", "lib")


# ---- pyproject.toml ------------------------------------------------------------------------
# Only the [project] and [tool.daemonset_build] tables, and only what they use: strings,
# {text = "..."} and arrays of strings. tomllib is 3.11+, and the package supports 3.8.

def _toml_string(s):
    s = s.strip()
    if len(s) >= 2 and s[0] == s[-1] == '"':
        return json.loads(s)  # TOML's basic strings escape as JSON does (but for \e and \U)
    raise ValueError("pyproject.toml: expected a string, got %r" % s)


def _toml_value(text):
    text = text.strip()
    if text.startswith("["):
        return [_toml_string(m.group(0)) for m in re.finditer(r'"(?:[^"\\]|\\.)*"', text)]
    if text.startswith("{"):
        return {m.group(1): _toml_string(m.group(2))
                for m in re.finditer(r'([A-Za-z0-9_-]+)\s*=\s*("(?:[^"\\]|\\.)*")', text)}
    return _toml_string(text)


def _strip_comment(line):
    """line without a # comment (a # inside a string stays)."""
    quoted = False
    i = 0
    while i < len(line):
        c = line[i]
        if c == "\\" and quoted:
            i += 2
            continue
        if c == '"':
            quoted = not quoted
        elif c == "#" and not quoted:
            return line[:i]
        i += 1
    return line


def read_pyproject(path=None):
    """{"project": {...}, "tool.daemonset_build": {...}} from pyproject.toml."""
    path = path or os.path.join(SOURCE, "pyproject.toml")
    tables = {}
    table = None
    pending = None  # (key, text so far) of a multi-line array
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = _strip_comment(raw).rstrip()
            if pending:
                pending = (pending[0], pending[1] + " " + line.strip())
                if line.strip().endswith("]"):
                    tables[table][pending[0]] = _toml_value(pending[1])
                    pending = None
                continue
            stripped = line.strip()
            if not stripped:
                continue
            m = re.match(r"^\[([A-Za-z0-9_.-]+)\]$", stripped)
            if m:
                table = m.group(1)
                tables.setdefault(table, {})
                continue
            m = re.match(r"^([A-Za-z0-9_-]+)\s*=\s*(.*)$", stripped)
            if not m or table is None:
                raise ValueError("pyproject.toml: cannot read %r" % stripped)
            key, value = m.group(1), m.group(2)
            if value.startswith("[") and not value.endswith("]"):
                pending = (key, value)
                continue
            tables[table][key] = _toml_value(value)
    return tables


def _project():
    tables = read_pyproject()
    project = tables["project"]
    tool = tables.get("tool.daemonset_build", {})
    return project, tool.get("packages", [project["name"]])


def _dist_name(project):
    return re.sub(r"[-_.]+", "_", project["name"]).lower()


def metadata(project):
    """The METADATA (core metadata 2.1) text."""
    lines = ["Metadata-Version: 2.1", "Name: %s" % project["name"], "Version: %s" % project["version"]]
    if project.get("description"):
        lines.append("Summary: %s" % project["description"])
    lic = project.get("license")
    if isinstance(lic, dict) and lic.get("text"):
        lines.append("License: %s" % lic["text"])
    if project.get("requires-python"):
        lines.append("Requires-Python: %s" % project["requires-python"])
    for c in project.get("classifiers", []):
        lines.append("Classifier: %s" % c)
    body = ""
    readme = project.get("readme")
    if readme and os.path.isfile(os.path.join(SOURCE, readme)):
        lines.append("Description-Content-Type: text/markdown")
        with open(os.path.join(SOURCE, readme), encoding="utf-8") as f:
            body = "\n" + f.read()
    return "\n".join(lines) + "\n" + body


# ---- wheels ----------------------------------------------------------------------------------

def _package_files(packages):
    """(archive path, file path) of every file of the packages, sorted; no caches, no _config.py."""
    out = []
    for pkg in packages:
        root = os.path.join(SOURCE, pkg)
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if d not in ("__pycache__", "_lib"))
            for name in sorted(filenames):
                if name.endswith((".pyc", ".pyo")) or (dirpath == root and name == "_config.py"):
                    continue
                full = os.path.join(dirpath, name)
                out.append((os.path.relpath(full, SOURCE).replace(os.sep, "/"), full))
    return out


def _config_py(libdir):
    return ('"""Written when the package was installed: where libdaemonset.so.1 was installed."""\n\n'
            "LIBDIR = %r\n" % os.path.abspath(libdir))


def _record_hash(data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return "sha256=" + digest


def _zip_time():
    # reproducible: SOURCE_DATE_EPOCH when set, else 1980-01-01 (the zip format's first date)
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        return time.gmtime(max(int(epoch), 315532800))[:6]
    return (1980, 1, 1, 0, 0, 0)


# ---- the C library ---------------------------------------------------------------------------

def c_source_root():
    """The tree to build libdaemonset from: csrc/ of an sdist, or the checkout examples/python sits in.
    None when there is neither."""
    for root in (os.path.join(SOURCE, "csrc"), os.path.normpath(os.path.join(SOURCE, "..", ".."))):
        if all(os.path.exists(os.path.join(root, p))
               for p in ("Makefile", os.path.join("include", "daemonset.h"), os.path.join("lib", "api", "libdaemonset.map"))):
            return root
    return None


def build_library():
    """`make lib` in the C source tree (its build/, as a plain `make` builds it); the path of the shared
    library built, a regular file. RuntimeError with what is missing when it cannot be built."""
    root = c_source_root()
    if root is None:
        raise RuntimeError("cannot build libdaemonset for the wheel: no C sources (neither csrc/ of an sdist nor "
                           "the libdaemonset checkout around %s)" % SOURCE)
    make = os.environ.get("MAKE") or shutil.which("make")
    if not make:
        raise RuntimeError("building the daemonset wheel runs `make lib` to build libdaemonset: make is not "
                           "installed (Debian: apt-get install make gcc pkg-config libjansson-dev libyaml-dev)")
    # the flags of an enclosing make (make check running pip) would change this one's behaviour
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")}
    cmd = [make, "-C", root, "--no-print-directory", "-j2", "lib"]
    # pip shows a backend's output with -v, and all of it when the build fails
    proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    sys.stderr.write(proc.stdout)
    if proc.returncode != 0:
        raise RuntimeError("`%s` failed (exit status %d); libdaemonset needs a C compiler, make, pkg-config, "
                           "jansson and libyaml (Debian: apt-get install gcc make pkg-config libjansson-dev "
                           "libyaml-dev; in the checkout, sh tests/tools.sh build says what is missing)"
                           % (" ".join(cmd), proc.returncode))
    path = os.path.realpath(os.path.join(root, "build", "lib", SONAME))
    if not os.path.isfile(path):
        raise RuntimeError("`make lib` built no %s" % os.path.join(root, "build", "lib", SONAME))
    return path


def platform_tag():
    """The wheel platform tag of this machine (linux_x86_64): a wheel with a C library is not py3-none-any."""
    return re.sub(r"[^A-Za-z0-9]", "_", sysconfig.get_platform())


def _bundles(config_settings, editable):
    """Whether the wheel carries the library: not for an editable install, not with libdir=DIR (the package
    then loads the library installed there), and not when there are no C sources to build it from."""
    return not editable and not (config_settings or {}).get("libdir") and c_source_root() is not None


def _wheel_entries(config_settings, editable=False, bundle=None):
    """(dist, version, dist-info, [(archive path, bytes)] with RECORD last, tag) of the wheel."""
    project, packages = _project()
    dist = _dist_name(project)
    info = "%s-%s.dist-info" % (dist, project["version"])
    bundle = _bundles(config_settings, editable) if bundle is None else bundle
    entries = []
    if editable:
        # PEP 660 through a .pth line: the source directory goes on sys.path
        entries.append(("__editable__.%s.pth" % dist, (SOURCE + "\n").encode("utf-8")))
    else:
        for arc, full in _package_files(packages):
            with open(full, "rb") as f:
                entries.append((arc, f.read()))
    libdir = (config_settings or {}).get("libdir")
    if libdir:
        if editable:
            raise ValueError("libdir is for installed copies; an editable install reads _config.py from the source")
        entries.append(("%s/_config.py" % packages[0], _config_py(libdir).encode("utf-8")))
    if bundle:
        with open(build_library(), "rb") as f:
            entries.append((BUNDLED, f.read()))
    tag = "py3-none-" + platform_tag() if bundle else "py3-none-any"
    entries.append(("%s/METADATA" % info, metadata(project).encode("utf-8")))
    entries.append(("%s/WHEEL" % info, ("Wheel-Version: 1.0\nGenerator: daemonset_build\nRoot-Is-Purelib: %s\n"
                                        "Tag: %s\n" % ("false" if bundle else "true", tag)).encode("utf-8")))
    entries.append(("%s/top_level.txt" % info, ("\n".join(packages) + "\n").encode("utf-8")))
    return dist, project["version"], info, entries, tag


def _record(info, entries, extra=()):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    for arc, data in list(entries) + list(extra):
        w.writerow([arc, _record_hash(data), len(data)])
    w.writerow(["%s/RECORD" % info, "", ""])
    return buf.getvalue().encode("utf-8")


def _write_wheel(wheel_directory, config_settings, editable):
    dist, version, info, entries, tag = _wheel_entries(config_settings, editable)
    name = "%s-%s-%s.whl" % (dist, version, tag)
    entries.append(("%s/RECORD" % info, _record(info, entries)))
    stamp = _zip_time()
    path = os.path.join(wheel_directory, name)
    with zipfile.ZipFile(path + ".tmp", "w", zipfile.ZIP_DEFLATED) as z:
        for arc, data in entries:
            zi = zipfile.ZipInfo(arc, stamp)
            zi.external_attr = (0o755 if arc == BUNDLED else 0o644) << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, data)
    os.replace(path + ".tmp", path)
    return name


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _write_wheel(wheel_directory, config_settings, False)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    return _write_wheel(wheel_directory, config_settings, True)


def build_sdist(sdist_directory, config_settings=None):
    project, packages = _project()
    base = "%s-%s" % (_dist_name(project), project["version"])
    files = [("pyproject.toml", os.path.join(SOURCE, "pyproject.toml")),
             ("tools/daemonset_build.py", os.path.abspath(__file__))]
    if project.get("readme"):
        files.append((project["readme"], os.path.join(SOURCE, project["readme"])))
    files += _package_files(packages)
    # the C library's sources, so that a wheel built from the sdist carries the library too
    root = c_source_root()
    if root is not None:
        for top in C_SOURCES:
            full = os.path.join(root, top)
            if os.path.isfile(full):
                files.append(("csrc/" + top, full))
                continue
            for dirpath, dirnames, filenames in os.walk(full):
                dirnames.sort()
                for name in sorted(filenames):
                    if name.endswith((".c", ".h", ".map")):
                        path = os.path.join(dirpath, name)
                        files.append(("csrc/" + os.path.relpath(path, root).replace(os.sep, "/"), path))
    mtime = int(os.environ.get("SOURCE_DATE_EPOCH", "315532800"))
    name = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz", format=tarfile.PAX_FORMAT) as t:
        def add(arc, data):
            ti = tarfile.TarInfo("%s/%s" % (base, arc))
            ti.size, ti.mtime, ti.mode = len(data), mtime, 0o644
            t.addfile(ti, io.BytesIO(data))
        for arc, full in files:
            with open(full, "rb") as f:
                add(arc, f.read())
        add("PKG-INFO", metadata(project).encode("utf-8"))
    return name


# ---- make install ------------------------------------------------------------------------------

def sitedir(prefix):
    """Where pure packages go for prefix, with the running Python."""
    prefix = os.path.abspath(prefix)
    ver = "python%d.%d" % sys.version_info[:2]
    in_venv = sys.prefix != getattr(sys, "base_prefix", sys.prefix)
    if in_venv and os.path.realpath(prefix) == os.path.realpath(sys.prefix):
        return sysconfig.get_path("purelib")
    if "deb_system" in sysconfig.get_scheme_names():
        # Debian's python: /usr/lib/python3/dist-packages is dpkg's; everything else
        # (/usr/local included, which is on its sys.path) is lib/pythonX.Y/dist-packages
        if prefix == "/usr":
            return "/usr/lib/python3/dist-packages"
        return os.path.join(prefix, "lib", ver, "dist-packages")
    return sysconfig.get_path("purelib", "posix_prefix", vars={"base": prefix, "platbase": prefix})


def _remove_installed(target, packages, dist):
    for pkg in packages:
        shutil.rmtree(os.path.join(target, pkg), ignore_errors=True)
    if os.path.isdir(target):
        for name in os.listdir(target):
            if re.match(r"^%s-[^-]+\.dist-info$" % re.escape(dist), name):
                shutil.rmtree(os.path.join(target, name), ignore_errors=True)


def install(prefix, root="", libdir=None, pythondir=None):
    """Install into root + pythondir (default: sitedir(prefix)); returns the directory."""
    pythondir = pythondir or sitedir(prefix)
    target = os.path.normpath(root + "/" + pythondir) if root else pythondir
    project, packages = _project()
    # make install installs the library itself and records its libdir: no copy in the package
    dist, version, info, entries, tag = _wheel_entries({"libdir": libdir} if libdir else None, bundle=False)
    installer = (info + "/INSTALLER", b"make\n")
    entries.append(installer)
    entries.append(("%s/RECORD" % info, _record(info, entries)))
    _remove_installed(target, packages, dist)
    for arc, data in entries:
        path = os.path.join(target, *arc.split("/"))
        os.makedirs(os.path.dirname(path), mode=0o755, exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        os.chmod(path, 0o644)
    return target


def uninstall(prefix, root="", pythondir=None):
    pythondir = pythondir or sitedir(prefix)
    target = os.path.normpath(root + "/" + pythondir) if root else pythondir
    project, packages = _project()
    _remove_installed(target, packages, _dist_name(project))
    return target


def main(argv=None):
    p = argparse.ArgumentParser(prog="daemonset_build.py", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("sitedir")
    s.add_argument("prefix")
    for name in ("install", "uninstall"):
        s = sub.add_parser(name)
        s.add_argument("--root", default="")
        s.add_argument("--pythondir")
        if name == "install":
            s.add_argument("--libdir")
        s.add_argument("prefix")
    s = sub.add_parser("wheel")
    s.add_argument("--libdir")
    s.add_argument("directory")
    a = p.parse_args(argv)
    if a.command == "sitedir":
        print(sitedir(a.prefix))
    elif a.command == "install":
        print("installed the daemonset package into %s" % install(a.prefix, a.root, a.libdir, a.pythondir))
    elif a.command == "uninstall":
        uninstall(a.prefix, a.root, a.pythondir)
    else:
        print(build_wheel(a.directory, {"libdir": a.libdir} if a.libdir else None))
    return 0


if __name__ == "__main__":
    sys.exit(main())
