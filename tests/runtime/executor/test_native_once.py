"""runtime/executor/native/once.py: the dispatchers of the helpers that generated code calls
(one compiled variant for all constants of a type; unlinked helpers called by their symbol)
and the numpy namespace the generated code sees."""
import numpy as np
import pytest

numba = pytest.importorskip('numba')

from runtime.executor.native import helpers, once  # noqa: E402  (imports numba)


def size(shape):
    return shape[0] * shape[1]


def scaled(x, factor):
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        out[i] = x[i] * factor
    return out


def test_constants_of_one_type_share_a_compiled_variant():
    helper = once.cached(size, cache=False)
    caller = numba.njit(lambda: helper((2, 3)) + helper((4, 5)))
    assert caller() == 26
    assert len(helper.signatures) == 1  # numba types each constant shape as its own literal
    assert 'Literal' not in str(helper.signatures[0])


def test_an_unlinked_helper_is_called_by_its_symbol_not_compiled_into_the_caller():
    helper = once.cached(scaled, linked=False, cache=False)
    linked = once.cached(scaled, cache=False)
    unlinked_caller = numba.njit(lambda x: helper(x, 2.0).sum())
    linked_caller = numba.njit(lambda x: linked(x, 2.0).sum())
    x = np.arange(5.0)
    assert unlinked_caller(x) == linked_caller(x) == 20.0
    symbol = helper.overloads[helper.signatures[0]].fndesc.mangled_name
    ir = next(iter(unlinked_caller.inspect_llvm().values()))
    lines = [line for line in ir.splitlines() if symbol in line]
    assert any(line.startswith('declare') for line in lines)  # called, its code elsewhere
    assert not any(line.startswith('define') for line in lines)
    linked_symbol = linked.overloads[linked.signatures[0]].fndesc.mangled_name
    linked_ir = next(iter(linked_caller.inspect_llvm().values()))
    assert any(line.startswith('define') and linked_symbol in line
               for line in linked_ir.splitlines())


def test_generated_code_sees_numpy_with_cached_allocation_functions():
    namespace = helpers.namespace()
    generated_np = namespace['np']
    assert generated_np.__name__ == 'numpy'  # numba's passes recognize numpy's functions by it
    assert generated_np.empty is once.empty and generated_np.zeros is once.zeros
    assert generated_np.float32 is np.float32 and generated_np.exp is np.exp
    make = numba.njit(lambda n: (once.empty((n, 2), np.float32).shape,
                                 once.zeros(n, np.bool_).sum(), once.ones(n, np.int32).sum(),
                                 once.ascontiguousarray(np.arange(6).reshape(2, 3).T).shape))
    assert make(3) == ((3, 2), 0, 3, (3, 2))


def test_cached_code_whose_helpers_cannot_load_is_a_cache_miss():
    dispatcher = once.cached(size)
    dispatcher.enable_caching()
    # numba's cache asks its implementation to rebuild what it read; a helper that cannot be
    # loaded first makes that a miss (None: numba compiles), not an error or a crash
    rebuild = dispatcher._cache._impl.rebuild
    assert rebuild(dispatcher.targetctx, ((('no_such_module', 'f', ()),), None)) is None
    assert rebuild(dispatcher.targetctx, 'a payload of an older format') is None
