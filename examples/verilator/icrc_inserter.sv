// SPDX-License-Identifier: Apache-2.0
//
// icrc_inserter: appends the RoCEv2 ICRC to frames on a 64-bit AXI-Stream.
//
// In: an untagged Ethernet frame carrying IPv4 (no options) or IPv6, UDP
// and an IBA packet, without its 4 ICRC bytes.  Out: the same frame with
// the ICRC after it.  Byte 0 of a beat is tdata[7:0]; tkeep is contiguous
// from lane 0 and is all ones except on the last beat.
//
// The ICRC (IBA Vol.1 7.8.1; annex A17 for RoCEv2) is the Ethernet CRC-32
// over 8 bytes of ones standing in for the LRH, then the IP header, UDP
// header, BTH and the rest, where the fields a router or switch may change
// read as ones: IPv4 TOS, TTL and header checksum, IPv6 traffic class,
// flow label and hop limit, the UDP checksum and BTH byte 4 (FECN, BECN,
// resv6).  The Ethernet header is not covered.
//
// INJECT_BUG = 1 forgets to mask the IPv4 TTL / IPv6 hop limit: the ICRC
// is then right only for frames whose TTL happens to be 255, which no
// testbench frame uses.
//
// A beat is taken whenever the output register is free; a last beat with
// more than four bytes leaves ICRC bytes for one more output beat, during
// which the input waits.
module icrc_inserter #(
    parameter int INJECT_BUG = 0
) (
    input  logic        clk,
    input  logic        rst_n,

    input  logic [63:0] s_axis_tdata,
    input  logic [7:0]  s_axis_tkeep,
    input  logic        s_axis_tlast,
    input  logic        s_axis_tvalid,
    output logic        s_axis_tready,

    output logic [63:0] m_axis_tdata,
    output logic [7:0]  m_axis_tkeep,
    output logic        m_axis_tlast,
    output logic        m_axis_tvalid,
    input  logic        m_axis_tready
);

  localparam logic [31:0] CRC32_POLY_REFLECTED = 32'hEDB88320;
  localparam int ETH_HEADER_BYTES = 14;
  localparam logic [15:0] ETHERTYPE_IPV6 = 16'h86DD;

  // One byte into a reflected CRC-32 register, a bit at a time: the loops
  // unroll into the usual XOR tree.
  function automatic logic [31:0] crc32_byte(logic [31:0] crc, logic [7:0] b);
    logic [31:0] c = crc ^ {24'b0, b};
    for (int i = 0; i < 8; i++)
      c = c[0] ? (c >> 1) ^ CRC32_POLY_REFLECTED : c >> 1;
    return c;
  endfunction

  function automatic logic [31:0] crc32_beat(logic [31:0] crc,
                                             logic [63:0] data,
                                             logic [7:0] lanes);
    logic [31:0] c = crc;
    for (int lane = 0; lane < 8; lane++)
      if (lanes[lane])
        c = crc32_byte(c, data[8*lane +: 8]);
    return c;
  endfunction

  // The register after the 8 bytes of ones that open every RoCE ICRC.
  localparam logic [31:0] CRC_AFTER_LRH_ONES =
      crc32_beat(32'hFFFFFFFF, {64{1'b1}}, 8'hFF);

  // Bits of the frame byte at `offset` that the ICRC reads as ones.
  // Offsets are from the Ethernet header: IP at 14, then UDP and BTH
  // (IPv4: UDP 34, BTH 42; IPv6: UDP 54, BTH 62).
  function automatic logic [7:0] variant_bits(int unsigned offset, logic ipv6);
    if (!ipv6) begin
      case (offset)
        15:      return 8'hFF;                           // TOS
        22:      return INJECT_BUG != 0 ? 8'h00 : 8'hFF; // TTL
        24, 25:  return 8'hFF;                           // header checksum
        40, 41:  return 8'hFF;                           // UDP checksum
        46:      return 8'hFF;                           // BTH FECN/BECN/resv6
        default: return 8'h00;
      endcase
    end
    case (offset)
      14:         return 8'h0F;                           // traffic class hi
      15, 16, 17: return 8'hFF;                           // class lo, flow label
      21:         return INJECT_BUG != 0 ? 8'h00 : 8'hFF; // hop limit
      60, 61:     return 8'hFF;                           // UDP checksum
      66:         return 8'hFF;                           // BTH FECN/BECN/resv6
      default:    return 8'h00;
    endcase
  endfunction

  function automatic int unsigned lanes_kept(logic [7:0] keep);
    int unsigned n = 0;
    for (int lane = 0; lane < 8; lane++)
      n += int'(keep[lane]);
    return n;
  endfunction

  // Beats of the current input frame so far; saturates well past the last
  // masked byte (offset 66, beat 8).
  logic [3:0]  beat_q;
  logic        ipv6_q;
  logic [31:0] crc_q;

  logic [63:0] out_data_q;
  logic [7:0]  out_keep_q;
  logic        out_last_q;
  logic        out_valid_q;
  logic [63:0] tail_data_q;
  logic [7:0]  tail_keep_q;
  logic        tail_pending_q;

  // The EtherType sits in lanes 4 and 5 of beat 1, the beat whose lanes 6
  // and 7 already need the IP version.
  logic        ipv6_now;
  logic [63:0] crc_data;
  logic [7:0]  crc_lanes;
  logic [31:0] crc_next;

  always_comb begin
    ipv6_now = beat_q == 4'd1
               ? {s_axis_tdata[39:32], s_axis_tdata[47:40]} == ETHERTYPE_IPV6
               : ipv6_q;
    for (int lane = 0; lane < 8; lane++) begin
      int unsigned offset = {28'b0, beat_q} * 8 + lane;
      crc_data[8*lane +: 8] = s_axis_tdata[8*lane +: 8] |
                              variant_bits(offset, ipv6_now);
      crc_lanes[lane] = s_axis_tkeep[lane] && offset >= ETH_HEADER_BYTES;
    end
    crc_next = crc32_beat(crc_q, crc_data, crc_lanes);
  end

  // The last beat's bytes followed by the ICRC (least significant byte
  // first, as the Ethernet FCS): up to 12 bytes over two beats.
  logic [127:0] last_data;
  logic [15:0]  last_keep;
  int unsigned  last_bytes;

  always_comb begin
    logic [31:0] icrc = ~crc_next;
    last_bytes = lanes_kept(s_axis_tkeep);
    last_data = {64'b0, s_axis_tdata} & ~({128{1'b1}} << (8 * last_bytes));
    last_data |= {96'b0, icrc} << (8 * last_bytes);
    last_keep = ~(16'hFFFF << (last_bytes + 4));
  end

  assign s_axis_tready = (!out_valid_q || m_axis_tready) && !tail_pending_q;

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      beat_q <= '0;
      ipv6_q <= 1'b0;
      crc_q <= CRC_AFTER_LRH_ONES;
      out_valid_q <= 1'b0;
      out_last_q <= 1'b0;
      out_data_q <= '0;
      out_keep_q <= '0;
      tail_pending_q <= 1'b0;
      tail_data_q <= '0;
      tail_keep_q <= '0;
    end else begin
      if (out_valid_q && m_axis_tready)
        out_valid_q <= 1'b0;
      if (tail_pending_q && (!out_valid_q || m_axis_tready)) begin
        out_data_q <= tail_data_q;
        out_keep_q <= tail_keep_q;
        out_last_q <= 1'b1;
        out_valid_q <= 1'b1;
        tail_pending_q <= 1'b0;
      end else if (s_axis_tvalid && s_axis_tready) begin
        out_valid_q <= 1'b1;
        if (!s_axis_tlast) begin
          out_data_q <= s_axis_tdata;
          out_keep_q <= s_axis_tkeep;
          out_last_q <= 1'b0;
          crc_q <= crc_next;
          ipv6_q <= ipv6_now;
          if (beat_q != 4'hF)
            beat_q <= beat_q + 4'd1;
        end else begin
          out_data_q <= last_data[63:0];
          out_keep_q <= last_keep[7:0];
          out_last_q <= last_bytes <= 4;
          tail_data_q <= last_data[127:64];
          tail_keep_q <= last_keep[15:8];
          tail_pending_q <= last_bytes > 4;
          crc_q <= CRC_AFTER_LRH_ONES;
          ipv6_q <= 1'b0;
          beat_q <= '0;
        end
      end
    end
  end

  assign m_axis_tdata = out_data_q;
  assign m_axis_tkeep = out_keep_q;
  assign m_axis_tlast = out_last_q;
  assign m_axis_tvalid = out_valid_q;

endmodule
