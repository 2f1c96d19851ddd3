"""tools/stdlib_diff.py prints, per module, the tests passing on the original and converted."""

import pytest

from tools import stdlib_diff

pytestmark = pytest.mark.skipif(not stdlib_diff.harness.lib_test_available(),
                                reason="CPython's Lib/test is not installed")


def test_stdlib_diff_prints_passed_tests_per_module(capsys, tmp_path):
    assert stdlib_diff.main(['colorsys', '--keep', str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:4] == ['module', 'original', 'converted', 'lost']
    row = lines[1].split()
    assert row[0] == 'colorsys' and int(row[1]) > 0 and row[1] == row[2] and row[3] == '0'
    assert lines[-1].split()[0] == 'total'
    assert (tmp_path / 'colorsys' / 'converted' / 'colorsys.py').exists()
