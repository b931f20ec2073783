// C++17 arithmetic (CUDA compiles C++17 by default): the shifts, division and remainder rules
// of [expr.shift] and [expr.mul].
__global__ void arith(int* out, int s) {
    if (threadIdx.x != 0) return;
    out[0] = 1 << 31;        // defined in C++17 ([expr.shift]/2): INT_MIN
    out[1] = 3 << 30;        // 3·2^30 fits unsigned int: -1073741824
    out[2] = -7 / 2;         // truncation toward zero ([expr.mul]/4): -3
    out[3] = -7 % 2;         // (a/b)*b + a%b == a: -1
    out[4] = -1 << s;        // a negative left operand: undefined in C++17
    out[5] = 1 << (s + 31);  // a count of 32: undefined ([expr.shift]/1)
    int m = -2147483647 - 1;
    out[6] = m % (s - 2);    // INT_MIN % -1: the quotient overflows, undefined ([expr.mul]/4)
    out[7] = 5u >> s;        // 2
}
