"""Outside judges of the text gqlir writes: each checks one dialect with the front end its real
users run (:mod:`gqlir.checks.zetasql`: Google's ZetaSQL for Spanner Graph)."""
