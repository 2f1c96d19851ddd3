"""Fixtures for the autograph tests; the helpers they import are in autograph_helpers.py."""
import importlib.util
import pathlib
import sys

import pytest
from autograph_helpers import Python, assert_same, in_graph, plain  # noqa: F401 (re-exported)

import runtime as rt


@pytest.fixture
def run_in_graph():
    return in_graph


@pytest.fixture
def building_graph():
    """Inside a graph being built: converted code converts the user functions it calls only
    then (eagerly they run as they are, autograph/operators/call.py), so the tests of what a
    callee's conversion does run in one."""
    with rt.Graph().as_default() as graph:
        yield graph


@pytest.fixture
def import_file(monkeypatch):
    """import_file(path): the module in the file `path`, imported as `import NAME` would with
    its folder on sys.path (NAME its file's name, in sys.modules until the test ends; the path
    itself is left alone)."""
    def load(path):
        name = pathlib.Path(path).stem
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        monkeypatch.setitem(sys.modules, name, module)
        spec.loader.exec_module(module)
        return module
    return load
