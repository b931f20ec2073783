// snapshot: threads=8
// `__attribute__((packed))` enters the layout (GCC manual, type attribute `packed`: each
// member at the next byte, alignment 1), and `(void)` of a struct value or struct pointer is
// a discarded-value expression ([expr.static.cast]/6) that does nothing.
// Header (packed): kind@0, len@1, crc@5, sizeof 1 + 4 + 2 = 7.
// Header2 (natural): kind@0, len@4 (aligned 4), crc@8, sizeof 10 rounded to 4 = 12.
// Rec {char tag; Header h;}: Header aligns to 1, so h@1, sizeof 8, alignof 1.
// use() returns copy.scale = 0.5, so out[7] = (int)(0.5 · 10) = 5.
// out = 7 1 5 12 8 8 1 5 (written by lane 0 only).
#include <cstdint>
struct __attribute__((packed)) Header {
    uint8_t kind;
    uint32_t len;
    uint16_t crc;
};
struct Header2 {
    uint8_t kind;
    uint32_t len;
    uint16_t crc;
};
struct Rec {
    char tag;
    Header h;
};
struct Cfg {
    int n;
    float scale;
};
__device__ float use(const Cfg* c, Cfg copy) {
    (void)c;
    (void)copy;
    return copy.scale;
}
__global__ void sizes(int* out, Cfg* cfg) {
    (void)cfg;
    Cfg local{2, 0.5f};
    (void)local;
    if (threadIdx.x == 0) {
        out[0] = sizeof(Header);
        out[1] = offsetof(Header, len);
        out[2] = offsetof(Header, crc);
        out[3] = sizeof(Header2);
        out[4] = offsetof(Header2, crc);
        out[5] = sizeof(Rec);
        out[6] = alignof(Rec);
        out[7] = (int)(use(cfg, local) * 10);
    }
}
