"""Fixtures for the autograph tests; the helpers they import are in autograph_helpers.py."""
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
