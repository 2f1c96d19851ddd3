"""Exported functions carry TensorFlow's automatic control dependencies: the ops on one resource,
and the other stateful ops, in program order (TensorFlow's executor keeps no other order)."""
import autograph as ag
import runtime as rt
from runtime.graph.graph_def import function_def


def _nodes(concrete):
    return {n.name: list(n.input) for n in function_def(concrete.graph).node_def}


def test_ops_on_one_variable_keep_program_order():
    v = rt.Variable(1.0)
    w = rt.Variable(0.0)

    @ag.function(input_signature=[rt.TensorSpec([], rt.float32)])
    def step(n):
        before = v.read_value()
        v.assign_add(n)
        w.assign(n)  # another resource: not ordered with v's ops
        after = v.read_value()
        v.assign_sub(n)
        return before + after

    nodes = _nodes(step.get_concrete_function())
    assert '^ReadVariableOp' in nodes['AssignAddVariableOp']
    assert '^AssignAddVariableOp' in nodes['ReadVariableOp_1']
    assert '^ReadVariableOp_1' in nodes['AssignSubVariableOp']
    assert not any(i.startswith('^') for i in nodes['AssignVariableOp'])
    # the output waits for every stateful op
    ret = function_def(step.get_concrete_function().graph).ret
    out = next(iter(ret.values())).split(':')[0]
    assert any(i.startswith('^') for i in nodes[out])


def test_stateful_ops_without_resources_keep_program_order():
    @ag.function(input_signature=[rt.TensorSpec([], rt.float32)])
    def noisy(x):
        rt.print('first', x)
        rt.debugging.assert_greater(x, 0.0)
        rt.print('second', x)
        return x

    nodes = _nodes(noisy.get_concrete_function())
    assert nodes['assert_greater'][-1] == '^PrintV2'
    assert nodes['PrintV2_1'][-1] == '^assert_greater'
    assert not any(i.startswith('^') for i in nodes['PrintV2'])

def test_a_reloaded_stateful_function_keeps_its_results(tmp_path):
    class Counter(rt.Module):
        def __init__(self):
            super().__init__()
            self.count = rt.Variable(1.0)

        @ag.function(input_signature=[rt.TensorSpec([], rt.float32)])
        def update(self, n):
            self.count.assign(self.count + n)
            return self.count

    ag.saved_model.save(Counter(), str(tmp_path / 'm'))
    loaded = ag.saved_model.load(str(tmp_path / 'm'))
    assert [float(loaded.update(rt.constant(1.0))) for _ in range(3)] == [2.0, 3.0, 4.0]
