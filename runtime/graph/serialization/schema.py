"""TensorFlow's message definitions, as data: field numbers and types from its `.proto` files.

Each message maps a field name to `Field(number, kind, label)`. `kind` is a scalar type
(`string`, `bytes`, `int32`, `int64`, `uint32`, `uint64`, `sint64`, `fixed64`, `bool`, `enum`,
`float`, `double`) or the name of another message here. `label` is `''` (a singular proto3
field, left out when it holds the default), `'oneof'` (a member of a oneof: written whenever set,
even to its default), `'repeated'`, or `'map'` (then `kind` is `(key kind, value kind)`).

Only the fields the runtime reads or writes are listed; the decoder skips the others, as
protobuf skips unknown fields. The sources are tensorflow/core/framework/{graph,node_def,
attr_value,tensor,tensor_shape,function,op_def,versions}.proto and tensorflow/core/protobuf/
{saved_model,meta_graph,struct,saved_object_graph,
trackable_object_graph,tensor_bundle}.proto, tensorflow/core/util/event.proto,
tensorflow/core/framework/summary.proto and tensorflow/core/example/{example,feature}.proto.
"""


from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Field:
    number: int
    kind: object
    label: str = ''


def _message(**fields):
    return {name: Field(*spec) for name, spec in fields.items()}


REP, MAP, ONEOF = 'repeated', 'map', 'oneof'

