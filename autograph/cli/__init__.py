"""`autograph convert FILE.py [--function NAME ...] [--output OUT.py] [--form staged|executed]`.

Converts the functions of FILE from its text: the file is parsed, never imported or run, so
this loads neither numpy nor `runtime`. The file is read as Python reads it (a PEP 263 coding
declaration or a UTF-8 byte order mark; UTF-8 otherwise). Every error is one line on stderr and
a non-zero exit; a function that cannot be converted (a generator, an `async def`, a `match`
statement ...) is skipped with a one-line note and the rest of the file is still converted.

Subcommands are listed in `COMMANDS`: each entry adds its arguments to its own subparser and
sets `run`, a function of the parsed arguments returning the exit status. Subcommands that need
`runtime` (e.g. `autograph graph ...`) live in their own module and import it when they run.
"""
import argparse
import importlib
import io
import os
import sys
import tokenize
import unicodedata

import gast

from autograph.compiler import conversion
from autograph.converters import call_trees
from autograph.pyct import errors, parser


class CLIError(Exception):
    """A one-line message for the user; the command exits with status 1."""


def main(argv=None):
    arguments = _argument_parser().parse_args(argv)
    try:
        return arguments.run(arguments)
    except CLIError as e:
        print(f'autograph: error: {e}', file=sys.stderr)
        return 1


def _configure_convert(command):
    command.add_argument('file', help='the Python file to convert (it is not run)')
    command.add_argument('--function', action='append', metavar='NAME',
                         help='convert only this function (or Class.method); repeatable')
    command.add_argument('--output', metavar='OUT.py', help='write the result here')
    command.add_argument('--form', choices=conversion.FORMS, default='staged',
                         help='staged (the default): the readable form, in TensorFlow\'s '
                              'shape; executed: the code that runs, with the plain Python '
                              'form of each construct')
    command.set_defaults(run=run_convert)


def _configure_graph(command):
    command.add_argument('file', help='the Python file that defines the function (it is run)')
    command.add_argument('--function', required=True, metavar='NAME',
                         help='the function to trace')
    command.add_argument('--signature', default='', metavar='SPEC',
                         help='argument specs, e.g. "float32[None,3], int32[]" (not needed for '
                              'an ag.function with an input_signature)')
    command.add_argument('--output', metavar='OUT', help='OUT.dot, OUT.svg or OUT.html '
                                                          '(default: DOT text on stdout)')
    command.set_defaults(run=_run_graph)


def _run_graph(arguments):
    # autograph.cli.graph traces with the runtime: loaded by name only when `graph` runs,
    # so the compiler half (this module) never imports numpy or runtime.
    return importlib.import_module('autograph.cli.graph').run(arguments)


# (name, help, configure(subparser)): the subcommands, in the order `--help` lists them.
COMMANDS = [
    ('convert', 'print the converted source of a file', _configure_convert),
    ('graph', 'trace a function and draw its graph', _configure_graph),
]


def _argument_parser():
    root = argparse.ArgumentParser(prog='autograph', description='AutoGraph compiler.')
    commands = root.add_subparsers(dest='command', required=True)
    for name, help_text, configure in COMMANDS:
        configure(commands.add_parser(name, help=help_text))
    return root


def run_convert(arguments):
    output = arguments.output
    if output:
        folder = os.path.dirname(os.path.abspath(output))
        if not os.path.isdir(folder):
            raise CLIError(f'{output}: the folder {folder} does not exist (it is not created)')
    source = convert_file(arguments.file, arguments.function, arguments.form)
    if output:
        try:
            with open(output, 'w', encoding='utf-8') as out:
                out.write(source)
        except OSError as e:
            raise CLIError(f'{output}: {e.strerror}') from None
    else:
        sys.stdout.write(source)
    return 0


