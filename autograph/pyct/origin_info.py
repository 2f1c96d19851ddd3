"""Source maps from generated code back to the user's code.

Every node parsed from user code is annotated with an `Origin`. When a converted function is
unparsed, `unparser.unparse` records for each generated line the origin of the innermost
user statement that produced it. The loader compiles each statement at that line of the
user's file and registers the code objects (`register_code`), so a frame of converted code
names the user's file and line itself, and `user_location()` can answer "which user line is
running?" from inside the operators. `register`/`lookup` keep maps of generated files by name
(for code compiled from a generated file of its own).
"""
import linecache
import re
import sys
import weakref
from dataclasses import dataclass
from types import CodeType, FrameType, TracebackType

import gast

from autograph.pyct import anno, walk


@dataclass(frozen=True, slots=True)
class Origin:
    filename: str
    lineno: int
    col_offset: int
    function_name: str
    source_line: str

    def __str__(self) -> str:
        return f'{self.filename}:{self.lineno}'

    def as_frame(self) -> str:
        """The origin in the style of a traceback entry."""
        return f'  File "{self.filename}", line {self.lineno}, in {self.function_name}\n' \
               f'    {self.source_line.strip()}'


_source_maps: dict[str, dict[int, Origin]] = {}


def resolve(tree: gast.AST, lines: list[str], filename: str, first_lineno: int,
            function_name: str) -> None:
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
        pending.extend((child, inside) for child in walk.children(node))
        lineno = getattr(node, 'lineno', None)
        if lineno is None:
            continue
        line = lines[lineno - 1] if lineno <= len(lines) else ''
        anno.setanno(node, anno.Basic.ORIGIN, Origin(
            filename, first_lineno + lineno - 1, node.col_offset, function_name, line))


def register(filename: str, source_map: dict[int, Origin]) -> None:
    _source_maps[filename] = source_map


def unregister(filename: str) -> None:
    _source_maps.pop(filename, None)


def lookup(filename: str, lineno: int) -> Origin | None:
    """The Origin of a line of a registered generated file, or None."""
    return _source_maps.get(filename, {}).get(lineno)


# the functions the compiler writes for the blocks of a statement (the namer never gives
# them a user's name), and the argument-less lambdas of `a if c else b`, `and`/`or`, asserts
_BLOCK = re.compile(r'(if_body|else_body|loop_body|loop_test|extra_test|get_state|set_state'
                    r'|staged)(_\d+)?|<lambda>')
# id(code) -> (weak reference to the code, the user's function it runs, whether it is a block)
_generated: dict[int, tuple[weakref.ref[CodeType], str, bool]] = {}


def register_code(code: CodeType, function_name: str) -> None:
    """Records `code` as converted code of the user's function `function_name` (while the code
    object lives)."""
    key = id(code)

    def forget(_: object) -> None:
        _generated.pop(key, None)
    _generated[key] = (weakref.ref(code, forget), function_name, is_block_name(code))


def is_function_code(code: CodeType) -> bool:
    """Whether `code` is converted code of a user's function itself (not a block function)."""
    entry = _generated.get(id(code))
    return entry is not None and not entry[2] and entry[0]() is code


def is_generated_code(code: CodeType) -> bool:
    entry = _generated.get(id(code))
    return entry is not None and entry[0]() is code


def is_block_name(code: CodeType) -> bool:
    """Whether `code`, by its name, is a block function the compiler writes (`if_body`,
    `staged_1`, ...), or a lambda without positional parameters (those of `a if c else b`,
    `and`/`or`, and of their staged forms, converters/speed/staged_functions)."""
    return _BLOCK.fullmatch(code.co_name) is not None and (
        code.co_name != '<lambda>' or code.co_argcount == 0)


def is_block(code: CodeType) -> bool:
    """Whether `code` is a block function of converted code."""
    entry = _generated.get(id(code))
    return entry is not None and entry[2] and entry[0]() is code


def code_origin(code: CodeType, lineno: int) -> Origin | None:
    """The Origin of line `lineno` of converted code `code` (its file and line are the user's),
    or, for a code object that is not converted code, of a registered generated file's line,
    or None."""
    entry = _generated.get(id(code))
    if entry is None or entry[0]() is not code:
        return lookup(code.co_filename, lineno)
    return Origin(code.co_filename, lineno, 0, entry[1],
                  linecache.getline(code.co_filename, lineno))


def raised_location(tb: TracebackType | None) -> Origin | None:
    """The user's Origin of the innermost line of converted code in the traceback `tb` (where
    an error was raised, below the frame that caught it), or None."""
    found = None
    while tb is not None:
        code = tb.tb_frame.f_code
        if is_generated_code(code) or code.co_filename in _source_maps:
            found = code_origin(code, tb.tb_lineno)
        tb = tb.tb_next
    return found


def user_location(frame: FrameType | None = None) -> Origin | None:
    """The user's Origin of the innermost running line of converted code, or None."""
    frame = frame or sys._getframe(1)
    while frame is not None:
        code = frame.f_code
        if is_generated_code(code) or code.co_filename in _source_maps:
            return code_origin(code, frame.f_lineno)
        frame = frame.f_back
    return None
