# SPDX-License-Identifier: Apache-2.0
"""Frames: ibwire.parse() and ibwire.build()."""
import ctypes

from . import _fields, _lib

_lib_c = _lib.lib
_packet_new = _lib_c.ibwire_packet_new
_packet_free = _lib_c.ibwire_packet_free
_packet_parse = _lib.fast.ibwire_packet_parse

CRC_STATUS = ("good", "bad", "absent", "unchecked")

# Parse handles of packets gone, kept for the next parse(): a new handle is
# a calloc of the library's whole decode state, which costs as much as the
# parse itself.  list.append/pop are atomic under the GIL.
_spare_handles = []
_SPARE_MAX = 32

_field_ids = _fields._by_name
_INTEGER_TYPES = frozenset(_lib.INTEGER_TYPES)
_packet_uint = _lib.fast.ibwire_packet_uint
_u64 = _fields._u64
_u64_ref = _fields._u64_ref


class Packet:
    """One parsed frame.

    pkt[name] is the field `ibwire dump -T fields` calls `name`: an int
    for numbers, booleans and times, a str for addresses and strings, bytes
    for byte fields, None when the frame does not carry it.  A field that
    occurs more than once (stacked VLAN tags) gives its first occurrence
    there; pkt.all(name) gives every one.  An unknown name raises KeyError.
    frame.number means nothing for a frame parsed on its own (number the
    frames of read_capture() with enumerate()).
    """

    __slots__ = ("_handle", "frame", "link", "ts_ns", "orig_len",
                 "__weakref__")

    def __init__(self, frame, link=1, ts_ns=0, orig_len=None):
        if type(link) is not int or not 0 <= link <= 0x7FFFFFFF:
            link = _lib.link_type(link)
        if type(frame) is not bytes:
            frame = bytes(frame)
        handle = _spare_handles.pop() if _spare_handles else _packet_new()
        if not handle:
            raise MemoryError("ibwire_packet_new")
        self._handle = handle
        self.frame = frame
        self.link = link
        self.ts_ns = ts_ns
        self.orig_len = len(frame) if orig_len is None else orig_len
        r = _packet_parse(handle, frame, len(frame), orig_len or 0, link,
                          ts_ns)
        if r == _lib.E_LINKTYPE:
            raise _lib.link_error(link)
        if r < 0:
            raise _lib.error(r, "parsing a frame of link type %d" % link)

    def __del__(self):
        handle = getattr(self, "_handle", None)
        if handle:
            self._handle = None
            if len(_spare_handles) < _SPARE_MAX:
                _spare_handles.append(handle)
            else:
                _packet_free(handle)

    @property
    def error(self):
        """Why the frame is not a valid IBA packet, naming the header and
        field, or None when it is one."""
        return _lib.text(_lib_c.ibwire_packet_error(self._handle))

    @property
    def icrc_status(self):
        """"good", "bad", "absent" or "unchecked"."""
        return CRC_STATUS[_lib_c.ibwire_packet_icrc_status(self._handle)]

    @property
    def vcrc_status(self):
        """The VCRC's verdict, as icrc_status (absent on RoCE)."""
        return CRC_STATUS[_lib_c.ibwire_packet_vcrc_status(self._handle)]

    def __getitem__(self, name):
        # The common case, a number, without the general path's calls:
        # this runs for every field of every frame.
        entry = _field_ids.get(name)
        fid, ftype = entry if entry else _fields.field(name)
        if ftype in _INTEGER_TYPES:
            r = _packet_uint(self._handle, fid, 0, _u64_ref)
            if r == 1:
                return _u64.value
            if r == 0:
                return None
        return _fields.value(self._handle, fid, ftype, 0)

    def get(self, name, default=None):
        """pkt[name], or default when the field is absent or ibwire has no
        field of that name."""
        try:
            fid, ftype = _fields.field(name)
        except KeyError:
            return default
        v = _fields.value(self._handle, fid, ftype, 0)
        return default if v is None else v

    def __contains__(self, name):
        try:
            fid, _ = _fields.field(name)
        except KeyError:
            return False
        return _fields.count(self._handle, fid) > 0

    def all(self, name):
        """Every occurrence of field `name`, in frame order ([] when
        absent)."""
        fid, ftype = _fields.field(name)
        return [_fields.value(self._handle, fid, ftype, occ)
                for occ in range(_fields.count(self._handle, fid))]

    def fields(self):
        """Every field the frame carries -> its value (the first
        occurrence, as pkt[name])."""
        present = {}
        handle = self._handle
        for name in _fields.names():
            fid, ftype = _fields.field(name)
            if _fields.count(handle, fid) > 0:
                present[name] = _fields.value(handle, fid, ftype, 0)
        return present

    def __repr__(self):
        return "<ibwire.Packet %d bytes link %d %s>" % (
            len(self.frame), self.link,
            self.error or "icrc " + self.icrc_status)


