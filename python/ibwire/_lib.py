# SPDX-License-Identifier: Apache-2.0
"""Loading libibwire and declaring the C signatures of lib/ibwire_lib.h.

The library is found through IBWIRE_LIBRARY (a path to the shared object)
or, without it, the system loader (libibwire.so.1, then whatever
ctypes.util.find_library("ibwire") names).

Two views of the same shared object are kept.  The short accessors that
run for every field of every frame are called through ctypes.PyDLL, which
keeps the GIL: that saves the release/re-acquire on each call, and it makes
the module-level scratch buffers below safe to share between threads.
Everything that may run long (checking a file, building, opening a
capture) goes through ctypes.CDLL, which releases the GIL.
"""
import ctypes
import ctypes.util
import os

ABI = 1

_c = ctypes
_u8p = _c.POINTER(_c.c_uint8)
_u32p = _c.POINTER(_c.c_uint32)
_u64p = _c.POINTER(_c.c_uint64)
_sizep = _c.POINTER(_c.c_size_t)


def _candidates():
    path = os.environ.get("IBWIRE_LIBRARY")
    if path:
        return [path]
    names = ["libibwire.so.%d" % ABI]
    found = ctypes.util.find_library("ibwire")
    if found:
        names.append(found)
    return names


def _open():
    tried = []
    for name in _candidates():
        try:
            return name, ctypes.CDLL(name), ctypes.PyDLL(name)
        except OSError as e:
            tried.append("%s (%s)" % (name, e))
    raise ImportError(
        "ibwire: libibwire not found; set IBWIRE_LIBRARY to the path of "
        "libibwire.so (tried: %s)" % "; ".join(tried))


path, lib, fast = _open()

# (function, restype, argtypes); the same names in both views.
_SIGNATURES = [
    ("ibwire_version", _c.c_char_p, []),
    ("ibwire_abi", _c.c_int, []),
    ("ibwire_strerror", _c.c_char_p, [_c.c_int]),
    ("ibwire_field_count", _c.c_int, []),
    ("ibwire_field_lookup", _c.c_int, [_c.c_char_p]),
    ("ibwire_field_name", _c.c_char_p, [_c.c_int]),
    ("ibwire_field_type", _c.c_int, [_c.c_int]),
    ("ibwire_field_description", _c.c_char_p, [_c.c_int]),
    ("ibwire_packet_new", _c.c_void_p, []),
    ("ibwire_packet_free", None, [_c.c_void_p]),
    ("ibwire_packet_parse", _c.c_int,
     [_c.c_void_p, _c.c_char_p, _c.c_size_t, _c.c_size_t, _c.c_int,
      _c.c_uint64]),
    ("ibwire_packet_error", _c.c_char_p, [_c.c_void_p]),
    ("ibwire_packet_icrc_status", _c.c_int, [_c.c_void_p]),
    ("ibwire_packet_vcrc_status", _c.c_int, [_c.c_void_p]),
    ("ibwire_packet_count", _c.c_int, [_c.c_void_p, _c.c_int]),
    ("ibwire_packet_uint", _c.c_int,
     [_c.c_void_p, _c.c_int, _c.c_int, _u64p]),
    ("ibwire_packet_bytes", _c.c_int,
     [_c.c_void_p, _c.c_int, _c.c_int, _c.c_void_p, _c.c_size_t, _sizep]),
    ("ibwire_packet_text", _c.c_int,
     [_c.c_void_p, _c.c_int, _c.c_int, _c.c_void_p, _c.c_size_t]),
    ("ibwire_builder_new", _c.c_void_p, []),
    ("ibwire_builder_free", None, [_c.c_void_p]),
    ("ibwire_builder_reset", None, [_c.c_void_p]),
    ("ibwire_builder_uint", _c.c_int,
     [_c.c_void_p, _c.c_char_p, _c.c_uint64]),
    ("ibwire_builder_bytes", _c.c_int,
     [_c.c_void_p, _c.c_char_p, _c.c_char_p, _c.c_size_t]),
    ("ibwire_builder_text", _c.c_int,
     [_c.c_void_p, _c.c_char_p, _c.c_char_p]),
    ("ibwire_build", _c.c_long,
     [_c.c_void_p, _c.c_int, _c.c_void_p, _c.c_size_t]),
    ("ibwire_builder_error", _c.c_char_p, [_c.c_void_p]),
    ("ibwire_icrc_compute", _c.c_int,
     [_c.c_char_p, _c.c_size_t, _c.c_int, _u32p]),
    ("ibwire_icrc_verify", _c.c_int, [_c.c_char_p, _c.c_size_t, _c.c_int]),
    ("ibwire_vcrc_compute", _c.c_int,
     [_c.c_char_p, _c.c_size_t, _c.c_int, _c.POINTER(_c.c_uint16)]),
    ("ibwire_vcrc_verify", _c.c_int, [_c.c_char_p, _c.c_size_t, _c.c_int]),
    ("ibwire_record_count", _c.c_int, []),
    ("ibwire_record_lookup", _c.c_int, [_c.c_char_p]),
    ("ibwire_record_name", _c.c_char_p, [_c.c_int]),
    ("ibwire_record_id", _c.c_char_p, [_c.c_int]),
    ("ibwire_record_title", _c.c_char_p, [_c.c_int]),
    ("ibwire_record_bits", _c.c_int, [_c.c_int]),
    ("ibwire_record_words", _c.c_int, [_c.c_int]),
    ("ibwire_record_field_count", _c.c_int, [_c.c_int]),
    ("ibwire_record_field_name", _c.c_char_p, [_c.c_int, _c.c_int]),
    ("ibwire_record_field_lsb", _c.c_int, [_c.c_int, _c.c_int]),
    ("ibwire_record_field_width", _c.c_int, [_c.c_int, _c.c_int]),
    ("ibwire_record_field_lookup", _c.c_int, [_c.c_int, _c.c_char_p]),
    ("ibwire_record_set", _c.c_int,
     [_c.c_int, _c.c_int, _u32p, _c.c_size_t, _u32p, _c.c_size_t]),
    ("ibwire_record_get", _c.c_int,
     [_c.c_int, _c.c_int, _u32p, _c.c_size_t, _u32p, _c.c_size_t]),
    ("ibwire_checker_new", _c.c_void_p, []),
    ("ibwire_checker_free", None, [_c.c_void_p]),
    ("ibwire_checker_set_pmtu", _c.c_int, [_c.c_void_p, _c.c_uint32]),
    ("ibwire_checker_set_skew_ns", _c.c_int, [_c.c_void_p, _c.c_uint64]),
    ("ibwire_checker_set_flow_idle_ns", _c.c_int,
     [_c.c_void_p, _c.c_uint64]),
    ("ibwire_checker_on_finding", _c.c_int,
     [_c.c_void_p, _c.c_void_p, _c.c_void_p]),
    ("ibwire_checker_on_flow", _c.c_int,
     [_c.c_void_p, _c.c_void_p, _c.c_void_p]),
    ("ibwire_rule_spec", _c.c_char_p, [_c.c_char_p]),
    ("ibwire_checker_finding_repeat", _c.c_int, [_c.c_void_p]),
    ("ibwire_checker_feed", _c.c_int,
     [_c.c_void_p, _c.c_char_p, _c.c_size_t, _c.c_size_t, _c.c_int,
      _c.c_uint64]),
    ("ibwire_checker_feed_file", _c.c_int, [_c.c_void_p, _c.c_char_p]),
    ("ibwire_checker_finish", _c.c_int, [_c.c_void_p]),
    ("ibwire_checker_count", _c.c_uint64, [_c.c_void_p, _c.c_char_p]),
    ("ibwire_checker_error", _c.c_char_p, [_c.c_void_p]),
    ("ibwire_flow_uint", _c.c_int, [_c.c_void_p, _c.c_char_p, _u64p]),
    ("ibwire_flow_text", _c.c_char_p, [_c.c_void_p, _c.c_char_p]),
    ("ibwire_flow_json", _c.c_int,
     [_c.c_void_p, _c.c_void_p, _c.c_size_t]),
    ("ibwire_capture_open", _c.c_void_p,
     [_c.c_char_p, _c.c_void_p, _c.c_size_t]),
    ("ibwire_capture_close", None, [_c.c_void_p]),
    ("ibwire_capture_next", _c.c_int,
     [_c.c_void_p, _c.POINTER(_u8p), _sizep, _sizep,
      _c.POINTER(_c.c_int), _u64p]),
    ("ibwire_capture_error", _c.c_char_p, [_c.c_void_p]),
]



