"""The compiler: user source -> converted source and a loadable factory.

The converters run in the order of `CONVERTERS`, the one place that fixes it. Each takes the
output of the previous one; `docs/design.md` explains why the order is what it is.
"""
import contextlib
import weakref

import gast

from autograph.compiler import disk_cache
from autograph.converters import (
    asserts,
    break_statements,
    call_trees,
    conditional_expressions,
    continue_statements,
    control_flow,
    directives,
    function_scopes,
    functions,
    lists,
    logical_expressions,
    return_statements,
    staged_view,
    unsupported,
    variables,
)
from autograph.converters.speed import plain_forms, scope_reads, staged_functions
from autograph.pyct import (
    collector,
    loader,
    mangling,
    origin_info,
    parser,
    recursion,
    templates,
    transformer,
    unparser,
    walk,
)

CONVERTERS = (
    unsupported,              # refuse yield, async, ... before touching anything
    functions,                # each function's scope name (fscope, fscope_1, ...)
    directives,               # set_loop_options -> loop annotations
    break_statements,         # break -> flag + extra loop test; loop else blocks
    continue_statements,      # continue -> flag guarding the rest of the iteration
    return_statements,        # return -> do_return/retval_; one return at the end
    asserts,                  # assert -> ag__.assert_stmt
    lists,                    # l.append(x) in a loop -> l = ag__.list_append(l, x)
    call_trees,               # f(x) -> ag__.callee(f, fscope)(x)
    control_flow,             # if/while/for -> ag__.if_stmt/while_stmt/for_stmt
    conditional_expressions,  # a if c else b -> ag__.if_exp
    logical_expressions,      # and/or/not -> ag__.and_/or_/not_
    variables,                # reads -> ag__.ld
    plain_forms,              # plain Python forms as the original: real returns, fast calls
    function_scopes,          # fscope = (the function's scope); try: body except: unwind
    scope_reads,              # no fscope on entry: its lookup where a slow path reads it
    staged_functions,         # each staged form in a function of its own: no cells
)
# The readable form `ag.to_code` shows: the converters less the speed machinery's, then the
# staged form of each construct taken for the construct (converters/staged_view.py)
STAGED_VIEW = tuple(c for c in CONVERTERS
                    if c not in (plain_forms, scope_reads, staged_functions)) + (staged_view,)
FORMS = ('staged', 'executed')

_PREFIX = 'tf__'
_RESERVED = 'ag__'  # the operators module in converted code


class ConvertedEntity:
    """The result of converting one function: its converted node, from which the source that
    `to_code` shows and the compiled factory that loading needs are each made on first use.

    From the on-disk cache (compiler/disk_cache.py) an entity has the factory and no node; the
    node is converted from `parsed` when the source is asked for."""

    def __init__(self, fn, node, unconverted=None, factory_code=None, cache_entry=None):
        self.name = fn.__name__
        self._node = node
        self._unconverted = unconverted    # (parsed entity, module names) when node is None
        code = fn.__code__
        self._user = (code.co_filename, code.co_firstlineno, code.co_name, code.co_qualname)
        self._free_variables = code.co_freevars
        self._source = None
        self._factory_code = factory_code
        self._cache_entry = cache_entry    # (folder, name) to write the factory to, or None

    @property
    def node(self):
        if self._node is None:
            parsed, module_names = self._unconverted
            with compiling():
                self._node = convert_tree(parsed.node, parsed.lines, parsed.filename,
                                          parsed.first_lineno, self.name, parsed.class_name,
                                          module_names)
            self._unconverted = None
        return self._node

    @property
    def function_source(self):
        if self._source is None:
            node = self.node
            with compiling():
                self._source = function_source(node)
        return self._source

    @property
    def factory_code(self):
        if self._factory_code is None:
            node = self.node
            with compiling():
                function = unparser.to_ast([node], self._user[1])
                self._factory_code = loader.compile_factory(
                    function, _converted_name(node), self._free_variables, self._user)
            if self._cache_entry is not None:
                disk_cache.store(*self._cache_entry, self._factory_code)
        return self._factory_code


deep_recursion = recursion.deep_recursion


@contextlib.contextmanager
def compiling():
    """What the compiler's passes run in: room for their recursion (pyct/recursion.py), and
    the cycle collector paused, as they make no cyclic garbage (pyct/collector.py)."""
    with deep_recursion(), collector.paused():
        yield


