"""ag.explain: which converted statements became graph ops while tracing, which ran as Python,
and how often Python loops were unrolled."""
import os

import pytest

import autograph as ag
import runtime as rt
from autograph.operators import recording

HERE = os.path.abspath(__file__)


def line_of(function, text):
    """The file line of the first line of `function`'s source holding `text`."""
    import inspect
    lines, first = inspect.getsourcelines(function)
    return first + next(i for i, line in enumerate(lines) if text in line)


def rows(report):
    return [(s.lineno, s.kind, s.mode, s.op, s.iterations) for s in report.statements]


def double_if_big(v):
    return v * 2 if v > 1 else v


def mixed(x, n):
    s = 0.0
    for i in range(n):
        s = s + x
    if x > 0:
        s = s * 2
        for j in range(2):
            s += 1
    y = 1.0 if n > 2 else 2.0
    both = x > 0 and x < 5
    either = n > 1 or n < 0
    while n > 0:
        n -= 1
    for k in range(3): s += k  # noqa: E701 - a one-line loop
    assert n == 0
    t = rt.constant(0.0)
    while t < x:
        t += 1.0
    return double_if_big(s + y), both, either, not both


def test_each_statement_that_ran_gets_its_kind_mode_op_and_unrolls_in_source_order():
    report = ag.explain(mixed, rt.constant(1.0), 4)
    line = lambda text: line_of(mixed, text)  # noqa: E731
    helper = line_of(double_if_big, 'return')
    assert rows(report) == [
        (helper, 'ifexp', 'staged', 'StatelessIf', None),
        (line('for i in'), 'for', 'python', None, 4),
        (line('if x > 0'), 'if', 'staged', 'StatelessIf', None),
        (line('for j in'), 'for', 'python', None, 2),
        (line('y = 1.0'), 'ifexp', 'python', None, None),
        (line('both ='), 'and', 'staged', 'LogicalAnd', None),
        (line('either ='), 'or', 'python', None, None),
        (line('while n > 0'), 'while', 'python', None, 4),
        (line('for k in'), 'for', 'python', None, 3),
        (line('assert n'), 'assert', 'python', None, None),
        (line('while t < x'), 'while', 'staged', 'StatelessWhile', None),
        (line('return double'), 'not', 'staged', 'LogicalNot', None),
    ]
    assert {s.filename for s in report.statements} == {HERE}


def test_the_table_names_file_line_kind_mode_and_op_or_iterations_with_unrolls_first():
    report = ag.explain(mixed, rt.constant(1.0), 6)
    text = str(report)
    header, unrolls, columns, *table = text.splitlines()
    assert header.startswith('ag.explain(mixed): a graph of ')
    assert '5 statements staged, 7 ran as Python' in header
    where = os.path.relpath(HERE)
    assert unrolls == (f'largest unrolls: {where}:{line_of(mixed, "for i in")} for '
                       f'(6 iterations), {where}:{line_of(mixed, "while n > 0")} while '
                       f'(6 iterations), {where}:{line_of(mixed, "for k in")} for (3 iterations)')
    assert columns.split() == ['location', 'kind', 'mode', 'op', '/', 'iterations']
    assert len(table) == len(report.statements)
    assert table[1].split() == [f'{where}:{line_of(mixed, "for i in")}', 'for', 'python', '6',
                                'iterations']
    assert table[-1].split() == [f'{where}:{line_of(mixed, "return double")}', 'not',
                                 'staged', 'LogicalNot']
    assert report.graph_ops > 0 and report.body_ops > 0


def test_a_longer_unroll_makes_a_larger_graph():
    small, large = ag.explain(mixed, rt.constant(1.0), 2), ag.explain(mixed, rt.constant(1.0), 20)
    assert large.graph_ops > small.graph_ops


def test_an_ag_function_is_explained_without_a_trace_or_a_cache_entry():
    counter = rt.Variable(0.0)

    @ag.function
    def step(x):
        if x > 0:
            counter.assign_add(x)
        return counter.read_value()

    report = ag.explain(step, rt.constant(3.0))
    assert [(s.kind, s.mode, s.op) for s in report.statements] == [('if', 'staged', 'If')]
    assert step.experimental_get_tracing_count() == 0
    assert counter.numpy() == 0.0     # the graph never ran
    step(rt.constant(3.0))
    assert step.experimental_get_tracing_count() == 1
    ag.explain(step, rt.constant(1.0))
    assert step.experimental_get_tracing_count() == 1 and counter.numpy() == 3.0


def test_a_function_with_an_input_signature_needs_no_arguments():
    @ag.function(input_signature=[rt.TensorSpec([None], rt.int32)])
    def total(xs):
        s = 0
        for x in xs:
            s += x
        return s

    report = ag.explain(total)
    assert [(s.kind, s.mode, s.op) for s in report.statements] == [
        ('for', 'staged', 'StatelessWhile')]
    with pytest.raises(TypeError):
        ag.explain(total, rt.constant([1.0]))


class Model:
    def __init__(self, steps):
        self.steps = steps

    def run(self, x):
        for _ in range(self.steps):
            x = x + 1
        return x

    @ag.function
    def traced(self, x):
        return x if x > 0 else -x


def test_methods_bound_and_ag_function_methods():
    report = ag.explain(Model(3).run, rt.constant(1))
    assert rows(report) == [(line_of(Model.run, 'for _ in'), 'for', 'python', None, 3)]
    model = Model(1)
    report = ag.explain(model.traced, rt.constant(1))
    assert [(s.kind, s.mode) for s in report.statements] == [('ifexp', 'staged')]
    assert model.traced.experimental_get_tracing_count() == 0


def test_inside_a_graph_being_built():
    seen = []

    @ag.function
    def outer(x):
        seen.append(ag.explain(double_if_big, x))
        return x + 1

    assert outer(rt.constant(2.0)).numpy() == 3.0
    assert [(s.kind, s.mode) for s in seen[0].statements] == [('ifexp', 'staged')]
    assert len(outer.get_concrete_function(rt.constant(2.0)).graph.operations) < 8


def test_python_values_only_stage_nothing():
    def choose(flag, n):
        if flag:
            return [i for i in range(n)] if n > 1 else None
        return not flag

    report = ag.explain(choose, True, 3)
    assert [(s.kind, s.mode) for s in report.statements] == [('if', 'python'),
                                                            ('ifexp', 'python')]
    assert report.graph_ops == 0


def test_an_error_while_tracing_leaves_no_recorder_behind():
    def broken(x):
        if x > 0:
            raise ValueError('no')
        return x

    with pytest.raises(ValueError, match='no'):
        ag.explain(broken, rt.constant(1))
    assert recording.recorder is None
    import sys
    assert sys.gettrace() is None or 'explain' not in repr(sys.gettrace())


def test_a_python_loop_inside_a_staged_loop_counts_the_traced_body_once():
    def nested(x):
        while x < 10:
            for _ in range(3):
                x = x + 1
        return x

    report = ag.explain(nested, rt.constant(0))
    assert [(s.kind, s.mode, s.iterations) for s in report.statements] == [
        ('while', 'staged', None), ('for', 'python', 3)]
