"""`autograph convert FILE.py [--function NAME ...] [--output OUT.py]`.

Converts the functions of FILE from its text: the file is parsed, never imported or run, so
this loads neither numpy nor `runtime`.
"""
import argparse
import sys

import gast

from autograph import conversion
from autograph.pyct import errors, parser


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ['graph']:
        from autograph import graph_picture  # loads the runtime: only for this command
        return graph_picture.main(argv[1:])
    arguments = _argument_parser().parse_args(argv)
    try:
        source = _convert_file(arguments.file, arguments.function)
    except (OSError, SyntaxError, errors.ConversionError, LookupError) as e:
        print(f'autograph: error: {_one_line(e)}', file=sys.stderr)
        return 1
    if arguments.output:
        with open(arguments.output, 'w', encoding='utf-8') as out:
            out.write(source)
    else:
        sys.stdout.write(source)
    return 0


def _argument_parser():
    root = argparse.ArgumentParser(prog='autograph', description='AutoGraph compiler.')
    commands = root.add_subparsers(dest='command', required=True)
    convert = commands.add_parser('convert', help='print the converted source of a file')
    convert.add_argument('file', help='the Python file to convert (it is not run)')
    convert.add_argument('--function', action='append', metavar='NAME',
                         help='convert only this function (or Class.method); repeatable')
    convert.add_argument('--output', metavar='OUT.py', help='write the result here')
    commands.add_parser('graph', help='trace a function and draw its graph (autograph graph '
                                      '--help)')
    return root


def _convert_file(path, names):
    with open(path, encoding='utf-8') as f:
        text = f.read()
    module = parser.parse(text, path)
    lines = text.splitlines()
    found = dict(_functions(module))
    for name in names or ():
        if name not in found:
            raise LookupError(f'{path}: no function named {name!r} '
                              f'(found: {", ".join(found) or "none"})')
    selected = names or list(found)
    parts = []
    for name in selected:
        node = found[name]
        converted = conversion.convert_tree(node, lines, path, 1, node.name)
        parts.append(conversion.function_source(converted))
    return '\n'.join(parts)


def _functions(module):
    """(qualified name, FunctionDef) of the top-level functions and of the methods of
    top-level classes."""
    for node in module.body:
        if isinstance(node, gast.FunctionDef):
            node.decorator_list = []
            yield node.name, node
        elif isinstance(node, gast.ClassDef):
            for child in node.body:
                if isinstance(child, gast.FunctionDef):
                    child.decorator_list = []
                    yield f'{node.name}.{child.name}', child


def _one_line(error):
    if isinstance(error, SyntaxError):
        return f'{error.filename}:{error.lineno}: syntax error: {error.msg}'
    if isinstance(error, OSError):
        return f'{error.filename}: {error.strerror}'
    return ' '.join(str(error.args[0] if isinstance(error, LookupError) else error).split())


if __name__ == '__main__':
    sys.exit(main())
