"""Re-rolling the generated function's repeated statements into loops (native/reroll.py): on
its parsed statements, its locals known from the tree, whatever their names."""
import ast
import itertools
import pathlib

import pytest

from runtime.executor.native import reroll


def lines(text):
    return [line[4:] for line in text.splitlines()[1:]]


def rolled(text, params=()):
    counters = itertools.count()
    return reroll.reroll(lines(text), params, lambda: f'repeat_{next(counters)}')


def test_repeated_blocks_become_the_first_and_a_loop_reading_the_last_ones_names():
    assert rolled('''
        scalar_index = p1[0]
        mat_mul = dot(p0, scalar_index)
        relu = loop_0(mat_mul, const)
        scalar_index_1 = p1[1]
        mat_mul_1 = dot(relu, scalar_index_1)
        relu_1 = loop_0(mat_mul_1, const)
        scalar_index_2 = p1[2]
        mat_mul_2 = dot(relu_1, scalar_index_2)
        relu_2 = loop_0(mat_mul_2, const)
        scalar_index_3 = p1[3]
        mat_mul_3 = dot(relu_2, scalar_index_3)
        relu_3 = loop_0(mat_mul_3, const)
        return (relu_3, )''', ['p0', 'p1', 'const']) == lines('''
        relu_3, = p0,
        for repeat_0 in range(0, 4):
            scalar_index_3 = p1[repeat_0]
            mat_mul_3 = dot(relu_3, scalar_index_3)
            relu_3 = loop_0(mat_mul_3, const)
        return (relu_3, )''')


def test_each_line_written_says_the_line_it_comes_from():
    written, origins = reroll.rerolled(lines('''
        a = f(x)
        b = kernel_0(a)
        c = kernel_0(b)
        d = kernel_0(c)
        return (d, )'''), ['x'], lambda: 'k')
    assert written == lines('''
        a = f(x)
        d, = a,
        for k in range(0, 3):
            d = kernel_0(d)
        return (d, )''')
    assert origins == [0, None, None, 3, 4]  # the loop's body is the last block


def test_a_first_block_reading_what_the_others_do_not_stays_before_the_loop():
    assert rolled('''
        add = g(x, y)
        add_1 = g(add, add)
        add_2 = g(add_1, add_1)
        add_3 = g(add_2, add_2)''', ['x', 'y']) == lines('''
        add = g(x, y)
        add_3, = add,
        for repeat_0 in range(1, 4):
            add_3 = g(add_3, add_3)''')


def test_integers_growing_by_a_step_become_expressions_of_the_counter():
    assert rolled('''
        call = kernel_0(3, x, 7)
        call_1 = kernel_0(5, call, 7)
        call_2 = kernel_0(7, call_1, 7)
        call_3 = kernel_0(9, call_2, 7)''', ['x']) == lines('''
        call_3, = x,
        for repeat_0 in range(0, 4):
            call_3 = kernel_0((2 * repeat_0 + 3), call_3, 7)''')


def test_runs_inside_loops_and_branches_roll_where_they_are():
    assert rolled('''
        for j in range(n):
            if j:
                a = f(x, 0)
                b = f(a, 1)
                c = f(b, 2)
            else:
                d = h(x)
            x = g(x)
        return (x, )''', ['x', 'n']) == lines('''
        for j in range(n):
            if j:
                c, = x,
                for repeat_0 in range(0, 3):
                    c = f(c, repeat_0)
            else:
                d = h(x)
            x = g(x)
        return (x, )''')


def test_blocks_of_compound_statements_roll_whole():
    assert rolled('''
        a = f(x)
        if a:
            a = g(a)
        b = f(a)
        if b:
            b = g(b)
        c = f(b)
        if c:
            c = g(c)''', ['x']) == lines('''
        c, = x,
        for repeat_0 in range(0, 3):
            c = f(c)
            if c:
                c = g(c)''')


@pytest.mark.parametrize('text', [
    # a local of a middle block read after the blocks
    '''
        b = f(a)
        c = f(b)
        d = f(c)
        e = f(d)
        return (c, e)''',
    # integers that do not grow by one step
    '''
        b = g(a, 1)
        c = g(b, 2)
        d = g(c, 4)
        e = g(d, 8)''',
    # the previous block's local read after this block assigns its own
    '''
        b = f(a)
        f_1 = h(b, a)
        c = f(b)
        f_2 = h(c, b)
        d = f(c)
        f_3 = h(d, c)
        e = f(d)
        f_4 = h(e, d)''',
    # a break, which a loop around the blocks would catch
    '''
        while a:
            if a:
                break
            if a:
                break
            if a:
                break''',
    # different floats
    '''
        b = f(a, 0.5)
        c = f(b, 1.5)
        d = f(c, 2.5)''',
    # the block before's local read in one branch after the other assigns this block's
    '''
        if a:
            b = f(a)
        else:
            b = g(a)
        if b:
            c = f(b)
        else:
            c = g(b)
        if c:
            d = f(c)
        else:
            d = g(c)''',
    # each block reads the next one's local (from the loop's iteration before)
    '''
        while a:
            b = f(c)
            c = f(d)
            d = f(e)
            e = f(a)''',
    # different outside names
    '''
        b = f(a)
        c = g(b)
        d = h(c)''',
])
def test_blocks_that_do_not_repeat_exactly_stay_as_they_are(text):
    assert rolled(text, ['a']) == lines(text)


def test_the_native_backend_has_no_regular_expression_over_its_own_output():
    # what it writes, it reads back as statements (native/reroll.py) or never
    native = pathlib.Path(reroll.__file__).parent
    for path in sorted(native.rglob('*.py')):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                assert 're' not in [alias.name for alias in node.names], path
            elif isinstance(node, ast.ImportFrom):
                assert node.module != 're', path
