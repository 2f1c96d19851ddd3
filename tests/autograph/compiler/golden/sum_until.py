def tf__sum_until(n, limit):
    fscope = ag__.new_scope('sum_until', ag__.STD_REQUESTED)
    total = 0
    break_ = False

    def get_state():
        return (total, break_)

    def set_state(vars_):
        nonlocal total, break_
        total, break_ = vars_

    def loop_body(itr):
        nonlocal break_, total
        i = itr

        def get_state_1():
            return (break_, total)

        def set_state_1(vars_):
            nonlocal break_, total
            break_, total = vars_

        def if_body():
            nonlocal break_, total
            break_ = True

        def else_body():
            nonlocal break_, total
            total += ag__.ld(i)
        ag__.if_stmt(ag__.ld(total) > ag__.ld(limit), if_body, else_body, get_state_1, set_state_1,
                     ('break_', 'total'), 2, ('break_',))

    def extra_test():
        return ag__.not_(break_)
    ag__.for_stmt(ag__.converted_call(range, (n,), None, fscope), extra_test, loop_body, get_state,
                  set_state, ('total', 'break_'), {'iterate_names': 'i'})
    return total
