#!/usr/bin/env python3
"""Differential fuzzer for the compiler: random control-flow programs must agree three ways.

    python3 tools/fuzz.py [-n 10000] [--seed 0] [--show]

Each generated function `f(a, b)` is rich in control flow (nested if/elif/else, `while` and
`for ... in range`, break/continue, early returns inside loops, augmented assignment, variables
first defined in branches or loops, and/or/not (chains of up to 7 operands), chained
comparisons, dicts and tuples as state) and calls helpers (`HELPERS`: a decorator, a class
with private names, a generator, a recursive function) and, in some programs, a decorated
nested function reading a closure variable and a class defined in the function.
It runs

1. as plain Python on two ints,
2. converted (`ag.to_graph`) on the same Python ints: the result, or the exception type, must
   be Python's exactly; once eagerly (its callees run as they are) and once while a graph is
   being built (its callees converted too);
3. traced (`ag.function`) on int32 tensors: the value must be Python's, or the error one of the
   documented conversion errors (`DOCUMENTED_ERRORS`), e.g. a variable set in only one branch
   of a tensor `if`. Where Python raises UnboundLocalError the traced function must raise too.
   Where an int32 value wraps around (the result, or an intermediate one, for which numpy
   warns of the overflow) and Python's int grows, the traced value is not compared.

A disagreement is shrunk (statements are removed while it persists) and printed. The generator
(`generate`) is shared with tests/autograph/test_fuzz.py, which runs a bounded number in CI.
"""
import argparse
import linecache
import random
import re
import signal
import sys
import time
import warnings
from dataclasses import dataclass, field

import autograph as ag
import runtime as rt

# The errors that are the right answer when a program cannot be staged as it is written.
DOCUMENTED_ERRORS = re.compile('|'.join([
    r'must also be initialized in the (if|else) branch',
    r'is set in one branch of an `if` on a tensor',
    r'needs a `return` in the (if|else) branch',
    r'must be defined before the loop',
    r'loop must iterate at least once',
    r'does not have the same nested structure',
    r'became a tensor inside the loop',
    r'is used before it is assigned a value',
    # both branches of a tensor `if` (and both sides of `and`/`or`) are traced, so a branch
    # Python never takes may read a variable that is not bound
    r"(name|variable) '\w+' is not defined",
    # so is the code after a `return` inside a tensor `if` or loop (it runs when that did not
    # return): a local it reads before assigning it (in a `finally` after a failed `try`)
    # raises Python's own error
    r"cannot access local variable '\w+' where it is not associated with a value",
]))

ARGUMENTS = ((3, 2), (0, 0), (-2, 5), (4, -1), (1, 1), (5, 3), (-3, -3), (2, 0))


# ---- programs ------------------------------------------------------------------------------

@dataclass(slots=True)
class Stmt:
    """One statement: its header line and, for compound statements, its blocks (each a list of
    Stmt) with the header of each block after the first (`else:`, `elif c:`)."""
    line: str
    blocks: list = field(default_factory=list)
    block_headers: list = field(default_factory=list)

    def render(self, indent):
        pad = '    ' * indent
        lines = [pad + self.line]
        for i, block in enumerate(self.blocks):
            if i:
                lines.append(pad + self.block_headers[i - 1])
            lines.extend(render_block(block, indent + 1))
        return lines


def render_block(block, indent):
    if not block:
        return ['    ' * indent + 'pass']
    return [line for stmt in block for line in stmt.render(indent)]


# Module-level helpers every program may call: a decorator, a class with private (mangled)
# attributes and methods, a generator (run unconverted) and a recursive function.
HELPERS = '''\
def twice(fn):
    def wrapper(v):
        return fn(fn(v))
    return wrapper


class Box:
    def __init__(self, v):
        self.__v = v

    def __bump(self, k):
        return self.__v + k

    def get(self, k):
        return self.__bump(k)


def gen(v):
    yield v
    yield v + 1
    yield -v


def rec(n, v):
    if n <= 0:
        return v
    return rec(n - 1, v + n)


'''


def render(body):
    return HELPERS + '\n'.join(['def f(a, b):'] + render_block(body, 1)) + '\n'


