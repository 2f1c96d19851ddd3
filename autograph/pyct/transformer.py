"""Base class of the converters, and the naming service they share."""
import ast
from typing import Any, Callable, Container

import gast

from autograph.pyct import anno, walk


def is_docstring(statement: gast.AST) -> bool:
    """Whether a function's first statement is its docstring."""
    return (isinstance(statement, gast.Expr) and isinstance(statement.value, gast.Constant)
            and isinstance(statement.value.value, str))


class Namer:
    """Hands out names that clash neither with the user's names nor with each other."""

    def __init__(self, tree: gast.AST) -> None:
        self.taken = set()
        # name -> the base it was made from (`do_return_1` -> do_return)
        self.made: dict[str, str] = {}
        # base -> suffix it last got: every lower one is taken
        self._last_suffix: dict[str, int] = {}
        for node in walk.nodes(tree):
            if isinstance(node, gast.Name):
                self.taken.add(node.id)
            elif isinstance(node, (gast.FunctionDef, gast.ClassDef)):
                self.taken.add(node.name)

    def new(self, base: str) -> str:
        suffix = self._last_suffix.get(base, 0)
        name = f'{base}_{suffix}' if suffix else base
        while name in self.taken:
            suffix += 1
            name = f'{base}_{suffix}'
        self._last_suffix[base] = suffix
        self.taken.add(name)
        self.made[name] = base
        return name


class Context:
    """What every converter of one entity shares: the namer, the user's entity name, and the
    names its module binds (`module_names`, a container; None when they are not known)."""

    def __init__(self, tree: gast.AST, entity_name: str,
                 module_names: Container[str] | None = None) -> None:
        self.namer = Namer(tree)
        self.entity_name = entity_name
        self.module_names = module_names


class Base(gast.NodeTransformer):
    """A NodeTransformer that skips generated-and-sealed subtrees and keeps origins.

    Nodes a converter returns in place of a user node inherit that node's Origin, so errors in
    generated code still point at the user's line.

    `visit` and `generic_visit` behave as `ast.NodeTransformer`'s, only faster: the visitor of
    each node class is looked up once per converter class, and nodes that a visit would return
    unchanged without looking at them (contexts, operators) are not visited. A converter whose
    visitors are all for statements sets `visits_expressions = False`: `generic_visit` then only
    enters blocks of statements, as expressions hold no statements and would come back
    unchanged.
    """

    visits_expressions = True
    _visitor_table: dict[type, Any] = {}  # {node class: visitor function or None}; per class
    _fields_table: dict[type, tuple[str, ...]] = {}  # {node class: the fields generic_visit
    # enters}; one per class

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._visitor_table = {}
        cls._fields_table = {}

    def visit(self, node: gast.AST) -> Any:
        annotations = node.__dict__.get(_ANNOTATIONS)
        if annotations and annotations.get(_SKIP):
            return node
        node_class = type(node)
        visitor = self._visitor_table.get(node_class, _UNKNOWN)
        if visitor is _UNKNOWN:
            visitor = _find_visitor(type(self), node_class)
        if visitor is None:
            return node
        if visitor is _UNLESS_ANNOTATED:
            visitor = Base.generic_visit
        result = visitor(self, node)
        if result is not node and result is not None and annotations:
            origin = annotations.get(_ORIGIN)
            if origin is not None:
                _inherit_origin(result if type(result) is list else [result], origin)
        return result

    def generic_visit(self, node: gast.AST) -> gast.AST:
        visitors = self._visitor_table
        fields = node.__dict__
        if self.visits_expressions:
            entered = self._fields_table.get(type(node))
            if entered is None:
                entered = entered_fields(type(self), type(node), self._fields_table)
        else:
            entered = _BLOCK_FIELDS
        for field in entered:
            old_value = fields.get(field)
            if type(old_value) is list:
                new_values = None     # made at the first change: most blocks stay as they are
                for index, value in enumerate(old_value):
                    # a visit needed? (a class in the table is a node class)
                    visitor = visitors.get(type(value), _UNKNOWN)
                    if visitor is None or visitor is _UNLESS_ANNOTATED and (
                            value.annotation is None) or visitor is _UNKNOWN and (
                            not isinstance(value, _AST)):
                        if new_values is not None:
                            new_values.append(value)
                        continue
                    new = self.visit(value)
                    if new is value:
                        if new_values is not None:
                            new_values.append(value)
                        continue
                    if new_values is None:
                        new_values = old_value[:index]
                    if new is None:
                        continue
                    if isinstance(new, _AST):
                        new_values.append(new)
                    else:
                        new_values.extend(new)
                if new_values is not None:
                    old_value[:] = new_values
            elif old_value is not None and (
                    (visitor := visitors.get(type(old_value), _UNKNOWN)) is not None) and (
                    visitor is not _UNLESS_ANNOTATED or old_value.annotation is not None) and (
                    visitor is not _UNKNOWN or isinstance(old_value, _AST)):
                new_node = self.visit(old_value)
                if new_node is None:
                    delattr(node, field)
                elif new_node is not old_value:
                    setattr(node, field, new_node)
        return node

    def visit_block(self, statements: list[gast.AST]) -> list[gast.AST]:
        """Visits a list of statements; a visit may return a list that is spliced in."""
        result = []
        for statement in statements:
            new = self.visit(statement)
            if isinstance(new, list):
                result.extend(new)
            elif new is not None:
                result.append(new)
        return result


