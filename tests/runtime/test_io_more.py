"""The programs of tools/io_more_cases.py (tf.train.Example bytes, TFRecord files, file
datasets, tf.data.experimental, check numerics) give with `autograph_rt` what TensorFlow gave
(tests/runtime/fixtures/io_more.json, written by tools/tf_io_more_fixtures.py)."""
import json
import os

import pytest

import autograph_rt as tf
from tools import io_more_cases

pytestmark = pytest.mark.filterwarnings('ignore::RuntimeWarning')  # inf and nan on purpose
FIXTURE = os.path.join(os.path.dirname(__file__), 'fixtures', 'io_more.json')
with open(FIXTURE) as _f:
    RECORDED = json.load(_f)['cases']


def test_every_case_is_recorded():
    assert sorted(RECORDED) == sorted(io_more_cases.CASES)


@pytest.mark.parametrize('name', sorted(io_more_cases.CASES))
def test_case_gives_what_tensorflow_gave(name, tmp_path):
    assert io_more_cases.CASES[name](tf, str(tmp_path)) == RECORDED[name]
