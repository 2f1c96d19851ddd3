"""The walk both backends share (runtime/executor/emit.py) and codegen's schedule pre-pass."""
import numpy as np

import runtime as rt
from runtime import executor
from runtime.executor import codegen, emit


def _program(build, specs):
    g = rt.Graph()
    with g.as_default():
        params = [rt.placeholder(dtype, shape, name=name) for name, dtype, shape in specs]
        outputs = build(*params)
    return executor.optimized_program(g, params, outputs)


class _Text(emit.Emitter):
    """A backend that writes each op as `name = OpType(operands)`: enough to see the walk."""

    def __init__(self):
        super().__init__()
        self.planned = []

    def plan(self, program, skip):
        self.planned.append(len(program.nodes))
        return None

    def unfed(self, node):
        raise LookupError(node.name)

    def constant(self, node, depth):
        return repr(node.attrs['value'].item())

    def emit_op(self, node, inputs, depth, plan, targets):
        outs = [targets.get(v) or self.namespace.create_name(node.name) for v in node.outputs]
        self.line(depth, f'{", ".join(outs)} = {node.type}({", ".join(inputs)})')
        return outs

    def result_names(self, node, targets):
        return [self.namespace.create_name(node.name) for _ in node.outputs]

    def loop_variables(self, node, inputs):
        return [self.namespace.create_name(p.name) for p in node.branches[1].params]

    def loop_results(self, node, loop_vars, outs, depth):
        self.line(depth, f'{emit.targets(outs)} = {emit.targets(loop_vars)}')
        return outs

    def counted_bound(self, node, name, value, dtype):
        return repr(int(value))

    def counted_head(self, node, counter, start, limit, step, depth):
        self.line(depth, f'for {counter} in range({start}, {limit}, {step}):')

    def counted_end(self, node, counter, start, limit, step, depth):
        self.line(depth, f'{counter} = end({start}, {limit}, {step})')


def test_one_walk_serves_any_backend_through_its_hooks():
    def build(x, n):
        y = rt.cond(x > 0, lambda: x * 2, lambda: -x)
        return [rt.while_loop(lambda i, t: i < n, lambda i, t: (i + 1, t + y), [0, y])[1]]

    program = _program(build, [('x', rt.int32, []), ('n', rt.int32, [])])
    text = _Text()
    (result,), leftovers = text.emit(program, ['x', 'n'], 0)
    source = '\n'.join(text.lines)
    assert 'if greater:' in source and '\nelse:\n' in source
    assert 'for loop_var in range(loop_var_start, n, 1):' in source  # the counted loop
    assert 'AddV2(' in source and 'Less(' not in source  # its test and increment are the for's
    assert leftovers == [] and result in source.splitlines()[-1]
    assert len(text.planned) == 4  # the program, the two branches and the body: once each


def test_a_branch_nested_deeper_than_the_limit_goes_to_its_hook():
    class Deep(_Text):
        def deep_branch(self, node, branch, args, outs, depth):
            self.line(depth, f'{emit.targets(outs)} = plan({", ".join(args)})')
            return outs

    program = _program(lambda x: [rt.cond(x > 0, lambda: x + 1, lambda: x)],
                       [('x', rt.int32, [])])
    deep = Deep()
    deep.emit(program, ['x'], emit.MAX_DEPTH)
    assert deep.lines[-3].endswith('= plan(x)') and deep.lines[-1].endswith('= plan(x)')


def test_the_namespace_makes_legal_unique_names():
    names = emit.Namespace(reserved={'run'})
    assert [names.create_name(n) for n in ('run', 'while/Greater', 'Greater/y', 'GatherV2',
                                           'class', 'run')] == [
        'run_1', 'greater', 'greater_y', 'gather_v2', 'class_1', 'run_2']


def test_codegen_settles_last_uses_reuse_and_futures_before_emitting():
    program = _program(lambda x: [rt.tanh(x * 2.0) + 1.0], [('x', rt.float32, [4096])])
    plan = codegen.schedule(program)
    by_type = {node.type: plan.steps[node] for node in plan.steps}
    mul, tanh, add = by_type['Mul'], by_type['Tanh'], by_type['AddV2']
    assert mul.frees == [] and mul.reuse is None  # x is a param: never freed or overwritten
    assert [v.node.type for v in tanh.frees] == ['Mul'] and tanh.reuse == 0
    assert [v.node.type for v in add.frees] == ['Tanh'] and add.reuse == 0
    assert not any(step.submit or step.awaits for step in plan.steps.values())
    source = codegen.python_code(program).source
    assert 'Tanh(mul, out=mul)' in source and 'in_place_add(tanh, ' in source


def test_codegen_schedules_a_heavy_node_on_the_pool_and_awaits_it_before_its_first_use(
        monkeypatch):
    monkeypatch.setattr(codegen.parallel.os, 'cpu_count', lambda: 2)

    def build(a, b):
        return [rt.matmul(a, a) + rt.matmul(b, b)]

    program = _program(build, [('a', rt.int32, [200, 200]), ('b', rt.int32, [200, 200])])
    plan = codegen.schedule(program)
    matmuls = [node for node in plan.steps if node.type == 'MatMul']
    add = next(node for node in plan.steps if node.type == 'AddV2')
    assert plan.steps[matmuls[0]].submit and not plan.steps[matmuls[1]].submit
    assert plan.steps[add].awaits == [matmuls[0].outputs[0]]
    run = codegen.generate(program)
    a = np.arange(40000, dtype=np.int32).reshape(200, 200) % 7
    np.testing.assert_array_equal(run(a, a)[0], 2 * (a @ a))


def test_a_backend_missing_a_hook_cannot_be_made():
    class Incomplete(emit.Emitter):   # no counted loops
        plan, unfed, constant, emit_op = _Text.plan, _Text.unfed, _Text.constant, _Text.emit_op
        result_names, loop_variables = _Text.result_names, _Text.loop_variables
        loop_results = _Text.loop_results

    try:
        Incomplete()
    except TypeError as e:
        assert 'counted_bound' in str(e) and 'counted_head' in str(e)
    else:
        raise AssertionError('an Emitter without its counted-loop hooks was made')
    assert sorted(emit.Emitter.__abstractmethods__) == [
        'constant', 'counted_bound', 'counted_end', 'counted_head', 'emit_op', 'loop_results',
        'loop_variables', 'plan', 'result_names', 'unfed']
