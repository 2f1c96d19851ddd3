"""analysis.cfg: a function in, the edges of its control-flow graph out."""
import textwrap

import pytest

from autograph.analysis import activity, cfg
from autograph.pyct import parser


def graph_of(source):
    node = parser.parse(textwrap.dedent(source).lstrip('\n')).body[0]
    activity.analyze(node)
    return cfg.build(node)


def labels(graph):
    joins = {id(join): stmt for stmt, join in graph.joins.items()}

    def label(node):
        if node is graph.entry:
            return 'entry'
        if node is graph.exit:
            return 'exit'
        if node.ast_node is None:
            stmt = joins[id(node)]
            return f'join {type(stmt).__name__}:{stmt.lineno}'
        return f'{type(node.ast_node).__name__}:{node.ast_node.lineno}'
    return label


def edges(graph):
    label = labels(graph)
    found = {(label(a), label(b)) for a in graph.nodes for b in a.next}
    assert found == {(label(a), label(b)) for b in graph.nodes for a in b.prev}  # both ways
    return found


GRAPHS = [
    ('''
     def f(x):
         if x:
             y = 1
         else:
             y = 2
         return y
     ''', {('entry', 'If:2'), ('If:2', 'Assign:3'), ('If:2', 'Assign:5'),
           ('Assign:3', 'join If:2'), ('Assign:5', 'join If:2'), ('join If:2', 'Return:6'),
           ('Return:6', 'exit')}),
    ('''
     def f(n):
         while n > 0:
             if n == 3:
                 break
             n -= 1
         return n
     ''', {('entry', 'While:2'), ('While:2', 'If:3'), ('If:3', 'Break:4'),
           ('If:3', 'join If:3'), ('join If:3', 'AugAssign:5'), ('AugAssign:5', 'While:2'),
           ('While:2', 'join While:2'), ('Break:4', 'join While:2'),
           ('join While:2', 'Return:6'), ('Return:6', 'exit')}),
    ('''
     def f(xs):
         for x in xs:
             if x:
                 continue
             return x
         else:
             z = 0
     ''', {('entry', 'For:2'), ('For:2', 'If:3'), ('If:3', 'Continue:4'),
           ('Continue:4', 'For:2'), ('If:3', 'join If:3'), ('join If:3', 'Return:5'),
           ('Return:5', 'exit'), ('For:2', 'Assign:7'), ('Assign:7', 'join For:2'),
           ('join For:2', 'exit')}),
    ('''
     def f():
         try:
             a = g()
         except ValueError as e:
             a = e
         return a
     ''', {('entry', 'Try:2'), ('Try:2', 'Assign:3'), ('Assign:3', 'join Try:2'),
           ('Try:2', 'ExceptHandler:4'), ('Assign:3', 'ExceptHandler:4'),
           ('ExceptHandler:4', 'Assign:5'), ('Assign:5', 'join Try:2'),
           ('join Try:2', 'Return:6'), ('Return:6', 'exit')}),
    ('''
     def f(x):
         with open(x) as h:
             raise ValueError(h)
     ''', {('entry', 'With:2'), ('With:2', 'Raise:3'), ('Raise:3', 'exit'),
           ('join With:2', 'exit')}),  # nothing reaches the join: the body raises
]


@pytest.mark.parametrize('source, expected', GRAPHS)
def test_edges(source, expected):
    assert edges(graph_of(source)) == expected


def test_nodes_know_the_names_they_read_and_write():
    graph = graph_of('''
        def f(xs, k):
            for x in xs:
                total = x * k
            try:
                pass
            except E as e:
                pass
    ''')
    by_label = {labels(graph)(n): n for n in graph.nodes}
    assert (by_label['For:2'].reads, by_label['For:2'].writes) == ({'xs'}, {'x'})
    assert (by_label['Assign:3'].reads, by_label['Assign:3'].writes) == ({'x', 'k'}, {'total'})
    assert (by_label['ExceptHandler:6'].reads, by_label['ExceptHandler:6'].writes) == (
        {'E'}, {'e'})


def test_a_lambda_is_one_expression():
    node = parser.parse_expression('lambda a: a + b')
    graph = cfg.build(node)
    assert [(n.reads, n.writes) for n in graph.entry.next] == [({'a', 'b'}, set())]
