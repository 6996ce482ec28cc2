"""The benchmark scripts stay runnable: a renamed helper in bench/stack.py left
bench/push_capacity.py calling a name that no longer existed, so the script its doc
quotes figures from failed at its first step."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"


def test_every_name_a_bench_script_takes_from_the_shared_stack_exists():
    spec = importlib.util.spec_from_file_location("bench_stack", BENCH / "stack.py")
    stack = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(stack)
    used = 0
    for script in sorted(BENCH.glob("*.py")):
        tree = ast.parse(script.read_text(), str(script))
        imported = any(
            isinstance(node, ast.Import) and any(alias.name == "stack" for alias in node.names)
            for node in tree.body
        )
        if not imported:
            continue
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "stack"
            ):
                used += 1
                assert hasattr(stack, node.attr), f"{script.name}:{node.lineno}: stack.{node.attr}"
    assert used >= 5  # the scripts do use it: the check saw something


def test_standing_orders_mixed_tables_count_the_wins_of_decided_games():
    """The orders' side's wins were divided by every game, games nobody won included, and
    compared with 50%: a side that took more of the wins than the other read as behind."""
    import re
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, str(BENCH / "standing_orders.py"), "--games=24", "--jobs=2"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    found = re.search(
        r"orders' side takes ([\d.]+)% of the wins \(([\d.]+) of the (\d+) games somebody won",
        out,
    )
    assert found, out
    share, wins, decided = float(found[1]), float(found[2]), int(found[3])
    assert 0 < decided <= 24 and abs(share - 100 * wins / decided) < 0.06, out
