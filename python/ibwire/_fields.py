# SPDX-License-Identifier: Apache-2.0
"""The named fields of a frame: ids looked up once, values read by type.

A field name is resolved to (id, type) once per process and kept in a
dict, so reading a field of a frame costs one dict lookup and one or two
C calls.
"""
import ctypes

from . import _lib

_fast = _lib.fast
_packet_uint = _fast.ibwire_packet_uint
_packet_count = _fast.ibwire_packet_count
_packet_text = _fast.ibwire_packet_text
_packet_bytes = _fast.ibwire_packet_bytes

# Scratch space for the accessors: safe to share because they are called
# through PyDLL, with the GIL held from entry to return (see _lib).
_u64 = ctypes.c_uint64()
_u64_ref = ctypes.byref(_u64)
_size = ctypes.c_size_t()
_size_ref = ctypes.byref(_size)
_SCRATCH_BYTES = 1 << 16
_scratch = ctypes.create_string_buffer(_SCRATCH_BYTES)

_by_name = {}


def field(name):
    """(id, type) of the field called `name`; KeyError when ibwire has no
    field of that name."""
    try:
        return _by_name[name]
    except KeyError:
        pass
    fid = _lib.lib.ibwire_field_lookup(_lib.encode(name))
    if fid < 0:
        raise KeyError("%s: %s" % (name, _lib.strerror(fid)))
    entry = (fid, _lib.lib.ibwire_field_type(fid))
    _by_name[name] = entry
    return entry


def names():
    """Every field name, in the library's order."""
    count = _lib.lib.ibwire_field_count()
    return [_lib.text(_lib.lib.ibwire_field_name(i)) for i in range(count)]


def describe(name):
    """The one-line description of field `name`."""
    fid, _ = field(name)
    return _lib.text(_lib.lib.ibwire_field_description(fid))


def value(handle, fid, ftype, occ):
    """Occurrence `occ` of field fid in the parsed packet, or None."""
    if ftype in _lib.INTEGER_TYPES:
        r = _packet_uint(handle, fid, occ, _u64_ref)
        if r == 1:
            return _u64.value
        if r == 0:
            return None
        raise _lib.error(r, "field %d" % fid)
    if ftype == _lib.FT_BYTES:
        r = _packet_bytes(handle, fid, occ, _scratch, _SCRATCH_BYTES,
                          _size_ref)
        if r == 0:
            return None
        if r == _lib.E_NOSPACE:
            buf = ctypes.create_string_buffer(_size.value)
            r = _packet_bytes(handle, fid, occ, buf, len(buf), _size_ref)
            if r == 1:
                return ctypes.string_at(buf, _size.value)
        elif r == 1:
            return ctypes.string_at(_scratch, _size.value)
        raise _lib.error(r, "field %d" % fid)
    # Addresses and strings: the text dump prints.
    r = _packet_text(handle, fid, occ, _scratch, _SCRATCH_BYTES)
    if r == 0:
        return None
    if r == _lib.E_NOSPACE:
        # No dump text is near the scratch size; a large byte field
        # printed as hex is the only way here.
        buf = ctypes.create_string_buffer(1 << 20)
        r = _packet_text(handle, fid, occ, buf, len(buf))
        if r > 0:
            return ctypes.string_at(buf, r).decode("utf-8", "replace")
    elif r > 0:
        return ctypes.string_at(_scratch, r).decode("utf-8", "replace")
    raise _lib.error(r, "field %d" % fid)


def count(handle, fid):
    return _packet_count(handle, fid)
