"""The plain Python form of converted code, written close to the original.

After the other converters, the code that runs on Python values (the plain forms the
control-flow converter writes, and everything outside a converted statement; not the staged
forms, which only run on tensors) still holds the operators that the staged forms need. Here
each becomes what it is on Python values, with one type test that leaves any other value to
the operator:

- a converted `return` (the `do_return`/`retval_` flag and value) is a real `return value`
  (through the staged-list check in a function that has one);
- `l = ag__.list_append(l, x)` is `l.append(x)` unless `l` is a StagedList;
- `ag__.ld(x)` is `x` when `x` holds a plain Python value (`ag__.PLAIN_TYPES`);
- `ag__.callee(f, fscope)(args)` is, for a method of a plain value, the method itself
  (`(s.isdigit if ag__.type_(s) in ag__.PLAIN_TYPES else ...)()`: a builtin type's methods
  are what `callee` would return), and for any other callee first the plan of an earlier call
  (`ag__.plan_of(ag__.id_(f)) or ag__.callee(f, fscope)`: a dict lookup, no Python call); a
  bound method (a new object at each access, never a key of the plans) is called as it is
  when its function's plan is the function itself (`callee` would return it so);
- `obj.m(args)` of a local or a value runs as written (a LOAD_METHOD) while no graph is being
  built (`not ag__.BUILDING_GRAPHS[0]`: user code runs as it is then, and `callee` returns a
  bound method as it is), and on a plain value at any time; a global's method (a compiled
  pattern's `match`) runs as written on a plain value, else takes the plan first;
- an overloaded builtin (`len`, `abs`, ...) on plain names is the builtin itself on plain
  values, and on one argument that is no name (`len(chunks[-1])`) too: the argument is
  evaluated once, into a name of its own, and tested like a name;
- `ag__.assert_stmt(test, lambda: msg)` is Python's `assert` unless the tested value is a
  symbolic tensor.

A receiver or callee that is not a plain name is evaluated once, into `callee_` (one name per
function: each use stores it and reads it back at once, before anything else runs). Where an
assignment expression cannot be written (comprehensions, lambdas, class bodies) only plain
names get the fast form.

A local variable's type test is made once for several uses where its type cannot have
changed (converters/speed/type_tests.py): before a loop that cannot rebind it, into a flag
(`plain_text = ag__.type_(text) in ag__.PLAIN_TYPES`), and, outside loops too, at its first
sure use in a statement's header for the code after it (`(plain_char := ag__.type_(char) in
ag__.PLAIN_TYPES)`).

In a loop, the operators module's constants that the plain forms read at every iteration
(`ag__.type_`, `ag__.PLAIN_TYPES`, `ag__.builtin_len`, ...: `_CONSTANTS`) are read from locals
set before the outermost loop (`type__ = ag__.type_`): one `LOAD_FAST` instead of a global and
an attribute lookup. They never change, and the names are the compiler's own (ctx.namer).
"""
import dataclasses

import gast

from autograph.converters import call_trees, lists, return_statements
from autograph.converters.speed import dual, type_tests
from autograph.pyct import anno, templates, transformer

# a bound method is what `callee` returns for it while no graph is being built (user code
# runs as it is), and when its function's plan is the function itself (a bound method is a new
# object at each access, never a key of the plans)
_BOUND_AS_IT_IS = ('ag__.type_(temp) is ag__.MethodType and (not ag__.BUILDING_GRAPHS[0] or '
                   'ag__.plan_of(ag__.id_(temp.__func__)) is temp.__func__)')


def _callee_of(value):
    """What a call of `value` runs, without a Python call where it is known: a bound method as
    it is (`_BOUND_AS_IT_IS`), else the plan of the value, else `callee`. `value` is bound to
    `temp` where it is first read."""
    return (f'(temp if {_BOUND_AS_IT_IS.replace("type_(temp)", f"type_(temp := {value})", 1)}'
            ' else ag__.plan_of(ag__.id_(temp)) or ag__.callee(temp, scope))')