class Generator:
    """Random function bodies; `rng` is a random.Random (hypothesis passes its own)."""

    VARIABLES = ('x', 'y', 'z', 'w')

    def __init__(self, rng, max_depth=3):
        self.rng = rng
        self.max_depth = max_depth
        self.counters = 0
        self.returns_tuple = rng.random() < 0.3
        self.has_dict = rng.random() < 0.4
        self.has_tuple = rng.random() < 0.3
        self.has_list = rng.random() < 0.3
        self.has_nested = rng.random() < 0.3   # a decorated nested function, a local class
        self.assigned = {'x', 'y'}     # variables assigned somewhere so far
        self.if_depth = 0              # `if`s around the statement being generated

    def choice(self, options):
        return options[self.rng.randrange(len(options))]

    def body(self):
        prelude = [Stmt('x = a'), Stmt('y = b')]
        if self.has_dict:
            prelude.append(Stmt("d = {'k': a, 'n': 0}"))
        if self.has_tuple:
            prelude.append(Stmt('t = (a, 1)'))
        if self.has_list:
            prelude.append(Stmt(self.choice(('s = []', 's = [b]'))))
        if self.has_nested:
            # a closure over `x` (late binding: it sees x's value at the call) and a class
            # defined in the function, with private attributes
            prelude += [Stmt('@twice'), Stmt('def g(v):', [[Stmt('return v + x')]]),
                        Stmt('class Pair:', [[
                            Stmt('def __init__(self, p, q):', [[Stmt('self.__p = p'),
                                                                 Stmt('self.__q = q')]]),
                            Stmt('def total(self):', [[Stmt('return self.__p - self.__q')]])]])]
        return prelude + self.block(0, in_loop=False, size=self.rng.randint(1, 4)) + \
            [Stmt('return ' + self.returned())]

    def block(self, depth, in_loop, size=None):
        size = size if size is not None else self.rng.randint(1, 3)
        return [self.statement(depth, in_loop) for _ in range(size)]

    # expressions

    def atom(self):
        r = self.rng.random()
        if r < 0.15:
            return str(self.rng.randint(-2, 3))
        if r < 0.35:
            return self.choice(('a', 'b'))
        if r < 0.45 and self.has_dict:
            return "d['k']"
        if r < 0.5 and self.has_tuple:
            return f't[{self.rng.randint(0, 1)}]'
        if r < 0.97:
            return self.choice(sorted(self.assigned))
        return self.choice(self.VARIABLES)

    def value(self, depth=0):
        r = self.rng.random()
        if depth > 1 or r < 0.45:
            return self.atom()
        if r < 0.8:
            return f'{self.value(depth + 1)} {self.choice(("+", "-"))} {self.value(depth + 1)}'
        if r < 0.9:
            return f'{self.value(depth + 1)} % {self.rng.randint(2, 4)}'
        return f'-{self.atom()}'

    def comparison(self):
        op = lambda: self.choice(('<', '<=', '>', '>=', '==', '!='))  # noqa: E731
        if self.rng.random() < 0.15:
            return f'{self.atom()} {op()} {self.atom()} {op()} {self.atom()}'
        return f'{self.value(1)} {op()} {self.value(1)}'

    def condition(self, depth=0):
        r = self.rng.random()
        if depth > 1 or r < 0.6:
            return self.comparison()
        if r < 0.75:
            return f'not {self.condition(depth + 1)}'
        joiner = self.choice(('and', 'or'))
        if r < 0.9:
            return f'({self.condition(depth + 1)} {joiner} {self.condition(depth + 1)})'
        # a long chain: the compiler writes it flat (converters/logical_expressions.py)
        operands = [self.condition(depth + 1) for _ in range(self.rng.randint(5, 7))]
        return f'({f" {joiner} ".join(operands)})'

    def returned(self):
        if self.returns_tuple:
            return f'({self.value(1)}, {self.value(1)})'
        if self.has_list:
            return f'{self.value()} + len(s)'
        return self.value()

    def helper_call(self):
        """A call of a helper: a method using private names, a generator, recursion, or the
        decorated nested function and the local class."""
        calls = [f'Box({self.value(1)}).get({self.rng.randint(-1, 2)})',
                 f'sum(gen({self.value(1)}))', f'rec({self.rng.randint(0, 4)}, {self.value(1)})']
        if self.has_nested:
            calls += [f'g({self.value(1)})', f'Pair({self.value(1)}, {self.value(1)}).total()']
        return self.choice(calls)

    # statements

    def statement(self, depth, in_loop):
        r = self.rng.random()
        compound = depth < self.max_depth
        if compound and r < 0.2:
            return self.if_statement(depth, in_loop)
        if compound and r < 0.3:
            return self.while_statement(depth)
        if compound and r < 0.4:
            return self.for_statement(depth)
        if in_loop and r < 0.47:
            return Stmt(f'if {self.condition()}:', [[Stmt(self.choice(('break', 'continue')))]])
        if compound and r < 0.5:
            return self.try_statement(depth, in_loop)
        if self.has_list and in_loop and not self.if_depth and r < 0.56:
            # appends under a tensor `if` outside a tensor loop are traced in both branches
            # (docs/reference.md), so they appear only where no `if` encloses them
            return Stmt(f's.append({self.value()})')
        if r < 0.52:
            return Stmt(f'if {self.condition()}:', [[Stmt('return ' + self.returned())]])
        if self.has_dict and r < 0.6:
            return Stmt(f"d[{self.choice(('k', 'n'))!r}] {self.choice(('=', '+='))} "
                        f'{self.value()}')
        if self.has_tuple and r < 0.65:
            return Stmt(f't = ({self.value(1)}, {self.value(1)})')
        if r < 0.72:
            name, value = self.choice(self.VARIABLES), self.value()
            self.assigned.add(name)
            return Stmt(f'{name} = {value}')
        if r < 0.8:
            name = self.choice(self.VARIABLES)
            value = self.helper_call()
            self.assigned.add(name)
            return Stmt(f'{name} = {value}')
        return Stmt(f'{self.choice(sorted(self.assigned))} {self.choice(("+=", "-="))} '
                    f'{self.value()}')

    def if_statement(self, depth, in_loop):
        self.if_depth += 1
        stmt = Stmt(f'if {self.condition()}:', [self.block(depth + 1, in_loop)])
        while self.rng.random() < 0.3:
            stmt.block_headers.append(f'elif {self.condition()}:')
            stmt.blocks.append(self.block(depth + 1, in_loop))
        if self.rng.random() < 0.6:
            stmt.block_headers.append('else:')
            stmt.blocks.append(self.block(depth + 1, in_loop))
        self.if_depth -= 1
        return stmt

    def try_statement(self, depth, in_loop):
        """`try`/`finally`; the `finally` block only assigns (no jumps)."""
        name = self.choice(self.VARIABLES)
        final = [Stmt(f'{name} = {self.value()}')]
        self.assigned.add(name)
        return Stmt('try:', [self.block(depth + 1, in_loop), final], ['finally:'])

    def counter(self):
        self.counters += 1
        return f'c{self.counters}'

    def while_statement(self, depth):
        """`while` loops are bounded by a counter stepped first in the body."""
        c = self.counter()
        bound = self.rng.randint(0, 4)
        test = f'{c} < {bound}'
        if self.rng.random() < 0.7:
            test = f'{test} and {self.condition()}'
        return Stmt(f'{c} = 0'), Stmt(
            f'while {test}:', [[Stmt(f'{c} += 1')] + self.block(depth + 1, in_loop=True)])

    def for_statement(self, depth):
        c = self.counter()
        bound = self.choice(('a % 4', 'b % 3', '3', 'x % 3', '0'))
        return Stmt(f'for {c} in range({bound}):', [self.block(depth + 1, in_loop=True)])


