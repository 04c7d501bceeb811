// SPDX-License-Identifier: Apache-2.0
//
// The structs of ibwire_pkg hold exactly the bus values libibwire packs.
//
// For a few formats chosen for what can go wrong (an engine record with
// fields across 32-bit words, a WIDE field, host formats of both bit
// conventions, a field renamed from a keyword), fields are set by name
// through the DPI, the bus value is cast to the generated struct and each
// member must hold the value set; then the other way: members assigned,
// the struct cast to a bus value, every field read back by name.  The
// simulator's own packed-struct layout is the independent side; a few bit
// positions are also checked against the design documents' tables.
// A testbench, not hardware: integers of every width widen into the DPI's
// 64-bit arguments, and its clocked processes keep their own state with
// blocking assignments (only what the DUT samples is assigned <=).
// verilator lint_off WIDTH
// verilator lint_off BLKSEQ
module tb_sv_layout;
  import ibwire_pkg::*;

  typedef bit [IBW_RECORD_MAX_BITS-1:0] bus_t;
  int checks = 0;
  bit failed = 1'b0;

  function automatic void fail(string why);
    $display("FAIL: %s", why);
    failed = 1'b1;
  endfunction

  function automatic void set(string rec, string field, inout bus_t bus,
                              input longint unsigned v);
    int rc = ibw_dpi_record_set(rec, field, bus, v);
    if (rc != 0)
      fail($sformatf("%s.%s = 0x%0x: %s", rec, field, v, ibw_dpi_strerror(rc)));
  endfunction

  function automatic void expect_eq(string what, longint unsigned got,
                                    longint unsigned want);
    checks++;
    if (got != want)
      fail($sformatf("%s is 0x%0x, want 0x%0x", what, got, want));
  endfunction

  // field `field` of bus, read through libibwire, must be want
  function automatic void expect_field(string rec, string field, bus_t bus,
                                       longint unsigned want);
    longint unsigned got;
    int rc = ibw_dpi_record_get(rec, field, bus, got);
    if (rc != 0)
      fail($sformatf("%s.%s: %s", rec, field, ibw_dpi_strerror(rc)));
    expect_eq({rec, ".", field, " read by libibwire"}, got, want);
  endfunction

  function automatic void check_bits(string rec, int want);
    expect_eq({rec, " width"}, 64'(ibw_dpi_record_bits(rec)), 64'(want));
  endfunction

  // E13: pmtu [39:24] and dst_mac_lid [367:320] straddle 32-bit words
  function automatic void common_meta();
    bus_t bus = '0;
    common_meta_t m;
    check_bits("common_meta", COMMON_META_BITS);
    set("common_meta", "opcode", bus, 64'h15);
    set("common_meta", "pmtu", bus, 64'hBEEF);
    set("common_meta", "src_qpn", bus, 64'hABCDE1);
    set("common_meta", "dst_qpn", bus, 64'h123456);
    set("common_meta", "imm", bus, 64'hCAFEF00D);
    set("common_meta", "dst_mac_lid", bus, 64'h0123_4567_89AB);
    // HanGu RDMA engine design T7.22: PMTU in bits 39:24, the MAC/LID last
    expect_eq("common_meta bits [39:24]", 64'(bus[39:24]), 64'hBEEF);
    expect_eq("common_meta bits [367:320]", 64'(bus[367:320]), 64'h0123_4567_89AB);
    m = common_meta_t'(bus[COMMON_META_BITS-1:0]);
    expect_eq("common_meta_t.opcode", 64'(m.opcode), 64'h15);
    expect_eq("common_meta_t.pmtu", 64'(m.pmtu), 64'hBEEF);
    expect_eq("common_meta_t.src_qpn", 64'(m.src_qpn), 64'hABCDE1);
    expect_eq("common_meta_t.dst_qpn", 64'(m.dst_qpn), 64'h123456);
    expect_eq("common_meta_t.imm", 64'(m.imm), 64'hCAFEF00D);
    expect_eq("common_meta_t.dst_mac_lid", 64'(m.dst_mac_lid), 64'h0123_4567_89AB);
    expect_eq("common_meta_t.fence", 64'(m.fence), 0);

    m = '0;
    m.service_type = 3'h5;
    m.fence = 1'b1;
    m.req_state = 4'hA;
    m.legal_entry_num = 8'h81;
    m.pmtu = 16'h1234;
    m.msg_size = 32'hFEDC_BA98;
    m.wqe_offset = 32'h0000_4440;
    m.dst_mac_lid = 48'hA1B2_C3D4_E5F6;
    bus = '0;
    bus[COMMON_META_BITS-1:0] = m;
    expect_field("common_meta", "service_type", bus, 64'h5);
    expect_field("common_meta", "fence", bus, 1);
    expect_field("common_meta", "req_state", bus, 64'hA);
    expect_field("common_meta", "legal_entry_num", bus, 64'h81);
    expect_field("common_meta", "pmtu", bus, 64'h1234);
    expect_field("common_meta", "msg_size", bus, 64'hFEDC_BA98);
    expect_field("common_meta", "wqe_offset", bus, 64'h4440);
    expect_field("common_meta", "dst_mac_lid", bus, 64'hA1B2_C3D4_E5F6);
    expect_field("common_meta", "opcode", bus, 0);
  endfunction

  // E25: a 256-bit WIDE field under two flags
  function automatic void stream_word();
    bus_t bus = '0, wide = '0, got;
    stream_word_t s;
    int rc;
    check_bits("stream_word", STREAM_WORD_BITS);
    for (int i = 0; i < 8; i++)
      wide[32*i +: 32] = 32'h0101_0101 * (i + 1) ^ 32'h8000_0000;
    rc = ibw_dpi_record_set_wide("stream_word", "data", bus, wide);
    if (rc != 0)
      fail($sformatf("stream_word.data: %s", ibw_dpi_strerror(rc)));
    set("stream_word", "eop", bus, 1);
    s = stream_word_t'(bus[STREAM_WORD_BITS-1:0]);
    checks++;
    if (s.data != wide[255:0])
      fail($sformatf("stream_word_t.data is %h, want %h", s.data, wide[255:0]));
    expect_eq("stream_word_t.eop", 64'(s.eop), 1);
    expect_eq("stream_word_t.sop", 64'(s.sop), 0);
    // T6.1: sop and eop right above the 256 data bits
    expect_eq("stream_word bit 257", 64'(bus[257]), 1);

    s.data = {8{32'h5A5A_0000}} ^ {256{1'b1}};
    s.sop = 1'b1;
    s.eop = 1'b0;
    bus = '0;
    bus[STREAM_WORD_BITS-1:0] = s;
    rc = ibw_dpi_record_get_wide("stream_word", "data", bus, got);
    checks++;
    if (rc != 0 || got[255:0] != s.data || got[IBW_RECORD_MAX_BITS-1:256] != '0)
      fail($sformatf("stream_word.data read by libibwire is %h, want %h (%s)",
                     got[255:0], s.data, ibw_dpi_strerror(rc)));
    expect_field("stream_word", "sop", bus, 1);
    expect_field("stream_word", "eop", bus, 0);
  endfunction

  // H1 UDSeg: a host format in the engine's bus order, with gaps
  function automatic void wqe_ud();
    bus_t bus = '0;
    wqe_ud_t u;
    check_bits("wqe_ud", WQE_UD_BITS);
    set("wqe_ud", "port", bus, 64'h0000_0001);
    set("wqe_ud", "sip", bus, 64'hC0A8_0001);
    set("wqe_ud", "dip", bus, 64'hC0A8_0002);
    set("wqe_ud", "dqpn", bus, 64'h0000_0123);
    set("wqe_ud", "qkey", bus, 64'h8001_0000);
    u = wqe_ud_t'(bus[WQE_UD_BITS-1:0]);
    expect_eq("wqe_ud_t.port", 64'(u.port), 1);
    expect_eq("wqe_ud_t.sip", 64'(u.sip), 64'hC0A8_0001);
    expect_eq("wqe_ud_t.dip", 64'(u.dip), 64'hC0A8_0002);
    expect_eq("wqe_ud_t.dqpn", 64'(u.dqpn), 64'h123);
    expect_eq("wqe_ud_t.qkey", 64'(u.qkey), 64'h8001_0000);
    expect_eq("wqe_ud_t.rsvd_192", 64'(u.rsvd_192), 0);

    u = '0;
    u.slid = 16'h0011;
    u.dlid = 16'h0022;
    u.smac_hi = 32'h0203_0405;
    u.dmac_hi = 32'h0A0B_0C0D;
    bus = '0;
    bus[WQE_UD_BITS-1:0] = u;
    expect_field("wqe_ud", "slid", bus, 64'h11);
    expect_field("wqe_ud", "dlid", bus, 64'h22);
    expect_field("wqe_ud", "smac_hi", bus, 64'h0203_0405);
    expect_field("wqe_ud", "dmac_hi", bus, 64'h0A0B_0C0D);
    expect_field("wqe_ud", "port", bus, 0);
  endfunction

  // H3: a byte format, byte 0 most significant
  function automatic void cx3_gmp_ctrl();
    bus_t bus = '0;
    cx3_gmp_ctrl_t g;
    check_bits("cx3_gmp_ctrl", CX3_GMP_CTRL_BITS);
    // UESTC thesis (2017) fig. 4-15: owner is the first bit of byte 0
    set("cx3_gmp_ctrl", "owner", bus, 1);
    expect_eq("cx3_gmp_ctrl owner at bit 127", 64'(bus[127]), 1);
    expect_eq("cx3_gmp_ctrl bits other than owner", 64'(bus[126:0] != '0), 0);
    set("cx3_gmp_ctrl", "opcode", bus, 64'h0A);
    set("cx3_gmp_ctrl", "ds", bus, 64'h2A);
    set("cx3_gmp_ctrl", "sl", bus, 64'h9);
    set("cx3_gmp_ctrl", "rlid", bus, 64'h1234);
    g = cx3_gmp_ctrl_t'(bus[CX3_GMP_CTRL_BITS-1:0]);
    expect_eq("cx3_gmp_ctrl_t.owner", 64'(g.owner), 1);
    expect_eq("cx3_gmp_ctrl_t.opcode", 64'(g.opcode), 64'h0A);
    expect_eq("cx3_gmp_ctrl_t.ds", 64'(g.ds), 64'h2A);
    expect_eq("cx3_gmp_ctrl_t.sl", 64'(g.sl), 64'h9);
    expect_eq("cx3_gmp_ctrl_t.rlid", 64'(g.rlid), 64'h1234);
    expect_eq("cx3_gmp_ctrl_t.fl", 64'(g.fl), 0);

    g = '0;
    g.vl15 = 1'b1;
    g.max_stat_rate = 4'h7;
    g.cq_update = 2'h3;
    g.fl = 1'b1;
    bus = '0;
    bus[CX3_GMP_CTRL_BITS-1:0] = g;
    expect_field("cx3_gmp_ctrl", "vl15", bus, 1);
    expect_field("cx3_gmp_ctrl", "max_stat_rate", bus, 64'h7);
    expect_field("cx3_gmp_ctrl", "cq_update", bus, 64'h3);
    expect_field("cx3_gmp_ctrl", "fl", bus, 1);
    expect_field("cx3_gmp_ctrl", "owner", bus, 0);
  endfunction

  // E2: the registry's `type` is the struct's type_
  function automatic void cxt_cmd();
    bus_t bus = '0;
    cxt_cmd_t c;
    set("cxt_cmd", "type", bus, 64'h3);
    c = cxt_cmd_t'(bus[CXT_CMD_BITS-1:0]);
    expect_eq("cxt_cmd_t.type_", 64'(c.type_), 64'h3);
    // a catalog ID names the format as well as its name
    expect_eq("E13 width", 64'(ibw_dpi_record_bits("E13")), 64'(COMMON_META_BITS));
  endfunction

  initial begin
    common_meta();
    stream_word();
    wqe_ud();
    cx3_gmp_ctrl();
    cxt_cmd();
    if (failed)
      $fatal(1, "layout checks failed");
    $display("PASS: %0d layout checks", checks);
    $finish;
  end

endmodule
