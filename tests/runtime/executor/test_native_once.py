"""runtime/executor/native/once.py: the dispatchers of the helpers that generated code calls
(one compiled variant for all constants of a type) and the numpy namespace the generated code
sees."""
import numpy as np
import pytest

numba = pytest.importorskip('numba')

from runtime.executor.native import helpers, once  # noqa: E402  (imports numba)


def size(shape):
    return shape[0] * shape[1]


def test_constants_of_one_type_share_a_compiled_variant():
    helper = once.cached(size, cache=False)
    caller = numba.njit(lambda: helper((2, 3)) + helper((4, 5)))
    assert caller() == 26
    assert len(helper.signatures) == 1  # numba types each constant shape as its own literal
    assert 'Literal' not in str(helper.signatures[0])


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
