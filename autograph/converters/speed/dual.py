"""The two forms of a converted statement or expression, chosen when it runs.

A converted `if`, loop, `and`/`or`/`not` or conditional expression is written twice: its
staged form (the `ag__` operators over lambdas and block functions, which build graph ops for
a symbolic tensor) and the construct itself as plain Python. The value that Python would test
first picks the form:

    ((cond := test) is not True and cond is not False
     and ag__.type_(cond) not in ag__.PLAIN_TYPES and ag__.is_staged(cond))

True and False, the values of most tests, are told apart without a call (an `if` tests
`is not False` first: see `is_staged_test`), and the other plain
Python values (None, numbers, strings, lists, ...) by one type lookup. The staged form of a
construct holds staged forms only (nodes marked `STAGED_FORM`), so that each construct is
written once per enclosing one rather than exponentially often.
"""

import gast

from autograph.pyct import anno, templates, transformer, walk


def _is_staged_template(first, second):
    """The form-picking test, `first` and `second` the constants told apart before the type
    lookup, in that order."""
    return (f'(cond := test) is not {first} and cond is not {second} and ag__.type_(cond) '
            'not in ag__.PLAIN_TYPES and ag__.is_staged(cond)')


_IS_STAGED = _is_staged_template(True, False)
# an operand of `and`/`or`/`not` that is no comparison is a bool (a flag: `self.strict and
# ...`) or None (`not self.cdata_elem`) as often as another value (a number, a list: `x or
# default`): those three are told apart by `is` (no call), any other by one type lookup
_IS_STAGED_OPERAND = ('(cond := test) is not True and cond is not False and cond is not None '
                      'and ag__.type_(cond) not in ag__.PLAIN_TYPES and ag__.is_staged(cond)')
# an `if`'s test is False more often than True (guards: `if x: break`, `elif` chains): False,
# tested first, takes the plain form at the first `is`
_IS_STAGED_FALSE_FIRST = _is_staged_template(False, True)
STAGED_FORM = 'the node is in the staged form of an enclosing construct'
# on the test of an `if` statement or expression whose body is a staged form, its `else` the
# plain one (converters/speed/staged_functions moves the staged form into a function of its own)
PICKS_FORM = 'the test picks the staged form (the body) or the plain one (the else part)'
# on an `and`/`or` that is the test of an `if` or `while` statement: its plain form may give
# True or False for an operand that stopped it, whose truth Python's statement tests once
# (logical_expressions)
TRUTH_TEST = 'the and/or is the test of an if or while statement: only its truth is used'


def is_staged_test(cond, test, false_first=False):
    """The test that picks the staged form of a construct whose condition is `test`; it binds
    the value to the name `cond`. Its own `and` stays Python (`Basic.PYTHON_TEST`).
    `false_first`: test for False before True (an `if`; a loop's test is mostly True). An
    operand of `and`/`or`/`not` that is no comparison tests None too (`is_staged_operand`)."""
    condition = templates.replace_as_expression(
        _IS_STAGED_FALSE_FIRST if false_first else _IS_STAGED, cond=cond, test=test)
    anno.setanno(condition, anno.Basic.PYTHON_TEST, True)
    anno.setanno(condition, PICKS_FORM, True)
    return condition


def is_staged_operand(cond, operand):
    """`is_staged_test` for an operand of `and`/`or`/`not`: a comparison's value is a bool
    (told apart by `is`), any other is a bool, None or another value (`is` first for those
    three)."""
    if isinstance(operand, gast.Compare) or (
            isinstance(operand, gast.UnaryOp) and isinstance(operand.op, gast.Not)):
        return is_staged_test(cond, operand)
    condition = templates.replace_as_expression(_IS_STAGED_OPERAND, cond=cond, test=operand)
    anno.setanno(condition, anno.Basic.PYTHON_TEST, True)
    anno.setanno(condition, PICKS_FORM, True)
    return condition


def staged_copy(node, edit=None):
    """A copy of `node` (or of a list of nodes) for a staged form: every node in it is marked,
    so the converters that run later keep it staged only. `edit(annotations)` changes the
    other marks of each copied node in the same walk."""
    def mark(annotations):
        annotations[STAGED_FORM] = True
        if edit is not None:
            edit(annotations)
    return templates.copy_tree(node, mark)


def in_staged_form(node):
    return anno.getanno(node, STAGED_FORM, False)


class ExpressionTransformer(transformer.Base):
    """A converter of expressions that can tell where an assignment expression (the `cond :=`
    of the test that picks a form) is not allowed: in the iterables of comprehensions, and in
    class bodies (whose comprehensions cannot bind one). There it writes the staged form only,
    which handles Python values too, only slower."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.no_walrus = 0

    def both_forms_allowed(self, node):
        return not self.no_walrus and not in_staged_form(node)

    def visit_ClassDef(self, node):
        self.no_walrus += 1
        try:
            return self.generic_visit(node)
        finally:
            self.no_walrus -= 1

    def visit_comprehension(self, node):
        node.target = self.visit(node.target)
        self.no_walrus += 1
        try:
            node.iter = self.visit(node.iter)
        finally:
            self.no_walrus -= 1
        node.ifs = [self.visit(test) for test in node.ifs]
        return node


def breaks_for_real(loop, body, kind):
    """The plain Python body of a loop with a `break`: `break_ = True` where it runs as Python
    is followed by `break`. When a staged form in the body may set the flag (the block
    functions of a tensor `if`), the body ends with the test of the loop's staged form: a flag
    that became a tensor is refused, as `while_stmt`/`for_stmt` refuse it; one that is True
    stops the loop."""
    flag = anno.getanno(loop, anno.Basic.BREAK_FLAG)
    if flag is None:
        return body
    body, staged_sets = _break_after_flag(body, flag)
    if not staged_sets:
        return body
    stop = templates.replace(
        'if flag is not False:\n    ag__.refuse_staged_test(flag, kind)\n    break',
        flag=flag, kind=gast.Constant(value=kind, kind=None))
    anno.setanno(stop[0].test, anno.Basic.PYTHON_TEST, True)
    return body + stop


_COMPOUND_BLOCKS = ('body', 'orelse', 'finalbody')


def _break_after_flag(statements, flag):
    """`statements` with a `break` after each `flag = True` outside functions and inner loops,
    and whether a function among them (a block function) sets `flag`."""
    result, staged_sets = [], False
    for statement in statements:
        result.append(statement)
        if _sets_flag(statement, flag):
            result.append(gast.Break())
        elif isinstance(statement, gast.FunctionDef):
            staged_sets = staged_sets or any(_sets_flag(n, flag) for n in walk.nodes(statement))
        elif isinstance(statement, (gast.If, gast.With, gast.Try)):
            blocks = [statement] + (statement.handlers if isinstance(statement, gast.Try) else [])
            for holder in blocks:
                for field in _COMPOUND_BLOCKS:
                    block = getattr(holder, field, None)
                    if block:
                        new, sets = _break_after_flag(block, flag)
                        setattr(holder, field, new)
                        staged_sets = staged_sets or sets
    return result, staged_sets


def _sets_flag(statement, flag):
    return (isinstance(statement, gast.Assign) and len(statement.targets) == 1
            and isinstance(statement.targets[0], gast.Name) and statement.targets[0].id == flag
            and isinstance(statement.value, gast.Constant) and statement.value.value is True)
