import sys

from propctl.reference.generate import main

sys.exit(main(sys.argv[1:]))
