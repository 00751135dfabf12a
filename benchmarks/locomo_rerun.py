"""Re-ask LoCoMo's questions of the stores a ``locomo.py --db-dir DIR`` run kept: ranking changes
measured in seconds, with the benchmark's own measures.

    python benchmarks/locomo_rerun.py --data ../shared/data/locomo-dev --db-dir DIR
                                      [--layers turns,full] [--embed-cache F] [--out records.json]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from hipocampo_bench.locomo_rerun import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
