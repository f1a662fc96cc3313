"""The language server (``rulesdsl lsp``): rule files in an editor.

Each module does one job and most know nothing of the protocol's transport:
``convert`` (places and findings in LSP terms), ``analysis`` (the findings of
``check``), ``navigate`` (declarations, outline, go to definition),
``complete`` (completion by place), ``hover``, and ``server`` (pygls wiring).
"""
