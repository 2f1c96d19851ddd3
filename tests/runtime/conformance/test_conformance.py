"""Every op of the registry against TensorFlow 2.21, from recorded fixtures (no TensorFlow
needed): the samples of the conformance database (tools/opinfo/) run eagerly and inside
`ag.function`, compared in value, dtype, shape, static shape, first and second order gradients
and error type (tools/conformance.py holds the comparison and its tolerances), plus a
finite-difference check of every gradient on smooth float64 samples.

Re-record the fixtures after changing the database:
    /path/to/tf-venv/bin/python -m tools.tf_conformance_fixtures
"""
from pathlib import Path

import pytest

from tools import conformance, opinfo

# the samples hold inf, nan and zeros on purpose: numpy's warnings about them are expected
pytestmark = pytest.mark.filterwarnings('ignore')
ENTRIES = opinfo.entries()
SAMPLED = [e for e in ENTRIES if e.samples is not None]
FIXTURES = conformance.load_fixtures()
ROOT = Path(__file__).resolve().parents[3]


def test_every_registry_op_has_an_entry():
    assert conformance.unsampled_registry_ops(ENTRIES) == []


def test_every_covered_op_names_where_it_is_checked():
    for entry in ENTRIES:
        assert (entry.samples is None) == bool(entry.covered_by), entry.name


def test_every_sampled_entry_has_fixtures_for_its_samples():
    for entry in SAMPLED:
        recorded = FIXTURES.get(entry.name, {}).get('samples', {})
        tags = [s.tag for s in entry.generate()]
        assert len(tags) == len(set(tags)), f'{entry.name}: sample tags repeat'
        assert sorted(recorded) == sorted(tags), \
            f'{entry.name}: record the fixtures again (tools/tf_conformance_fixtures.py)'


def test_the_deliberate_differences_are_documented():
    with open(ROOT / "docs" / "parity.md", encoding="utf-8") as f:
        text = f.read()
    for (entry, _, aspect), reason in {**conformance.DELIBERATE, **conformance.KNOWN}.items():
        assert f'`{entry}`' in text, f'docs/parity.md does not list {entry} ({aspect})'
        assert reason


@pytest.mark.parametrize('entry', SAMPLED, ids=lambda e: e.name)
def test_op_agrees_with_tensorflow(entry):
    _, found = conformance.run_entry(entry, FIXTURES)
    unexplained = [str(f) for f in found if not f.explained()]
    assert unexplained == []
