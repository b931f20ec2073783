// snapshot: dialect=ascend
// The Ascend C SIMT C++ API (asc-devkit include/simt_api/cpp): on one 32-thread warp, lane =
// GetThreadIdx<0>() % GetWarpSize(); WarpShflUpSync(lane, 1) reads lane - 1 (lane 0 keeps its
// own 0), so up = 0, 0, 1, 2, …, 30; WarpBallotSync(lane < 3) = 0b111 = 7 in every lane;
// WarpAllSync(lane >= 0) = 1 and WarpAnySync(lane > 31) = 0, so vote = 10.
__global__ void k(int32_t *up, uint32_t *ballot, int32_t *vote) {
    int32_t lane = AscendC::Simt::GetThreadIdx<0>() % AscendC::Simt::GetWarpSize();
    up[lane] = AscendC::Simt::WarpShflUpSync(lane, 1);
    ballot[lane] = AscendC::Simt::WarpBallotSync(lane < 3);
    vote[lane] = AscendC::Simt::WarpAllSync(lane >= 0) * 10 + AscendC::Simt::WarpAnySync(lane > 31);
}
