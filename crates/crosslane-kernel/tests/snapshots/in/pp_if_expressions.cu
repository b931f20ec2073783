// snapshot: mode=pp
// [cpp.cond]: unknown identifiers are 0, `true` is 1, arithmetic in intmax_t/uintmax_t
// (-1 > 0u is true: -1 converts to uintmax_t), nested groups, #elif chains, defined with and
// without parentheses. Expected tokens by hand: line 10 `a`, line 14 `c`, line 21 `e`,
// line 26 `g`; lines 12, 17, 19 and 24 skipped ((1 << 62) / 2 is 2^61 = 0x2000000000000000).
#define TWO 2
#if UNKNOWN_NAME == 0 && true
# if -1 > 0u
#  if defined TWO && defined(TWO) && TWO * 3 == 6
a
#  else
b
#  endif
c
# endif
#elif 1
d
#else
d2
#endif
e
#if (1 << 62) / 2 == 0x2000000000000000 && 07 == 7 && 'A' == 65
#else
f
#endif
g
