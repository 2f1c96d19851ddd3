"""Generic code tools: parsing, templates, annotations, source maps and loading of generated code.

Nothing here knows about AutoGraph's operators; the converters build on these tools.
"""
