"""Versions, options and time."""

import ctypes

from ._native import lib, call, take_string, encode

__all__ = ["version", "version_number", "Options", "parse_time", "format_time"]

lib.ds_version.restype = ctypes.c_char_p
lib.ds_version.argtypes = []
lib.ds_version_number.restype = ctypes.c_int
lib.ds_version_number.argtypes = []
lib.ds_options_new.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
lib.ds_options_new.restype = ctypes.c_int
lib.ds_options_free.argtypes = [ctypes.c_void_p]
lib.ds_options_free.restype = None
lib.ds_options_set.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p]
lib.ds_options_set.restype = ctypes.c_int
lib.ds_options_set_json.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
lib.ds_options_set_json.restype = ctypes.c_int
lib.ds_options_get.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]
lib.ds_options_get.restype = ctypes.c_int
lib.ds_time_parse.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_int64), ctypes.c_void_p]
lib.ds_time_parse.restype = ctypes.c_int
lib.ds_time_format.argtypes = [ctypes.c_int64, ctypes.c_char_p, ctypes.c_size_t]
lib.ds_time_format.restype = ctypes.c_int


def version():
    """The library's version, "MAJOR.MINOR.PATCH"."""
    return lib.ds_version().decode()


def version_number():
    """The library's version as 0xMMmmpp."""
    return lib.ds_version_number()


class Options:
    """ds_options: Options(force=True, gracePeriodSeconds=30) or .set(name, value)."""

    def __init__(self, **settings):
        handle = ctypes.c_void_p()
        if lib.ds_options_new(ctypes.byref(handle)) < 0:
            raise MemoryError("ds_options_new")
        self._as_parameter_ = handle
        for name, value in settings.items():
            self.set(name, value)

    def set(self, name, value):
        if isinstance(value, bool):
            value = "true" if value else "false"
        call(lib.ds_options_set, self._as_parameter_, encode(name), encode(str(value)))
        return self

    def get(self, name):
        out = ctypes.c_void_p()
        call(lib.ds_options_get, self._as_parameter_, encode(name), ctypes.byref(out))
        return take_string(out.value)

    def close(self):
        if self._as_parameter_ is not None:
            lib.ds_options_free(self._as_parameter_)
            self._as_parameter_ = None

    def __del__(self):
        self.close()


def options_arg(options):
    """The ds_options argument of a call: None (the library's defaults) or the handle of an Options."""
    return None if options is None else options._as_parameter_


def parse_time(text):
    """RFC 3339 text to milliseconds since the epoch."""
    out = ctypes.c_int64()
    call(lib.ds_time_parse, encode(text), ctypes.byref(out))
    return out.value


def format_time(ms):
    """Milliseconds since the epoch to RFC 3339 text (UTC)."""
    buf = ctypes.create_string_buffer(32)
    lib.ds_time_format(ms, buf, 32)
    return buf.value.decode()