# no graph is being built (user code runs as it is): a method of a local or of a value runs
# as written (`callee` returns user code and bound methods as they are then), but a module's
# function (`warnings.warn` after an `import` in the function): the plan first, which may be
# an overload (the warning's place in the user's frames)
_EAGER = '(not ag__.BUILDING_GRAPHS[0] and ag__.type_(receiver) is not ag__.ModuleType)'
# `ag_attr__` stands for the method's name
_METHOD = '(receiver.ag_attr__ if plain else ' + _callee_of('receiver.ag_attr__') + ')'
_METHOD_OF_NAME = '(receiver.ag_attr__ if ag__.type_(receiver) in ag__.PLAIN_TYPES or ' + \
                  _EAGER + ' else ag__.callee(receiver.ag_attr__, scope))'
_METHOD_OF_VALUE = '(temp.ag_attr__ if ag__.type_(temp := receiver) in ag__.PLAIN_TYPES or ' + \
                   _EAGER.replace('receiver', 'temp') + ' else ' + \
                   _callee_of('temp.ag_attr__') + ')'
_ATTR = 'ag_attr__'
# a method of a global (a module's function, a class's, a module-level object's method, a
# compiled pattern's): the plan first, then a bound method's as `_callee_of` and a builtin
# method of a plain value as it is (what `callee` returns for it)
_METHOD_OF_GLOBAL = '(ag__.plan_of(ag__.id_(temp := receiver.ag_attr__)) or ' \
                    '(temp if ' + _BOUND_AS_IT_IS + ' or ' \
                    'ag__.type_(temp) in ag__.BUILTIN_METHOD_TYPES and ' \
                    'ag__.type_(temp.__self__) in ag__.PLAIN_TYPES else ' \
                    'ag__.callee(temp, scope)))'
_FUNCTION_NAME = '(ag__.plan_of(ag__.id_(func)) or ag__.callee(func, scope))'
# a function in a local: a plain value's builtin method (`startswith = text.startswith`) as it
# is (what `callee` returns for it, and never a key of the plans: the plans hold module-level
# builtins, whose `__self__` is a module), else its plan, else `callee`
_FUNCTION_LOCAL = '(func if method else ag__.plan_of(ag__.id_(func)) or ag__.callee(func, scope))'
_BUILTIN_METHOD = ('ag__.type_(func) in ag__.BUILTIN_METHOD_TYPES and '
                   'ag__.type_(func.__self__) in ag__.PLAIN_TYPES')
# `len(x)`, `range(a, b)`, ... of plain names: the builtin itself on plain values
_BUILTIN = '(func if func is builtin and plain else ' \
           'ag__.plan_of(ag__.id_(func)) or ag__.callee(func, scope))'
# `len(chunks[-1])`, `abs(a - b)`: one argument that is no name, evaluated once into `value`
# after the function is read into `temp`, as Python's call (the argument in the last
# parentheses again only where the test stopped before it: a shadowed builtin)
_BUILTIN_OF_VALUE = ('(temp(value) if (temp := func) is builtin and '
                     'ag__.type_(value := argument) in ag__.PLAIN_TYPES else '
                     '(ag__.plan_of(ag__.id_(temp)) or ag__.callee(temp, scope))'
                     '(value if temp is builtin else again))')
_FUNCTION_VALUE = '(ag__.plan_of(ag__.id_(temp := func)) or ag__.callee(temp, scope))'
_BOUND_METHOD = _callee_of('func')   # a method of a value
_LOAD = '(name if plain else ag__.ld(name))'
_PLAIN_NAME = 'ag__.type_(name) in ag__.PLAIN_TYPES'
_FLAG = 'flag = ag__.type_(name) in ag__.PLAIN_TYPES'
_PLAIN_VALUE = 'ag__.type_(temp := receiver) in ag__.PLAIN_TYPES or ' + \
    _EAGER.replace('receiver', 'temp')
# the receivers that are objects of the user's classes by convention (a method's `self`, a
# class method's `cls`): the mode is tested before their type (the order of two tests that
# run no code, for speed only)
_OBJECT_NAMES = frozenset({'self', 'cls'})
_LOADED = 'plain_forms: the plain form of an ag__.ld read'
# what arguments may hold to be written twice (in the call of a plain value's method and in
# the call through `callee`): nothing that runs user code before the call or binds a name
_NOT_SIMPLE = (gast.Call, gast.Lambda, gast.NamedExpr, gast.ListComp, gast.SetComp,
               gast.DictComp, gast.GeneratorExp, gast.Yield, gast.YieldFrom, gast.Await,
               gast.IfExp)
