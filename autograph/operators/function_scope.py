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

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        return False

    def ret(self, value, do_return):
        """The function's result. When whether it returned is only known at run time (a
        `return` inside a tensor loop), a graph check makes sure it did."""
        if isinstance(value, variables.UndefinedReturnValue):
            return None
        guards.check_returned(do_return, self.function_name)
        return lists.stacked(value)
