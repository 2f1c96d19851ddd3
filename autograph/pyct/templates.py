"""Code templates: Python source with placeholder names, filled with names and AST nodes.

    templates.replace('''
        def get_state():
            return state_
    ''', get_state='get_state_1', state_=tuple_node)

Placeholders are plain names. A placeholder may stand for a name (str or QN), an expression
node, or a list of statements (when it is a statement on its own line) or of elements (inside a
tuple, list or a `nonlocal`/`global` statement). Every node written by the template text itself
and every name given as a string is marked `anno.Basic.GENERATED`, so the variables converter
can tell the compiler's names from the user's; nodes given as AST nodes keep their marks.
"""
import textwrap

import gast

from autograph.pyct import anno, parser, qual_names


_parsed = {}


def replace(template, **subs):
    """Returns the statements of `template` with the placeholders in `subs` filled in."""
    statements = _parsed.get(template)
    if statements is None:
        statements = parser.parse(textwrap.dedent(template)).body
        for node in gast.walk(gast.Module(body=statements, type_ignores=[])):
            anno.setanno(node, anno.Basic.GENERATED, True)
        _parsed[template] = statements
    return _Filler(subs).visit_block(copy_tree(statements))


def replace_as_expression(template, **subs):
    """Like `replace` for a template that is a single expression; returns that expression."""
    statements = replace(template, **subs)
    return statements[0].value


def copy_tree(node):
    """Copies a gast subtree, sharing the annotation values (they describe the same code)."""
    if type(node) is list:
        return [copy_tree(n) for n in node]
    if not isinstance(node, gast.AST):
        return node
    node_class = type(node)
    new = node_class()
    source, target = node.__dict__, new.__dict__
    for field in node_class._fields:
        value = source.get(field)
        if type(value) is list:
            value = [copy_tree(v) for v in value]
        elif isinstance(value, gast.AST):
            value = copy_tree(value)
        target[field] = value
    for attribute in _COPIED_ATTRIBUTES:
        if attribute in source:
            target[attribute] = source[attribute]
    annotations = source.get(anno.FIELD)
    if annotations:
        target[anno.FIELD] = dict(annotations)
    return new


_COPIED_ATTRIBUTES = ('lineno', 'col_offset', 'end_lineno', 'end_col_offset')


def set_context(node, ctx_type):
    """Sets the load/store context of an assignment target, recursing through tuples."""
    if isinstance(node, (gast.Tuple, gast.List)):
        for element in node.elts:
            set_context(element, ctx_type)
    elif isinstance(node, gast.Starred):
        set_context(node.value, ctx_type)
    if isinstance(node, (gast.Name, gast.Attribute, gast.Subscript, gast.Tuple, gast.List,
                         gast.Starred)):
        node.ctx = ctx_type()


def _as_node(value, ctx):
    if isinstance(value, (str, qual_names.QN)):
        text = str(value)
        node = gast.Name(id=text, ctx=None, annotation=None, type_comment=None) \
            if text.isidentifier() else parser.parse_expression(text)
        for child in gast.walk(node):
            anno.setanno(child, anno.Basic.GENERATED, True)
    elif isinstance(value, gast.AST):
        node = value
    else:
        raise TypeError(f'cannot substitute {value!r} into a template')
    if ctx is not None:
        set_context(node, type(ctx))
    return node


class _Filler(gast.NodeTransformer):

    def __init__(self, subs):
        self.subs = subs
        self.used = set()

    def _fresh(self, node):
        """A node may be placed once as is; further placements get a copy."""
        if id(node) in self.used:
            return copy_tree(node)
        self.used.add(id(node))
        return node

    def visit_block(self, statements):
        result = []
        for statement in statements:
            if (isinstance(statement, gast.Expr) and isinstance(statement.value, gast.Name)
                    and isinstance(self.subs.get(statement.value.id), list)):
                result.extend(self._fresh(s) for s in self.subs[statement.value.id])
                continue
            new = self.visit(statement)
            result.extend(new if isinstance(new, list) else [new])
        return result

    def generic_visit(self, node):
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, list) and value and isinstance(value[0], gast.stmt):
                setattr(node, field, self.visit_block(value))
            elif isinstance(value, list):
                setattr(node, field, self._visit_elements(value))
            elif isinstance(value, gast.AST):
                setattr(node, field, self.visit(value))
        return node

    def _visit_elements(self, values):
        result = []
        for value in values:
            if isinstance(value, gast.Name) and isinstance(self.subs.get(value.id), (list, tuple)):
                result.extend(_as_node(self._fresh(v) if isinstance(v, gast.AST) else v, value.ctx)
                              for v in self.subs[value.id])
            elif isinstance(value, gast.AST):
                result.append(self.visit(value))
            else:
                result.append(value)
        return result

    def visit_Name(self, node):
        if node.id not in self.subs:
            return node
        value = self.subs[node.id]
        if isinstance(value, gast.AST):
            value = self._fresh(value)
        return _as_node(value, node.ctx)

    def visit_FunctionDef(self, node):
        node.name = str(self.subs.get(node.name, node.name))
        return self.generic_visit(node)

    def _visit_declaration(self, node):
        names = []
        for name in node.names:
            value = self.subs.get(name, name)
            if isinstance(value, (list, tuple)):
                names.extend(str(v) for v in value)
            else:
                names.append(str(value))
        node.names = names
        return node

    visit_Nonlocal = _visit_declaration
    visit_Global = _visit_declaration