# the attributes of `ag__` that are constants (set when the module loads, never rebound)
_CONSTANTS = frozenset({'type_', 'PLAIN_TYPES', 'PYTHON_ITERABLES', 'StagedList',
                        'MethodType', 'ModuleType', 'BUILTIN_METHOD_TYPES', 'BUILDING_GRAPHS'})
_CONSTANT_PREFIX = 'builtin_'   # ag__.builtin_len, ...: the builtins as Python starts
_APPEND = '''
if ag__.type_(name) is ag__.StagedList:
    name = ag__.list_append(name, value)
else:
    name.append(value)
'''
_STAGED_LISTS_RETURN = '''
retval_ = value
if ag__.STAGED_LISTS[0] is staged_before:
    return retval_
return scope.ret(retval_, True, staged_before)
'''

# `assert test, msg` (`ag__.assert_stmt(test, lambda: msg)`): Python's own on any value that is
# not a symbolic tensor (the same AssertionError, raised in the user's function, with no call)
_ASSERT = '''
if (value := test) is not True and value is not False and \\
        ag__.type_(value) not in ag__.PLAIN_TYPES and ag__.is_staged(value):
    ag__.assert_stmt(value, message)
else:
    assert value, msg
'''
_ASSERT_NO_MESSAGE = _ASSERT.replace(', msg', '')


