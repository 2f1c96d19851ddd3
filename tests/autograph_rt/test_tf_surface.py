"""The names `autograph_rt` gained for TensorFlow's API give TensorFlow's values: each program
of surface_cases.py, run through `import autograph_rt as tf`, against what TensorFlow 2.21 gave
(fixtures/tf_surface.json, written by tools/tf_surface_fixtures.py)."""
import json
import os

import numpy as np
import pytest
from surface_cases import CASES, describe

import autograph_rt as tf

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, 'fixtures', 'tf_surface.json')) as f:
    EXPECTED = json.load(f)


def same(expected, actual):
    if isinstance(expected, dict) and 'value' in expected:
        assert isinstance(actual, dict) and actual['dtype'] == expected['dtype']
        if expected['dtype'].startswith('float'):
            np.testing.assert_allclose(actual['value'], expected['value'], rtol=1e-5, atol=1e-6)
        else:
            assert actual['value'] == expected['value']
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected)
        for e, a in zip(expected, actual):
            same(e, a)
    else:
        assert actual == expected


def test_every_program_has_tensorflow_s_result():
    assert sorted(EXPECTED) == sorted(CASES)


@pytest.mark.parametrize('name', sorted(CASES))
def test_the_program_gives_tensorflow_s_values(name):
    same(EXPECTED[name], json.loads(json.dumps(describe(CASES[name](tf)))))