_UNKNOWN = object()
_AST = gast.AST
_ANNOTATIONS = anno.FIELD
_SKIP = anno.Basic.SKIP
_ORIGIN = anno.Basic.ORIGIN
_UNLESS_ANNOTATED = object()


def find_visitor(visitor_class: Any, node_class: Any, generic: Callable[..., Any]
                 ) -> Callable[..., Any] | None:
    """The method of `visitor_class` that visits `node_class` nodes: its `visit_<Class>`, else
    its `generic_visit`; None when that is `generic` (a generic visit that only walks the
    children) and the class holds no nodes to visit (no fields, or a constant).

    The visitors of the converters (`Base`) and of the activity analysis look their visitor up
    here once per node class and keep it in a table of their own.
    """
    method = 'visit_' + node_class.__name__
    function = getattr(visitor_class, method, None)
    if function is None or function is getattr(ast.NodeVisitor, method, None):
        function = visitor_class.generic_visit  # ast's visit_Constant only forwards, to visit_Num
    if function is generic and (not node_class._fields or node_class is gast.Constant):
        return None
    return function


def _find_visitor(transformer_class: type[Base], node_class: type) -> Any:
    """The function that visits `node_class` nodes, remembered in the class's `_visitor_table`
    (where `generic_visit` also looks). Where only `Base.generic_visit` would visit a name, the
    table says `_UNLESS_ANNOTATED` (only a parameter's annotation holds nodes)."""
    function: Any = find_visitor(transformer_class, node_class, Base.generic_visit)
    if function is Base.generic_visit and node_class is gast.Name:
        function = _UNLESS_ANNOTATED
    transformer_class._visitor_table[node_class] = function
    return function


# Fields that hold a name, a number or a string (`id`, `attr`, ...) or a context or operator
# node, which no visitor looks at unless it has a method for those classes.
_LEAF_FIELDS = frozenset({'ctx', 'op', 'ops', 'id', 'attr', 'type_comment', 'kind'})


def entered_fields(visitor_class: type, node_class: Any,
                   table: dict[type, tuple[str, ...]]) -> tuple[str, ...]:
    """The fields of `node_class` that a generic visit of `visitor_class` enters, remembered in
    `table`: all but the `_LEAF_FIELDS`, which it enters only when the visitor has a method for
    a context or an operator class. (The converters' `Base` and the activity analysis.)"""
    fields = node_class._fields
    if not _visits_leaf_classes(visitor_class):
        fields = tuple(field for field in fields if field not in _LEAF_FIELDS)
    table[node_class] = fields
    return fields


def _visits_leaf_classes(transformer_class: type) -> bool:
    """Whether `transformer_class` has a visitor for a context or an operator class; asked
    once per class (the walk over the subclasses of those classes is the cost of the first
    conversion in a process otherwise: about 120 node classes, each asking)."""
    known = _VISITS_LEAF_CLASSES.get(transformer_class)
    if known is None:
        known = _VISITS_LEAF_CLASSES[transformer_class] = _has_leaf_visitor(transformer_class)
    return known


# {visitor class: whether it visits contexts or operators}
_VISITS_LEAF_CLASSES: dict[type, bool] = {}


def _has_leaf_visitor(transformer_class: type) -> bool:
    classes = list(walk.LEAF_BASES)
    while classes:
        node_class = classes.pop()
        if getattr(transformer_class, 'visit_' + node_class.__name__, None) is not None:
            return True
        classes.extend(node_class.__subclasses__())
    return False


# Statements only occur in these fields (of statements, handlers and match cases).
_BLOCK_FIELDS = ('body', 'orelse', 'finalbody', 'handlers', 'cases')


def _inherit_origin(nodes: list[gast.AST], origin: Any) -> None:
    """Gives `origin` to the statements in `nodes` and in their blocks that have none."""
    pending = list(nodes)
    while pending:
        node = pending.pop()
        if isinstance(node, gast.stmt) and not anno.hasanno(node, anno.Basic.ORIGIN):
            anno.setanno(node, anno.Basic.ORIGIN, origin)
        for field in _BLOCK_FIELDS:
            block = getattr(node, field, None)
            if type(block) is list:
                pending.extend(block)