def _missing(name):
    def call(*args):
        raise NotImplementedError("%s: %s lacks %s" % (name, path, name))
    return call


for _name, _res, _args in _SIGNATURES:
    for _view in (lib, fast):
        try:
            _f = getattr(_view, _name)
        except AttributeError:
            # A library older than this package: the call fails when used,
            # not the import.
            setattr(_view, _name, _missing(_name))
            continue
        _f.restype = _res
        _f.argtypes = _args

if lib.ibwire_abi() != ABI:
    raise ImportError("ibwire: %s has ABI %d, this package wants %d"
                      % (path, lib.ibwire_abi(), ABI))

# The C result codes (enum ibwire_error) this package acts on.
E_TRUNCATED = -1
E_RANGE = -7
E_FIELD = -8
E_NOSPACE = -11
E_LINKTYPE = -14
E_NOMEM = -20
E_NAME = -21
E_ARG = -22
E_IO = -23
E_STATE = -24

FT_UINT, FT_BOOL, FT_BYTES, FT_ETHER, FT_IPV4, FT_IPV6, FT_STRING, \
    FT_TIME = range(1, 9)
INTEGER_TYPES = (FT_UINT, FT_BOOL, FT_TIME)

# pcap link types with a name, for messages.
LINK_NAMES = {1: "Ethernet", 113: "Linux cooked", 197: "ERF",
              247: "InfiniBand", 252: "exported PDU",
              276: "Linux cooked v2"}


def text(raw):
    """A char * result as str (None stays None)."""
    return None if raw is None else raw.decode("utf-8", "replace")


def strerror(code):
    return text(lib.ibwire_strerror(code))


def error(code, what):
    """The Python exception for C result `code` about `what`."""
    message = "%s: %s" % (what, strerror(code))
    if code == E_NAME:
        return KeyError(message)
    if code == E_IO:
        return OSError(message)
    if code == E_NOMEM:
        return MemoryError(message)
    if code == E_STATE:
        return RuntimeError(message)
    return ValueError(message)


def link_type(link):
    """`link` as the C int, or ValueError naming it."""
    if isinstance(link, bool) or not isinstance(link, int) or \
            not 0 <= link <= 0x7fffffff:
        raise ValueError("link type %r: not a pcap link type number"
                         % (link,))
    return link


def link_error(link):
    return ValueError("link type %d: %s (ibwire reads %s)" % (
        link, strerror(E_LINKTYPE),
        ", ".join("%d %s" % kv for kv in sorted(LINK_NAMES.items()))))


def encode(name):
    if isinstance(name, bytes):
        return name
    return name.encode("utf-8")
