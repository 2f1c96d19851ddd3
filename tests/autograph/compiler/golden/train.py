def tf__train(num_steps):
    fscope = ag__.new_scope('train', ag__.STD_REQUESTED)

    def get_state():
        return ()

    def set_state(vars_):
        pass

    def loop_body(itr):
        _ = itr
        pass
    ag__.for_stmt(ag__.converted_call(rt.range, (num_steps,), None, fscope), None, loop_body,
                  get_state, set_state, (), {'iterate_names': '_'})
