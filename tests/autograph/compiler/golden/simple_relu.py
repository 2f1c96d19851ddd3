def tf__simple_relu(x):
    fscope = ag__.new_scope('simple_relu', ag__.STD_REQUESTED)
    do_return = False
    retval_ = ag__.UNDEFINED_RETURN_ON_EVERY_PATH

    def get_state():
        return (do_return, retval_)

    def set_state(vars_):
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
        try:
            do_return = True
            retval_ = 0
        except:
            do_return = False
            raise
    ag__.if_stmt(ag__.converted_call(rt.greater, (x, 0), None, fscope), if_body, else_body,
                 get_state, set_state, ('do_return', 'retval_'), 2, ('do_return',))
    return fscope.ret(retval_, do_return)
