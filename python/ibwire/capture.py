# SPDX-License-Identifier: Apache-2.0
"""Reading pcap and pcapng files through libibwire (libpcap)."""
import ctypes

from . import _lib

_c = _lib.lib
_next = _lib.fast.ibwire_capture_next


def read_capture(path):
    """Iterate over the frames of a pcap or pcapng file as
    (link, ts_ns, frame, orig_len): the frame's pcap link type, its time
    in nanoseconds since the epoch, its captured bytes and its length on
    the wire.  ibwire.parse(frame, link, ts_ns, orig_len) reads the frame;
    a frame a mirror or tunnel carried (ERSPAN, GRE, VXLAN, Geneve, MPLS,
    Linux cooked headers) is parsed as the frame inside, its outer headers
    under their tshark names ("erspan.spanid", "vxlan.vni", ...).  OSError
    when the file cannot be opened or is damaged."""
    err = ctypes.create_string_buffer(512)
    handle = _c.ibwire_capture_open(_lib.encode(str(path)), err, len(err))
    if not handle:
        raise OSError(err.value.decode("utf-8", "replace") or
                      "%s: cannot open" % path)
    return _frames(handle)


def _frames(handle):
    frame = ctypes.POINTER(ctypes.c_uint8)()
    caplen = ctypes.c_size_t()
    origlen = ctypes.c_size_t()
    link = ctypes.c_int()
    ts = ctypes.c_uint64()
    args = (handle, ctypes.byref(frame), ctypes.byref(caplen),
            ctypes.byref(origlen), ctypes.byref(link), ctypes.byref(ts))
    string_at = ctypes.string_at
    try:
        while True:
            r = _next(*args)
            if r == 1:
                yield (link.value, ts.value, string_at(frame, caplen.value),
                       origlen.value)
            elif r == 0:
                return
            else:
                raise OSError(_lib.text(_c.ibwire_capture_error(handle)) or
                              _lib.strerror(r))
    finally:
        _c.ibwire_capture_close(handle)
