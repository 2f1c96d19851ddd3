"""Source maps from generated code back to the user's code.

Every node parsed from user code is annotated with an `Origin`. When a converted function is
unparsed, `unparser.unparse` records for each generated line the origin of the innermost
user statement that produced it. The loader registers that map under the
generated file name, so `user_location()` can answer "which user line is running?" from inside
the operators.
"""
import sys
from typing import NamedTuple

import gast

from autograph.pyct import anno


class Origin(NamedTuple):
    filename: str
    lineno: int
    col_offset: int
    function_name: str
    source_line: str

    def __str__(self):
        return f'{self.filename}:{self.lineno}'

    def as_frame(self):
        """The origin in the style of a traceback entry."""
        return f'  File "{self.filename}", line {self.lineno}, in {self.function_name}\n' \
               f'    {self.source_line.strip()}'


_source_maps = {}


def resolve(tree, lines, filename, first_lineno, function_name):
    """Annotates the nodes of a freshly parsed `tree` with their Origin.

    `lines` are the source lines the tree was parsed from; line 1 of them is line
    `first_lineno` of `filename`.
    """
    pending = [(tree, function_name)]   # each node with the function that holds it
    while pending:
        node, function_name = pending.pop()
        if isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef)):
            inside = node.name
        else:
            inside = function_name
        pending.extend((child, inside) for child in gast.iter_child_nodes(node))
        lineno = getattr(node, 'lineno', None)
        if lineno is None:
            continue
        line = lines[lineno - 1] if lineno <= len(lines) else ''
        anno.setanno(node, anno.Basic.ORIGIN, Origin(
            filename, first_lineno + lineno - 1, node.col_offset, function_name, line))


def register(filename, source_map):
    _source_maps[filename] = source_map


def unregister(filename):
    _source_maps.pop(filename, None)


def lookup(filename, lineno):
    """The Origin of a line of a registered generated file, or None."""
    return _source_maps.get(filename, {}).get(lineno)


def user_location(frame=None):
    """The user's Origin of the innermost running line of converted code, or None."""
    frame = frame or sys._getframe(1)
    while frame is not None:
        source_map = _source_maps.get(frame.f_code.co_filename)
        if source_map is not None:
            return source_map.get(frame.f_lineno)
        frame = frame.f_back
    return None
