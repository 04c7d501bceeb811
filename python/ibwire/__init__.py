# SPDX-License-Identifier: Apache-2.0
"""ibwire for Python: InfiniBand and RoCE frames, registry records and the
rule checker of libibwire, through ctypes (no compiled extension).

libibwire is found through the environment variable IBWIRE_LIBRARY (the
path of libibwire.so) or the system loader.

    import ibwire
    for link, ts_ns, frame, orig_len in ibwire.read_capture("x.pcap"):
        pkt = ibwire.parse(frame, link)
        print(pkt["infiniband.bth.psn"], pkt.icrc_status)
"""
from . import _lib, records
from ._fields import describe as describe_field
from ._fields import names as field_names
from .capture import read_capture
from .checker import Checker, Finding, Result
from .packet import Packet, aliases, build, parse

__version__ = _lib.text(_lib.lib.ibwire_version())
library_path = _lib.path

__all__ = ["Checker", "Finding", "Packet", "Result", "aliases", "build",
           "describe_field", "field_names", "parse", "read_capture",
           "records", "library_path"]
