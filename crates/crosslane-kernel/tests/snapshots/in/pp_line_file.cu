// snapshot: mode=pp
// __LINE__ is the line it is on; #line 100 "renamed.cu" makes the next line 100 and
// __FILE__ that name ([cpp.line]). A macro's __LINE__ is the line of the call.
// Expected: line 7 `7 "<source>"`, line 9 `100 "renamed.cu"`, line 10 `101`.
// Token positions stay the editor's lines (7, 9, 10).
#define HERE __LINE__
HERE __FILE__
#line 100 "renamed.cu"
__LINE__ __FILE__
HERE
