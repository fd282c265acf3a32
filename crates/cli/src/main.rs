//! `scaling`: the command-line face of the crate. All logic is in the `scaling_cli` library (src/lib.rs).

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    use scaling_cli as cli;
    use std::io::Write;
    let result = cli::parse_args(std::env::args().skip(1)).and_then(|c| cli::run(&c));
    match result {
        Ok(out) => {
            // A closed pipe (`scaling laws | head`) is not an error worth a panic.
            let _ = std::io::stdout().write_all(out.as_bytes());
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("scaling: {e}");
            std::process::ExitCode::from(2)
        }
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}
