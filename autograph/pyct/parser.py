"""Turns a live function or a piece of source text into a gast tree.

The function's own source is read with `inspect`, dedented and parsed; decorators are removed
because the converted function must not be decorated a second time.
"""
import ast
import inspect
import linecache
import textwrap
from dataclasses import dataclass
from types import CodeType
from typing import Any, Callable

import gast

from autograph.pyct import errors, mangling, to_gast


@dataclass(eq=False)
class Entity:
    """The parsed source of one function or lambda.

    `node` is a `gast.FunctionDef` or `gast.Lambda`; `lines` are the dedented source lines it
    was parsed from, where line 1 is line `first_lineno` of `filename`. `class_name` is the
    class whose private-name mangling Python applied to the function (None: none).
    """

    node: Any
    lines: list[str]
    filename: str
    first_lineno: int
    class_name: str | None = None


def source_lines(text: str) -> list[str]:
    """The lines of source text as Python counts them: only `\n`, `\r\n` and `\r` end a line
    (`str.splitlines` also splits at a form feed and other separators inside a line)."""
    return text.replace('\r\n', '\n').replace('\r', '\n').split('\n')


def parse(source: str, filename: str = '<source>') -> Any:
    """Parses module source text into a gast Module."""
    return to_gast.to_gast(compile(source, filename, 'exec', 0x400, dont_inherit=True))


def parse_expression(source: str) -> Any:
    return parse(source).body[0].value


def parse_entity(fn: Any) -> Entity:
    """Parses the definition of `fn` (a function or a lambda) into an `Entity`."""
    if fn.__code__.co_name != '<lambda>':
        entity = _function_by_indentation(fn)
        if entity is not None:
            return entity
    try:
        lines, first_lineno = inspect.getsourcelines(fn)
        filename = inspect.getsourcefile(fn) or inspect.getfile(fn)
    except (OSError, TypeError) as e:
        raise errors.SourceUnavailableError(
            f'cannot convert {fn.__qualname__!r}: its source code is not available ({e}); '
            'functions defined with exec() or in an interactive prompt cannot be converted. '
            'Define it in a .py file, or wrap it in ag.do_not_convert.') from None
    source = textwrap.dedent(''.join(lines))
    if fn.__code__.co_name == '<lambda>':
        node, source, first_lineno = _parse_lambda(fn, lines, source, first_lineno, filename)
    else:
        try:
            node = parse(source, filename).body[0]
        except SyntaxError as e:   # the lines inspect gives, dedented, are not a definition
            raise errors.ConversionError(
                f'{filename}:{first_lineno}: cannot parse the source of {fn.__qualname__!r} '
                f'({e.msg}); wrap the function in ag.do_not_convert.') from None
        # the code's own name: `__name__` and `__qualname__` may have been reassigned
        if not isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef)) or \
                node.name != fn.__code__.co_name or not _same_arguments(node.args, fn.__code__):
            raise errors.ConversionError(
                f'{filename}:{first_lineno}: the source there is not the definition of '
                f'{fn.__qualname__!r} (did the file change since it was imported?); reload '
                f'the module, or wrap the function in ag.do_not_convert.')
        node.decorator_list = []
    return Entity(node, source_lines(source), filename, first_lineno,
                  mangling.class_of(fn.__code__, node))


def _function_by_indentation(fn: Any) -> Entity | None:
    """The Entity of the function `fn` read from the lines of its file, its block found by
    indentation (its decorators, the `def` line and the lines after it that are indented
    more); None when that block does not parse as the definition of `fn`, and `inspect`
    (which tokenizes the function, several times slower) then finds it."""
    code = fn.__code__
    filename = code.co_filename
    linecache.checkcache(filename)
    lines = linecache.getlines(filename, getattr(fn, '__globals__', None))
    first = code.co_firstlineno - 1
    if not 0 <= first < len(lines):
        return None
    indent = _indentation(lines[first])
    line = first
    while line < len(lines) and lines[line].lstrip().startswith('@') \
            and _indentation(lines[line]) == indent:
        line += 1
    # not dedented (that would change the text of its multi-line strings): an indented block
    # is parsed in an `if 1:`, at the file's columns, one line above its own. A less indented
    # line inside a string or brackets ends the block too early: it then does not parse, and
    # the block is extended to the next such line (a few times).
    end = line + 1
    for _ in range(_EXTENSIONS):
        while end < len(lines) and (_is_blank(lines[end]) or _indentation(lines[end]) > indent):
            end += 1
        last = end
        while last > line + 1 and _is_blank(lines[last - 1]):
            last -= 1
        source, first_lineno = ''.join(lines[first:last]), code.co_firstlineno
        if indent:
            source, first_lineno = 'if 1:\n' + source, first_lineno - 1
        try:
            node = parse(source, filename).body[0]
            break
        except (SyntaxError, ValueError, IndexError):
            end += 1
            if end >= len(lines):
                return None
    else:
        return None
    if indent:
        node = node.body[0] if isinstance(node, gast.If) and node.body else None
    if not isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef)) or \
            node.name != code.co_name or not _same_arguments(node.args, code):
        return None
    node.decorator_list = []
    return Entity(node, source_lines(source), filename, first_lineno,
                  mangling.class_of(code, node))


