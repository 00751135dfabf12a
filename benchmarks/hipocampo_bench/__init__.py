"""Benchmarks of hipocampo itself, shipped apart from the product (the ``hipocampo-bench``
distribution, ``pip install -e benchmarks``): LoCoMo evidence recall (:mod:`.locomo`, with
reference retrievers in :mod:`.baselines`), the fact-lifecycle scenarios (:mod:`.scenarios`),
recall on realistic chat (:mod:`.realistic`) and latency at scale (:mod:`.latency`).

Their data are JSON files in ``benchmarks/data/`` (read by :mod:`.scenario_files`), so the
product's wheel holds none of it. ``hipocampo bench`` and the scripts in ``benchmarks/`` are thin
command-line fronts for these functions. Importing this package imports nothing heavy; each
module loads what it needs.
"""
