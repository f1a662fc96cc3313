"""A click group whose subcommands are imported only when one of them runs (or ``--help`` lists them).

``rulesdsl --version`` and a single command then load only what they use: the
language for ``check``, the engine for ``moves``, numpy for ``solve``.
"""

from __future__ import annotations

import importlib

import click


class LazyGroup(click.Group):
    """``lazy_subcommands`` maps a command's name to ``"module:attribute"``, imported on first use."""

    def __init__(self, *args, lazy_subcommands: dict[str, str] | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.lazy_subcommands = dict(lazy_subcommands or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command's name, the lazy ones included, sorted."""
        return sorted({*super().list_commands(ctx), *self.lazy_subcommands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command named ``cmd_name``, importing its module the first time."""
        if cmd_name in self.lazy_subcommands and cmd_name not in self.commands:
            module, attribute = self.lazy_subcommands[cmd_name].split(":")
            self.add_command(getattr(importlib.import_module(module), attribute), cmd_name)
        return super().get_command(ctx, cmd_name)

    def all_commands(self) -> dict[str, click.Command]:
        """Every command by name, importing the lazy ones (for listings and tests)."""
        ctx = click.Context(self)
        found = {name: self.get_command(ctx, name) for name in self.list_commands(ctx)}
        return {name: command for name, command in found.items() if command is not None}
