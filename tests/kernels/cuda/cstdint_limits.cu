// <cstdint> types, <climits> constants and std::numeric_limits as device code uses them.
#include <cstdint>
#include <climits>
#include <limits>

__global__ void limits(int32_t* i32, uint32_t* u32, int64_t* i64, float* f32) {
    if (threadIdx.x != 0) return;
    i32[0] = INT_MAX;
    i32[1] = INT_MIN;
    i32[2] = CHAR_BIT;
    i32[3] = std::numeric_limits<int>::lowest();
    i32[4] = std::numeric_limits<int8_t>::min();
    i32[5] = (int32_t)std::numeric_limits<uint16_t>::max();
    u32[0] = UINT_MAX;
    u32[1] = std::numeric_limits<uint32_t>::max();
    uint8_t wrapped = 255;
    wrapped += 1;
    u32[2] = wrapped;
    i64[0] = INT64_MIN;
    i64[1] = std::numeric_limits<int64_t>::max();
    i64[2] = (int64_t)INT_MAX + 1;
    f32[0] = std::numeric_limits<float>::max();
    f32[1] = std::numeric_limits<float>::lowest();
    f32[2] = std::numeric_limits<float>::min();
    f32[3] = std::numeric_limits<float>::epsilon();
    f32[4] = std::numeric_limits<float>::infinity();
    f32[5] = std::numeric_limits<float>::quiet_NaN();
}
