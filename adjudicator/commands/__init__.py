"""One module per `pbem` command: its HELP, its `arguments(parser)` and its `run(args)`.

A command reads its arguments, calls the layers below and prints for a person; it
holds no game or campaign logic of its own. adjudicator/cli.py lists the commands.
"""
