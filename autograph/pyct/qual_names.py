"""Qualified names: `a`, `a.b`, `a[0]`, `a.b['k']` as hashable values.

A `QN` is built from a Name, an Attribute or a Subscript with a constant or name index; the
analyses use it to treat `self.x` and `d['k']` like variables.
"""
import gast


class QN:
    """A qualified name. `parent` is None for a simple name."""

    __slots__ = ('parent', 'attr', 'subscript', '_text')

    def __init__(self, base: 'str | QN', attr: str | None = None,
                 subscript: 'str | QN | None' = None) -> None:
        if isinstance(base, str):
            self.parent, self.attr, self.subscript, self._text = None, None, None, base
        elif attr is not None:
            self.parent, self.attr, self.subscript = base, attr, None
            self._text = f'{base}.{attr}'
        else:
            self.parent, self.attr, self.subscript = base, None, subscript
            self._text = f'{base}[{subscript}]'

    @property
    def is_composite(self) -> bool:
        return self.parent is not None

    @property
    def root(self) -> 'QN':
        return self if self.parent is None else self.parent.root

    def support_set(self) -> set['QN']:
        """The simple names this name's value depends on (`a` for `a.b`, `a` and `i` for `a[i]`)."""
        names = {self.root}
        node = self
        while node.parent is not None:
            if isinstance(node.subscript, QN):
                names |= node.subscript.support_set()
            node = node.parent
        return names

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f'QN({self._text!r})'

    def __eq__(self, other: object) -> bool:
        return isinstance(other, QN) and self._text == other._text

    def __lt__(self, other: 'QN') -> bool:
        return self._text < other._text

    def __hash__(self) -> int:
        return hash(self._text)


def from_node(node: gast.AST) -> QN | None:
    """The QN of `node`, or None when it is not a qualified name (e.g. `f().x`, `a[1:2]`)."""
    if isinstance(node, gast.Name):
        return QN(node.id)
    if isinstance(node, gast.Attribute):
        parent = from_node(node.value)
        return QN(parent, attr=node.attr) if parent is not None else None
    if isinstance(node, gast.Subscript):
        parent = from_node(node.value)
        index = node.slice
        if parent is None:
            return None
        if isinstance(index, gast.Constant) and isinstance(index.value, (int, str)):
            return QN(parent, subscript=repr(index.value))
        index_qn = from_node(index) if isinstance(index, gast.Name) else None
        return QN(parent, subscript=index_qn) if index_qn is not None else None
    return None

