"""One converter per construct. Their order is fixed in
`autograph.compiler.conversion.CONVERTERS`."""
