"""Fixtures for the autograph tests; the helpers they import are in autograph_helpers.py."""
import pytest
from autograph_helpers import Python, assert_same, in_graph, plain  # noqa: F401 (re-exported)


@pytest.fixture
def run_in_graph():
    return in_graph
