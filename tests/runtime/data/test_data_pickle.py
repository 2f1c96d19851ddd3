"""Datasets pickle as their pipeline, the functions of map/filter/flat_map/scan as their traced
graphs, so a pipeline built in one process runs in another that never saw its source."""
import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import autograph as ag
import runtime as rt

ag.function  # noqa: B018 - loads autograph's operators, which convert the dataset functions

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__)))))


def collatz_steps(n):
    steps = rt.constant(0, rt.int64)
    while n > 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def pipelines(tmp_path):
    lines = tmp_path / 'lines.txt'
    lines.write_text('alpha\nbe\ngamma delta\n')
    offset = rt.constant(100, rt.int64)
    x = np.arange(12, dtype=np.float32).reshape(6, 2)
    return {
        'map with a loop and a branch': rt.data.Dataset.range(1, 12).map(collatz_steps),
        'filter and batch': rt.data.Dataset.range(20).filter(lambda v: v % 3 == 0).batch(3),
        'captured tensor': rt.data.Dataset.range(4).map(lambda v: v + offset),
        'tuples, seeded shuffle': rt.data.Dataset.from_tensor_slices((x, np.arange(6)))
        .map(lambda a, b: (rt.reduce_sum(a) * 2.0, b)).shuffle(6, seed=5),
        'flat_map of a mapped range': rt.data.Dataset.range(4).flat_map(
            lambda v: rt.data.Dataset.range(v).map(lambda w: w * 10 + v)),
        'scan': rt.data.Dataset.range(6).scan(np.int64(0), lambda s, v: (s + v, s * v)),
        'text lines': rt.data.TextLineDataset([str(lines)]).map(rt.strings.length),
        'shard of a zip': rt.data.Dataset.zip((rt.data.Dataset.range(9),
                                               rt.data.Dataset.range(9).map(lambda v: -v)))
        .shard(2, 1),
    }


def as_lists(dataset):
    return [tuple(np.asarray(c).tolist() for c in e) if isinstance(e, tuple)
            else np.asarray(e).tolist() for e in dataset.as_numpy_iterator()]


def test_pickled_pipelines_give_the_same_elements(tmp_path):
    for name, dataset in pipelines(tmp_path).items():
        restored = pickle.loads(pickle.dumps(dataset))
        assert as_lists(restored) == as_lists(dataset), name
        again = pickle.loads(pickle.dumps(restored.take(100)))  # and pickle again
        assert as_lists(again) == as_lists(dataset), name


def test_a_pickled_pipeline_runs_in_a_process_without_its_source(tmp_path):
    datasets = pipelines(tmp_path)
    (tmp_path / 'pipelines.pickle').write_bytes(pickle.dumps(datasets))
    probe = textwrap.dedent(f'''
        import pickle, sys
        import numpy as np
        datasets = pickle.loads(open({str(tmp_path / 'pipelines.pickle')!r}, 'rb').read())
        assert 'autograph' not in sys.modules
        out = {{name: [tuple(np.asarray(c).tolist() for c in e) if isinstance(e, tuple)
                      else np.asarray(e).tolist() for e in d.as_numpy_iterator()]
               for name, d in datasets.items()}}
        sys.stdout.write(repr(out))
    ''')
    result = subprocess.run([sys.executable, '-c', probe], capture_output=True, text=True,
                            timeout=120, cwd=tmp_path, env={**os.environ, 'PYTHONPATH': ROOT})
    assert result.returncode == 0, result.stderr
    assert eval(result.stdout) == {name: as_lists(d) for name, d in datasets.items()}


def test_a_generator_dataset_refuses_to_pickle():
    dataset = rt.data.Dataset.from_generator(lambda: iter([1, 2]),
                                             output_signature=rt.TensorSpec([], rt.int32))
    with pytest.raises(TypeError, match='from_generator runs Python code'):
        pickle.dumps(dataset.map(lambda v: v + 1))


def test_a_captured_variable_travels_as_a_copy_of_its_value():
    offset = rt.Variable(5, dtype=rt.int64)
    restored = pickle.loads(pickle.dumps(rt.data.Dataset.range(3).map(lambda v: v + offset)))
    offset.assign(100)
    assert as_lists(restored) == [5, 6, 7]
