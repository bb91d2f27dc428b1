"""The wheel's `puccini-rs` command (the console script running the CLI in-process, src/cli.rs):
installed beside the interpreter, with the binary's exit codes and output."""

import json
import pathlib
import signal
import subprocess
import sys
import sysconfig
import time

import pytest

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture(scope="module")
def command():
    script = pathlib.Path(sysconfig.get_path("scripts")) / "puccini-rs"
    assert script.exists(), f"the wheel installed no console script at {script}"
    return str(script)


def run(command, *args):
    return subprocess.run([command, *args], capture_output=True, text=True, timeout=60)


def test_version(command):
    done = run(command, "--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("puccini-rs 0."), done.stdout


def test_compile_prints_the_topology_as_json(command):
    done = run(command, "compile", str(EXAMPLES / "web-shop.yaml"))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["node_templates"]


def test_problems_are_exit_1_and_usage_mistakes_exit_2(command):
    done = run(command, "validate", str(EXAMPLES / "typo.yaml"))
    assert done.returncode == 1, done.stderr
    assert "typo.yaml:" in done.stdout + done.stderr
    done = run(command, "no-such-command")
    assert done.returncode == 2
    assert "unrecognized subcommand" in done.stderr


def test_the_module_and_the_command_agree(command):
    import puccini_rs

    done = run(command, "compile", str(EXAMPLES / "web-shop.yaml"))
    assert json.loads(done.stdout) == puccini_rs.compile(EXAMPLES / "web-shop.yaml").topology


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_ends_the_command(command):
    # `lsp` waits on its standard input inside the compiler's code: under the interpreter's
    # own SIGINT handler it would go on waiting.
    process = subprocess.Popen([command, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        time.sleep(0.5)
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=10) == -signal.SIGINT
    finally:
        process.kill()
        process.wait()
