"""Kubernetes value types with upstream semantics: resource quantities,
IntOrString scaling, label key/value and DNS name validation, label
selectors and node selectors (ds_quantity_parse(3), ds_intstr_scale(3),
ds_label_key_validate(3), ds_selector_match(3),
ds_node_selector_match(3)). Each is a pure function: no snapshot.

    >>> from daemonset import parse_quantity, compare_quantities, selector_matches, scaled_value
    >>> parse_quantity("1.5Gi").value
    1610612736
    >>> compare_quantities("1Gi", "1000Mi")
    1
    >>> selector_matches("app=web,tier in (a,b)", {"app": "web", "tier": "a"})
    True
    >>> scaled_value("25%", 10)
    3
"""

from __future__ import annotations

import ctypes
import json
from typing import Any, Mapping, NamedTuple, Optional, Tuple, Union

from ._native import lib, call, take_string, encode, document, Document

__all__ = [
    "Quantity", "parse_quantity", "compare_quantities", "add_quantities",
    "scaled_value",
    "validate_label_key", "validate_label_value",
    "validate_dns1123_subdomain", "validate_dns1123_label",
    "selector_matches", "selector_string",
    "node_selector_matches",
]

QUANTITY_FORMATS = {0: "DecimalSI", 1: "BinarySI", 2: "DecimalExponent"}


class _QuantityInfo(ctypes.Structure):
    _fields_ = [
        ("size", ctypes.c_size_t),
        ("sign", ctypes.c_int),
        ("format", ctypes.c_int),
        ("verbatim", ctypes.c_int),
        ("value_overflow", ctypes.c_int),
        ("milli_overflow", ctypes.c_int),
        ("reserved", ctypes.c_int),
        ("value", ctypes.c_int64),
        ("milli_value", ctypes.c_int64),
    ]


_P = ctypes.c_char_p
_OUT = ctypes.POINTER(ctypes.c_void_p)
_ERR = ctypes.c_void_p

lib.ds_quantity_parse.argtypes = [_P, _OUT, ctypes.POINTER(_QuantityInfo), _ERR]
lib.ds_quantity_parse.restype = ctypes.c_int
lib.ds_quantity_compare.argtypes = [_P, _P, ctypes.POINTER(ctypes.c_int), _ERR]
lib.ds_quantity_compare.restype = ctypes.c_int
lib.ds_quantity_add.argtypes = [_P, _P, _OUT, _ERR]
lib.ds_quantity_add.restype = ctypes.c_int
lib.ds_intstr_scale.argtypes = [_P, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_int), _ERR]
lib.ds_intstr_scale.restype = ctypes.c_int
for _name in ("ds_label_key_validate", "ds_label_value_validate",
              "ds_dns1123_subdomain_validate", "ds_dns1123_label_validate"):
    getattr(lib, _name).argtypes = [_P, _ERR]
    getattr(lib, _name).restype = ctypes.c_int
lib.ds_selector_match.argtypes = [_P, ctypes.c_size_t, _P, ctypes.c_size_t, ctypes.POINTER(ctypes.c_int), _ERR]
lib.ds_selector_match.restype = ctypes.c_int
lib.ds_selector_format.argtypes = [_P, ctypes.c_size_t, _OUT, _ERR]
lib.ds_selector_format.restype = ctypes.c_int
lib.ds_node_selector_match.argtypes = [_P, ctypes.c_size_t, _P, ctypes.c_size_t, ctypes.POINTER(ctypes.c_int), _ERR]
lib.ds_node_selector_match.restype = ctypes.c_int

# The successors above take text and size where the 1.0 names (ds_intstr_scaled, ds_selector_matches,
# ds_selector_string, ds_node_selector_matches) took NUL-terminated text, and read NULL with size 0 as
# "none" where those refused NULL. No function here passes NULL where a 1.0 name refused it (labels
# None is "{}", a value is JSON text, a node or node selector None is "null"), and _sized() passes a
# text as C read it: up to its first NUL.


def _sized(text: Optional[bytes]) -> Tuple[Optional[bytes], int]:
    """(text, size) for a successor taking text and size, as the 1.0 name read the NUL-terminated
    string: None is (NULL, 0); text after a NUL was never read, and is not now."""
    if text is None:
        return None, 0
    text = text.split(b"\0", 1)[0]
    return text, len(text)


class Quantity(NamedTuple):
    """A parsed quantity. canonical is Kubernetes' String() form;
    value and milli_value are Value() and MilliValue() (None when they do not
    fit in 64 bits); format is "DecimalSI", "BinarySI" or "DecimalExponent";
    verbatim is True when Kubernetes' String() would return the text unchanged."""

    canonical: str
    value: Optional[int]
    milli_value: Optional[int]
    format: str
    sign: int
    verbatim: bool


#: A selector: a LabelSelector dict ({"matchLabels": ...}), its string form ("app=web"), or None (selects nothing).
Selector = Optional[Union[str, bytes, Mapping[str, Any]]]
#: A label set: a dict, or its JSON text.
Labels = Optional[Union[str, bytes, Mapping[str, str]]]


