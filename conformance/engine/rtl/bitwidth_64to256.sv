// SPDX-License-Identifier: Apache-2.0
// 64To256Trans (HanGu RDMA engine design §6.4.2.3): link words (E24) in,
// gathered four at a time by a Counter and a DataReg into an internal
// stream word (E25) out, or fewer at the end of a packet.  Beside the
// stream word, out_bytes counts the packet's bytes so far (E25 has no
// valid-byte count; HeaderParser needs the length), as in the C model.
module bitwidth_64to256 (
    input  logic         clk,
    input  logic         rst,
    input  logic         in_valid,
    /* verilator lint_off UNUSEDSIGNAL */ // E and VL: nothing to gather
    input  logic [71:0]  in_word,
    /* verilator lint_on UNUSEDSIGNAL */
    output logic         out_valid,
    output logic [257:0] out_word,
    output logic [15:0]  out_bytes
);
    logic [255:0] data_reg;
    logic [1:0]   counter;
    logic         start;
    logic [15:0]  got;

    wire        in_sop = in_word[64];
    wire        in_eop = in_word[65];
    wire [2:0]  in_vb = in_word[69:67];
    wire [1:0]  slot = in_sop ? 2'd0 : counter;
    wire [15:0] got_base = in_sop ? 16'd0 : got;
    wire [15:0] got_next = got_base + (in_eop && in_vb != 3'd0 ? {13'd0, in_vb} : 16'd8);

    always_ff @(posedge clk) begin
        if (rst) begin
            counter <= 2'd0;
            data_reg <= '0;
            start <= 1'b0;
            got <= 16'd0;
            out_valid <= 1'b0;
        end else begin
            out_valid <= 1'b0;
            if (in_valid) begin
                logic [255:0] acc;
                acc = in_sop ? '0 : data_reg;
                acc[slot * 64 +: 64] = in_word[63:0];
                got <= got_next;
                if (in_eop || slot == 2'd3) begin
                    out_valid <= 1'b1;
                    out_word <= {in_eop, in_sop | start, acc};
                    out_bytes <= got_next;
                    data_reg <= '0;
                    start <= 1'b0;
                    counter <= 2'd0;
                end else begin
                    data_reg <= acc;
                    start <= in_sop | start;
                    counter <= slot + 2'd1;
                end
            end
        end
    end
endmodule
