"""Fixtures for the runtime tests; the helpers they import are in runtime_helpers.py."""
import pytest
from runtime_helpers import check_op_row, check_value, run_in_graph  # noqa: F401 (re-exported)

import runtime as rt


@pytest.fixture
def graph():
    g = rt.Graph()
    with g.as_default():
        yield g
