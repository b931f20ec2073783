//! `cargo run -p crosslane-gpu --example gpu -- ascend asc_shfl_down --delta 3 --width 8`: the
//! `crosslane gpu …` command until the CLI crate wires it.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (out, code) = crosslane_gpu::cli::gpu_command(&args);
    if code == 0 || code == 1 {
        print!("{out}");
    } else {
        eprint!("{out}");
    }
    std::process::exit(code);
}