def parse_quantity(text: Union[str, bytes]) -> Quantity:
    """Parse a resource quantity ("100m", "1.5Gi", "1e3")."""
    info = _QuantityInfo(size=ctypes.sizeof(_QuantityInfo))
    out = ctypes.c_void_p()
    call(lib.ds_quantity_parse, encode(text), ctypes.byref(out), ctypes.byref(info))
    return Quantity(
        canonical=take_string(out.value) or "",
        value=None if info.value_overflow else info.value,
        milli_value=None if info.milli_overflow else info.milli_value,
        format=QUANTITY_FORMATS.get(info.format, str(info.format)),
        sign=info.sign,
        verbatim=bool(info.verbatim),
    )


def compare_quantities(a: Union[str, bytes], b: Union[str, bytes]) -> int:
    """-1, 0 or 1 as quantity a is less than, equal to or greater than b."""
    out = ctypes.c_int()
    call(lib.ds_quantity_compare, encode(a), encode(b), ctypes.byref(out))
    return out.value


def add_quantities(a: Union[str, bytes], b: Union[str, bytes]) -> Optional[str]:
    """a + b, canonical (the sum keeps a's format unless a is zero)."""
    out = ctypes.c_void_p()
    call(lib.ds_quantity_add, encode(a), encode(b), ctypes.byref(out))
    return take_string(out.value)


def scaled_value(value: Optional[Union[int, str]], total: int, round_up: bool = True) -> int:
    """GetScaledValueFromIntOrPercent: an int is returned as is, a str must be
    a percentage ("25%") of total, rounded up (maxSurge, maxUnavailable) or
    down. None is a nil IntOrString (an error, as upstream)."""
    if isinstance(value, bool):
        raise TypeError("value must be an int or a str")
    text = json.dumps(value)
    out = ctypes.c_int()
    call(lib.ds_intstr_scale, *_sized(encode(text)), int(total), 1 if round_up else 0, ctypes.byref(out))
    return out.value


def _validate(fn: Any, text: Union[str, bytes]) -> bool:
    call(fn, encode(text))
    return True


def validate_label_key(key: Union[str, bytes]) -> bool:
    """True, or daemonset.InvalidValue (DS_EVALUE) with Kubernetes' messages."""
    return _validate(lib.ds_label_key_validate, key)


def validate_label_value(value: Union[str, bytes]) -> bool:
    """True, or daemonset.InvalidValue (DS_EVALUE) with Kubernetes' messages."""
    return _validate(lib.ds_label_value_validate, value)


def validate_dns1123_subdomain(name: Union[str, bytes]) -> bool:
    """True, or daemonset.InvalidValue (DS_EVALUE): object names such as node names."""
    return _validate(lib.ds_dns1123_subdomain_validate, name)


def validate_dns1123_label(name: Union[str, bytes]) -> bool:
    """True, or daemonset.InvalidValue (DS_EVALUE): a DNS-1123 label."""
    return _validate(lib.ds_dns1123_label_validate, name)


def _selector_arg(selector: Selector) -> Optional[bytes]:
    if selector is None:
        return None  # a nil LabelSelector: selects nothing
    if isinstance(selector, Mapping):
        return encode(json.dumps(dict(selector)))
    return encode(selector)


def _labels_arg(labels: Labels) -> Optional[bytes]:
    if labels is None:
        return b"{}"
    if isinstance(labels, Mapping):
        return encode(json.dumps(dict(labels)))
    return encode(labels)


def selector_matches(selector: Selector, labels: Labels) -> bool:
    """Whether a label set (dict or JSON text) satisfies a selector: a
    LabelSelector dict ({"matchLabels": ...}), the string syntax
    ("app=web,tier in (a,b)"), or None, which selects nothing."""
    out = ctypes.c_int()
    call(lib.ds_selector_match, *_sized(_selector_arg(selector)), *_sized(_labels_arg(labels)), ctypes.byref(out))
    return bool(out.value)


def selector_string(selector: Selector) -> Optional[str]:
    """Selector.String(): the canonical string form of a selector."""
    out = ctypes.c_void_p()
    call(lib.ds_selector_format, *_sized(_selector_arg(selector)), ctypes.byref(out))
    return take_string(out.value)


def _object_arg(value: Optional[Document]) -> Optional[bytes]:
    if value is None:
        return b"null"
    return document(value)


def node_selector_matches(node_selector: Optional[Document], node: Optional[Document]) -> bool:
    """Whether a Node (dict or JSON/YAML text; metadata.name and
    metadata.labels count) satisfies a core/v1 NodeSelector (dict or text:
    {"nodeSelectorTerms": [...]}), as MatchNodeSelectorTerms: terms ORed,
    requirements ANDed, empty terms match nothing. None for node is a nil
    node: False. When no term matches and a term is invalid,
    daemonset.InvalidValue (DS_EVALUE) carries upstream's parse errors."""
    out = ctypes.c_int()
    call(lib.ds_node_selector_match, *_sized(_object_arg(node_selector)), *_sized(_object_arg(node)),
         ctypes.byref(out))
    return bool(out.value)
