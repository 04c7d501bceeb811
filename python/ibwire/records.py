# SPDX-License-Identifier: Apache-2.0
"""Registry formats (engine records E*, host formats H*, wire headers W*,
MADs M*) as Python ints.

A record's value is its bus value: bit 0 of the int is bit 0 of the
record, as `ibwire record pack` prints it and as a SystemVerilog struct of
the same name holds it.  Formats are named by their registry name
("sq_doorbell") or catalog ID ("E1"), fields by the registry's names.
"""
import ctypes

from . import _lib

_c = _lib.lib


class Format:
    """A registry format: name, catalog id, title, width in bits, and its
    fields as (name, lsb, width)."""

    __slots__ = ("index", "name", "id", "title", "bits", "words", "fields",
                 "_field_index")

    def __init__(self, index):
        self.index = index
        self.name = _lib.text(_c.ibwire_record_name(index))
        self.id = _lib.text(_c.ibwire_record_id(index))
        self.title = _lib.text(_c.ibwire_record_title(index))
        self.bits = _c.ibwire_record_bits(index)
        self.words = _c.ibwire_record_words(index)
        self.fields = []
        self._field_index = {}
        for f in range(_c.ibwire_record_field_count(index)):
            fname = _lib.text(_c.ibwire_record_field_name(index, f))
            self.fields.append((fname, _c.ibwire_record_field_lsb(index, f),
                                _c.ibwire_record_field_width(index, f)))
            self._field_index[fname] = f

    def field_index(self, fname):
        try:
            return self._field_index[fname]
        except KeyError:
            raise KeyError("%s has no field %r (its fields: %s)" % (
                self.name, fname, ", ".join(f[0] for f in self.fields))) \
                from None

    def __repr__(self):
        return "<ibwire.records.Format %s (%s) %d bits>" % (
            self.name, self.id, self.bits)


_formats = {}


def info(name):
    """The Format called `name` (registry name or catalog ID); KeyError
    when there is none."""
    fmt = _formats.get(name)
    if fmt is None:
        index = _c.ibwire_record_lookup(_lib.encode(name))
        if index < 0:
            raise KeyError("record %r: %s" % (name, _lib.strerror(index)))
        fmt = Format(index)
        _formats[name] = fmt
    return fmt


def names():
    """Every registry format's name, in registry order."""
    return [_lib.text(_c.ibwire_record_name(i))
            for i in range(_c.ibwire_record_count())]


def _to_words(value, n):
    return (ctypes.c_uint32 * n)(*[(value >> (32 * i)) & 0xFFFFFFFF
                                   for i in range(n)])


def _from_words(words):
    value = 0
    for i, w in enumerate(words):
        value |= w << (32 * i)
    return value


def pack(name, fields=None, **named):
    """The bus value of record `name` with the given fields (the others
    zero), as an int.  Fields come as keywords or in a dict."""
    fmt = info(name)
    words = (ctypes.c_uint32 * fmt.words)()
    items = list((fields or {}).items()) + list(named.items())
    for fname, v in items:
        f = fmt.field_index(fname)
        width = fmt.fields[f][2]
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError("%s.%s: %r is not an int" % (fmt.name, fname, v))
        if v < 0 or v >> width:
            raise ValueError("%s.%s: %d does not fit %d bits"
                             % (fmt.name, fname, v, width))
        nv = (width + 31) // 32
        r = _c.ibwire_record_set(fmt.index, f, words, fmt.words,
                                 _to_words(v, nv), nv)
        if r < 0:
            raise _lib.error(r, "%s.%s" % (fmt.name, fname))
    return _from_words(words)


def unpack(name, value):
    """Every field of record `name` read from the bus value `value` (an
    int, or bytes in the byte image of the FIFO word: word 0 first, each
    word little-endian) -> its int."""
    fmt = info(name)
    if isinstance(value, (bytes, bytearray, memoryview)):
        value = int.from_bytes(bytes(value), "little")
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("%s: %r is not an int" % (fmt.name, value))
    if value < 0 or value >> fmt.bits:
        raise ValueError("%s: 0x%x is wider than its %d bits"
                         % (fmt.name, value, fmt.bits))
    words = _to_words(value, fmt.words)
    out = {}
    for f, (fname, _, width) in enumerate(fmt.fields):
        nv = (width + 31) // 32
        v = (ctypes.c_uint32 * nv)()
        r = _c.ibwire_record_get(fmt.index, f, words, fmt.words, v, nv)
        if r < 0:
            raise _lib.error(r, "%s.%s" % (fmt.name, fname))
        out[fname] = _from_words(v)
    return out
