"""Data types: the one table that maps runtime dtypes to numpy and to TensorFlow's DataType enum."""
import builtins

import numpy as np


class DType:
    """A tensor element type. Compare with `==`; `repr` is `rt.float32`, as users write it."""

    __slots__ = ('name', 'as_numpy_dtype', 'np_dtype', 'enum', 'is_floating', 'is_integer',
                 'is_bool', 'is_complex', 'min', 'max')

    def __init__(self, name, numpy_type, enum):
        self.name = name
        self.as_numpy_dtype = numpy_type
        self.np_dtype = np.dtype(numpy_type)
        self.enum = enum
        kind = self.np_dtype.kind
        self.is_floating = kind == 'f'
        self.is_integer = kind in 'iu'
        self.is_bool = kind == 'b'
        self.is_complex = kind == 'c'  # not floating, as in TensorFlow
        if self.is_integer:
            info = np.iinfo(numpy_type)
            self.min, self.max = int(info.min), int(info.max)
        elif self.is_floating:
            info = np.finfo(numpy_type)
            self.min, self.max = float(info.min), float(info.max)
        else:
            self.min = self.max = None

    @property
    def is_numeric(self):
        return self.is_floating or self.is_integer

    @property
    def real_dtype(self):
        """The dtype of a complex dtype's real and imaginary parts; any other dtype itself."""
        return _REAL_PARTS.get(self.name, self)

    @property
    def proto_name(self):
        """The name in GraphDef text: `DT_FLOAT`, `DT_INT32`, ..."""
        return _PROTO_NAMES[self.name]

    def __repr__(self):
        return f'rt.{self.name}'

    def __str__(self):
        return f"<dtype: '{self.name}'>"

    def __reduce__(self):
        return as_dtype, (self.name,)


bool = DType('bool', np.bool_, 10)  # noqa: A001 - the public name users expect
int8 = DType('int8', np.int8, 6)
int16 = DType('int16', np.int16, 5)
int32 = DType('int32', np.int32, 3)
int64 = DType('int64', np.int64, 9)
uint8 = DType('uint8', np.uint8, 4)
uint16 = DType('uint16', np.uint16, 17)
uint32 = DType('uint32', np.uint32, 22)
uint64 = DType('uint64', np.uint64, 23)
float16 = DType('float16', np.float16, 19)
float32 = DType('float32', np.float32, 1)
float64 = DType('float64', np.float64, 2)
complex64 = DType('complex64', np.complex64, 8)
complex128 = DType('complex128', np.complex128, 18)
string = DType('string', np.object_, 7)
# Internal element types: a variable's handle and an opaque value (TensorArray lists).
resource = DType('resource', np.object_, 20)
variant = DType('variant', np.object_, 21)

_PROTO_NAMES = {
    'bool': 'DT_BOOL', 'int8': 'DT_INT8', 'int16': 'DT_INT16', 'int32': 'DT_INT32',
    'int64': 'DT_INT64', 'uint8': 'DT_UINT8', 'uint16': 'DT_UINT16',
    'uint32': 'DT_UINT32', 'uint64': 'DT_UINT64', 'float16': 'DT_HALF', 'float32': 'DT_FLOAT',
    'float64': 'DT_DOUBLE', 'complex64': 'DT_COMPLEX64', 'complex128': 'DT_COMPLEX128',
    'string': 'DT_STRING', 'resource': 'DT_RESOURCE',
    'variant': 'DT_VARIANT',
}
PUBLIC = (bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32,
          float64, complex64, complex128, string)
COMPLEX = frozenset((complex64, complex128))
_REAL_PARTS = {'complex64': float32, 'complex128': float64}
_BY_NAME = {d.name: d for d in PUBLIC + (resource, variant)}
_BY_NAME.update({'float': float32, 'double': float64, 'half': float16})
# numpy dtype -> DType, for numeric and bool types (object arrays are strings).
NUMERIC_BY_NUMPY = {d.np_dtype: d for d in PUBLIC if d is not string}


_BY_PYTHON_TYPE = {builtins.bool: bool, builtins.int: int32, builtins.float: float32,
                   builtins.complex: complex128, builtins.str: string, builtins.bytes: string}


def as_dtype(type_value):
    """The DType for a DType, a name (`'float32'`), a numpy dtype or type, or a Python type."""
    value = type_value
    if isinstance(value, DType):
        return value
    if isinstance(value, str):
        try:
            return _BY_NAME[value]
        except KeyError:
            raise TypeError(f'Unknown dtype name {value!r}; use one of '
                            f'{", ".join(d.name for d in PUBLIC)}.') from None
    found = _BY_PYTHON_TYPE.get(value) if isinstance(value, type) else None
    return found if found is not None else from_numpy(np.dtype(value))


def from_numpy(np_dtype):
    """The DType of a numpy dtype (`<U`, `S` and object dtypes are strings)."""
    found = NUMERIC_BY_NUMPY.get(np_dtype)
    if found is not None:
        return found
    if np_dtype.kind in 'OSU':
        return string
    raise TypeError(f'numpy dtype {np_dtype} has no runtime dtype; supported: '
                    f'{", ".join(d.name for d in PUBLIC)}.')


_OBJECT = np.dtype(object)


def of_value(value):
    """The dtype of a kernel's output value (object arrays and bytes are strings; other Python
    objects, such as a TensorArray's tuple, are variants)."""
    found = NUMERIC_BY_NUMPY.get(getattr(value, 'dtype', None))
    if found is not None:
        return found
    if getattr(value, 'dtype', None) == _OBJECT or isinstance(value, bytes):
        return string
    return variant
