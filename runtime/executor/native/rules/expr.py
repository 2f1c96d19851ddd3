"""The element expressions of the native backend's loops, as data: what an elementwise op's
element is (native/rules/elementwise.py builds them from the ops' forms), kept as a tree until
the loop's function is written, then rendered to text once (tinygrad keeps its UOps a graph
until `code_for_op` renders them; torch.fx its Nodes until `PythonCode`).

The leaves say what an expression reads: `Read` a local of the generated function (a loop's
function takes it as a parameter), `Source` text that reads none (a literal, a loop index),
`Buffer` element `k` of a buffer a stage of a fused sum wrote; `Index` an element of an
array, `Apply` a form (native/rules/forms.py) over its operands, with whether it may raise.
The emitter reads a site's operands and "may raise" from the tree, not from its text.
"""
from __future__ import annotations

import abc
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Mapping


@dataclass(frozen=True, slots=True)
class Rendering:
    """How a tree becomes text: `names` renames the locals it reads (a site's parameters),
    `buffers` the stages' buffers (a stage writing in place the buffer of an earlier one)."""
    names: Mapping[str, str] = field(default_factory=dict)
    buffers: Mapping[int, int] = field(default_factory=dict)


AS_WRITTEN = Rendering()


class Expr(abc.ABC):
    """An element expression (see the module docstring)."""

    __slots__ = ()

    @abc.abstractmethod
    def render(self, rendering: Rendering = AS_WRITTEN) -> str:
        """The expression's source."""

    def children(self) -> tuple[Expr, ...]:
        return ()

    def walk(self) -> Iterator[Expr]:
        """The expression and its parts, each before its operands, operands left to right."""
        yield self
        for child in self.children():
            yield from child.walk()


@dataclass(frozen=True, slots=True)
class Read(Expr):
    """The local `name` of the generated function: an operand of the loop reading it."""
    name: str

    def render(self, rendering: Rendering = AS_WRITTEN) -> str:
        return rendering.names.get(self.name, self.name)


@dataclass(frozen=True, slots=True)
class Source(Expr):
    """Source that reads no local: a literal, a loop's index."""
    text: str

    def render(self, rendering: Rendering = AS_WRITTEN) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Buffer(Expr):
    """Element `k` of the buffer stage `stage` of a fused sum wrote (elementwise.fused_sum)."""
    stage: int

    def render(self, rendering: Rendering = AS_WRITTEN) -> str:
        return f'b{rendering.buffers.get(self.stage, self.stage)}[k]'


@dataclass(frozen=True, slots=True)
class Index(Expr):
    """`array[at...]`: one element of an array."""
    array: Expr
    at: tuple[Expr, ...]

    def render(self, rendering: Rendering = AS_WRITTEN) -> str:
        return f'{self.array.render(rendering)}[{", ".join(a.render(rendering) for a in self.at)}]'

    def children(self) -> tuple[Expr, ...]:
        return (self.array, *self.at)


@dataclass(frozen=True, slots=True)
class Apply(Expr):
    """A form over its operands: `write(*their sources) -> source` (a form of forms.py with
    its attrs bound, or a cast); `raises`: it may raise (an integer division by zero)."""
    write: Callable[..., str]
    args: tuple[Expr, ...]
    raises: bool = False

    def render(self, rendering: Rendering = AS_WRITTEN) -> str:
        return self.write(*(arg.render(rendering) for arg in self.args))

    def children(self) -> tuple[Expr, ...]:
        return self.args


def reads(exprs: Iterable[Expr]) -> list[str]:
    """The locals `exprs` read, each once, in the order they are first read."""
    return list(dict.fromkeys(e.name for expr in exprs for e in expr.walk()
                              if isinstance(e, Read)))


def may_raise(exprs: Iterable[Expr]) -> bool:
    """Whether computing `exprs` may raise."""
    return any(isinstance(e, Apply) and e.raises for expr in exprs for e in expr.walk())


def buffers_read(expr: Expr) -> list[int]:
    """The stages whose buffers `expr` reads."""
    return [e.stage for e in expr.walk() if isinstance(e, Buffer)]


def is_element_read(expr: Expr) -> bool:
    """Whether `expr` only reads an element (a local, an array's element, a buffer's)."""
    return isinstance(expr, (Read, Index, Buffer))
