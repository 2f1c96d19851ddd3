"""The on-disk cache's index (docs/jit.md, *Compile cost and caching*): a graph's key holds what
its optimization and lowering read, so equal graphs traced apart share it and graphs that lower
differently do not; an index entry gives the source and calling convention of its code, and
only conventions that hold nothing of one process are recorded."""
import os
import pickle

import numpy as np
import pytest

import autograph as ag
import runtime as rt
from runtime.core import dtypes
from runtime.executor import ir, native, passes
from runtime.executor.native import calling, keys, team
from tools import workloads

pytest.importorskip('numba')


@pytest.fixture
def jit_cache(tmp_path, monkeypatch):
    monkeypatch.setenv('AUTOGRAPH_RT_JIT_CACHE', str(tmp_path / 'jit'))
    return tmp_path / 'jit'


def key_of(function, *args):
    graph = ag.function(function).get_concrete_function(*args).graph
    return keys.program_key(ir.lower(graph, graph.inputs, graph.outputs), passes.PIPELINE)


def scaled(x):
    return x * np.float32(2.0) + 1.0


def scaled_otherwise(x):
    return x * np.float32(3.0) + 1.0


def counted(n):
    total = rt.constant(0)
    for i in rt.range(n):
        total += i * 2
    return total


def counted_otherwise(n):
    total = rt.constant(0)
    for i in rt.range(n):
        total += i * 3
    return total


def products(a, b):
    return rt.matmul(a, b, transpose_b=True)


def products_otherwise(a, b):
    return rt.matmul(a, b, transpose_a=True)


def test_equal_graphs_traced_apart_share_a_key_and_different_ones_do_not():
    x = rt.constant(np.ones((3, 3), np.float32))
    n = rt.constant(5)
    pairs = [(scaled, scaled_otherwise, (x,)), (counted, counted_otherwise, (n,)),
             (products, products_otherwise, (x, x))]
    found = set()
    for function, other, args in pairs:
        key = key_of(function, *args)
        # another trace: new graph and function names (`while_body_12`), the same key
        assert key is not None and key == key_of(function, *args), function.__name__
        assert key_of(other, *args) not in (key, None), function.__name__  # a constant, an attr
        found.add(key)
    assert len(found) == len(pairs)
    # the input's shape is the graph's too
    assert key_of(scaled, rt.constant(np.ones((3, 4), np.float32))) != key_of(scaled, x)


def test_a_program_holding_a_payload_the_digest_cannot_read_has_no_key():
    graph = ag.function(scaled).get_concrete_function(
        rt.constant(np.ones(3, np.float32))).graph
    program = ir.lower(graph, graph.inputs, graph.outputs)
    assert keys.program_key(program, passes.PIPELINE) is not None
    program.nodes[-1].payload = object()  # a generator, a table...: not read by the digest
    assert keys.program_key(program, passes.PIPELINE) is None


def test_a_convention_recorded_and_read_back_is_the_same_but_for_shared_arrays():
    convention = calling.Convention()
    convention.param(0, False, False)
    convention.param(1, False, True)
    rooms = np.zeros(2, np.int64)
    convention.constant('rooms', rooms)
    convention.constant('mail', team.MAIL)
    convention.output(rt.float32, rt.TensorShape([3, None]), False)
    convention.output(dtypes.variant, rt.TensorShape([]), True)
    convention.shares = True
    assert convention.recordable
    record = pickle.loads(pickle.dumps(convention.record((team.MAIL,))))
    again = calling.Convention.from_record(record, (team.MAIL,))
    assert again.params == convention.params and again.outputs == convention.outputs
    assert again.writes == convention.writes and again.shares
    (name, value), (mail_name, mail) = again.constants
    assert (name, mail_name) == ('rooms', 'mail') and mail is team.MAIL  # the process's own
    assert value is not rooms and np.array_equal(value, rooms)  # each plan's own copy
    convention.kernels.append(object())
    assert not convention.recordable  # a kernel call holds this process's op


def test_a_graph_calling_a_kernel_is_not_in_the_index(jit_cache):
    def noted(x):
        rt.print('x is', x)
        return x + 1

    compiled = ag.function(noted, jit_compile=True)
    assert compiled(rt.constant(2)).numpy() == 3
    assert not os.path.exists(jit_cache / 'index')
    compiled = ag.function(workloads.range_sum, jit_compile=True)
    assert compiled(rt.constant(4)).numpy() == 6
    assert len(os.listdir(jit_cache / 'index')) == 1


def test_an_entry_that_does_not_read_back_is_none_and_the_graph_lowers(jit_cache):
    first = ag.function(workloads.range_sum, jit_compile=True)
    assert first(rt.constant(4)).numpy() == 6
    (name,) = os.listdir(jit_cache / 'index')
    (jit_cache / 'index' / name).write_bytes(b'cut short')
    assert native.cache.entry(name[:-len('.pickle')]) is None
    again = ag.function(workloads.range_sum, jit_compile=True)
    assert again(rt.constant(5)).numpy() == 10
    assert native.cache.entry(name[:-len('.pickle')])['source'] == \
        again.get_concrete_function(rt.constant(5))._run.source
