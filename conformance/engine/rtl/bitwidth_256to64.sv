// SPDX-License-Identifier: Apache-2.0
// 256To64Trans (HanGu RDMA engine design §6.4): one internal stream word
// (E25: 256 data bits, bit 256 start, bit 257 end) in, one link word (E24:
// 64 data bits, S 64, T 65, E 66, ValidByte [69:67], VL [71:70]) out per
// clock.  E25 does not say how many bytes of the last word are valid, so
// in_bytes (1..32) comes beside it, as in the C model.  No back-pressure
// on the output: the link layer takes a word every clock.
module bitwidth_256to64 (
    input  logic         clk,
    input  logic         rst,
    input  logic         in_valid,
    input  logic [257:0] in_word,
    input  logic [5:0]   in_bytes,
    output logic         in_ready,
    output logic         out_valid,
    output logic [71:0]  out_word
);
    logic [255:0] data;
    logic         sop, eop;
    logic [2:0]   nwords_m1;  // link words of this stream word, minus one
    logic [2:0]   last_vb;    // valid bytes of the last one, mod 8
    logic [2:0]   idx;
    logic         busy;

    assign in_ready = !busy;

    always_ff @(posedge clk) begin
        if (rst) begin
            busy <= 1'b0;
            out_valid <= 1'b0;
        end else begin
            out_valid <= 1'b0;
            if (in_valid && !busy) begin
                data <= in_word[255:0];
                sop <= in_word[256];
                eop <= in_word[257];
                nwords_m1 <= 3'((in_bytes - 6'd1) >> 3);
                last_vb <= in_bytes[2:0];
                idx <= 3'd0;
                busy <= 1'b1;
            end else if (busy) begin
                out_valid <= 1'b1;
                out_word[63:0] <= data[idx[1:0] * 64 +: 64];
                out_word[64] <= sop && idx == 3'd0;
                out_word[65] <= eop && idx == nwords_m1;
                out_word[66] <= 1'b0;
                out_word[69:67] <= eop && idx == nwords_m1 ? last_vb : 3'd0;
                out_word[71:70] <= 2'd0;
                idx <= idx + 3'd1;
                busy <= idx != nwords_m1;
            end
        end
    end
endmodule
