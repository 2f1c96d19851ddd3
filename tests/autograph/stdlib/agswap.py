"""Swaps converted code into a module of the standard library, as the harness runs it.

The harness writes, for a module `m`, the file `m.py` = the original source followed by

    import agswap; agswap.install(globals(), '/tmp/.../m.converted.py', only)

where the `.converted.py` file is what `autograph convert` printed for the original. `install`
gives every function the CLI converted the converted code object in place of its own
(`function.__code__ = ...`): the function object keeps its defaults, its name, its `__dict__`,
its decorators (a property, an lru_cache, `functools.wraps` wrappers still hold the same
object) and its class, so only the code that runs changes. Converted code reads the operators
as the global `ag__`.

The converted code objects are kept in a bytecode cache next to the converted file
(`<file>.agswap-cache`, marshal, keyed by the converted file's size and time and the Python
version), as Python keeps the original module's in `__pycache__`: the harness imports each
converted module once before timing it, so both sides of the timing load bytecode.
"""
import ast
import gc
import marshal
import os
import sys
import types


def _originals(tree):
    """(qualified name, def node) of the functions the CLI converts, in the file's order."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            yield node.name, node
        elif isinstance(node, ast.ClassDef):
            for child in node.body:
                if isinstance(child, ast.FunctionDef):
                    yield f'{node.name}.{child.name}', child


def _argument_names(node):
    arguments = node.args
    names = [a.arg for a in arguments.posonlyargs + arguments.args + arguments.kwonlyargs]
    names += [a.arg for a in (arguments.vararg, arguments.kwarg) if a is not None]
    return [name.replace('ag__user', 'ag__') for name in names]


def _first_line(node):
    return min([node.lineno] + [d.lineno for d in node.decorator_list])


def pairs(original_source, converted_source):
    """(qualified name, original def node, converted def node) for each converted function:
    the CLI keeps the file's order and names each `tf__<name>`."""
    originals = list(_originals(ast.parse(original_source)))
    cursor = 0
    for converted in ast.parse(converted_source).body:
        if not isinstance(converted, ast.FunctionDef):
            continue
        name = converted.name.removeprefix('tf__')
        for index in range(cursor, len(originals)):
            qualname, original = originals[index]
            if original.name == name and _argument_names(original) == _argument_names(
                    converted):
                cursor = index + 1
                yield qualname, original, converted
                break
        else:
            raise LookupError(f'no original function for the converted {converted.name}')


def _converted_code(converted, freevars, filename):
    """The code object of the converted def, closing over exactly `freevars`."""
    body = [ast.Assign(targets=[ast.Name(id=v, ctx=ast.Store())], value=ast.Constant(None))
            for v in freevars]
    if freevars:  # reads every cell, so the code's free variables are the original's
        touch = ast.parse(f'if False: ({", ".join(freevars)},)').body[0]
        converted.body.insert(0, touch)
    factory = ast.FunctionDef(
        name='agswap_factory', args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[],
                                                   kw_defaults=[], defaults=[]),
        body=body + [converted], decorator_list=[], returns=None)
    module = ast.Module(body=[factory], type_ignores=[])
    ast.fix_missing_locations(module)
    code = compile(module, filename, 'exec', dont_inherit=True)
    factory_code = next(c for c in code.co_consts if isinstance(c, types.CodeType))
    return next(c for c in factory_code.co_consts
                if isinstance(c, types.CodeType) and c.co_name == converted.name)


def _cache_key(converted_path):
    status = os.stat(converted_path)
    return (sys.version, status.st_size, status.st_mtime_ns)


def _load_cache(converted_path):
    """{(qualified name, free variables): code} from the file's bytecode cache, or {}."""
    try:
        with open(converted_path + '.agswap-cache', 'rb') as f:
            key, codes = marshal.loads(f.read())   # ten times faster than marshal.load(f)
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    return codes if tuple(key) == _cache_key(converted_path) else {}


def _save_cache(converted_path, codes):
    try:
        with open(converted_path + '.agswap-cache', 'wb') as f:
            marshal.dump((_cache_key(converted_path), codes), f)
    except OSError:   # a read-only folder: compiled again next time
        pass


def _entries(original_path, converted_path):
    """(qualified name, name, first line, converted def node) of each converted function."""
    with open(original_path, encoding='utf-8') as f:
        original_source = f.read()
    with open(converted_path, encoding='utf-8') as f:
        converted_source = f.read()
    return [(qualname, original.name, _first_line(original), converted)
            for qualname, original, converted in pairs(original_source, converted_source)]


