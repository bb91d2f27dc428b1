"""What the module shares with the puccini-rs binary at run time: its allocator, the size limit
of a template, and Ctrl-C interrupting a long compile."""

import signal
import threading
import time

import pytest

import puccini_rs

LIMIT = 64 * 1024 * 1024


def big_template(pairs):
    """`pairs` servers each hosting a DBMS: about 2 s per 2,000 pairs in a dev build."""
    lines = ["tosca_definitions_version: tosca_simple_yaml_1_3", "topology_template:", "  node_templates:"]
    for i in range(pairs):
        lines.append(f"    s{i}: {{ type: tosca.nodes.Compute }}")
        lines.append(f"    d{i}: {{ type: tosca.nodes.DBMS, requirements: [ {{ host: s{i} }} ] }}")
    return "\n".join(lines) + "\n"


def test_the_extension_allocates_with_mimalloc():
    # The binary's allocator is linked in (its messages and option names are in the library);
    # with the system allocator a resolution-heavy template compiled 2-4 times slower.
    # maturin's layout: the native library is the package's submodule of the same name.
    native = getattr(puccini_rs, "puccini_rs", puccini_rs)
    with open(native.__file__, "rb") as library:
        assert b"mimalloc" in library.read()


def test_text_in_memory_has_the_limit_of_a_file():
    # The CLI refuses a file over 64 MiB; compile_text accepted 92 MiB.
    text = "#" * (LIMIT + 1)
    result = puccini_rs.compile_text(text, name="big.yaml")
    assert not result.ok
    assert [problem.message for problem in result.problems] == ["cannot read big.yaml: larger than the 64 MiB limit"]
    assert [problem.message for problem in puccini_rs.validate_text(text.encode(), name="big.yaml")] == [
        "cannot read big.yaml: larger than the 64 MiB limit"
    ]


def test_ctrl_c_interrupts_a_long_compile():
    # Before, the signal waited for the compile to end (3 s for 8,000 pairs in a dev build, 12,000
    # here); now the
    # compile stops and KeyboardInterrupt is raised within a signal check.
    text = big_template(12_000)
    main = threading.main_thread().ident
    timer = threading.Timer(0.3, lambda: signal.pthread_kill(main, signal.SIGINT))
    started = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        puccini_rs.compile_text(text)
        # A build fast enough to finish first sees the signal here, at once.
        time.sleep(5)
    elapsed = time.monotonic() - started
    timer.join()
    assert elapsed < 2.0, f"interrupted after {elapsed:.1f} s"
    # The module is not left stuck: the next compile runs to its end.
    assert puccini_rs.compile_text(big_template(10)).ok
