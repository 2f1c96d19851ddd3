"""Turns a live function or a piece of source text into a gast tree.

The function's own source is read with `inspect`, dedented and parsed; decorators are removed
because the converted function must not be decorated a second time.
"""
import inspect
import textwrap

import gast

from autograph.pyct import errors


class Entity:
    """The parsed source of one function or lambda.

    `node` is a `gast.FunctionDef` or `gast.Lambda`; `lines` are the dedented source lines it
    was parsed from, where line 1 is line `first_lineno` of `filename`.
    """

    def __init__(self, node, lines, filename, first_lineno):
        self.node = node
        self.lines = lines
        self.filename = filename
        self.first_lineno = first_lineno


def parse(source, filename='<source>'):
    """Parses module source text into a gast Module."""
    return gast.ast_to_gast(compile(source, filename, 'exec', 0x400, dont_inherit=True))


def parse_expression(source):
    return parse(source).body[0].value


def parse_entity(fn):
    """Parses the definition of `fn` (a function or a lambda) into an `Entity`."""
    try:
        lines, first_lineno = inspect.getsourcelines(fn)
        filename = inspect.getsourcefile(fn) or inspect.getfile(fn)
    except (OSError, TypeError) as e:
        raise errors.SourceUnavailableError(
            f'cannot convert {fn.__qualname__!r}: its source code is not available ({e}); '
            'functions defined with exec() or in an interactive prompt cannot be converted. '
            'Define it in a .py file, or wrap it in ag.do_not_convert.') from None
    source = textwrap.dedent(''.join(lines))
    if fn.__name__ == '<lambda>':
        indent = len(lines[0]) - len(source.splitlines(True)[0])  # what dedent took
        node, source = _parse_lambda(fn, source, first_lineno, filename, indent)
    else:
        node = parse(source, filename).body[0]
        if not isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef)):
            raise errors.ConversionError(
                f'{filename}:{first_lineno}: expected the definition of {fn.__name__!r}')
        node.decorator_list = []
    return Entity(node, source.splitlines(), filename, first_lineno)


def _parse_lambda(fn, source, first_lineno, filename, indent):
    """Finds the lambda `fn` in the lines that hold it (dedented by `indent` columns).

    `inspect` gives whole lines, which may be a fragment of a larger statement (a call split
    over several lines); the fragment is trimmed from the end until it parses. Several lambdas
    with the same arguments on those lines are told apart by where `fn`'s code is.
    """
    tree, text = _parse_fragment(source, fn, filename, first_lineno)
    candidates = [n for n in gast.walk(tree) if isinstance(n, gast.Lambda)
                  and _lambda_arg_names(n) == fn.__code__.co_varnames[:_arg_count(fn.__code__)]]
    if len(candidates) > 1:
        line, col = _code_position(fn.__code__, first_lineno)
        col -= indent
        if line == 1:  # the fragment lost the first line's indentation, and may start with '('
            col -= len(source) - len(source.lstrip()) - text.startswith('(')
        candidates = [n for n in candidates
                      if (n.lineno, n.col_offset) <= (line, col)
                      and (line, col) <= (n.end_lineno, n.end_col_offset)] or candidates
    if not candidates:
        raise errors.ConversionError(f'{filename}:{first_lineno}: cannot find the source of this lambda')
    return candidates[-1], text


def _parse_fragment(source, fn, filename, first_lineno):
    text = source.strip()
    while text:
        for attempt in (text, '(' + text + ')', '(' + text):
            try:
                return parse(attempt, filename), attempt
            except SyntaxError:
                pass
        text = text[:-1]
    raise errors.ConversionError(f'{filename}:{first_lineno}: cannot parse the source of this lambda')


def _lambda_arg_names(node):
    args = node.args
    names = [a.id for a in args.posonlyargs + args.args]
    names += [args.vararg.id] if args.vararg else []
    names += [a.id for a in args.kwonlyargs]
    names += [args.kwarg.id] if args.kwarg else []
    return tuple(names)


def _arg_count(code):
    flags = inspect.CO_VARARGS | inspect.CO_VARKEYWORDS
    return code.co_argcount + code.co_kwonlyargcount + bin(code.co_flags & flags).count('1')


def _code_position(code, first_lineno):
    """The (line, column) of the lambda body's first instruction, relative to `first_lineno`."""
    for line, _, col, end_col in code.co_positions():
        if line is not None and col is not None and end_col != col:  # not RESUME's empty span
            return line - first_lineno + 1, col
    return 1, 0
