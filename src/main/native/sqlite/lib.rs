// Empty: cargo needs a target to vendor this package's dependency (see Cargo.toml).
