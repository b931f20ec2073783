//! Generated chains as WGSL: the fuzzer's bytes choose a chain's kind (swizzle `v.wzyx…`, index
//! `a[0]…`, member `s.s…`, call `f(f(…))`, parentheses, a binary operator chain, aliases or
//! functions declared in reverse order, each using the next) and its length (up to some
//! hundred thousand). Whatever the length, `prepare` must end in a shader or an error (the
//! depth pre-scan naming `--max-depth`) — never a stack overflow in naga or the lowering.

#![no_main]

use crosslane_kernel::wgsl::prepare;
use crosslane_kernel::{LaunchConfig, Limits};
use libfuzzer_sys::fuzz_target;

const HEAD: &str = "@group(0) @binding(0) var<storage, read_write> a: array<u32>;\n";

fn shader(kind: u8, n: usize) -> String {
    let main = |body: &str| {
        format!("{HEAD}@compute @workgroup_size(1) fn main() {{\n  {body}\n}}\n")
    };
    match kind % 8 {
        0 => main(&format!("let v = vec4<u32>(1u);\n  let y = v{};", ".wzyx".repeat(n))),
        1 => main(&format!("let y = a{};", "[0]".repeat(n))),
        2 => format!(
            "struct S {{ s: u32 }}\n{}",
            main(&format!("var s: S;\n  let y = s{};", ".s".repeat(n)))
        ),
        3 => format!(
            "fn f(x: u32) -> u32 {{ return x; }}\n{}",
            main(&format!("let y = {}1u{};", "f(".repeat(n), ")".repeat(n)))
        ),
        4 => main(&format!("let y = {}1u{};", "(".repeat(n), ")".repeat(n))),
        5 => main(&format!("let y = 1u{};", " + 1u".repeat(n))),
        6 => {
            let mut s: String = (1..=n)
                .rev()
                .map(|k| format!("alias A{k} = A{};\n", k - 1))
                .collect();
            s.push_str("alias A0 = u32;\n");
            s + &main(&format!("var x: A{n} = 1u;"))
        }
        _ => {
            let mut s: String = (1..=n)
                .rev()
                .map(|k| format!("fn f{k}(v: u32) -> u32 {{ return f{}(v); }}\n", k - 1))
                .collect();
            s.push_str("fn f0(v: u32) -> u32 { return v; }\n");
            s + &main(&format!("a[0] = f{n}(1u);"))
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let kind = data.first().copied().unwrap_or(0);
    let hi = usize::from(data.get(1).copied().unwrap_or(0));
    let lo = usize::from(data.get(2).copied().unwrap_or(0));
    // Up to 2^17 links: past every depth the pre-scans allow, within the fuzzer's memory.
    let n = ((hi << 8) | lo) * 2 + 1;
    let depth = u32::from(data.get(3).copied().unwrap_or(0)) * 2;
    let config = LaunchConfig {
        limits: Limits {
            max_depth: depth.max(1),
            max_work: 20_000,
            max_memory: 16 << 20,
            ..Limits::default()
        },
        ..LaunchConfig::default()
    };
    if let Err(e) = prepare(&shader(kind, n), &config) {
        // A refusal at the pre-scan names the flag that raises it.
        if e.message.contains("nesting limit") {
            assert!(e.message.contains("--max-depth"), "{}", e.message);
        }
    }
});
