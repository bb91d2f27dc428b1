"""The type stub (puccini_rs.pyi, installed as the package's __init__.pyi) matches the module."""

import subprocess
import sys

import pytest


def test_stub_matches_the_module(tmp_path):
    pytest.importorskip("mypy.stubtest")
    # maturin's layout: the native library is a submodule the package re-exports.
    allowlist = tmp_path / "allowlist.txt"
    allowlist.write_text("puccini_rs.puccini_rs\n")
    run = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "puccini_rs", "--allowlist", str(allowlist)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stdout + run.stderr
