"""Fast walks of gast trees: `nodes` lists what `gast.walk` yields, in the same order, and
`children` what `gast.iter_child_nodes` yields but contexts and operators, several times
faster (no generators; the fields are read from the node's `__dict__`, where annotations are
a dict and skipped)."""
import gast

_AST = gast.AST
# a name's `Load()`/`Store()` context and the operators: no fields, nothing under them (not
# `pass`, `break`, `continue`: statements without fields, but with a line)
LEAF_BASES = (gast.expr_context, gast.operator, gast.unaryop, gast.boolop, gast.cmpop)
CONTEXTS_AND_OPERATORS = frozenset(
    c for c in vars(gast).values() if isinstance(c, type) and issubclass(c, LEAF_BASES))


def children(node: gast.AST) -> list[gast.AST]:
    """The child nodes of `node` but its context or operators, in the order of its fields."""
    found = []
    for value in node.__dict__.values():
        if type(value) is list:
            for item in value:
                if isinstance(item, _AST) and type(item) not in CONTEXTS_AND_OPERATORS:
                    found.append(item)
        elif isinstance(value, _AST) and type(value) not in CONTEXTS_AND_OPERATORS:
            found.append(value)
    return found


def nodes(root: gast.AST) -> list[gast.AST]:
    """`root` and every node under it, breadth first (as `gast.walk`)."""
    found = [root]
    append = found.append
    index = 0
    while index < len(found):
        for value in found[index].__dict__.values():
            if type(value) is list:
                for item in value:
                    if isinstance(item, _AST):
                        append(item)
            elif isinstance(value, _AST):
                append(value)
        index += 1
    return found
