//! The web app in `web/dist` is embedded into the binary (rust-embed). rust-embed only tracks the
//! files it embedded, so a binary built before `web/dist` existed, or before a build that added
//! new hashed asset names, would keep serving the old app. Watching the folder fixes that.
fn main() {
    println!("cargo:rerun-if-changed=../../web/dist");
}