def _flatten(block):
    """Expands the (counter init, while) pairs that `while_statement` returns."""
    out = []
    for stmt in block:
        if isinstance(stmt, tuple):
            init, loop = stmt
            out.append(init)
            stmt = loop
        stmt.blocks = [_flatten(b) for b in stmt.blocks]
        out.append(stmt)
    return out


def generate(rng, max_depth=3):
    """A random program: its statement tree (for shrinking)."""
    return _flatten(Generator(rng, max_depth).body())


# ---- running -------------------------------------------------------------------------------

_serial = [0]


def load(source):
    """The function `f` defined by `source`, with its source findable by the compiler."""
    _serial[0] += 1
    filename = f'<fuzz {_serial[0]}>'
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {'rt': rt}
    exec(compile(source, filename, 'exec'), namespace)
    return namespace['f'], filename


@dataclass(slots=True)
class Outcome:
    value: object = None
    error: BaseException = None

    def describe(self):
        if self.error is not None:
            return f'{type(self.error).__name__}: {str(self.error).splitlines()[0]}'
        return repr(self.value)


def outcome(call):
    try:
        return Outcome(value=call())
    except (ArithmeticError, LookupError, NameError, TypeError, ValueError, NotImplementedError,
            RecursionError, rt.errors.OpError) as e:
        return Outcome(error=e)


def to_python(value):
    if isinstance(value, rt.Tensor):
        return value.numpy().item()
    if isinstance(value, tuple):
        return tuple(to_python(v) for v in value)
    return value


class Hang(Exception):
    pass


def _hang(signum, frame):
    raise Hang('no answer within the time limit')


def check(source, seconds=30):
    """None if the program agrees three ways, else a description of the disagreement."""
    f, filename = load(source)
    previous = signal.signal(signal.SIGALRM, _hang)
    signal.alarm(seconds)
    try:
        converted = ag.to_graph(f)
        function = ag.function(f)
        for a, b in ARGUMENTS:
            expected = outcome(lambda: f(a, b))
            got = outcome(lambda: converted(a, b))
            if not _same(expected, got, exact=True):
                return f'f({a}, {b}) as Python: {expected.describe()}; converted: {got.describe()}'
            with rt.Graph().as_default():   # a graph being built: its callees converted too
                got = outcome(lambda: converted(a, b))
            if not _same(expected, got, exact=True):
                return (f'f({a}, {b}) as Python: {expected.describe()}; converted, callees '
                        f'converted: {got.describe()}')
            if not _fits_int32(expected.value):
                continue      # int32 tensors wrap around where Python ints grow
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter('always', RuntimeWarning)
                got = outcome(lambda: to_python(function(rt.constant(a), rt.constant(b))))
            if any('overflow' in str(w.message) for w in caught):
                continue      # so did an intermediate value (numpy warns for its scalars)
            if not _same(expected, got, exact=False):
                return f'f({a}, {b}) as Python: {expected.describe()}; traced: {got.describe()}'
        return None
    except Hang as e:
        return f'f(...) as Python: -; traced: Hang: {e}'
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        linecache.cache.pop(filename, None)


