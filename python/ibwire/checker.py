# SPDX-License-Identifier: Apache-2.0
"""The streaming rule checker: ibwire.Checker."""
import collections
import ctypes
import json

from . import _lib

_c = _lib.lib

SEVERITY = {2: "error", 1: "warning", 0: "note"}

Finding = collections.namedtuple(
    "Finding", "frame rule severity message flow spec repeat")
Finding.__doc__ = """One finding, as `ibwire check` reports it: the 1-based
frame number, the rule's id ("PKT-ICRC"), "error", "warning" or "note",
the evidence, the id of the flow it concerns (0 for none), the IBA
statements the rule enforces ("7.8.1; CA17-22"), and whether it repeats a
per-packet rule already said on its flow."""

_FINDING_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_uint64,
                               ctypes.c_char_p, ctypes.c_int,
                               ctypes.c_char_p, ctypes.c_uint64)
_FLOW_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)


class Result:
    """What Checker.finish() returns: the findings (Finding tuples, in the
    order reported), the flow summaries (dicts with the members
    `ibwire check --format json` prints, in order of appearance), and the
    counts."""

    __slots__ = ("findings", "flows", "frames", "errors", "warnings")

    def __init__(self, findings, flows, frames, errors, warnings):
        self.findings = findings
        self.flows = flows
        self.frames = frames
        self.errors = errors
        self.warnings = warnings

    def to_json(self):
        """The object `ibwire check --format json` prints for one file,
        without its "file" member."""
        def one(f):
            d = {"frame": f.frame, "rule": f.rule, "severity": f.severity,
                 "spec": f.spec, "message": f.message}
            if f.repeat:
                d["repeat"] = True
            return d
        return {"findings": [one(f) for f in self.findings],
                "frames": self.frames, "errors": self.errors,
                "warnings": self.warnings, "flows": self.flows}

    def __repr__(self):
        return "<ibwire.checker.Result %d frames, %d errors, %d warnings, " \
            "%d flows>" % (self.frames, self.errors, self.warnings,
                           len(self.flows))


class Checker:
    """Judges frames fed one by one, as `ibwire check` judges a capture.

    pmtu: the path MTU in bytes (256..4096) when every flow's is known;
    None learns it per flow.  skew_ns and flow_idle_ns as `ibwire check`
    takes them (None: the defaults, 1 ms and 60 s)."""

    def __init__(self, pmtu=None, skew_ns=None, flow_idle_ns=None):
        handle = _c.ibwire_checker_new()
        if not handle:
            raise MemoryError("ibwire_checker_new")
        self._handle = handle
        self._findings = []
        self._flows = []
        self._result = None
        # The callbacks must outlive every C call that may invoke them.
        self._on_finding = _FINDING_FN(self._finding)
        self._on_flow = _FLOW_FN(self._flow)
        self._call(_c.ibwire_checker_on_finding,
                   ctypes.cast(self._on_finding, ctypes.c_void_p), None,
                   what="on_finding")
        self._call(_c.ibwire_checker_on_flow,
                   ctypes.cast(self._on_flow, ctypes.c_void_p), None,
                   what="on_flow")
        if pmtu is not None:
            self._call(_c.ibwire_checker_set_pmtu, pmtu, what="pmtu %r" % pmtu)
        if skew_ns is not None:
            self._call(_c.ibwire_checker_set_skew_ns, skew_ns, what="skew_ns")
        if flow_idle_ns is not None:
            self._call(_c.ibwire_checker_set_flow_idle_ns, flow_idle_ns,
                       what="flow_idle_ns")

    def _call(self, fn, *args, what):
        r = fn(self._handle, *args)
        if r < 0:
            raise _lib.error(r, what)
        return r

    def _finding(self, _user, frame, rule, severity, message, flow_id):
        name = _lib.text(rule)
        repeat = _c.ibwire_checker_finding_repeat(self._handle)
        self._findings.append(Finding(
            frame, name, SEVERITY.get(severity, str(severity)),
            _lib.text(message), flow_id,
            _lib.text(_c.ibwire_rule_spec(rule)), repeat == 1))

    def _flow(self, _user, flow):
        need = 4096
        while True:
            buf = ctypes.create_string_buffer(need)
            n = _c.ibwire_flow_json(flow, buf, need)
            if n != _lib.E_NOSPACE:
                break
            need *= 4
        if n < 0:
            raise _lib.error(n, "flow summary")
        flow_id = ctypes.c_uint64()
        _c.ibwire_flow_uint(flow, b"id", ctypes.byref(flow_id))
        self._flows.append((flow_id.value,
                            json.loads(ctypes.string_at(buf, n))))

    def feed(self, frame, link=1, ts_ns=0, orig_len=None):
        """Judge the next frame (numbered 1, 2, ... in the order fed), as
        ibwire.parse() takes it."""
        link = _lib.link_type(link)
        frame = bytes(frame)
        r = _c.ibwire_checker_feed(self._handle, frame, len(frame),
                                   orig_len or 0, link, ts_ns)
        if r == _lib.E_LINKTYPE:
            raise _lib.link_error(link)
        if r < 0:
            raise _lib.error(r, "feed")

    def feed_file(self, path):
        """Judge every frame of a pcap or pcapng file."""
        r = _c.ibwire_checker_feed_file(self._handle, _lib.encode(str(path)))
        if r < 0:
            detail = _lib.text(_c.ibwire_checker_error(self._handle))
            raise _lib.error(r, detail or str(path))

    def count(self, what):
        """A count so far: "frames", "iba", "errors", "warnings",
        "cm_messages" or "flows"."""
        return _c.ibwire_checker_count(self._handle, _lib.encode(what))

    def finish(self):
        """End of capture: settle what is open and return the Result.
        Calling it again returns the same Result."""
        if self._result is None:
            self._call(_c.ibwire_checker_finish, what="finish")
            # Summaries come as flows end; the report lists them in order
            # of appearance (their ids), as `ibwire check` does.
            flows = [summary for _, summary in
                     sorted(self._flows, key=lambda f: f[0])]
            self._result = Result(list(self._findings), flows,
                                  self.count("frames"), self.count("errors"),
                                  self.count("warnings"))
        return self._result

    def close(self):
        handle, self._handle = getattr(self, "_handle", None), None
        if handle:
            _c.ibwire_checker_free(handle)

    __del__ = close

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
