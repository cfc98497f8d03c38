"""Analyses over the IR that every layer asks and must answer the same way.

* :mod:`.types`: what is known of an expression's value (:class:`~.types.VType`), with the
  schema's property types when there is one. The GQL and SQL emitters, the SQL reader and the
  static checker all ask it, each through a :class:`~.types.TypeAnalysis` whose ``variable``
  and ``property`` hooks read their own scope.
* :mod:`.aggregates`: whether an expression aggregates at its own level (an aggregate inside a
  subquery belongs to the subquery) and which aggregates it holds.

This package depends on :mod:`gqlir.ir` only (and on the schema's type kinds when asked about
a schema), so any layer may import it.
"""