_EXTENSIONS = 8


def _is_blank(line: str) -> bool:
    """A line without code: empty, blanks or a comment."""
    stripped = line.strip()
    return not stripped or stripped.startswith('#')


def _parse_lambda(fn: Any, lines: list[str], source: str, first_lineno: int,
                  filename: str) -> tuple[Any, str, int]:
    """Finds the lambda `fn`: (its node, the text it was parsed from, the line of the file
    that is line 1 of that text).

    The whole file is parsed (once per text of the file) and the lambda found in it wherever it
    is written, a compound statement's header included (`for y in map(lambda t: ..., x):`).
    When the file does not parse, the lines `inspect` gives are: they may be a fragment of a
    larger statement (a call split over several lines), trimmed from the end until it parses.
    Several lambdas may share those lines: the one whose body holds every source position of
    `fn`'s code (`co_positions`), the innermost such, is `fn`. When none does (the file changed
    since it was imported), conversion is refused rather than converting another function.
    """
    in_file = _lambda_in_file(fn, filename)
    if in_file is not None:
        return in_file
    tree, text, opened = _parse_fragment(source, filename, first_lineno)
    dedent = min(len(line) - len(line.lstrip()) for line in lines if line.strip())
    first_indent = len(source) - len(source.lstrip())
    first_shift = dedent + first_indent - opened

    def fragment_position(line: int, col: int) -> tuple[int, int]:
        line = line - first_lineno + 1
        return line, col - dedent - (first_shift - dedent if line == 1 else 0)

    node = _find_lambda(_lambdas(tree), fn, fragment_position)
    if node is None:
        raise errors.ConversionError(
            f'{filename}:{first_lineno}: cannot find the source of this lambda (did the file '
            f'change since it was imported?); reload the module, or define it with `def`.')
    return node, text, first_lineno


def _lambdas(tree: Any) -> list[Any]:
    return [node for node in ast.walk(tree) if isinstance(node, (ast.Lambda, gast.Lambda))]


def _find_lambda(lambdas: list[Any], fn: Any,
                 position: Callable[[int, int], tuple[int, int]] = lambda line, col: (line, col)
                 ) -> Any:
    """The innermost of the `lambdas` (ast or gast nodes) with `fn`'s arguments whose body
    holds every source position of `fn`'s code (`position` maps a position of the file to one
    of theirs)."""
    positions = [(position(line, col), position(end_line, end_col))
                 for line, end_line, col, end_col in fn.__code__.co_positions()
                 if line is not None and col is not None and end_col is not None
                 and (line, col) != (end_line, end_col)]
    candidates = []
    for node in lambdas:
        if not _same_arguments(node.args, fn.__code__):
            continue
        start, end = (node.body.lineno, node.body.col_offset), \
            (node.body.end_lineno, node.body.end_col_offset)
        if positions and all(start <= a and b <= end for a, b in positions):
            candidates.append((start, node))
    return max(candidates, key=lambda c: c[0])[1] if candidates else None


# file name -> (its text, the lambdas of its `ast` tree): the last text
_parsed_files: dict[str, tuple[str, list[Any]]] = {}