class PlainFormTransformer(transformer.Base):

    def __init__(self, ctx):
        super().__init__(ctx)
        self.temps = []       # per function: the name of its `callee_` (made on first use)
        self.bound = []       # per function: its local names
        self.no_walrus = 0    # > 0 inside comprehensions, lambdas and class bodies
        self.functions = []   # per function: its `_Loops`
        self.nonlocals = []   # per function: the `nonlocal` names of functions nested in it

    def visit_FunctionDef(self, node):
        scope = anno.getanno(node, anno.Static.SCOPE)   # the activity analysis's
        if self.nonlocals and scope is not None and not dual.in_staged_form(node):
            self.nonlocals[-1].update(scope.nonlocals)   # a nested function of the user's
        if dual.in_staged_form(node) or anno.getanno(node, anno.Basic.FUNCTION_SCOPE) is None:
            return node       # a staged copy or a block function: staged forms only
        node.decorator_list = [self.visit(d) for d in node.decorator_list]
        node.args = self.visit(node.args)
        no_walrus, self.no_walrus = self.no_walrus, 0
        self.temps.append(None)
        self.bound.append(scope.local_names() if scope is not None else _EVERY_NAME)
        self.functions.append(_Loops(node))
        self.nonlocals.append(set())
        node.body = self.visit_block(node.body)
        nested = self.nonlocals.pop()
        if self.nonlocals:
            self.nonlocals[-1] |= nested   # `nonlocal` may name an enclosing function's
        if self.bound[-1] is not _EVERY_NAME:
            type_tests.share_type_tests(node.body, self.bound[-1] - nested, self.ctx.namer)
        self.functions.pop()
        self.temps.pop()
        self.bound.pop()
        self.no_walrus = no_walrus
        return node

    def _visit_opaque(self, node):
        self.no_walrus += 1
        try:
            return self.generic_visit(node)
        finally:
            self.no_walrus -= 1

    visit_ClassDef = visit_Lambda = visit_ListComp = visit_SetComp = visit_DictComp = \
        visit_GeneratorExp = _visit_opaque

    def _visit_loop(self, node):
        if not self.temps or self.no_walrus or dual.in_staged_form(node):
            return self.generic_visit(node)
        loops = self.functions[-1]
        if loops.invariants is None:
            local = self.bound[-1]
            loops.invariants = {} if local is _EVERY_NAME else type_tests.loop_invariants(
                loops.function, local, self.ctx.namer.made)
        names = loops.invariants.get(id(node))
        loops.depth += 1
        try:
            if not names:
                statements = [self.generic_visit(node)]
            else:
                loop = _Loop(names)
                loops.visiting.append(loop)
                try:
                    node = self.generic_visit(node)
                finally:
                    loops.visiting.pop()
                statements = [templates.replace(_FLAG, flag=flag, name=name)[0]
                              for name, flag in loop.flags.items()] + [node]
        finally:
            loops.depth -= 1
        if loops.depth == 0:
            statements = self._local_constants(statements, loops.constants)
        return statements if len(statements) > 1 else statements[0]

    def _local_constants(self, statements, constants):
        """`statements` (an outermost loop and the flags before it) reading the `_CONSTANTS`
        of `ag__` from locals, set first; `constants`: the function's {attribute: local}."""
        used = []
        for statement in statements:
            _replace_constants(statement, constants, used, self.ctx.namer)
        return [templates.replace('local = ag__.' + attr, local=constants[attr])[0]
                for attr in used] + statements

    visit_While = visit_For = _visit_loop

    def _plain_test(self, name):
        """`ag__.type_(name) in ag__.PLAIN_TYPES` for the Name node `name`, or the flag that
        holds it, made before the outermost loop where it does not change."""
        if not self.no_walrus:
            for loop in self.functions[-1].visiting:
                if name.id in loop.names:
                    flag = loop.flags.get(name.id)
                    if flag is None:
                        flag = loop.flags[name.id] = self.ctx.namer.new('plain_' + name.id)
                    return templates.replace_as_expression('flag', flag=flag)
        test = templates.replace_as_expression(_PLAIN_NAME, name=name)
        anno.setanno(test, type_tests.TYPE_TEST, name.id)
        return test

    def _receiver_test(self, name):
        """Whether a method of the local `name` runs as written: its value is plain or no
        graph is being built (`callee` returns a bound method as it is then, and the
        attribute of an object is the user's code, which runs as it is)."""
        eager = templates.replace_as_expression(_EAGER, receiver=templates.copy_tree(name))
        if name.id in _OBJECT_NAMES:
            values = [eager, templates.replace_as_expression(_PLAIN_NAME, name=name)]
        else:
            values = [self._plain_test(name), eager]
        return gast.BoolOp(op=gast.Or(), values=values)

    def _temp(self):
        if self.temps[-1] is None:
            self.temps[-1] = self.ctx.namer.new('callee_')
        return self.temps[-1]

    def _plain(self, node):
        return self.temps and not dual.in_staged_form(node)

    def visit_Try(self, node):
        mark = anno.getanno(node, return_statements.RETURN)
        node = self.generic_visit(node)
        if mark is None or not self._plain(node):
            return node
        scope, staged_before = mark
        value = node.body[1].value
        if staged_before is None:
            statements = [gast.Return(value=value)]
        else:
            statements = templates.replace(
                _STAGED_LISTS_RETURN, retval_=node.body[1].targets[0].id, value=value,
                staged_before=staged_before, scope=scope)
        origin = anno.getanno(node, anno.Basic.ORIGIN)
        if origin is not None:
            for statement in statements:
                anno.setanno(statement, anno.Basic.ORIGIN, origin)
        return statements

    def visit_Assign(self, node):
        name = anno.getanno(node, lists.APPEND)
        node = self.generic_visit(node)
        if name is None or not self._plain(node):
            return node
        return templates.replace(_APPEND, name=name, value=node.value.args[1])

    def visit_Expr(self, node):
        node = self.generic_visit(node)
        call = node.value
        if not (self._plain(node) and not self.no_walrus and isinstance(call, gast.Call)
                and _is_operator(call, 'assert_stmt')):
            return node
        test, message = call.args
        msg = message.body
        plain_message = isinstance(msg, gast.Constant) and msg.value is None
        statements = templates.replace(
            _ASSERT_NO_MESSAGE if plain_message else _ASSERT,
            value=self.ctx.namer.new('assert_test'), test=test, message=message,
            msg=templates.copy_tree(msg))
        anno.setanno(statements[0].test, anno.Basic.PYTHON_TEST, True)
        return statements

    def visit_Call(self, node):
        node = self.generic_visit(node)
        func = node.func
        if not self.temps or dual.in_staged_form(node):
            return node
        if _is_load(node):
            name = node.args[0]
            if not dual.in_staged_form(name):
                load = templates.replace_as_expression(_LOAD, name=name,
                                                       plain=self._plain_test(name))
                anno.setanno(load, _LOADED, True)
                return load
            return node
        if not (isinstance(func, gast.Call) and anno.getanno(func, call_trees.CALLEE)):
            return node
        target, scope = func.args
        method = self._method_call(target, scope, node)
        if method is not None:
            return method
        builtin = self._builtin_of_value(target, scope, node)
        if builtin is not None:
            return builtin
        node.func = self._builtin(target, scope, node) or self._callee(target, scope) or func
        return node

    def _method_call(self, target, scope, call):
        """`receiver.name(args)` called as written (a LOAD_METHOD, no bound method made) when
        the receiver is a plain value, else through `callee`: for a method of a local
        variable or of a value, with arguments that can be written twice; else None."""
        if not isinstance(target, gast.Attribute) or not _simple(call.args + call.keywords):
            return None
        receiver, walrus = target.value, not self.no_walrus
        plain_receiver = False
        if isinstance(receiver, gast.Name):
            if walrus and receiver.id not in self.bound[-1]:
                # a global: a plain value's method (a compiled pattern's `match`) as written,
                # a module's or a class's function with the plan first (`_METHOD_OF_GLOBAL`)
                test = templates.replace_as_expression(_PLAIN_NAME, name=receiver)
                plain_receiver = True
            else:
                test = self._receiver_test(receiver)
            direct_receiver = templates.copy_tree(receiver)
        elif walrus:
            temp = self._temp()
            test = templates.replace_as_expression(_PLAIN_VALUE, receiver=receiver, temp=temp)
            direct_receiver = templates.replace_as_expression('temp', temp=temp)
            target = gast.Attribute(value=templates.replace_as_expression('temp', temp=temp),
                                    attr=target.attr, ctx=gast.Load())
        else:
            return None
        direct = gast.Call(
            func=gast.Attribute(value=direct_receiver, attr=target.attr, ctx=gast.Load()),
            args=templates.copy_tree(call.args), keywords=templates.copy_tree(call.keywords))
        general = gast.Call(func=self._callee(target, scope, plain_receiver=plain_receiver),
                            args=call.args, keywords=call.keywords)
        return gast.IfExp(test=test, body=direct, orelse=general)

    def _builtin(self, target, scope, call):
        """The plain form of a call of a builtin with a tensor overload by its name, on
        arguments that are names or constants, or None."""
        if not (isinstance(target, gast.Name) and target.id in call_trees.OVERLOADED_BUILTINS
                and call.args and not call.keywords
                and all(isinstance(a, (gast.Name, gast.Constant)) for a in call.args)):
            return None
        # a constant (`int(text, 16)`, `range(0, 32, 4)`) is a plain value: no test
        tests = [self._plain_test(a) for a in call.args if isinstance(a, gast.Name)]
        if not tests:
            return templates.replace_as_expression(
                _BUILTIN.replace(' and plain', ''), func=target, scope=scope,
                builtin='ag__.builtin_' + target.id)
        plain = tests[0] if len(tests) == 1 else gast.BoolOp(op=gast.And(), values=tests)
        return templates.replace_as_expression(_BUILTIN, func=target, scope=scope, plain=plain,
                                               builtin='ag__.builtin_' + target.id)

    def _builtin_of_value(self, target, scope, call):
        """The plain form of a call of a builtin with a tensor overload whose first argument
        is no name but can be written twice (`_BUILTIN_OF_VALUE`) and the others constants,
        or None."""
        if not (isinstance(target, gast.Name) and target.id in call_trees.OVERLOADED_BUILTINS
                and call.args and not call.keywords and not self.no_walrus
                and all(isinstance(a, gast.Constant) for a in call.args[1:])):
            return None
        argument = call.args[0]   # the others constants (`int(text[i:j], 16)`)
        if isinstance(argument, (gast.Name, gast.Starred, gast.Constant)) or \
                not _simple([argument]):
            return None
        expression = templates.replace_as_expression(
            _BUILTIN_OF_VALUE, func=target, scope=scope, temp=self._temp(),
            value=self.ctx.namer.new('argument'), argument=argument,
            again=templates.copy_tree(argument), builtin='ag__.builtin_' + target.id)
        expression.body.args += templates.copy_tree(call.args[1:])
        expression.orelse.args += call.args[1:]
        return expression

    def _callee(self, target, scope, plain_receiver=True):
        """The plain form of `ag__.callee(target, scope)`, or None to keep it;
        `plain_receiver`: whether to test the receiver of a method first."""
        walrus = not self.no_walrus
        if isinstance(target, gast.Attribute) and not plain_receiver:
            if not walrus:
                return templates.replace_as_expression('ag__.callee(func, scope)',
                                                       func=target, scope=scope)
            return templates.replace_as_expression(_BOUND_METHOD, func=target,
                                                   temp=self._temp(), scope=scope)
        if isinstance(target, gast.Attribute):
            receiver = target.value
            if isinstance(receiver, gast.Name):
                template = _METHOD_OF_NAME
                if walrus:
                    template = _METHOD if receiver.id in self.bound[-1] else _METHOD_OF_GLOBAL
            elif walrus:
                template = _METHOD_OF_VALUE
            else:
                return None
            plain = self._receiver_test(receiver) if template is _METHOD else None
            expression = templates.replace_as_expression(
                template, receiver=receiver, temp=self._temp() if walrus else 'temp',
                scope=scope, plain=plain)
            for node in gast.walk(expression):
                if isinstance(node, gast.Attribute) and node.attr == _ATTR:
                    node.attr = target.attr
            return expression
        if isinstance(target, gast.Name):
            if walrus and target.id in self.bound[-1]:
                # the test holds until the name is bound again: shared (type_tests)
                method = templates.replace_as_expression(_BUILTIN_METHOD, func=target)
                anno.setanno(method, type_tests.METHOD_TEST, target.id)
                return templates.replace_as_expression(_FUNCTION_LOCAL, func=target,
                                                       scope=scope, method=method)
            return templates.replace_as_expression(_FUNCTION_NAME, func=target, scope=scope)
        if walrus:
            return templates.replace_as_expression(_FUNCTION_VALUE, func=target,
                                                   temp=self._temp(), scope=scope)
        return None


