"""The passes and backends know an op by its OpDef's tags (`operator`, `elementwise`), never by
template text or by which function its kernel or shape rule is; and the tags carry what the
backends need."""
import ast
import operator
import pathlib

import numpy as np
import pytest

import runtime as rt
from runtime.executor.native.rules.forms import form_of
from runtime.ops.registry import PYTHON_OPERATORS, REGISTRY, OpDef

EXECUTOR = pathlib.Path(rt.__file__).parent / 'executor'
_IDENTITY_FIELDS = {'kernel', 'infer', 'bind_kernel', 'rewrite', 'cost'}  # functions on OpDef


def identity_checks(source):
    """(line, what) of each place `source` tells ops apart by template text or by function
    identity: a string holding `{0}` compared or matched, an OpDef function compared (`is`,
    `in`, `==`) or type-checked (`isinstance(opdef.kernel, np.ufunc)`), or the old template
    fields read."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in ('infix', 'native') and \
                isinstance(node.value, (ast.Name, ast.Attribute)) and \
                (getattr(node.value, 'id', None) or getattr(node.value, 'attr', '')) == 'opdef':
            found.append((node.lineno, f'reads opdef.{node.attr}'))
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            with_none = any(isinstance(side, ast.Constant) and side.value is None
                            for side in sides)  # `opdef.kernel is None`: whether it has one
            for side in sides:
                if isinstance(side, ast.Constant) and isinstance(side.value, str) and \
                        '{0}' in side.value:
                    found.append((node.lineno, f'compares template text {side.value!r}'))
                if isinstance(side, ast.Attribute) and side.attr in _IDENTITY_FIELDS and \
                        not with_none:
                    found.append((node.lineno, f'compares .{side.attr}'))
        if isinstance(node, ast.Call) and getattr(node.func, 'id', None) == 'isinstance' and \
                isinstance(node.args[0], ast.Attribute) and node.args[0].attr in _IDENTITY_FIELDS:
            found.append((node.lineno, f'type-checks .{node.args[0].attr}'))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                r'\{0\}' in node.value:
            found.append((node.lineno, f'matches template text {node.value!r}'))
    return found


def test_no_pass_or_backend_tells_ops_apart_by_template_text_or_function_identity():
    found = [f'{path.relative_to(EXECUTOR)}:{line} {what}'
             for path in sorted(EXECUTOR.rglob('*.py'))
             for line, what in identity_checks(path.read_text(encoding='utf-8'))]
    assert found == []


def test_the_identity_check_sees_each_kind_of_check():
    source = '\n'.join([
        "a = node.opdef.infix != '{0} < {1}'",
        "b = isinstance(node.opdef.kernel, np.ufunc)",
        "c = opdef.infer in (broadcast, same_as_input)",
        "d = re.compile(r'\\{0\\} (\\S+) \\{1\\}')",
        "e = opdef.native",
        "f = opdef.operator is operator.lt",  # a tag: allowed
        "g = opdef.kernel is None",  # whether it has a kernel: allowed
    ])
    found = identity_checks(source)
    assert sorted(line for line, _ in found) == [1, 1, 2, 3, 4, 5]


def test_the_template_fields_are_gone():
    fields = set(OpDef.__dataclass_fields__)
    assert not {'infix', 'native'} & fields and {'operator', 'elementwise'} <= fields


@pytest.mark.parametrize('op_type', sorted(n for n, d in REGISTRY.items() if d.operator))
def test_every_operator_op_has_its_tag_data(op_type):
    opdef = REGISTRY[op_type]
    python = PYTHON_OPERATORS[opdef.operator]  # the symbol and in-place form
    assert python.arity == (1 if opdef.operator is operator.neg else 2)
    assert (python.in_place is None) == (opdef.operator not in (
        operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv,
        operator.mod, operator.pow))
    if opdef.elementwise is not None:
        assert form_of(opdef) is not None


@pytest.mark.parametrize('op_type', sorted(n for n, d in REGISTRY.items() if d.elementwise))
def test_every_elementwise_op_has_its_tag_data(op_type):
    """An elementwise op names its ufunc when its kernel is one (so code may call it with
    `out=`), never another function, and the native backend has its form."""
    opdef = REGISTRY[op_type]
    ufunc = opdef.elementwise.ufunc
    if isinstance(opdef.kernel, np.ufunc):
        assert ufunc is opdef.kernel
    else:
        assert ufunc is None
    assert form_of(opdef) is not None
    assert opdef.control_flow is None and not opdef.stateful


def test_the_ufunc_kernels_are_tagged():
    ufunc_kernels = {n for n, d in REGISTRY.items() if isinstance(d.kernel, np.ufunc)}
    assert {'Tanh', 'Exp', 'Maximum', 'Equal', 'LogicalAnd'} <= ufunc_kernels
    assert all(REGISTRY[n].elementwise is not None for n in ufunc_kernels)