def parse(frame, link=1, ts_ns=0, orig_len=None):
    """Parse one frame that starts at the link header of pcap link type
    `link` (1 Ethernet, 197 ERF, 247 InfiniBand from the LRH, 252 exported
    PDU).  orig_len is its length on the wire when the capture cut it.
    A bad link type raises ValueError; a frame that is not a valid IBA
    packet still parses, with pkt.error saying why."""
    return Packet(frame, link, ts_ns, orig_len)


# Keyword-friendly names for build(): a dump name with every '.' turned
# into '_' ("infiniband_bth_psn"), kept only where no two dump names give
# the same alias.  Computed on first use.
_aliases = None


def aliases():
    """alias -> dump name, for every field name an alias is unambiguous
    for."""
    global _aliases
    if _aliases is None:
        seen = {}
        for name in _fields.names():
            seen.setdefault(name.replace(".", "_"), []).append(name)
        _aliases = {a: ns[0] for a, ns in seen.items() if len(ns) == 1}
    return _aliases


def _dump_name(key):
    if "." in key:
        return key
    return aliases().get(key, key)


def _set(builder, name, value):
    raw_name = _lib.encode(name)
    if isinstance(value, bool) or isinstance(value, int):
        if value < 0:
            raise ValueError("%s: %d is negative" % (name, value))
        if value >= 1 << 64:
            raise ValueError("%s: %d does not fit 64 bits" % (name, value))
        return _lib_c.ibwire_builder_uint(builder, raw_name, int(value))
    if isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
        return _lib_c.ibwire_builder_bytes(builder, raw_name, data,
                                           len(data))
    if isinstance(value, str):
        return _lib_c.ibwire_builder_text(builder, raw_name,
                                          value.encode("utf-8"))
    raise TypeError("%s: %s is not an int, bytes or str"
                    % (name, type(value).__name__))


def _builder_message(builder, code, what):
    detail = _lib.text(_lib_c.ibwire_builder_error(builder))
    err = _lib.error(code, what)
    if detail:
        err.args = ("%s: %s" % (err.args[0], detail),)
    return err


def build(fields=None, *, link=1, **named):
    """The frame the named fields describe, as bytes.

    Fields are named as `ibwire dump -T fields` names them, either in a
    dict (or as build(**{"infiniband.bth.psn": 5})) or as keywords through
    their alias, the dump name with '.' -> '_' (infiniband_bth_psn=5);
    the payload is "data.data".  Integers set numbers, bytes set byte
    fields and addresses, str sets an address or GID in its text form.
    Whatever is left out takes its default, and the lengths, pad count,
    IPv4 checksum, ICRC and VCRC are computed unless given.  link is 1
    (Ethernet: RoCEv2 over IPv4, over IPv6 when IPv6 addresses are given,
    RoCEv1 with eth.type 0x8915) or 247 (native InfiniBand from the LRH).
    """
    link = _lib.link_type(link)
    items = list((fields or {}).items()) + list(named.items())
    builder = _lib_c.ibwire_builder_new()
    if not builder:
        raise MemoryError("ibwire_builder_new")
    try:
        for key, value in items:
            name = _dump_name(key)
            r = _set(builder, name, value)
            if r < 0:
                raise _builder_message(builder, r, name)
        cap = 2048
        while True:
            out = ctypes.create_string_buffer(cap)
            n = _lib_c.ibwire_build(builder, link, out, cap)
            if n >= 0:
                return ctypes.string_at(out, n)
            if n == _lib.E_NOSPACE and cap < (1 << 24):
                cap = max(cap * 2, 1 << 16)
                continue
            if n == _lib.E_LINKTYPE:
                raise _lib.link_error(link)
            raise _builder_message(builder, n, "build")
    finally:
        _lib_c.ibwire_builder_free(builder)
