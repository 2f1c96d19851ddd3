def tf__first_above(xs, limit):
    fscope = ag__.new_scope('first_above', ag__.STD_REQUESTED)
    do_return = False
    retval_ = ag__.UNDEFINED_RETURN_ON_EVERY_PATH

    def get_state():
        return (do_return, retval_)

    def set_state(vars_):
        nonlocal do_return, retval_
        do_return, retval_ = vars_

    def loop_body(itr):
        nonlocal do_return, retval_
        x = itr

        def get_state_1():
            return (do_return, retval_)

        def set_state_1(vars_):
            nonlocal do_return, retval_
            do_return, retval_ = vars_

        def if_body():
            nonlocal do_return, retval_
            try:
                do_return = True
                retval_ = ag__.ld(x)
            except:
                do_return = False
                raise

        def else_body():
            nonlocal do_return, retval_
            pass
        ag__.if_stmt(ag__.ld(x) > ag__.ld(limit), if_body, else_body, get_state_1, set_state_1,
                     ('do_return', 'retval_'), 2, ('do_return',))

    def extra_test():
        return ag__.not_(do_return)
    ag__.for_stmt(xs, extra_test, loop_body, get_state, set_state, ('do_return', 'retval_'),
                  {'iterate_names': 'x'})

    def get_state_2():
        return (do_return, retval_)

    def set_state_2(vars_):
        nonlocal do_return, retval_
        do_return, retval_ = vars_

    def if_body_1():
        nonlocal do_return, retval_
        try:
            do_return = True
            retval_ = -1
        except:
            do_return = False
            raise

    def else_body_1():
        nonlocal do_return, retval_
        pass
    ag__.if_stmt(ag__.not_(do_return), if_body_1, else_body_1, get_state_2, set_state_2,
                 ('do_return', 'retval_'), 2, ('do_return',))
    return fscope.ret(retval_, do_return)
