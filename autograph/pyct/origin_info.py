"""Source maps from generated code back to the user's code.

Every node parsed from user code is annotated with an `Origin`. When a converted module is
unparsed, `unparse_with_source_map` records for each generated line the origin of the innermost
user statement or expression that produced it. The loader registers that map under the
generated file name, so `user_location()` can answer "which user line is running?" from inside
the operators.
"""
import ast
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
    for node in gast.walk(tree):
        lineno = getattr(node, 'lineno', None)
        if lineno is None:
            continue
        if isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda)):
            function_name = getattr(node, 'name', function_name)
        line = lines[lineno - 1] if lineno <= len(lines) else ''
        anno.setanno(node, anno.Basic.ORIGIN, Origin(
            filename, first_lineno + lineno - 1, node.col_offset, function_name, line))


def unparse_with_source_map(module):
    """Unparses a gast Module; returns (source, {generated line: Origin})."""
    origins = []
    for node in gast.walk(module):
        origin = anno.getanno(node, anno.Basic.ORIGIN)
        if origin is not None and isinstance(node, gast.stmt):
            origins.append(origin)
            node.lineno = len(origins)
        elif hasattr(node, 'lineno'):
            node.lineno = 0
    converted = gast.gast_to_ast(module)
    source = ast.unparse(converted)
    source_map = {}
    # ast.walk is breadth-first, so inner statements come later and win for their lines.
    for marked, parsed in zip(ast.walk(converted), ast.walk(ast.parse(source))):
        if type(marked) is not type(parsed):
            break
        marker = getattr(marked, 'lineno', 0)
        if marker and isinstance(parsed, ast.stmt):
            for line in range(parsed.lineno, parsed.end_lineno + 1):
                source_map[line] = origins[marker - 1]
    return source, source_map


def register(filename, source_map):
    _source_maps[filename] = source_map


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
