import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

if os.environ.get("PBEM_THOROUGH") == "1":  # one switch for every suite's large counts (docs/reliability.md)
    os.environ.setdefault("HYPOTHESIS_PROFILE", "thorough")
    os.environ.setdefault("PBEM_CRASH_POINTS", "all")
