// snapshot: mode=pp
// A self-referential macro is not replaced again inside its own expansion ([cpp.rescan]/2):
// `foo` stays `foo`; the mutually recursive A and B stop after one round each.
// Expected: line 9 `foo + 1`; line 10: A -> `B + A` (A hidden), whose B -> `A + B` (A, B
// hidden), so `A + B + A`.
#define foo foo + 1
#define A B + A
#define B A + B
foo
A
