"""The native backend's structure, without compiling: element expressions are trees whose
operands and "may raise" are fields (native/rules/expr.py), which TensorLists are boxed is
settled by the list analysis before lowering (native/lists.py), and locals are named by the
lowering's Namespace."""
import ast

import numpy as np
import pytest

import autograph as ag
import runtime as rt
from runtime.executor.native import emitter
from runtime.executor.native.rules.expr import (
    Apply,
    Buffer,
    Index,
    Read,
    Rendering,
    Source,
    is_element_read,
    may_raise,
    reads,
)

pytest.importorskip('numba')  # lowering reads the names of the helpers, which import it
from runtime.executor.native import helpers  # noqa: E402  (imports numba)


def test_an_expression_renders_once_with_its_reads_renamed():
    x = Index(Read('v3'), (Source('i0'), Source('0')))
    total = Apply(lambda a, b, c: f'{a} + {b} * {c}', (x, Read('v7'), x))
    assert total.render() == 'v3[i0, 0] + v7 * v3[i0, 0]'
    assert reads([total]) == ['v3', 'v7']
    assert total.render(Rendering({'v3': 'a0', 'v7': 'a1'})) == 'a0[i0, 0] + a1 * a0[i0, 0]'
    assert Buffer(2).render(Rendering(buffers={2: 0})) == 'b0[k]'
    assert is_element_read(x) and not is_element_read(total)


def test_whether_an_expression_may_raise_is_a_field_of_its_forms():
    safe = Apply(lambda a: f'-{a}', (Read('v1'),))
    assert not may_raise([safe])
    assert may_raise([safe, Apply(lambda a: f'floordiv_scalar({a}, 2)', (safe,), raises=True)])


def lowered(function, *args):
    """The native source of `function` on `args` (lowered, not compiled)."""
    plan = ag.function(function, jit_compile=True).get_concrete_function(*args)._run
    return emitter.lower(plan._program())[0]


def rows_stacked(x):
    rows = rt.TensorArray(rt.float32, size=0, dynamic_size=True)
    for i in rt.range(x.shape[0]):
        rows = rows.write(i, x[i] * 2.0)
    return rows.stack()


def rows_gathered(x):
    rows = rt.TensorArray(rt.float32, size=0, dynamic_size=True)
    for i in rt.range(x.shape[0]):
        rows = rows.write(i, x[i] * 2.0)
    return rows.gather([0, 2])


def test_a_list_native_code_lays_out_is_written_natively():
    source = lowered(rows_stacked, rt.constant(np.ones((4, 3), np.float32)))
    assert 'list_reserve_growing(' in source and 'list_grow(' in source
    assert 'call_kernel' not in source


def summed(x, y, z):
    return rt.math.add_n([x, y * 2.0, z])


def test_add_n_is_written_natively_adding_in_order():
    scalar, matrix = rt.constant(1.5), rt.constant(np.ones((2, 3), np.float32))
    for args in ((scalar, scalar, scalar), (matrix, matrix, matrix)):
        source = lowered(summed, *args)
        assert 'call_kernel' not in source
    assert '((p0 + ' in lowered(summed, scalar, scalar, scalar)  # x first, then y * 2, then z
    compiled = ag.function(summed, jit_compile=True)
    assert compiled(scalar, scalar, scalar).numpy() == 6.0
    assert np.array_equal(compiled(matrix, matrix, matrix).numpy(), np.full((2, 3), 4.0))


def test_a_list_one_kernel_call_needs_is_boxed_for_all_its_ops_before_lowering():
    # gather has no native form on a list of dynamic size: its kernel reads the runtime's
    # TensorList, so the reserve and the writes of that list call their kernels too
    source = lowered(rows_gathered, rt.constant(np.ones((4, 3), np.float32)))
    assert 'list_reserve(' not in source and 'list_reserve_growing(' not in source
    assert 'list_grow(' not in source
    assert source.count('call_kernel') >= 3


def likes(x, y):
    return rt.zeros_like(x) + y, rt.ones_like(y)


def test_locals_are_named_after_their_ops_and_shadow_nothing_the_function_calls():
    source = lowered(likes, *[rt.constant(np.ones(3, np.float32))] * 2)
    native = source[source.index('def native('):]
    assert 'add_v2 = out' in native  # its loop nest, called once, is written in the function
    # OnesLike's value is named after the op, but `ones_like` is a helper's name; a new array
    # of ones, not a loop writing them
    assert 'ones_like_1 = np.ones((3,), np.float32)' in native
    tree = ast.parse(source)
    functions = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    assigned = {node.id for node in ast.walk(tree.body[-1])
                if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load)}
    assert not assigned & (set(helpers.EXPORTS) | functions | set(emitter.MODULE_NAMES))


def unrolled_in_a_loop(x, w, n):
    i = rt.constant(0)
    while i < n:
        for k in range(4):  # unrolled by Python into the loop's body
            x = rt.matmul(x, w[2 * k + 1]) + 1.0
        i += 1
    return x


def test_blocks_unrolled_inside_a_tensor_loop_are_re_rolled_there():
    x, w = rt.constant(np.ones((4, 4), np.float32)), rt.constant(np.ones((8, 4, 4), np.float32))
    source = lowered(unrolled_in_a_loop, x, w, rt.constant(3))
    native = source[source.index('def native('):].splitlines()
    head = next(k for k, line in enumerate(native) if 'for repeat in range(0, 4):' in line)
    assert native[head].startswith('        ')  # inside the counted loop's body
    assert '[(2 * repeat + 1)]' in native[head + 1] and source.count('dot(') == 1
