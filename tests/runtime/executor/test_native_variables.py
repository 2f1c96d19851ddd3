"""`jit_compile=True` and the graphs `pytest --jit` found it wrong on: variables of restored
graphs (whose reads have no shape) read and written natively, a variable a dataset loop's
function writes, and a loop variable whose rank the body does not know."""
import numpy as np
import pytest

import autograph as ag
import runtime as rt
from runtime import executor

pytest.importorskip('numba')


@pytest.fixture(autouse=True)
def jit_cache(tmp_path_factory, monkeypatch):
    """The temp dir test_native.py compiles into."""
    monkeypatch.setenv('AUTOGRAPH_RT_JIT_CACHE', str(tmp_path_factory.getbasetemp() / 'jit'))


class Tally(rt.Module):
    def __init__(self):
        super().__init__()
        self.count = rt.Variable(0.0)
        self.offset = rt.Variable(10.0)

    @ag.function
    def loop(self, n):
        total = rt.constant(0.0)
        for _ in rt.range(n):
            self.count.assign_add(1.0)
            total += self.count + self.offset
        return total


def test_a_restored_graphs_variables_are_native_locals_read_and_written(tmp_path):
    module = Tally()
    module.loop(rt.constant(1))
    ag.saved_model.save(module, str(tmp_path / 'tally'))
    loaded = ag.saved_model.load(str(tmp_path / 'tally'))
    (function,) = loaded.loop.concrete_functions
    plan = executor.compile_graph(function.graph, function.inputs, function.outputs,
                                  jit_compile=True)
    loaded.count.assign(5.0)  # an assignment from outside is seen
    (total,) = plan(np.int32(2))
    assert float(total) == (6 + 10) + (7 + 10) and float(loaded.count.numpy()) == 7.0
    assert 'call_kernel' not in plan.source  # the reads have the variable's shape


def test_a_variable_that_a_dataset_loops_function_writes_keeps_the_writes():
    v = rt.Variable(0, dtype=rt.int64)

    @ag.function(jit_compile=True)
    def accumulate(ds):
        for x in ds:
            v.assign_add(x)
        return v.read_value()
    assert int(accumulate(rt.data.Dataset.range(5))) == 10
    assert int(accumulate(rt.data.Dataset.range(3))) == 13 and int(v.numpy()) == 13


def last_scaled(v, n):
    for i in rt.range(n):
        last = v * rt.cast(i, rt.float32)
    return last


def test_a_loop_variable_of_unknown_rank_in_the_body_runs_as_the_default_executor():
    # `last`, first set in the loop, enters it as a placeholder native code holds and leaves
    # the body of unknown rank (a boxed value): the loop runs as the default executor's plans
    signature = [rt.TensorSpec(None, rt.float32), rt.TensorSpec([], rt.int32)]
    jit = ag.function(last_scaled, input_signature=signature, jit_compile=True)
    default = ag.function(last_scaled, input_signature=signature)
    for args in ((rt.constant([[1.0, 2.0]]), rt.constant(3)), (rt.constant(5.0), rt.constant(2))):
        got, expected = jit(*args), default(*args)
        assert got.shape == expected.shape
        np.testing.assert_array_equal(got.numpy(), expected.numpy())