SCHEMA = {
    'GraphDef': _message(node=(1, 'NodeDef', REP), versions=(4, 'VersionDef'),
                         library=(2, 'FunctionDefLibrary')),
    'VersionDef': _message(producer=(1, 'int32'), min_consumer=(2, 'int32'),
                           bad_consumers=(3, 'int32', REP)),
    'NodeDef': _message(name=(1, 'string'), op=(2, 'string'), input=(3, 'string', REP),
                        device=(4, 'string'), attr=(5, ('string', 'AttrValue'), MAP)),
    'AttrValue': _message(s=(2, 'bytes', ONEOF), i=(3, 'int64', ONEOF), f=(4, 'float', ONEOF),
                          b=(5, 'bool', ONEOF), type=(6, 'enum', ONEOF),
                          shape=(7, 'TensorShapeProto', ONEOF), tensor=(8, 'TensorProto', ONEOF),
                          list=(1, 'ListValue', ONEOF), func=(10, 'NameAttrList', ONEOF),
                          placeholder=(9, 'string', ONEOF)),
    'ListValue': _message(s=(2, 'bytes', REP), i=(3, 'int64', REP), f=(4, 'float', REP),
                          b=(5, 'bool', REP), type=(6, 'enum', REP),
                          shape=(7, 'TensorShapeProto', REP), tensor=(8, 'TensorProto', REP),
                          func=(9, 'NameAttrList', REP)),
    'NameAttrList': _message(name=(1, 'string'), attr=(2, ('string', 'AttrValue'), MAP)),
    'TensorShapeProto': _message(dim=(2, 'Dim', REP), unknown_rank=(3, 'bool')),
    'Dim': _message(size=(1, 'int64'), name=(2, 'string')),
    'TensorProto': _message(dtype=(1, 'enum'), tensor_shape=(2, 'TensorShapeProto'),
                            version_number=(3, 'int32'), tensor_content=(4, 'bytes'),
                            half_val=(13, 'int32', REP), float_val=(5, 'float', REP),
                            double_val=(6, 'double', REP), int_val=(7, 'int32', REP),
                            string_val=(8, 'bytes', REP), int64_val=(10, 'int64', REP),
                            bool_val=(11, 'bool', REP), scomplex_val=(9, 'float', REP),
                            dcomplex_val=(12, 'double', REP), uint32_val=(16, 'uint32', REP),
                            uint64_val=(17, 'uint64', REP)),
    'FunctionDefLibrary': _message(function=(1, 'FunctionDef', REP),
                                   registered_gradients=(3, 'RegisteredGradient', REP)),
    'RegisteredGradient': _message(gradient_func=(1, 'string'),
                                   registered_op_type=(2, 'string')),
    'FunctionDef': _message(signature=(1, 'OpDef'), attr=(5, ('string', 'AttrValue'), MAP),
                            arg_attr=(7, ('uint32', 'ArgAttrs'), MAP),
                            node_def=(3, 'NodeDef', REP), ret=(4, ('string', 'string'), MAP),
                            control_ret=(6, ('string', 'string'), MAP)),
    'ArgAttrs': _message(attr=(1, ('string', 'AttrValue'), MAP)),
    'OpDef': _message(name=(1, 'string'), input_arg=(2, 'ArgDef', REP),
                      output_arg=(3, 'ArgDef', REP), control_output=(20, 'string', REP),
                      summary=(5, 'string'), description=(6, 'string'),
                      is_commutative=(18, 'bool'), is_aggregate=(16, 'bool'),
                      is_stateful=(17, 'bool'), allows_uninitialized_input=(19, 'bool')),
    'ArgDef': _message(name=(1, 'string'), description=(2, 'string'), type=(3, 'enum'),
                       type_attr=(4, 'string'), number_attr=(5, 'string'),
                       type_list_attr=(6, 'string'), is_ref=(16, 'bool')),
    'SavedModel': _message(saved_model_schema_version=(1, 'int64'),
                           meta_graphs=(2, 'MetaGraphDef', REP)),
    'MetaGraphDef': _message(meta_info_def=(1, 'MetaInfoDef'), graph_def=(2, 'GraphDef'),
                             collection_def=(4, ('string', 'CollectionDef'), MAP),
                             signature_def=(5, ('string', 'SignatureDef'), MAP),
                             object_graph_def=(7, 'SavedObjectGraph')),
    'MetaInfoDef': _message(meta_graph_version=(1, 'string'), tags=(4, 'string', REP),
                            tensorflow_version=(5, 'string'),
                            tensorflow_git_version=(6, 'string'),
                            stripped_default_attrs=(7, 'bool'),
                            function_aliases=(8, ('string', 'string'), MAP)),
    'CollectionDef': _message(node_list=(1, 'StringList', ONEOF),
                              bytes_list=(2, 'BytesList', ONEOF),
                              int64_list=(3, 'Int64List', ONEOF)),
    'StringList': _message(value=(1, 'string', REP)),
    'BytesList': _message(value=(1, 'bytes', REP)),
    'Int64List': _message(value=(1, 'int64', REP)),
    'SignatureDef': _message(inputs=(1, ('string', 'TensorInfo'), MAP),
                             outputs=(2, ('string', 'TensorInfo'), MAP),
                             method_name=(3, 'string')),
    'TensorInfo': _message(name=(1, 'string', ONEOF), dtype=(2, 'enum'),
                           tensor_shape=(3, 'TensorShapeProto')),
    # TF2's object graph (saved_object_graph.proto) and the values it is built from (struct.proto)
    'SavedObjectGraph': _message(nodes=(1, 'SavedObject', REP),
                                 concrete_functions=(2, ('string', 'SavedConcreteFunction'), MAP)),
    'SavedObject': _message(children=(1, 'ObjectReference', REP),
                            dependencies=(15, 'ObjectReference', REP),
                            user_object=(4, 'SavedUserObject', ONEOF),
                            function=(6, 'SavedFunction', ONEOF),
                            variable=(7, 'SavedVariable', ONEOF),
                            bare_concrete_function=(8, 'SavedBareConcreteFunction', ONEOF),
                            asset=(5, 'Opaque', ONEOF), constant=(9, 'Opaque', ONEOF),
                            resource=(10, 'Opaque', ONEOF), captured_tensor=(12, 'Opaque', ONEOF)),
    'Opaque': _message(),  # a message whose fields the runtime does not read
    'ObjectReference': _message(node_id=(1, 'int32'), local_name=(2, 'string')),
    'SavedUserObject': _message(identifier=(1, 'string'), version=(2, 'VersionDef')),
    'SavedFunction': _message(concrete_functions=(1, 'string', REP),
                              function_spec=(2, 'FunctionSpec')),
    'FunctionSpec': _message(fullargspec=(1, 'StructuredValue'), is_method=(2, 'bool'),
                             input_signature=(5, 'StructuredValue')),
    'SavedConcreteFunction': _message(bound_inputs=(2, 'int32', REP),
                                      canonicalized_input_signature=(3, 'StructuredValue'),
                                      output_signature=(4, 'StructuredValue')),
    'SavedBareConcreteFunction': _message(concrete_function_name=(1, 'string'),
                                          argument_keywords=(2, 'string', REP),
                                          allowed_positional_arguments=(3, 'int64'),
                                          function_spec=(4, 'FunctionSpec')),
    'SavedVariable': _message(dtype=(1, 'enum'), shape=(2, 'TensorShapeProto'),
                              trainable=(3, 'bool'), name=(6, 'string')),
    'StructuredValue': _message(none_value=(1, 'Opaque', ONEOF),
                                float64_value=(11, 'double', ONEOF),
                                int64_value=(12, 'sint64', ONEOF),
                                string_value=(13, 'string', ONEOF),
                                bool_value=(14, 'bool', ONEOF),
                                tensor_shape_value=(31, 'TensorShapeProto', ONEOF),
                                tensor_dtype_value=(32, 'enum', ONEOF),
                                tensor_spec_value=(33, 'TensorSpecProto', ONEOF),
                                list_value=(51, 'StructList', ONEOF),
                                tuple_value=(52, 'StructList', ONEOF),
                                dict_value=(53, 'StructDict', ONEOF),
                                named_tuple_value=(54, 'NamedTupleValue', ONEOF)),
    'StructList': _message(values=(1, 'StructuredValue', REP)),  # ListValue and TupleValue
    'StructDict': _message(fields=(1, ('string', 'StructuredValue'), MAP)),
    'NamedTupleValue': _message(name=(1, 'string'), values=(2, 'PairValue', REP)),
    'PairValue': _message(key=(1, 'string'), value=(2, 'StructuredValue')),
    'TensorSpecProto': _message(name=(1, 'string'), shape=(2, 'TensorShapeProto'),
                                dtype=(3, 'enum')),
    # checkpoints (trackable_object_graph.proto, tensor_bundle.proto)
    'TrackableObjectGraph': _message(nodes=(1, 'TrackableObject', REP)),
    'TrackableObject': _message(children=(1, 'ObjectReference', REP),
                                attributes=(2, 'SerializedTensor', REP)),
    'SerializedTensor': _message(name=(1, 'string'), full_name=(2, 'string'),
                                 checkpoint_key=(3, 'string')),
    'BundleHeaderProto': _message(num_shards=(1, 'int32'), endianness=(2, 'enum'),
                                  version=(3, 'VersionDef')),
    'BundleEntryProto': _message(dtype=(1, 'enum'), shape=(2, 'TensorShapeProto'),
                                 shard_id=(3, 'int32'), offset=(4, 'int64'), size=(5, 'int64'),
                                 crc32c=(6, 'fixed32'), slices=(7, 'Opaque', REP)),
    # event files for TensorBoard (tensorflow/core/util/event.proto, framework/summary.proto)
    'Event': _message(wall_time=(1, 'double'), step=(2, 'int64'),
                      file_version=(3, 'string', ONEOF), graph_def=(4, 'bytes', ONEOF),
                      summary=(5, 'Summary', ONEOF), meta_graph_def=(9, 'bytes', ONEOF),
                      source_metadata=(10, 'SourceMetadata')),
    'SourceMetadata': _message(writer=(1, 'string')),
    'Summary': _message(value=(1, 'SummaryValue', REP)),
    'SummaryValue': _message(node_name=(7, 'string'), tag=(1, 'string'),
                             metadata=(9, 'SummaryMetadata'), simple_value=(2, 'float', ONEOF),
                             tensor=(8, 'TensorProto', ONEOF)),
    'SummaryMetadata': _message(plugin_data=(1, 'PluginData'), display_name=(2, 'string'),
                                summary_description=(3, 'string'), data_class=(4, 'enum')),
    'PluginData': _message(plugin_name=(1, 'string'), content=(2, 'bytes')),
    # tf.train.Example records (tensorflow/core/example/{example,feature}.proto)
    'Example': _message(features=(1, 'Features')),
    'SequenceExample': _message(context=(1, 'Features'), feature_lists=(2, 'FeatureLists')),
    'Features': _message(feature=(1, ('string', 'Feature'), MAP)),
    'FeatureLists': _message(feature_list=(1, ('string', 'FeatureList'), MAP)),
    'FeatureList': _message(feature=(1, 'Feature', REP)),
    'Feature': _message(bytes_list=(1, 'BytesList', ONEOF), float_list=(2, 'FloatList', ONEOF),
                        int64_list=(3, 'Int64List', ONEOF)),
    'FloatList': _message(value=(1, 'float', REP)),
}

# Enum values by name, for the text format (DataType is the only enum the runtime writes).
DATA_TYPES = {
    'DT_INVALID': 0, 'DT_FLOAT': 1, 'DT_DOUBLE': 2, 'DT_INT32': 3, 'DT_UINT8': 4, 'DT_INT16': 5,
    'DT_INT8': 6, 'DT_STRING': 7, 'DT_COMPLEX64': 8, 'DT_INT64': 9, 'DT_BOOL': 10,
    'DT_BFLOAT16': 14, 'DT_UINT16': 17, 'DT_COMPLEX128': 18, 'DT_HALF': 19, 'DT_RESOURCE': 20,
    'DT_VARIANT': 21, 'DT_UINT32': 22, 'DT_UINT64': 23,
}
DATA_TYPE_NAMES = {number: name for name, number in DATA_TYPES.items()}
