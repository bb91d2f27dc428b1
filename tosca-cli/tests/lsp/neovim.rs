//! The guide's Neovim 0.7 form (`vim.lsp.start_client`, for the Neovim Debian 12 ships), run as
//! written in a headless Neovim against the real server: it attaches to a TOSCA file and shows
//! its problems. Runs where `nvim` is on `PATH` (`apt install neovim`); says so and passes
//! where it is not.

use std::process::Command;

/// The ```lua block of `docs/src/editor.md` after the sentence that introduces the 0.7 form.
fn neovim_07_snippet() -> String {
    let guide = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/src/editor.md"))
        .expect("the editor guide");
    let after = guide.split("ships Neovim 0.7").nth(1).expect("the guide gives a form for Neovim 0.7");
    let block = after.split("```lua\n").nth(1).expect("a lua block after it");
    block.split("```").next().expect("the block's end").to_owned()
}

#[test]
fn the_guides_neovim_07_form_attaches_and_shows_diagnostics() {
    let snippet = neovim_07_snippet();
    assert!(snippet.contains("vim.lsp.start_client"), "{snippet}");
    let Ok(version) = Command::new("nvim").arg("--version").output() else {
        eprintln!("nvim is not on PATH: the guide's Neovim form is not run");
        return;
    };
    eprintln!("{}", String::from_utf8_lossy(&version.stdout).lines().next().unwrap_or_default());
    let folder = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(folder.path().join("init.lua"), &snippet).expect("written");
    std::fs::write(
        folder.path().join("typo.yaml"),
        "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    \
         server:\n      type: tosca.nodes.Compute\n      propertes: {}\n",
    )
    .expect("written");
    let binary = assert_cmd::cargo::cargo_bin("puccini-rs");
    let path =
        format!("{}:{}", binary.parent().expect("a folder").display(), std::env::var("PATH").unwrap_or_default());
    // Waits for the first diagnostics (at most 20 s), then prints the clients and diagnostics.
    let report = "lua vim.wait(20000, function() return #vim.diagnostic.get(0) > 0 end, 50); \
                  io.stdout:write(#vim.lsp.get_active_clients() .. ' client, ' .. #vim.diagnostic.get(0) \
                  .. ' diagnostic: ' .. (vim.diagnostic.get(0)[1] or { message = '' }).message .. '\\n'); \
                  vim.cmd('qa!')";
    let output = Command::new("nvim")
        .args(["--headless", "-u", "init.lua", "typo.yaml"])
        .arg(format!("+{report}"))
        .current_dir(folder.path())
        .env("PATH", path)
        .env("XDG_CACHE_HOME", folder.path())
        .env("XDG_STATE_HOME", folder.path())
        .output()
        .expect("nvim runs");
    let printed = String::from_utf8_lossy(&output.stdout);
    assert!(
        printed.contains("1 client, 1 diagnostic: unknown keyname `propertes`"),
        "{printed}{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
