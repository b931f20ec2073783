// snapshot: mode=pp
// Backslash–new-line splices lines, even inside a name ([lex.phases]/1.2); tokens keep the
// line they were written on: `bc` starts on line 6, `= 3 ;` is on line 7, `x` on line 8.
#define LONG 1 + \
  2
int a = LONG; int b\
c = 3;
x