def _swap(functions, entries, codes, converted_path, only):
    """Gives each function of `entries` its converted code (from `codes`, else compiled from
    the entry's def node and added to `codes`); the qualified names swapped, or None when a
    code is neither in `codes` nor compilable (an entry of the cache, without its node)."""
    swapped = []
    for qualname, name, first_line, converted in entries:
        if only is not None and not qualname.startswith(tuple(only)):
            continue
        function = functions.get((name, first_line))
        if function is None:  # redefined, replaced by an accelerator, or defined under an if
            continue
        old = function.__code__
        key = (qualname, first_line, old.co_freevars)
        code = codes.get(key)
        if code is None:
            if converted is None:
                return None
            code = codes[key] = _converted_code(converted, old.co_freevars, converted_path)
        function.__code__ = code.replace(co_name=old.co_name, co_qualname=old.co_qualname)
        swapped.append(qualname)
    return swapped


def _all_functions(module_globals):
    """{(name, first line): function} of every live function of the module, found among all
    the objects the collector tracks (wherever a decorator or a registry keeps them)."""
    functions = {}   # first: a collection (a large allocation) would free replaced functions
    for obj in gc.get_objects():
        # type(), not isinstance(): a dead weakref.proxy among the objects (numba's, once it is
        # imported) raises ReferenceError when asked for its class
        if type(obj) is types.FunctionType and obj.__globals__ is module_globals:
            functions.setdefault((obj.__code__.co_name, obj.__code__.co_firstlineno), obj)
    return functions


def _reachable_functions(module_globals):
    """{(name, first line): function} of the module's functions reachable from its globals:
    its functions, the classes it defines and their attributes, through staticmethod,
    classmethod, property and `__wrapped__` (functools.wraps, lru_cache, singledispatch).
    A walk of the module alone, where `_all_functions` looks at every object of the process
    (some 100,000 once numpy and autograph are loaded: most of the swap's time)."""
    functions, seen = {}, set()
    pending = list(module_globals.values())
    name = module_globals.get('__name__')
    while pending:
        obj = pending.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        kind = type(obj)
        if kind is types.FunctionType:
            if obj.__globals__ is module_globals:
                functions.setdefault((obj.__code__.co_name, obj.__code__.co_firstlineno), obj)
            pending.extend(obj.__dict__.values())
        elif kind is staticmethod or kind is classmethod:
            pending.append(obj.__func__)
        elif kind is property:
            pending.extend((obj.fget, obj.fset, obj.fdel))
        elif isinstance(obj, type):
            if obj.__module__ == name:
                pending.extend(obj.__dict__.values())
        else:
            attributes = getattr(obj, '__dict__', None) if kind.__module__ == 'functools' \
                else None
            if type(attributes) is dict:   # lru_cache's wrapper, singledispatchmethod
                pending.extend(attributes.values())
    return functions


def _found_alike(entries, found, reachable):
    """Whether `reachable` finds, for each entry, the function that `found` finds."""
    return all(found.get((name, first_line)) is reachable.get((name, first_line))
               for _, name, first_line, *_ in entries)


def install(module_globals, converted_path, only=None):
    """Swaps the converted code of `converted_path` into the functions of the module whose
    globals are `module_globals`; `only`: qualified-name prefixes to swap (all by default).
    Returns the qualified names swapped.

    The first import (no cache yet) finds the functions among all the objects of the process
    and records in the cache whether the walk from the module's globals finds the same ones;
    later imports walk the module alone when it does."""
    import autograph.operators  # noqa: F401  (the CLI's output reads it as `ag__`)
    module_globals['ag__'] = sys.modules['autograph.operators']
    gc.disable()   # no collection in the load (a large allocation): the functions it would
    try:           # free (replaced by an accelerator) are swapped as they were before
        cache = _load_cache(converted_path)
    finally:
        gc.enable()
    swapped = None
    if cache:
        functions = _reachable_functions(module_globals) if cache.get('reachable') \
            else _all_functions(module_globals)
        swapped = _swap(functions, cache['entries'], cache['codes'], converted_path, only)
    if swapped is None:
        functions = _all_functions(module_globals)
        entries, codes = _entries(module_globals['__file__'], converted_path), {}
        reachable = _found_alike(entries, functions, _reachable_functions(module_globals))
        swapped = _swap(functions, entries, codes, converted_path, only)
        _save_cache(converted_path, {'entries': [e[:3] + (None,) for e in entries],
                                     'codes': codes, 'reachable': reachable})
    module_globals['__ag_swapped__'] = swapped
    return swapped
