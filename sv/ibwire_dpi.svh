  // SPDX-License-Identifier: Apache-2.0
  // ---------------------------------------------------------------------
  // DPI-C: libibwire through sv/ibwire_dpi.c (copied into ibwire_pkg by
  // sv/gen_sv_pkg.c; edit this file, not the package).
  //
  // Frames are fixed-size arrays of IBW_FRAME_MAX bytes plus a length:
  // the open-array arguments accept any unpacked byte array, but some
  // simulators (Verilator 5) cannot pass a dynamic array or a queue to
  // one.  Results follow libibwire: >= 0 success (a count, a length, 1
  // present / 0 absent), < 0 an IBWIRE_E_* code (ibw_dpi_strerror()).
  // ---------------------------------------------------------------------

  // A RoCE or IB frame of any PMTU, with VLAN tags and extended headers.
  localparam int IBW_FRAME_MAX = 4608;
  typedef byte unsigned ibw_frame_t[IBW_FRAME_MAX];

  // pcap link types (the `link` arguments)
  localparam int IBW_LINK_ETHERNET = 1;
  localparam int IBW_LINK_INFINIBAND = 247;

  // ICRC / VCRC verdicts (ibw_dpi_packet_icrc_status and _vcrc_status)
  localparam int IBW_CRC_GOOD = 0;
  localparam int IBW_CRC_BAD = 1;
  localparam int IBW_CRC_ABSENT = 2;
  localparam int IBW_CRC_UNCHECKED = 3;

  import "DPI-C" function string ibw_dpi_strerror(input int err);

  // Parsing: one handle, reused by every parse.  A field is named as
  // `ibwire dump -T fields` names it ("infiniband.bth.psn", "ip.ttl").
  import "DPI-C" function chandle ibw_dpi_packet_new();
  import "DPI-C" function void ibw_dpi_packet_free(input chandle p);
  // 0 when the frame was read (valid IBA or not: ibw_dpi_packet_error)
  import "DPI-C" function int ibw_dpi_packet_parse(input chandle p,
      input byte unsigned frame[], input int len, input int link);
  // "" for a valid IBA packet, else which header and field is wrong
  import "DPI-C" function string ibw_dpi_packet_error(input chandle p);
  import "DPI-C" function int ibw_dpi_packet_icrc_status(input chandle p);
  import "DPI-C" function int ibw_dpi_packet_vcrc_status(input chandle p);
  // 1 present (value set), 0 absent, < 0 unknown or not an integer
  import "DPI-C" function int ibw_dpi_packet_field(input chandle p,
      input string name, output longint unsigned value);
  // The same by number, for per-frame loops: look the name up once.
  import "DPI-C" function int ibw_dpi_field_id(input string name);
  import "DPI-C" function int ibw_dpi_packet_field_by_id(input chandle p,
      input int id, output longint unsigned value);

  // Building: set fields by dump name, the payload as bytes, then build;
  // lengths, pad, checksums and CRCs are computed unless set.
  import "DPI-C" function chandle ibw_dpi_builder_new();
  import "DPI-C" function void ibw_dpi_builder_free(input chandle b);
  import "DPI-C" function void ibw_dpi_builder_reset(input chandle b);
  import "DPI-C" function int ibw_dpi_builder_set(input chandle b,
      input string name, input longint unsigned value);
  // addresses and GIDs in the text dump prints ("192.0.2.1", "fe80::1")
  import "DPI-C" function int ibw_dpi_builder_set_text(input chandle b,
      input string name, input string text);
  import "DPI-C" function int ibw_dpi_builder_payload(input chandle b,
      input byte unsigned data[], input int len);
  // the frame's length, or < 0 (ibw_dpi_builder_error says why)
  import "DPI-C" function int ibw_dpi_build(input chandle b, input int link,
      output byte unsigned frame[]);
  import "DPI-C" function string ibw_dpi_builder_error(input chandle b);

  // CRCs of a whole frame (its last 4 bytes, 6 on link 247, are the CRC
  // slots).  The values are as Wireshark shows them; verify: 1 right,
  // 0 wrong, < 0 when the frame does not parse that far.
  import "DPI-C" function int ibw_dpi_icrc_compute(input byte unsigned frame[],
      input int len, input int link, output int unsigned icrc);
  import "DPI-C" function int ibw_dpi_icrc_verify(input byte unsigned frame[],
      input int len, input int link);
  import "DPI-C" function int ibw_dpi_vcrc_compute(input byte unsigned frame[],
      input int len, input int link, output shortint unsigned vcrc);
  import "DPI-C" function int ibw_dpi_vcrc_verify(input byte unsigned frame[],
      input int len, input int link);

  // Records and host formats by registry name ("sq_doorbell") or catalog
  // ID ("E1") and field name, on the bus value the structs above declare:
  // `sq_doorbell_t'(value[SQ_DOORBELL_BITS-1:0])`.  Fields of up to 64
  // bits through _set/_get, any width through _set_wide/_get_wide.
  import "DPI-C" function int ibw_dpi_record_bits(input string rec);
  import "DPI-C" function int ibw_dpi_record_set(input string rec,
      input string field, inout bit [IBW_RECORD_MAX_BITS-1:0] value,
      input longint unsigned v);
  import "DPI-C" function int ibw_dpi_record_get(input string rec,
      input string field, input bit [IBW_RECORD_MAX_BITS-1:0] value,
      output longint unsigned v);
  import "DPI-C" function int ibw_dpi_record_set_wide(input string rec,
      input string field, inout bit [IBW_RECORD_MAX_BITS-1:0] value,
      input bit [IBW_RECORD_MAX_BITS-1:0] v);
  import "DPI-C" function int ibw_dpi_record_get_wide(input string rec,
      input string field, input bit [IBW_RECORD_MAX_BITS-1:0] value,
      output bit [IBW_RECORD_MAX_BITS-1:0] v);

  // The streaming checker: every frame in the order seen, findings kept
  // as "frame N RULE severity: message" (frames numbered from 1).
  // pmtu 256..4096, or 0 to learn it per flow.
  import "DPI-C" function chandle ibw_dpi_checker_new(input int pmtu);
  import "DPI-C" function void ibw_dpi_checker_free(input chandle c);
  import "DPI-C" function int ibw_dpi_checker_feed(input chandle c,
      input byte unsigned frame[], input int len, input int link,
      input longint unsigned ts_ns);
  // settle what is still open; findings may follow
  import "DPI-C" function int ibw_dpi_checker_finish(input chandle c);
  import "DPI-C" function int ibw_dpi_checker_findings(input chandle c);
  import "DPI-C" function string ibw_dpi_checker_finding(input chandle c,
      input int i);
  // "frames", "iba", "errors", "warnings", "cm_messages", "flows"
  import "DPI-C" function longint unsigned ibw_dpi_checker_count(
      input chandle c, input string what);

  // A scoreboard over the checker: feed every frame the DUT emits, then
  // finish() and read errors() and the findings.
  class ibw_scoreboard;
    local chandle handle;
    local int reported;

    function new(int pmtu = 0);
      handle = ibw_dpi_checker_new(pmtu);
      reported = 0;
    endfunction

    // ts_ns: the frame's time; 0 is fine when time does not matter.
    function int feed(const ref ibw_frame_t frame, input int len,
                      input longint unsigned ts_ns = 0,
                      input int link = IBW_LINK_ETHERNET);
      return ibw_dpi_checker_feed(handle, frame, len, link, ts_ns);
    endfunction

    function int finish();
      return ibw_dpi_checker_finish(handle);
    endfunction

    function longint unsigned errors();
      return ibw_dpi_checker_count(handle, "errors");
    endfunction

    function longint unsigned warnings();
      return ibw_dpi_checker_count(handle, "warnings");
    endfunction

    function int findings();
      return ibw_dpi_checker_findings(handle);
    endfunction

    function string finding(int i);
      return ibw_dpi_checker_finding(handle, i);
    endfunction

    // $display the findings not shown yet; returns how many there were.
    function int report_new();
      int n = ibw_dpi_checker_findings(handle);
      int shown = n - reported;
      for (int i = reported; i < n; i++)
        $display("ibwire: %s", ibw_dpi_checker_finding(handle, i));
      reported = n;
      return shown;
    endfunction

    function void free();
      ibw_dpi_checker_free(handle);
      handle = null;
    endfunction
  endclass
