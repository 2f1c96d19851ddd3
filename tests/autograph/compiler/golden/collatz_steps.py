def tf__collatz_steps(x):
    fscope = ag__.new_scope('collatz_steps', ag__.STD_REQUESTED)
    steps = 0

    def get_state():
        return (steps, x)

    def set_state(vars_):
        nonlocal steps, x
        steps, x = vars_

    def loop_body():
        nonlocal steps, x

        def get_state_1():
            return (x,)

        def set_state_1(vars_):
            nonlocal x
            x, = vars_

        def if_body():
            nonlocal x
            x = ag__.ld(x) // 2

        def else_body():
            nonlocal x
            x = 3 * ag__.ld(x) + 1
        ag__.if_stmt(ag__.ld(x) % 2 == 0, if_body, else_body, get_state_1, set_state_1, ('x',), 1)
        steps += 1

    def loop_test():
        return ag__.ld(x) > 1
    ag__.while_stmt(loop_test, loop_body, get_state, set_state, ('steps', 'x'), {})
    return steps
