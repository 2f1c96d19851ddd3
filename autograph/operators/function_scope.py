"""The frame of a converted function: `with ag__.FunctionScope(...) as fscope:`."""
from autograph.operators import guards, lists, variables


class ConversionOptions:
    """How functions called from converted code are treated (`recursive`: convert them too)."""

    def __init__(self, recursive=True, user_requested=False, optional_features=(),
                 internal_convert_user_code=True):
        self.recursive = recursive
        self.user_requested = user_requested
        self.optional_features = optional_features
        self.internal_convert_user_code = internal_convert_user_code


class FunctionScope:
    """The scope of one converted function; `ret` produces its return value."""

    def __init__(self, function_name, scope_name, options):
        self.function_name = function_name
        self.scope_name = scope_name
        self.options = options
        self.staged_before = lists.staged_count[0]

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        return False

    def ret(self, value, do_return):
        """The function's result. When whether it returned is only known at run time (a
        `return` inside a tensor loop), a graph check makes sure it did. Only a function that
        staged a list (a tensor loop appended to it) searches its value for staged lists: any
        other value is returned as it is, at no cost."""
        if type(value) is variables.UndefinedReturnValue:
            return None
        if do_return is not True:
            guards.check_returned(do_return, self.function_name)
        if lists.staged_count[0] == self.staged_before:
            return value
        return lists.stacked(value)
