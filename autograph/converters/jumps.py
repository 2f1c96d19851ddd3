"""Shared rewriting of jumps (`break`, `continue`, `return`) into flags and guarded blocks.

Graph control flow has no jumps, so a jump becomes `flag = True` and every statement that Python
would skip after it is put under `if not flag:`. When one branch of an `if` always jumps and the
other may complete, the statements after the `if` move into the other branch instead, which keeps
the code simple and gives both branches of a tensor `if` the same outputs.
"""
import enum

import gast

from autograph.pyct import templates, transformer

_OPAQUE = (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef, gast.Lambda)
_LOOPS = (gast.For, gast.While, gast.AsyncFor)


class Jumps(enum.IntEnum):
    NEVER = 0
    MAYBE = 1
    ALWAYS = 2


def classify(statements, kind):
    """Whether the block `statements` never, maybe or always executes a jump of type `kind`."""
    maybe = False
    for statement in statements:
        status = _classify_statement(statement, kind)
        if status == Jumps.ALWAYS:
            return Jumps.ALWAYS
        maybe = maybe or status == Jumps.MAYBE
    return Jumps.MAYBE if maybe else Jumps.NEVER


def _classify_statement(statement, kind):
    if isinstance(statement, kind):
        return Jumps.ALWAYS
    if isinstance(statement, _OPAQUE):
        return Jumps.NEVER
    if isinstance(statement, gast.If):
        body, orelse = classify(statement.body, kind), classify(statement.orelse, kind)
        return Jumps.ALWAYS if body == orelse == Jumps.ALWAYS else min(max(body, orelse),
                                                                          Jumps.MAYBE)
    if isinstance(statement, _LOOPS):
        if kind is not gast.Return:
            return Jumps.NEVER      # break and continue belong to the inner loop
        return min(classify(statement.body + statement.orelse, kind), Jumps.MAYBE)
    if isinstance(statement, (gast.With, gast.AsyncWith)):
        # the context manager's __exit__ may suppress an exception raised before the jump
        # (`with contextlib.suppress(AttributeError): return self.__cache`): what follows runs
        return min(classify(statement.body, kind), Jumps.MAYBE)
    if isinstance(statement, gast.Try):
        blocks = [statement.body, statement.orelse, statement.finalbody]
        blocks += [handler.body for handler in statement.handlers]
        return max([Jumps.NEVER] + [min(classify(b, kind), Jumps.MAYBE) for b in blocks])
    return Jumps.NEVER


class JumpRewriter(transformer.Base):
    """Rewrites the jumps of type `kind` (a gast class) in a block into `flag = True`.

    `flag` is the name that is True once a jump has happened; subclasses may write a jump
    differently by overriding `replace_jump`.
    """

    visits_expressions = False

    def __init__(self, ctx, kind, flag):
        super().__init__(ctx)
        self.kind = kind
        self.flag = flag

    def replace_jump(self, node):
        return templates.replace('flag = True', flag=self.flag)

    def rewrite_block(self, statements):
        result = []
        for index, statement in enumerate(statements):
            rest = statements[index + 1:]
            if isinstance(statement, self.kind):
                result.extend(self.replace_jump(statement))
                return result
            status = _classify_statement(statement, self.kind)
            if status == Jumps.NEVER:
                result.append(statement)
                continue
            if rest and isinstance(statement, gast.If):
                rest = self._move_into_branch(statement, rest)
            new = self.visit(statement)
            result.extend(new if isinstance(new, list) else [new])
            if rest and status == Jumps.MAYBE:
                result.extend(templates.replace(
                    'if not flag:\n    rest', flag=self.flag, rest=self.rewrite_block(rest)))
            return result
        return result

    def _move_into_branch(self, node, rest):
        """Moves `rest` into the branch of `node` that may complete, if the other always jumps."""
        body, orelse = classify(node.body, self.kind), classify(node.orelse, self.kind)
        if body == Jumps.ALWAYS and orelse != Jumps.ALWAYS:
            node.orelse = node.orelse + rest
            return []
        if orelse == Jumps.ALWAYS and body != Jumps.ALWAYS:
            node.body = node.body + rest
            return []
        return rest

    def visit_If(self, node):
        node.body = self.rewrite_block(node.body)
        node.orelse = self.rewrite_block(node.orelse)
        return node

    def visit_With(self, node):
        node.body = self.rewrite_block(node.body)
        return node

    def visit_Try(self, node):
        node.body = self.rewrite_block(node.body)
        node.orelse = self.rewrite_block(node.orelse)
        node.finalbody = self.rewrite_block(node.finalbody)
        for handler in node.handlers:
            handler.body = self.rewrite_block(handler.body)
        return node

    def _opaque(self, node):
        return node

    visit_FunctionDef = visit_ClassDef = visit_Lambda = _opaque
