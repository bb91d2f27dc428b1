"""The ```python examples of ``tosca-python/README.md``, run as written from the repository's
root: an example that raises (a key that is not in the topology, a problem code that does not
exist) fails here."""

import os
import pathlib
import re

import pytest

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"
ROOT = README.parents[1]
BLOCKS = re.findall(r"^```python\n(.*?)^```", README.read_text(), re.MULTILINE | re.DOTALL)


def test_the_readme_has_python_examples():
    assert BLOCKS


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_example_runs(index, capsys):
    before = os.getcwd()
    os.chdir(ROOT)
    try:
        exec(compile(BLOCKS[index], f"{README}:python block {index + 1}", "exec"), {"__name__": "readme"})
    finally:
        os.chdir(before)
    assert capsys.readouterr().out, "the example prints what it found"
