// SPDX-License-Identifier: Apache-2.0
//
// Testbench of icrc_inserter with ibwire as the reference model.
//
// Frames come from libibwire's builder (through ibwire_pkg's DPI imports)
// as a well-formed RC conversation on a few connections, RoCEv2 over IPv4
// and IPv6: SEND, RDMA WRITE (with and without immediate, segmented at the
// PMTU), RDMA READ with its responses, atomics with their ACKs, and the
// ACK closing each message.  Each frame loses its ICRC and goes through
// the DUT with random stalls on both sides; every frame coming out must
// parse with a good ICRC, carry the opcode, PSN and destination QP it was
// built with, and the whole stream must leave the checker (ibw_scoreboard)
// without errors.  The first mismatch ends the run: `failed` goes high and
// sim_main.cpp exits non-zero.
//
// Plusargs: +frames=N (default 400), +seed=S, +pmtu=P (256..4096, default
// 1024), +nodpi (skip the per-frame DPI checks: the benchmark's baseline),
// +skip_psn=K (the K-th message starts one PSN late: a conversation the
// checker must reject, so that a clean verdict means something).
// A testbench, not hardware: integers of every width widen into the DPI's
// 64-bit arguments, and its clocked processes keep their own state with
// blocking assignments (only what the DUT samples is assigned <=).
// verilator lint_off WIDTH
// verilator lint_off BLKSEQ
module tb_icrc_inserter #(
    parameter int INJECT_BUG = 0
) (
    input  logic clk,
    output logic failed
);
  import ibwire_pkg::*;

  // RC opcodes (IBA Vol.1 9.2.1 table 38)
  localparam int OP_SEND_FIRST = 'h00, OP_SEND_ONLY = 'h04,
                 OP_SEND_LAST_IMM = 'h03, OP_SEND_ONLY_IMM = 'h05,
                 OP_WRITE_FIRST = 'h06, OP_WRITE_LAST_IMM = 'h09,
                 OP_WRITE_ONLY = 'h0A, OP_WRITE_ONLY_IMM = 'h0B,
                 OP_READ_REQUEST = 'h0C, OP_READ_RESP_FIRST = 'h0D,
                 OP_READ_RESP_LAST = 'h0F, OP_READ_RESP_ONLY = 'h10,
                 OP_ACK = 'h11, OP_ATOMIC_ACK = 'h12, OP_CMP_SWAP = 'h13,
                 OP_FETCH_ADD = 'h14;
  // ACK syndrome with the credit count "invalid" (IBA Vol.1 9.7.5.1)
  localparam int AETH_ACK = 'h1F;
  localparam int CONNECTIONS = 4;

  // The frames are built and checked in class methods: Verilator inlines
  // a module's functions into the clocked process calling them and would
  // clear their frame-sized locals on every clock, built or not.

  // ----------------------------------------------------------------------
  // The conversation: packets planned a message at a time, built by
  // libibwire into `frame` with what they were built with kept for the
  // monitor (expect_*).
  // ----------------------------------------------------------------------
  class rc_conversation;
    local chandle builder;
    local int unsigned pmtu;
    local int unsigned skip_psn_message;
    int unsigned messages;
    string error;      // why the last next() failed

    ibw_frame_t frame;
    local ibw_frame_t payload;

    // per connection: requester and responder QPs, next request PSN, the
    // responder's MSN, IP version
    local int unsigned req_qpn[CONNECTIONS], resp_qpn[CONNECTIONS];
    local int unsigned next_psn[CONNECTIONS], msn[CONNECTIONS];
    local bit ipv6[CONNECTIONS];
    // TTL/hop limit per connection and direction (0 requests, 1 responses)
    local int unsigned hops[CONNECTIONS][2];

    // the packets planned and not built yet, one entry per packet
    local int unsigned plan_conn[$], plan_op[$], plan_psn[$], plan_len[$];
    local bit plan_response[$], plan_ackreq[$];
    local int unsigned plan_dmalen[$], plan_msn[$];

    int unsigned expect_len[$], expect_op[$], expect_psn[$], expect_qpn[$];

    function new(int unsigned pmtu_bytes, int unsigned skip_psn);
      builder = ibw_dpi_builder_new();
      pmtu = pmtu_bytes;
      skip_psn_message = skip_psn;
      messages = 0;
      for (int c = 0; c < CONNECTIONS; c++) begin
        req_qpn[c] = 'h100 + c * 'h11;
        resp_qpn[c] = 'h200 + c * 'h13;
        next_psn[c] = $urandom & 'hFFFFFF;
        msn[c] = 0;
        ipv6[c] = c % 2 == 1;
        // anything but 255, so that a DUT not masking it is caught; fixed
        // per direction of a connection, as a sender's address vector is
        hops[c][0] = $urandom_range(254, 1);
        hops[c][1] = $urandom_range(254, 1);
      end
    endfunction

    local function void plan(int unsigned c, bit response, int unsigned op,
                              int unsigned psn, int unsigned len, bit ackreq,
                              int unsigned dmalen, int unsigned aeth_msn);
      plan_conn.push_back(c);
      plan_response.push_back(response);
      plan_op.push_back(op);
      plan_psn.push_back(psn & 'hFFFFFF);
      plan_len.push_back(len);
      plan_ackreq.push_back(ackreq);
      plan_dmalen.push_back(dmalen);
      plan_msn.push_back(aeth_msn);
    endfunction

    // The opcode of packet i of n of a message: FIRST, MIDDLE, LAST are
    // `first` + 0, 1, 2; ONLY is given.
    local static function int unsigned segment_op(int unsigned first,
        int unsigned only, int unsigned i, int unsigned n);
      if (n == 1) return only;
      if (i == 0) return first;
      return i + 1 == n ? first + 2 : first + 1;
    endfunction

    local function void plan_message();
      int unsigned c = $urandom_range(CONNECTIONS - 1);
      int unsigned kind = $urandom_range(5);
      int unsigned len = $urandom_range(3 * pmtu);
      int unsigned n = len == 0 ? 1 : (len + pmtu - 1) / pmtu;
      int unsigned psn = next_psn[c];
      bit imm = $urandom_range(1) == 1;
      messages++;
      if (messages == skip_psn_message)
        psn++;
      case (kind)
        0, 1, 2, 3: begin // SEND or RDMA WRITE, answered by one ACK
          bit write = kind >= 2;
          for (int unsigned i = 0; i < n; i++) begin
            int unsigned op = write ? segment_op(OP_WRITE_FIRST, OP_WRITE_ONLY, i, n)
                                    : segment_op(OP_SEND_FIRST, OP_SEND_ONLY, i, n);
            // the WITH IMMEDIATE forms of LAST and ONLY are the next opcode
            if (imm && i + 1 == n)
              op += 1;
            plan(c, 0, op, psn + i, i + 1 == n ? len - i * pmtu : pmtu,
                 i + 1 == n, len, 0);
          end
          msn[c]++;
          plan(c, 1, OP_ACK, psn + n - 1, 0, 0, 0, msn[c]);
          next_psn[c] = (psn + n) & 'hFFFFFF;
        end
        4: begin // RDMA READ: one request, n responses on its PSNs
          msn[c]++;
          plan(c, 0, OP_READ_REQUEST, psn, 0, 0, len, 0);
          for (int unsigned i = 0; i < n; i++)
            plan(c, 1, segment_op(OP_READ_RESP_FIRST, OP_READ_RESP_ONLY, i, n),
                 psn + i, i + 1 == n ? len - i * pmtu : pmtu, 0, 0, msn[c]);
          next_psn[c] = (psn + n) & 'hFFFFFF;
        end
        default: begin // an atomic and its ATOMIC ACKNOWLEDGE
          msn[c]++;
          plan(c, 0, imm ? OP_CMP_SWAP : OP_FETCH_ADD, psn, 0, 0, 0, 0);
          plan(c, 1, OP_ATOMIC_ACK, psn, 0, 0, 0, msn[c]);
          next_psn[c] = (psn + 1) & 'hFFFFFF;
        end
      endcase
    endfunction

    local static function bit op_has_reth(int unsigned op);
      return op == OP_WRITE_FIRST || op == OP_WRITE_ONLY ||
             op == OP_WRITE_ONLY_IMM || op == OP_READ_REQUEST;
    endfunction

    local static function bit op_has_imm(int unsigned op);
      return op == OP_SEND_LAST_IMM || op == OP_SEND_ONLY_IMM ||
             op == OP_WRITE_LAST_IMM || op == OP_WRITE_ONLY_IMM;
    endfunction

    local static function bit op_has_aeth(int unsigned op);
      return op == OP_ACK || op == OP_ATOMIC_ACK || op == OP_READ_RESP_FIRST ||
             op == OP_READ_RESP_LAST || op == OP_READ_RESP_ONLY;
    endfunction

    // Set a field; the first refusal is kept in `error`.
    local function void set(string name, longint unsigned value);
      int rc = ibw_dpi_builder_set(builder, name, value);
      if (rc < 0 && error == "")
        error = $sformatf("builder refused %s = %0d: %s", name, value,
                          ibw_dpi_strerror(rc));
    endfunction

    local function void set_text(string name, string text);
      int rc = ibw_dpi_builder_set_text(builder, name, text);
      if (rc < 0 && error == "")
        error = $sformatf("builder refused %s = %s: %s", name, text,
                          ibw_dpi_strerror(rc));
    endfunction

    function void free();
      ibw_dpi_builder_free(builder);
      builder = null;
    endfunction

    // Build the next planned packet into `frame`: its length including
    // the ICRC, or 0 with `error` saying why not.
    function int unsigned next();
      int unsigned c, op, psn, len, qpn;
      bit response;
      string requester, responder;
      int n;
      if (builder == null) begin
        error = "no libibwire builder";
        return 0;
      end
      if (plan_op.size() == 0)
        plan_message();
      c = plan_conn.pop_front();
      response = plan_response.pop_front();
      op = plan_op.pop_front();
      psn = plan_psn.pop_front();
      len = plan_len.pop_front();
      qpn = response ? req_qpn[c] : resp_qpn[c];

      error = "";
      ibw_dpi_builder_reset(builder);
      requester = ipv6[c] ? $sformatf("fd00::%0d:1", c) : $sformatf("10.0.%0d.1", c);
      responder = ipv6[c] ? $sformatf("fd00::%0d:2", c) : $sformatf("10.0.%0d.2", c);
      set_text(ipv6[c] ? "ipv6.src" : "ip.src", response ? responder : requester);
      set_text(ipv6[c] ? "ipv6.dst" : "ip.dst", response ? requester : responder);
      set(ipv6[c] ? "ipv6.hlim" : "ip.ttl", hops[c][response]);
      set("udp.srcport", 'hC000 + c);
      set("infiniband.bth.opcode", op);
      set("infiniband.bth.destqp", qpn);
      set("infiniband.bth.psn", psn);
      set("infiniband.bth.a", plan_ackreq.pop_front());
      if (op_has_reth(op)) begin
        set("infiniband.reth.va", 64'h0000_7F00_0000_0000 | {32'b0, $urandom});
        set("infiniband.reth.r_key", 'h1000 + c);
        set("infiniband.reth.dmalen", plan_dmalen[0]);
      end
      void'(plan_dmalen.pop_front());
      if (op == OP_CMP_SWAP || op == OP_FETCH_ADD) begin
        set("infiniband.reth.va", 64'h0000_7F00_0000_0000 | {29'b0, $urandom, 3'b0});
        set("infiniband.reth.r_key", 'h1000 + c);
        set("infiniband.atomiceth.swapdt", {$urandom, $urandom});
        set("infiniband.atomiceth.cmpdt", {$urandom, $urandom});
      end
      if (op_has_imm(op))
        set("infiniband.immdt", $urandom);
      if (op_has_aeth(op)) begin
        set("infiniband.aeth.syndrome", AETH_ACK);
        set("infiniband.aeth.msn", plan_msn[0]);
      end
      void'(plan_msn.pop_front());
      if (op == OP_ATOMIC_ACK)
        set("infiniband.atomicacketh.origremdt", {$urandom, $urandom});
      if (len > 0) begin
        for (int unsigned i = 0; i < len; i++)
          payload[i] = 8'($urandom);
        if (ibw_dpi_builder_payload(builder, payload, int'(len)) < 0 && error == "")
          error = $sformatf("builder refused %0d payload bytes", len);
      end
      if (error != "")
        return 0;
      n = ibw_dpi_build(builder, IBW_LINK_ETHERNET, frame);
      if (n <= 0) begin
        error = $sformatf("build of opcode 0x%02x failed: %s (%s)", op,
                          ibw_dpi_strerror(n), ibw_dpi_builder_error(builder));
        return 0;
      end
      expect_len.push_back(n);
      expect_op.push_back(op);
      expect_psn.push_back(psn);
      expect_qpn.push_back(qpn);
      return n;
    endfunction
  endclass

  // ----------------------------------------------------------------------
  // The monitor's checks of one frame out of the DUT, reassembled in
  // `frame`: "" when right, else what is wrong.
  // ----------------------------------------------------------------------
  class frame_check;
    local ibw_frame_t frame;
    local ibw_scoreboard scoreboard;
    local chandle packet;
    local int field_opcode, field_psn, field_destqp;

    function new(int unsigned pmtu);
      packet = ibw_dpi_packet_new();
      scoreboard = new(int'(pmtu));
      field_opcode = ibw_dpi_field_id("infiniband.bth.opcode");
      field_psn = ibw_dpi_field_id("infiniband.bth.psn");
      field_destqp = ibw_dpi_field_id("infiniband.bth.destqp");
    endfunction

    // byte `at` of the frame being reassembled
    function void put(int unsigned at, byte unsigned value);
      frame[at] = value;
    endfunction

    function bit ready();
      return packet != null && field_opcode >= 0 && field_psn >= 0 &&
             field_destqp >= 0;
    endfunction

    local function string field_differs(int id, string name, int unsigned want);
      longint unsigned got;
      int rc = ibw_dpi_packet_field_by_id(packet, id, got);
      if (rc == 1 && got == 64'(want))
        return "";
      return $sformatf("%s is %0s, built with 0x%0x", name,
                       rc == 1 ? $sformatf("0x%0x", got) : "absent", want);
    endfunction

    function string check(int unsigned len, int unsigned want_op,
                          int unsigned want_psn, int unsigned want_qpn,
                          longint unsigned ts_ns);
      int status;
      string why;
      if (ibw_dpi_packet_parse(packet, frame, int'(len), IBW_LINK_ETHERNET) != 0)
        return "not parsed";
      status = ibw_dpi_packet_icrc_status(packet);
      if (status != IBW_CRC_GOOD) begin
        int unsigned want_icrc;
        void'(ibw_dpi_icrc_compute(frame, int'(len), IBW_LINK_ETHERNET, want_icrc));
        return $sformatf("ICRC mismatch (status %0d): DUT appended %02x %02x %02x %02x, ibwire computes 0x%08x (opcode 0x%02x, %0d bytes, %s)",
                         status, frame[len - 4], frame[len - 3], frame[len - 2],
                         frame[len - 1], want_icrc, want_op, len,
                         ibw_dpi_packet_error(packet));
      end
      why = field_differs(field_opcode, "opcode", want_op);
      if (why == "") why = field_differs(field_psn, "PSN", want_psn);
      if (why == "") why = field_differs(field_destqp, "destination QP", want_qpn);
      if (why != "")
        return why;
      if (scoreboard.feed(frame, int'(len), ts_ns) != 0)
        return "the checker refused it";
      if (scoreboard.errors() != 0) begin
        void'(scoreboard.report_new());
        return "the checker found an error";
      end
      return "";
    endfunction

    function void free();
      ibw_dpi_packet_free(packet);
      packet = null;
      scoreboard.free();
    endfunction

    // After the last frame: "" when the checker has nothing to say.
    function string finish();
      void'(scoreboard.finish());
      void'(scoreboard.report_new());
      if (scoreboard.errors() == 0 && scoreboard.warnings() == 0)
        return "";
      return $sformatf("the checker found %0d errors and %0d warnings",
                       scoreboard.errors(), scoreboard.warnings());
    endfunction
  endclass

  int unsigned n_frames = 400;
  int unsigned pmtu = 1024;
  int unsigned seed = 1;
  int unsigned skip_psn = 0;
  bit dpi_checks = 1'b1;

  rc_conversation traffic;
  frame_check monitor;

  initial begin
    failed = 1'b0;
    void'($value$plusargs("frames=%d", n_frames));
    void'($value$plusargs("pmtu=%d", pmtu));
    void'($value$plusargs("seed=%d", seed));
    void'($value$plusargs("skip_psn=%d", skip_psn));
    if ($test$plusargs("nodpi"))
      dpi_checks = 1'b0;
    void'($urandom(seed));
    traffic = new(pmtu, skip_psn);
    monitor = new(pmtu);
    if (!monitor.ready())
      fail("libibwire did not start (no memory or unknown field names)");
    $display("tb_icrc_inserter: %0d frames, PMTU %0d, seed %0d, INJECT_BUG %0d, DPI checks %0d",
             n_frames, pmtu, seed, INJECT_BUG, dpi_checks);
  end

  // libibwire's handles back, however the run ended
  final begin
    traffic.free();
    monitor.free();
  end

  // The first failure ends the run.
  function automatic void fail(string why);
    if (failed)
      return;
    $display("FAIL: %s", why);
    failed = 1'b1;
    $finish;
  endfunction

  // ----------------------------------------------------------------------
  // DUT
  // ----------------------------------------------------------------------
  logic rst_n = 1'b0;
  logic [63:0] s_tdata = '0, m_tdata;
  logic [7:0] s_tkeep = '0, m_tkeep;
  logic s_tlast = 1'b0, s_tvalid = 1'b0, s_tready;
  logic m_tlast, m_tvalid, m_tready = 1'b0;

  icrc_inserter #(.INJECT_BUG(INJECT_BUG)) dut (
      .clk, .rst_n,
      .s_axis_tdata(s_tdata), .s_axis_tkeep(s_tkeep), .s_axis_tlast(s_tlast),
      .s_axis_tvalid(s_tvalid), .s_axis_tready(s_tready),
      .m_axis_tdata(m_tdata), .m_axis_tkeep(m_tkeep), .m_axis_tlast(m_tlast),
      .m_axis_tvalid(m_tvalid), .m_axis_tready(m_tready));

  longint unsigned cycle = 0;

  always @(posedge clk) begin
    cycle <= cycle + 1;
    if (cycle == 4)
      rst_n <= 1'b1;
    if (cycle > 64'(n_frames) * 2000 + 10000)
      fail($sformatf("timeout: %0d of %0d frames out after %0d cycles",
                     frames_out, n_frames, cycle));
  end

  // ----------------------------------------------------------------------
  // Driver: the frames without their ICRC, random gaps
  // ----------------------------------------------------------------------

  int unsigned tx_len = 0;   // bytes to send of traffic.frame; 0: none
  int unsigned tx_pos = 0;   // bytes of it already presented
  int unsigned frames_in = 0;

  always @(posedge clk) begin
    if (rst_n) begin
      if (s_tvalid && s_tready && s_tlast) begin
        tx_len = 0;
        frames_in++;
      end
      if (!s_tvalid || s_tready) begin
        if (tx_len == 0 && frames_in < n_frames && !failed) begin
          int unsigned built = traffic.next();
          if (built == 0)
            fail(traffic.error);
          else
            tx_len = built - 4;
          tx_pos = 0;
        end
        if (tx_len != 0 && tx_pos < tx_len && $urandom_range(3) != 0) begin
          int unsigned lanes = tx_len - tx_pos < 8 ? tx_len - tx_pos : 8;
          logic [63:0] data = '0;
          for (int unsigned i = 0; i < lanes; i++)
            data[8*i +: 8] = traffic.frame[tx_pos + i];
          s_tdata <= data;
          s_tkeep <= 8'(~(16'hFFFF << lanes));
          s_tlast <= tx_pos + lanes == tx_len;
          s_tvalid <= 1'b1;
          tx_pos += lanes;
        end else begin
          s_tvalid <= 1'b0;
        end
      end
    end
  end

  // ----------------------------------------------------------------------
  // Monitor: reassemble, check, score
  // ----------------------------------------------------------------------

  int unsigned rx_len = 0;
  int unsigned frames_out = 0;
  bit [31:0] opcodes_seen = '0;

  function automatic void check_frame();
    int unsigned want_len = traffic.expect_len.pop_front();
    int unsigned want_op = traffic.expect_op.pop_front();
    int unsigned want_psn = traffic.expect_psn.pop_front();
    int unsigned want_qpn = traffic.expect_qpn.pop_front();
    string why = "";
    frames_out++;
    opcodes_seen[want_op] = 1'b1;
    if (rx_len != want_len)
      why = $sformatf("%0d bytes out, %0d expected (frame without ICRC + 4)",
                      rx_len, want_len);
    else if (dpi_checks)
      why = monitor.check(rx_len, want_op, want_psn, want_qpn, cycle * 4);
    if (why != "") begin
      fail($sformatf("frame %0d: %s", frames_out, why));
      return;
    end
    if (frames_out < n_frames)
      return;
    if (dpi_checks)
      why = monitor.finish();
    if (why != "") begin
      fail(why);
      return;
    end
    $display("PASS: %0d frames (%0d messages, %0d opcodes) in %0d cycles, every ICRC good, checker clean",
             frames_out, traffic.messages, $countones(opcodes_seen), cycle);
    $finish;
  endfunction

  always @(posedge clk) begin
    if (rst_n) begin
      if (m_tvalid && m_tready) begin
        for (int unsigned i = 0; i < 8; i++) begin
          if (m_tkeep[i]) begin
            if (rx_len >= IBW_FRAME_MAX)
              fail($sformatf("frame %0d: longer than %0d bytes", frames_out + 1,
                             IBW_FRAME_MAX));
            monitor.put(rx_len, m_tdata[8*i +: 8]);
            rx_len++;
          end
        end
        if (!m_tlast && m_tkeep != 8'hFF)
          fail($sformatf("frame %0d: tkeep 0x%02x before the last beat",
                         frames_out + 1, m_tkeep));
        if (m_tlast && !failed) begin
          check_frame();
          rx_len = 0;
        end
      end
      m_tready <= $urandom_range(3) != 0;
    end
  end

endmodule