def _fits_int32(value):
    if isinstance(value, tuple):
        return all(_fits_int32(v) for v in value)
    return not isinstance(value, int) or -2 ** 31 <= value < 2 ** 31


def _same(expected, got, exact):
    if expected.error is None and got.error is None:
        return expected.value == got.value and type(expected.value) is type(got.value) \
            if exact else expected.value == got.value
    if exact:
        return type(expected.error) is type(got.error) or (
            isinstance(expected.error, NameError) and isinstance(got.error, NameError))
    if got.error is None:
        return False    # Python raised, the graph gave a value
    if expected.error is not None and (
            type(expected.error) is type(got.error)
            or isinstance(expected.error, NameError) and isinstance(got.error, NameError)):
        return True
    return bool(DOCUMENTED_ERRORS.search(str(got.error)))


# ---- shrinking -----------------------------------------------------------------------------

def _removals(block):
    """Every block obtained by removing one statement, or replacing a compound statement by one
    of its blocks, anywhere in `block` (outermost first)."""
    for i, stmt in enumerate(block):
        if stmt.line.startswith('return') and i == len(block) - 1:
            continue
        yield block[:i] + block[i + 1:]
        for inner in stmt.blocks:
            yield block[:i] + inner + block[i + 1:]
    for i, stmt in enumerate(block):
        for j, inner in enumerate(stmt.blocks):
            for smaller in _removals(inner):
                blocks = list(stmt.blocks)
                blocks[j] = smaller
                yield block[:i] + [Stmt(stmt.line, blocks, stmt.block_headers)] + block[i + 1:]


def _kind(problem):
    """What a disagreement is, without its values: which run, and how it failed."""
    run, got = problem.split('; ', 1)[1].split(': ', 1)
    return run, got.split(':')[0] if not got[:1].isdigit() and got[:1] not in '(-' else 'value'


def shrink(body, problem, budget=300):
    """The smallest program (by removing statements, at most `budget` tries) that still
    disagrees the same way."""
    kind = _kind(problem)
    progress = True
    while progress and budget > 0:
        progress = False
        for candidate in _removals(body):
            budget -= 1
            if budget < 0:
                break
            try:
                found = check(render(candidate))
            except SyntaxError:
                found = None
            failing = found is not None and _kind(found) == kind
            if failing:
                body, progress = candidate, True
                break
    return body


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('-n', type=int, default=1000, help='programs to run')
    parser.add_argument('--seed', type=int, default=0)
    parser.add_argument('--show', action='store_true', help='print every program')
    parser.add_argument('--stop', type=int, default=5, help='stop after this many failures')
    parser.add_argument('--no-shrink', action='store_true', help='print failures as found')
    parser.add_argument('--progress', type=int, default=0, metavar='K',
                        help='print a count every K programs')
    parser.add_argument('--slow', type=float, default=0, metavar='SECONDS',
                        help='print the programs that take longer than this to check')
    args = parser.parse_args(argv)
    failures = timeouts = 0
    for index in range(args.n):
        rng = random.Random(args.seed * 1_000_003 + index)
        body = generate(rng)
        source = render(body)
        if args.show:
            print(source)
        start = time.perf_counter()
        problem = check(source)
        if problem is not None and 'Hang:' in problem:
            timeouts += 1
            print(f'--- program {index} (seed {args.seed}) timed out; checking again with 300 s',
                  flush=True)
            problem = check(source, seconds=300)   # a loaded machine, or a real hang?
        took = time.perf_counter() - start
        if args.slow and took > args.slow:
            print(f'--- program {index} (seed {args.seed}) took {took:.2f} s\n{source}',
                  flush=True)
        if args.progress and (index + 1) % args.progress == 0:
            print(f'{index + 1} programs, {failures} disagreements so far', flush=True)
        if problem is None:
            continue
        failures += 1
        small = source if args.no_shrink else render(shrink(body, problem))
        print(f'--- program {index} (seed {args.seed}) disagrees: {check(small) or problem}')
        print(small)
        if failures >= args.stop:
            break
    print(f'{index + 1} programs, {failures} disagreements, {timeouts} timeouts (> 30 s)')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
