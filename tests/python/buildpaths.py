"""Where the build's programs are, for the Python tests: one rule for every suite. A program named
by its own environment variable is taken from there (a relative path from the checkout's top);
otherwise it is under the build directory that $DAEMONSET_LIB points into, else under $BUILD
(default build/)."""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def build_dir():
    lib = os.environ.get("DAEMONSET_LIB")
    if lib:
        return os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(lib)), os.pardir))
    return os.path.join(ROOT, os.environ.get("BUILD", "build"))


def program(env, *parts):
    """$env if set, else build_dir()/parts."""
    value = os.environ.get(env)
    return os.path.join(ROOT, value) if value else os.path.join(build_dir(), *parts)
