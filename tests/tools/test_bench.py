"""tools/bench.py runs and reports every figure (no timing is asserted)."""
import dataclasses
import json
import os

import pytest

from tools import bench, bench_jit
from tools.workloads import WORKLOADS


def test_bench_prints_every_figure_as_json(capsys):
    bench.main(['--quick', '--json', '--no-jit'])
    report = json.loads(capsys.readouterr().out)
    figures = [row['figure'] for row in report['figures']]
    assert report['numpy']
    for expected in ('power(x,100) graph', 'power(x,100) eager', 'rt.range(1000) sum loop',
                     'steady call of simple_relu', 'first call', 'to_code(simple_relu)',
                     'chain of 100 adds', 'two independent', 'MLP train step (tape + Adam) graph',
                     'MLP train step (tape + Adam) eager', 'Collatz steps', 'if/elif chain',
                     '200 TensorArray writes', 'elementwise chain', 'rt.data epoch: ',
                     'rt.data epoch / hand numpy', 'rt.data epoch, map before batch',
                     'rt.summary.scalar in a traced step', 'converted plain Python: heap',
                     'converted plain Python: parser loop',
                     'converted plain Python: recursive walk'):
        assert any(f.startswith(expected) for f in figures), expected
    for row in report['figures']:
        assert row['ours_us'] > 0 and row['reference_us'] > 0


def test_bench_prints_a_table(capsys):
    bench.main(['--quick', '--no-jit'])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith('numpy ') and 'ratio' in lines[1]
    # the seed's figures, training's, rt.data's, rt.summary's, converted plain
    # Python's, the control-flow workloads, then the model workloads
    assert len(lines) == 2 + 8 + 2 + 3 + 2 + 3 + 7 + 3


def test_bench_prints_the_jit_table_with_numba(capsys):
    pytest.importorskip('numba')
    bench.main(['--quick', '--json'])
    rows = json.loads(capsys.readouterr().out)['jit']
    assert rows[0]['workload'].startswith('numba import')
    assert [row['workload'] for row in rows[1:]] == [  # the one table of workloads
        'power(x,100), 10x10 int32', 'rt.range(1000) sum loop', 'Collatz steps for 1..100',
        'if/elif chain in a 500-step loop', '200 TensorArray writes of x[i] * 2 then stack',
        'elementwise chain on 1M float32', 'MLP forward, 50 layers 64x64',
        'training step: MLP, sparse xent, tape, SGD', 'RNN gradient through rt.range(20)']
    for row in rows[1:]:
        assert row['jit_us'] > 0 and row['numpy_us'] > 0 and row['jit_first_call_ms'] > 0


def test_bench_jit_first_call_with_an_empty_cache_leaves_the_cache_alone(tmp_path, monkeypatch,
                                                                          capsys):
    pytest.importorskip('numba')
    monkeypatch.setenv('AUTOGRAPH_RT_JIT_CACHE', str(tmp_path))
    bench_jit.main(['--first-call', '1', '--empty-cache'])  # the sum loop, cold
    assert float(capsys.readouterr().out) > 0
    assert not list(tmp_path.iterdir())  # it compiled into a temp dir of its own
    assert os.environ['AUTOGRAPH_RT_JIT_CACHE'] == str(tmp_path)
    bench_jit.main(['--first-call', '1'])  # from the usual cache: the one set
    assert float(capsys.readouterr().out) > 0
    assert any(path.suffix == '.py' for path in tmp_path.iterdir())
    bench_jit.main(['--first-call', '1', '--until-native'])
    # ms of the first call, ms until native code runs, µs of a steady call, CPU ms until native
    first, until_native, steady, cpu = map(float, capsys.readouterr().out.split())
    assert until_native >= first > 0 and steady > 0 and cpu > 0


def test_bench_jit_new_processes_run_the_workload_by_its_index_in_workloads():
    # measure_jit([WORKLOADS[3]]) must start `--first-call 3`, not its position 0 in the list
    assert [bench_jit.workload_index(w) for w in WORKLOADS[3:5]] == [3, 4]
    with pytest.raises(ValueError, match='not one of WORKLOADS'):
        bench_jit.workload_index(dataclasses.replace(WORKLOADS[0], name='elsewhere'))


def test_bench_jit_times_each_math_op_alone_compiled_and_not(capsys):
    pytest.importorskip('numba')
    rows = bench_jit.measure_ops(quick=True, size=1000)
    assert [row['op'] for row in rows] == [f'{name} {dtype}' for dtype in ('float32', 'float64')
                                           for name in ('exp', 'log', 'tanh', 'sin')]
    for row in rows:
        assert row['jit_us'] > 0 and row['default_us'] > 0 and row['ratio'] > 0
    bench_jit.print_ops(rows)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 + 8 and lines[2].startswith('exp float32')