def convert_tree(node, origin_lines, filename, first_lineno, function_name, class_name=None,
                 module_names=None, form='executed'):
    """Converts a parsed FunctionDef or Lambda in place and returns the new node.

    Its nodes are first annotated with their origin in `filename` (line 1 of `origin_lines` is
    line `first_lineno`), and its private names mangled as in the class `class_name` (the
    class that defines it, if any). `module_names`: the names its module (and, for a closure,
    its enclosing functions) bind, if known; a call of a builtin none of them shadows stays a
    direct call (converters/call_trees). The top-level function is renamed `tf__<name>` and its
    default values become None (the loader sets the real ones from the original function).
    `form`: 'executed' (the code that runs) or 'staged' (the readable form, `STAGED_VIEW`).
    """
    origin_info.resolve(node, origin_lines, filename, first_lineno, function_name)
    mangling.mangle(node, class_name)
    _rename_reserved(node)
    ctx = transformer.Context(node, function_name, module_names)
    if isinstance(node, gast.Lambda):
        return _convert_lambda(node, ctx, form)
    for converter in STAGED_VIEW if form == 'staged' else CONVERTERS:
        node = converter.transform(node, ctx)
    node.name = _PREFIX + node.name
    _default_to_none(node.args)
    return node


def _default_to_none(args):
    """Default values may read the caller's locals; the loader sets the real ones."""
    args.defaults = [gast.Constant(value=None, kind=None) for _ in args.defaults]
    args.kw_defaults = [d and gast.Constant(value=None, kind=None) for d in args.kw_defaults]


def _rename_reserved(node):
    """Renames the user's own variables and parameters called `ag__`, the name by which
    converted code reaches the operators (a parameter `ag__` would hide them). Code that only
    reads `ag__` is left alone: it is generated code converted again (a nested lambda)."""
    names = [child for child in walk.nodes(node)
             if isinstance(child, gast.Name) and child.id == _RESERVED]
    if any(not isinstance(name.ctx, gast.Load) for name in names):
        for name in names:
            name.id = _RESERVED + 'user'


def _convert_lambda(node, ctx, form):
    for converter in (call_trees, conditional_expressions, logical_expressions, variables) + (
            (staged_view,) if form == 'staged' else ()):
        node = converter.transform(node, ctx)
    _default_to_none(node.args)
    return templates.replace('name = value', name=_PREFIX + 'lambda', value=node)[0]


def function_source(node, width=None):
    """The source text of a converted function; `width`: wrap calls in longer lines."""
    return unparser.unparse(node, width=width) + '\n'


# the readable form's lines are at most this long where calls can be wrapped
READABLE_WIDTH = 99


def staged_source(fn):
    """The readable form of the converted `fn` (a live function or lambda), as `ag.to_code`
    shows it; made each time it is asked for (the code that runs is `convert(fn)`)."""
    code = fn.__code__
    with compiling():
        parsed = parser.parse_entity(fn)
        node = convert_tree(parsed.node, parsed.lines, parsed.filename, parsed.first_lineno,
                            fn.__name__, parsed.class_name,
                            set(fn.__globals__) | set(code.co_freevars), form='staged')
        return function_source(node, READABLE_WIDTH)


def _converted_name(node):
    return node.targets[0].id if isinstance(node, gast.Assign) else node.name


_cache = weakref.WeakKeyDictionary()  # code object -> {file name: ConvertedEntity}


def convert(fn):
    """Converts a live function (or lambda); cached per code object and file, for as long as
    the code object lives (then its generated source leaves `linecache` too).

    Code objects of different files compare equal when their code and line numbers match, so
    the file name is part of the key: each file's function keeps its own source map.
    """
    code = fn.__code__
    by_file = _cache.get(code)
    if by_file is None:
        by_file = _cache.setdefault(code, {})
    entity = by_file.get(code.co_filename)
    if entity is None:
        entity = by_file[code.co_filename] = _convert(fn)
    return entity


def _convert(fn):
    code = fn.__code__
    module_names = set(fn.__globals__) | set(code.co_freevars)
    with compiling():
        parsed = parser.parse_entity(fn)
        folder, entry = disk_cache.directory(), None
        if folder is not None:
            entry = disk_cache.key((
                parsed.lines, parsed.filename, parsed.first_lineno, parsed.class_name,
                fn.__name__, code.co_filename, code.co_firstlineno, code.co_name,
                code.co_qualname, code.co_freevars,
                tuple(sorted(call_trees.shadowed_builtins(module_names))),
                # lambdas written on one line share their lines: their columns tell them apart
                tuple(code.co_positions()) if code.co_name == '<lambda>' else ()))
            factory_code = disk_cache.load(folder, entry)
            if factory_code is not None and loader.register_factory(factory_code, code.co_name):
                return ConvertedEntity(fn, None, (parsed, module_names), factory_code)
        node = convert_tree(parsed.node, parsed.lines, parsed.filename, parsed.first_lineno,
                            fn.__name__, parsed.class_name, module_names)
    return ConvertedEntity(fn, node, cache_entry=entry and (folder, entry))