def read_source(path):
    """The text of a Python file, decoded as Python decodes it; CLIError if it cannot be."""
    try:
        with open(path, 'rb') as f:
            data = f.read()
    except OSError as e:
        raise CLIError(f'{path}: {e.strerror}') from None
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as e:
        raise CLIError(f'{path}: {e}') from None
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as e:
        line = data.count(b'\n', 0, e.start) + 1
        raise CLIError(f'{path}:{line}: cannot decode byte 0x{data[e.start]:02x} as '
                       f'{encoding} (declare the file\'s encoding, PEP 263)') from None
    if '\0' in text:
        line = text.count('\n', 0, text.index('\0')) + 1
        raise CLIError(f'{path}:{line}: the file contains a NUL byte; it is not Python source')
    return text


def convert_file(path, names, form='staged'):
    """The converted source of the functions of the file `path` (or of those named), in the
    `form` of `ag.to_code`."""
    text = read_source(path)
    try:
        with conversion.compiling():
            module = parser.parse(text, path)
    except SyntaxError as e:
        raise CLIError(f'{path}:{e.lineno}: syntax error: {e.msg}') from None
    _check_compiles(text, path)
    lines = parser.source_lines(text)
    found = list(_functions(module))
    known = {name for name, _ in found}
    # Python reads identifiers in NFKC form (`ｆｕｌｌ` is `full`): so are the names asked for
    wanted = [unicodedata.normalize('NFKC', name) for name in names or ()]
    for name, asked in zip(wanted, names or ()):
        if name not in known:
            raise CLIError(f'{path}: no function named {asked!r} '
                           f'(found: {", ".join(dict.fromkeys(n for n, _ in found)) or "none"})')
    module_names = call_trees.bound_names(module, module_scope=True)
    parts = []
    # every function of that name, in the file's order: a property's getter and setter share it
    for name, node in found:
        if wanted and name not in wanted:
            continue
        try:
            parts.append(_convert_function(node, lines, path, _class_of(name), module_names,
                                           form))
        except errors.ConversionError as e:
            message = f'{name!r}: {" ".join(str(e).split())}'
            if names:  # asked for by name: an error, not a note
                raise CLIError(f'cannot convert {message}') from None
            print(f'autograph: note: skipped {message}', file=sys.stderr)
    return '\n'.join(parts)


def _check_compiles(text, path):
    """CLIError unless Python compiles the file: what its compiler rejects after parsing
    (`break` outside a loop, `nonlocal` at module level, an expression nested too deeply) is
    refused as a syntax error is, rather than converted into output that cannot run either."""
    try:
        compile(text, path, 'exec', dont_inherit=True)
    except SyntaxError as e:
        raise CLIError(f'{path}:{e.lineno}: syntax error: {e.msg}') from None
    except (RecursionError, MemoryError) as e:
        raise CLIError(f'{path}: Python cannot compile this file ({type(e).__name__}: '
                       f'{e}); nor can it compile its conversion') from None


def _class_of(qualified_name):
    """The class of a method `Class.method` (its private names are mangled), or None."""
    return qualified_name.rpartition('.')[0] or None


def _convert_function(node, lines, path, class_name=None, module_names=None, form='staged'):
    """The converted source of one function; ConversionError if it holds a construct
    AutoGraph does not convert."""
    if isinstance(node, gast.AsyncFunctionDef):
        raise errors.UnsupportedFeatureError(
            f'{path}:{node.lineno}: AutoGraph does not convert `async def` functions. Wrap the '
            f'function in ag.do_not_convert to run it as plain Python.')
    node.decorator_list = []  # decorators run on the original function, not on its conversion
    with conversion.compiling():
        converted = conversion.convert_tree(node, lines, path, 1, node.name, class_name,
                                            module_names, form)
        return conversion.function_source(
            converted, conversion.READABLE_WIDTH if form == 'staged' else None)


def _functions(module):
    """(qualified name, FunctionDef or AsyncFunctionDef) of the top-level functions and of the
    methods of top-level classes."""
    kinds = (gast.FunctionDef, gast.AsyncFunctionDef)
    for node in module.body:
        if isinstance(node, kinds):
            yield node.name, node
        elif isinstance(node, gast.ClassDef):
            for child in node.body:
                if isinstance(child, kinds):
                    yield f'{node.name}.{child.name}', child


if __name__ == '__main__':
    sys.exit(main())
