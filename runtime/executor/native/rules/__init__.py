"""Per-op lowering rules of the native backend, registered with `@lowers(opdef, ...)` as numba
registers its implementations with `Registry.lower`.

A rule is a `Rule`, `rule(lowering, node, inputs, depth) -> [output names]`: it writes the
lines that compute `node` (through `lowering.line`, `lowering.assign`...) with its operands
held by the locals `inputs`, or raises `Unsupported` for operands it has no form for; the
emitter (native/emitter.py) then calls the op's numpy kernel instead (native/rules/kernel.py).
An elementwise op's element is a tree (expr.py), rendered once its loop's function is written.
The modules here group the rules by domain: reduce, array, lists (TensorArrays), state
(variables); elementwise ops are written from their forms (forms.py) by elementwise.py.
This package also holds the rendering helpers the rules share. It does not import numba.
"""
from dataclasses import dataclass
from typing import Any, Callable, Protocol, Sequence

import numpy as np

from runtime.core import dtypes
from runtime.core.dtypes import DType
from runtime.core.shapes import TensorShape
from runtime.executor.ir import Node, Value
from runtime.executor.native.rules.expr import Expr
from runtime.ops import registry
from runtime.ops.registry import OpDef


@dataclass(frozen=True, slots=True)
class Site:
    """A function of the generated module: its `name`, its `text` (from `def`), whether it is
    compiled as a site (helpers.py's `site` options: a loop nest or a kernel call; else a
    plain function, the helper thread's entry) and whether numba may inline it where the
    generated function calls it once (a loop nest; a kernel call's `objmode` block stays a
    function of its own, see rules/kernel.py)."""
    name: str
    text: str
    is_site: bool = True
    inlinable: bool = True


Element = Callable[[Sequence[str]], Expr]  # the element of a loop at the indexes named


class Lowers(Protocol):
    """What a rule reads and calls of the lowering in progress (native/emitter.py's
    `Lowering`, whose docstrings say more): the names of values, the lines written, the
    analyses, the functions of the generated module."""

    names: dict[Value, str | None]  # each Value computed so far -> its local (or literal)
    uses: dict[Value, list[tuple[Any, int]]]  # Value -> [(user node or 'output', position)]
    fused: dict[Value, Element]  # a Value left to its only user's loop -> its element
    chained: set[Node]  # the nodes of chains (elementwise.chains)
    lists: Any  # the TensorList analysis (native/lists.py's `Lists`)
    variables: dict[str, tuple[Any, Any]]  # local of a variable's value -> (storage, source)
    assigned: set[str]  # those locals that writes change
    kernels: list[Any]  # kernel.KernelCall of each kernel call site, by index
    loops: dict[Any, str]  # the key of a function of the generated module -> its name
    sites: list[Site]  # the functions of the generated module

    def fresh(self, stem: str) -> str: ...
    def result(self, node: Node) -> str: ...
    def function_name(self, stem: str) -> str: ...
    def operand(self, name: str) -> Expr: ...
    def line(self, depth: int, text: str, node: Node | None = None) -> None: ...
    def assign(self, node: Node, expr: str, depth: int,
               value_spec: tuple[DType, TensorShape] | None = None,
               same: bool = False) -> list[str]: ...
    def array_constant(self, value: np.ndarray) -> str: ...
    def room(self, ref: Value) -> tuple[str, int]: ...
    def variable(self, node: Node, storage: Any, source: Any) -> str: ...
    def is_boxed(self, value: Value) -> bool: ...
    def materialized(self, ref: Value, name: str, depth: int) -> str: ...
    def loop_nest(self, dims: Sequence[int], depth: int) -> list[str]: ...
    def loop_call(self, out: str, dims: Sequence[int], dtype_name: str, element: Element,
                  depth: int) -> None: ...
    def site_call(self, out: str, exprs: Sequence[Expr],
                  body: Callable[[list[str]], list[str]], depth: int,
                  buffers: dict[int, int] | None = None) -> None: ...
    def shared_site_call(self, out: str, exprs: Sequence[Expr],
                         claims: Callable[[list[str]], list[str]], blocks: int, depth: int,
                         result: tuple[Sequence[int], str] | None = None,
                         buffers: dict[int, int] | None = None) -> str | None: ...
    def call_line(self, depth: int, targets: str, function: str, args: Sequence[str]
                  ) -> None: ...


