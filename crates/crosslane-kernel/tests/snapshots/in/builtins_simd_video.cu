// snapshot: threads=4
// The SIMD intrinsics (CUDA Math API, "SIMD Intrinsics"): a 32-bit word read as four bytes
// (the `4` forms) or two halfwords (`2`), each pair of fields combined, the fields repacked.
// a = 0xFF01807F: bytes (low first) 0x7F 0x80 0x01 0xFF = signed 127 -128 1 -1, unsigned
// 127 128 1 255; b = t in every byte (t = 0..3).
// - __vaddss4 (signed saturated add): t=0: a itself 0xFF01807F; t=1: 127+1 -> 127, -127
//   (0x81), 2, 0 = 0x0002817F; t=2: 127, -126 (0x82), 3, 1 = 0x0103827F; t=3: 127, -125
//   (0x83), 4, 2 = 0x0204837F. sat = 4278288511 164223 17007231 33850239.
// - __vsubus4 (unsigned saturated difference): t=0: 0xFF01807F; t=1: 126 127 0 254 =
//   0xFE007F7E; t=2: 125 126 0 (1-2 clamps) 253 = 0xFD007E7D; t=3: 124 125 0 252 = 0xFC007D7C.
//   sub = 4278288511 4261445502 4244668029 4227890556.
// - __vsetgtu4 (1 per byte where unsigned a > b): t=0: all four 0x01010101; t>=1: the byte
//   holding 1 is not greater: 0x01000101. gt = 16843009 16777473 16777473 16777473.
// - __vsads4 (sum of |a - b| over signed bytes): t=0: 127+128+1+1 = 257; t=1: 126+129+0+2 =
//   257; t=2: 125+130+1+3 = 259; t=3: 124+131+2+4 = 261. sad = 257 257 259 261.
// - __vavgs2 (signed rounded average of halfwords: (s) >> 1 when s = x + y < 0, else
//   (s + 1) >> 1): halves of a are 0x807F = -32641 and 0xFF01 = -255, b2 = t in each half.
//   t=0: -32641 >> 1 = -16321 (0xC03F), -255 >> 1 = -128 (0xFF80): 0xFF80C03F;
//   t=1: -32640 -> -16320 (0xC040), -254 -> -127 (0xFF81): 0xFF81C040;
//   t=2: -32639 -> -16320, -253 -> -127: 0xFF81C040; t=3: -32638 -> -16319 (0xC041),
//   -252 -> -126 (0xFF82): 0xFF82C041. avg = 4286627903 4286693440 4286693440 4286758977.
__global__ void k(unsigned *sat, unsigned *sub, unsigned *gt, unsigned *sad, unsigned *avg) {
    unsigned t = threadIdx.x;
    unsigned a = 0xFF01807Fu;
    unsigned b = 0x01010101u * t;
    sat[t] = __vaddss4(a, b);
    sub[t] = __vsubus4(a, b);
    gt[t] = __vsetgtu4(a, b);
    sad[t] = __vsads4(a, b);
    avg[t] = __vavgs2(a, 0x00010001u * t);
}
