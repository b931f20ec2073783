// snapshot: mode=pp
// `#` keeps spacing and escapes quotes ([cpp.stringize]/2); `##` pastes; __VA_ARGS__ and
// C++20 __VA_OPT__; GNU `, ## __VA_ARGS__` drops the comma when there are no variable
// arguments; an argument is expanded before substitution unless it is an operand of # or ##.
// Expected by hand:
//   line 17: "a + b" "\"q\" 'c'"
//   line 18: "ONE" "1"
//   line 19: xy x_ONE          (an operand of ## is not expanded)
//   line 20: f ( "s" ) ; f ( "s" , 1 , 2 ) ;
//   line 21: g ( "s" ) ; g ( "s" , 3 ) ;
#define STR(x) #x
#define XSTR(x) STR(x)
#define ONE 1
#define CAT(a, b) a ## b
#define F(fmt, ...) f(fmt __VA_OPT__(,) __VA_ARGS__);
#define G(fmt, ...) g(fmt, ## __VA_ARGS__);
STR( a  +  b ) STR("q" 'c')
STR(ONE) XSTR(ONE)
CAT(x, y) CAT(x_, ONE)
F("s") F("s", 1, 2)
G("s") G("s", 3)
