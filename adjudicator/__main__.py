import sys

try:
    from .cli import main
except KeyboardInterrupt:  # Ctrl-C while Python is still loading pbem: nothing was started
    sys.stderr.write("pbem: interrupted; nothing was half written\n")
    sys.exit(130)

sys.exit(main())
