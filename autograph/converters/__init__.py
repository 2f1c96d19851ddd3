"""One converter per construct. Their order is fixed in `autograph.conversion.CONVERTERS`."""
