"""Benchmarks of hipocampo itself: LoCoMo evidence recall (:mod:`.locomo`, with reference
retrievers in :mod:`.baselines`) and latency at scale (:mod:`.latency`).

The scripts in ``benchmarks/`` are thin command-line fronts for these functions. Importing this
package imports nothing heavy; each module loads what it needs.
"""
