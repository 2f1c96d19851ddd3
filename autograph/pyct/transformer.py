"""Base class of the converters, and the naming service they share."""
import gast

from autograph.pyct import anno


class Namer:
    """Hands out names that clash neither with the user's names nor with each other."""

    def __init__(self, tree):
        self.taken = set()
        for node in gast.walk(tree):
            if isinstance(node, gast.Name):
                self.taken.add(node.id)
            elif isinstance(node, (gast.FunctionDef, gast.ClassDef)):
                self.taken.add(node.name)

    def new(self, base):
        name, suffix = base, 0
        while name in self.taken:
            suffix += 1
            name = f'{base}_{suffix}'
        self.taken.add(name)
        return name


class Context:
    """What every converter of one entity shares: the namer and the user's entity name."""

    def __init__(self, tree, entity_name):
        self.namer = Namer(tree)
        self.entity_name = entity_name


class Base(gast.NodeTransformer):
    """A NodeTransformer that skips generated-and-sealed subtrees and keeps origins.

    Nodes a converter returns in place of a user node inherit that node's Origin, so errors in
    generated code still point at the user's line.
    """

    def __init__(self, ctx):
        self.ctx = ctx

    def visit(self, node):
        if anno.getanno(node, anno.Basic.SKIP):
            return node
        result = super().visit(node)
        origin = anno.getanno(node, anno.Basic.ORIGIN)
        if origin is not None and result is not node and result is not None:
            for new in result if isinstance(result, list) else [result]:
                _inherit_origin(new, origin)
        return result

    def visit_block(self, statements):
        """Visits a list of statements; a visit may return a list that is spliced in."""
        result = []
        for statement in statements:
            new = self.visit(statement)
            if isinstance(new, list):
                result.extend(new)
            elif new is not None:
                result.append(new)
        return result


def _inherit_origin(node, origin):
    for child in gast.walk(node):
        if isinstance(child, gast.stmt) and not anno.hasanno(child, anno.Basic.ORIGIN):
            anno.setanno(child, anno.Basic.ORIGIN, origin)
