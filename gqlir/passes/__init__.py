"""Passes over the Graph-IR: IR in, IR of the same meaning out."""
