"""The help layout every `propctl` command uses.

Descriptions and epilogs keep the line breaks they are written with. A line
that starts at the left margin and is longer than the terminal is wide is
filled to the width (so an 80-column terminal gets no longer line); an
indented line (an example command, a table row) is printed as written, so it
must itself fit 80 columns (tests/cli/test_help.py holds every command to that).
"""
import argparse
import sys
import textwrap


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Long unindented lines filled to the width; everything else as written."""

    def _fill_text(self, text, width, indent):
        width = max(width, 20)
        out = []
        for line in text.splitlines():
            if line and not line[0].isspace() and len(indent + line) > width:
                out.extend(textwrap.wrap(line, width, initial_indent=indent,
                                         subsequent_indent=indent, break_on_hyphens=False))
            else:
                out.append(indent + line if line.strip() else "")
        return "\n".join(out)


class Parser(argparse.ArgumentParser):
    """argparse's parser, whose usage errors are filled to the width as the help is
    ('propctl sim clock: error: argument --seed: ...' runs past 80 columns otherwise).
    Every subcommand's parser is one too: add_subparsers makes parsers of its own kind."""

    def error(self, message):
        self.print_usage(sys.stderr)
        width = max(self._get_formatter()._width, 20)
        text = "%s: error: %s" % (self.prog, message)
        self.exit(2, "\n".join(textwrap.wrap(text, width, subsequent_indent="  ",
                                             break_on_hyphens=False)) + "\n")


def use_everywhere(parser: argparse.ArgumentParser) -> None:
    """Give `parser` and every subcommand parser below it this formatter."""
    parser.formatter_class = HelpFormatter
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                use_everywhere(sub)