@dataclasses.dataclass
class _Loops:
    """The loops of one function being visited."""
    function: gast.FunctionDef
    invariants: dict | None = None  # `loop_invariants(function)`, made at its first loop
    visiting: list = dataclasses.field(default_factory=list)   # the `_Loop`s entered
    depth: int = 0                # how many of its plain loops are being visited
    constants: dict = dataclasses.field(default_factory=dict)  # `ag__` attribute -> its local


@dataclasses.dataclass
class _Loop:
    names: frozenset                                    # its invariant names
    flags: dict = dataclasses.field(default_factory=dict)  # name -> the flag of its type test


def _replace_constants(node, constants, used, namer):
    """Replaces, in the plain code of `node`, each read of a constant of `ag__` by its local
    in `constants` (made with `namer` on first need); appends to `used` the attributes
    replaced, once each."""
    def replace(child):
        attr = _constant_read(child)
        if attr is None:
            return None
        local = constants.get(attr)
        if local is None:
            local = constants[attr] = namer.new(attr.lower().strip('_') + '__')
        if attr not in used:
            used.append(attr)
        return templates.replace_as_expression('local', local=local)
    type_tests.substitute(node, replace)


def _constant_read(node):
    """The attribute if `node` reads a constant of `ag__` (generated code), else None."""
    if type(node) is not gast.Attribute or type(node.value) is not gast.Name or \
            node.value.id != 'ag__' or type(node.ctx) is not gast.Load:
        return None
    attr = node.attr
    if attr in _CONSTANTS or attr.startswith(_CONSTANT_PREFIX):
        return attr if anno.getanno(node.value, anno.Basic.GENERATED) else None
    return None


class _EveryName:
    """The local names of a function without its analysis: any name may be one."""

    def __contains__(self, name):
        return True


_EVERY_NAME = _EveryName()


def _simple(nodes):
    """Whether the expressions `nodes` can be written twice (see `_NOT_SIMPLE`)."""
    pending = list(nodes)
    while pending:
        node = pending.pop()
        if anno.getanno(node, _LOADED):
            continue
        if isinstance(node, _NOT_SIMPLE):
            return False
        pending.extend(gast.iter_child_nodes(node))
    return True


def _is_operator(node, name):
    """Whether the Call `node` calls the converters' `ag__.<name>`."""
    func = node.func
    return (isinstance(func, gast.Attribute) and func.attr == name
            and isinstance(func.value, gast.Name) and func.value.id == 'ag__'
            and anno.getanno(func, anno.Basic.GENERATED))


def _is_load(node):
    """Whether `node` is an `ag__.ld(name)` of the variables converter."""
    return (_is_operator(node, 'ld') and len(node.args) == 1
            and isinstance(node.args[0], gast.Name))


def transform(node, ctx):
    return PlainFormTransformer(ctx).visit(node)
