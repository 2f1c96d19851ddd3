"""What keeps `jit_compile=True` fast to compile and to run (docs/jit.md, "Compile cost"):
the generated code's form, checked on the bench's workloads (which test_native.py checks
for results; both compile into the session's temp dir, so each graph compiles once)."""
import os
import re
import sys

import pytest

import autograph as ag
import runtime as rt

pytest.importorskip('numba')

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '..', '..', 'tools'))
import bench  # noqa: E402


@pytest.fixture(autouse=True)
def jit_cache(tmp_path_factory, monkeypatch):
    """The temp dir test_native.py compiles into: a graph both compile compiles once."""
    monkeypatch.setenv('AUTOGRAPH_RT_JIT_CACHE', str(tmp_path_factory.getbasetemp() / 'jit'))


def source_of(workload):
    jit = ag.function(workload.program(), jit_compile=True)
    args = workload.arguments()
    jit(*args)
    return jit.get_concrete_function(*args)._run.source


def workload(function):
    return next(w for w in bench.WORKLOADS if w.function is function)


def loop_bodies(source):
    """The lines inside the generated function's `for` and `while` loops."""
    lines, inside, bodies = source.splitlines(), None, []
    for line in lines[lines.index(next(x for x in lines if x.startswith('def native('))):]:
        depth = len(line) - len(line.lstrip())
        if inside is not None and depth <= inside:
            inside = None
        if inside is not None:
            bodies.append(line)
        elif re.match(r'\s*(for|while) ', line):
            inside = depth
    return bodies


def test_lists_two_loop_vars_start_from_are_copied_once_not_at_every_write():
    # the RNN gradient's forward loop keeps two accumulators that start as one reserved
    # list: each is copied when the loop starts, and written in place in the loop
    source = source_of(workload(bench.rnn_gradient))
    assert '[0].copy(), ' in source
    assert not any('[0].copy(), ' in line for line in loop_bodies(source))


def test_a_loop_writing_a_list_its_input_shares_with_another_gives_the_default_results():
    def accumulate(x, n):
        first = rt.TensorArray(rt.float32, size=0, dynamic_size=True)
        second = first  # one list, two loop vars
        for i in rt.range(n):
            first = first.write(i, x * rt.cast(i, rt.float32))
            second = second.write(i, x + 1.0)
        return first.stack(), second.stack(), first.size()

    default, jit = ag.function(accumulate), ag.function(accumulate, jit_compile=True)
    x, n = rt.constant([1.0, 2.0]), rt.constant(11)
    for got, expected in zip(jit(x, n), default(x, n)):
        assert (got.numpy() == expected.numpy()).all()