Rule = Callable[[Lowers, Node, list[Any], int], list[Any]]
"""`rule(lowering, node, inputs, depth) -> [names of the outputs]`: `inputs` are the names
(locals or literals) of the operands; an output nothing reads may have no name (None)."""

RULES: dict[OpDef, Rule] = {}  # OpDef -> its rule


class Unsupported(Exception):
    """A node native code has no form for; `.node` is it and `.reason` says why."""

    def __init__(self, node: Node | None, reason: str) -> None:
        super().__init__(reason)
        self.node = node
        self.reason = reason


def lowers(*opdefs: OpDef) -> Callable[[Rule], Rule]:
    """Register the decorated function as the rule of `opdefs`."""
    def register(rule: Rule) -> Rule:
        for opdef in opdefs:
            if opdef in RULES:
                raise ValueError(f'{opdef.name} has two native rules')
            RULES[opdef] = rule
        return rule
    return register


def spec(value: Value) -> tuple[DType, TensorShape]:
    """(dtype, shape) of a Value."""
    return value.dtype, value.shape


def constant_value(ref: Value) -> Any:
    """The value of `ref` when a Const computes it, else None."""
    return ref.constant


def literal(value: Any) -> str:
    """The source of an attr value."""
    if isinstance(value, dtypes.DType):
        return f'np.{value.np_dtype.name}'
    if isinstance(value, (bool, int, float, str, type(None))):
        return repr(value)
    if isinstance(value, (tuple, list)):
        return repr(tuple(value))
    if isinstance(value, (np.integer, np.floating, np.bool_)):
        return repr(value.item())
    raise TypeError(f'attr value {value!r} has no literal form')


def np_name(dtype: DType) -> str | None:
    """numpy's name of `dtype` when native code holds it (bool, integers, float32/64), else
    None."""
    if not (dtype.is_numeric or dtype.is_bool) or dtype.np_dtype.kind not in 'biuf' or \
            dtype.np_dtype.itemsize < 4 and dtype.np_dtype.kind == 'f':
        return None
    return dtype.np_dtype.name


def holds(value: Value) -> bool:
    """Whether native code holds `value` as a scalar or array local (known rank, a dtype it
    has); TensorLists and variables have their own forms."""
    return value.shape.rank is not None and np_name(value.dtype) is not None


def scalar_literal(value: Any, dtype: DType) -> str:
    """Source for a scalar constant of `dtype` (part of the source, so a cache key)."""
    value = dtype.np_dtype.type(value)
    if dtype.is_bool:
        return repr(bool(value))
    if dtype.is_integer:
        return f'np.{dtype.np_dtype.name}({int(value)})'
    number = float(value)
    if np.isnan(number):
        text = 'np.nan'
    elif np.isinf(number):
        text = 'np.inf' if number > 0 else '-np.inf'
    else:
        text = repr(number)
    return f'np.{dtype.np_dtype.name}({text})'


def cast(node: Node | None, expr: str, value_spec: tuple[DType, TensorShape],
         same: bool = False) -> str:
    """`expr` converted to the dtype of `value_spec`: a scalar for rank 0 (numpy's scalar
    types, which numba types without compiling anything), else an array (`same`: `expr` is
    known to be an array of that dtype already)."""
    dtype, shape = value_spec
    name = np_name(dtype)
    if name is None:
        raise Unsupported(node, f'its output has dtype {dtype.name}, which native code cannot '
                                f'hold')
    if shape.rank is None:
        raise Unsupported(node, 'its output has an unknown rank')
    if shape.rank == 0:
        return f'bool({expr})' if dtype.is_bool else f'np.{name}({expr})'
    if same:
        return expr
    return f'(({expr}) != 0)' if dtype.is_bool else f'astype({expr}, np.{name})'


def is_structural(opdef: OpDef) -> bool:
    """Const and Placeholder, which the emitter writes itself."""
    return opdef in (registry.CONST, registry.PLACEHOLDER)