def _lambda_in_file(fn: Any, filename: str) -> tuple[Any, str, int] | None:
    """(node, file text, 1) of the lambda `fn` found in its whole file, or None when the file
    is not in `linecache` or does not parse. The file is parsed with `ast` once per text and
    its lambdas listed; only the lambda found becomes a gast tree (a new one, which conversion
    may change: the cached tree stays as it is)."""
    lines = linecache.getlines(filename)
    text = ''.join(lines)
    if not text:
        return None
    cached = _parsed_files.get(filename)
    if cached is None or cached[0] != text:
        node = _lambda_in_block(fn, filename, lines)
        if node is not None:
            return to_gast.to_gast(node), text, 1
        try:
            tree = compile(text, filename, 'exec', ast.PyCF_ONLY_AST, dont_inherit=True)
        except (SyntaxError, ValueError):
            return None
        cached = _parsed_files[filename] = (text, _lambdas(tree))
    node = _find_lambda(cached[1], fn)
    return None if node is None else (to_gast.to_gast(node), text, 1)


# (file name, first line) -> (the block's text, the lambdas in it)
_parsed_blocks: dict[tuple[str, int], tuple[str, list[Any]]] = {}


def _lambda_in_block(fn: Any, filename: str, lines: list[str]) -> Any:
    """The lambda `fn` (an `ast` node) found in the innermost `def` around its first line,
    parsed at its own lines and columns; None when that block does not parse or does not hold
    it (the whole file is then parsed), so that a lambda in a large file costs the parse of
    its function only."""
    line = fn.__code__.co_firstlineno - 1
    if not 0 <= line < len(lines):
        return None
    start, limit = line, _indentation(lines[line]) + 1   # a `def` on its line holds it
    while True:     # the nearest `def` above, less indented, whose block reaches the line
        while start >= 0 and not (lines[start].lstrip().startswith(('def ', 'async def '))
                                  and _indentation(lines[start]) < limit):
            start -= 1
        if start < 0:
            return None
        indent = _indentation(lines[start])
        end = start + 1
        while end < len(lines) and (_is_blank(lines[end]) or _indentation(lines[end]) > indent):
            end += 1
        if end > line:
            break
        start, limit = start - 1, indent
    block = ''.join(lines[start:end])
    cached = _parsed_blocks.get((filename, start))
    if cached is None or cached[0] != block:
        # the block's lines and columns are the file's: `if 1:` holds an indented block
        head = '\n' * start if not indent else '\n' * (start - 1) + 'if 1:\n'
        try:
            tree = compile(head + block, filename, 'exec', ast.PyCF_ONLY_AST, dont_inherit=True)
        except (SyntaxError, ValueError):
            return None
        cached = _parsed_blocks[(filename, start)] = (block, _lambdas(tree))
    return _find_lambda(cached[1], fn)


def _indentation(line: str) -> int:
    return len(line) - len(line.lstrip())


def _parse_fragment(source: str, filename: str, first_lineno: int) -> tuple[Any, str, int]:
    """The parsed fragment, its text, and 1 if an opening parenthesis was added in front."""
    text = source.strip()
    while text:
        for attempt, opened in ((text, 0), ('(' + text + ')', 1), ('(' + text, 1)):
            try:
                return parse(attempt, filename), attempt, opened
            except SyntaxError:
                pass
        text = text[:-1]
    raise errors.ConversionError(
        f'{filename}:{first_lineno}: cannot parse the source of this lambda')


def _arg_names(args: Any) -> tuple[str, ...]:
    """The names of the parameters of gast (`Name`) or ast (`arg`) arguments."""
    every = args.posonlyargs + args.args + ([args.vararg] if args.vararg else []) \
        + args.kwonlyargs + ([args.kwarg] if args.kwarg else [])
    return tuple(a.id if isinstance(a, gast.Name) else a.arg for a in every)


def _same_arguments(args: Any, code: CodeType) -> bool:
    """Whether the parsed arguments are those of `code` (whose private names are mangled)."""
    compiled = code.co_varnames[:_arg_count(code)]
    names = _arg_names(args)
    return len(names) == len(compiled) and all(
        name == c or (mangling.is_private(name) and c.endswith(name) and c.startswith('_'))
        for name, c in zip(names, compiled))


def _arg_count(code: CodeType) -> int:
    flags = inspect.CO_VARARGS | inspect.CO_VARKEYWORDS
    return code.co_argcount + code.co_kwonlyargcount + bin(code.co_flags & flags).count('1')
