"""Hand evaluators. ``high``: 5-7 card high hands (more evaluators join here, one module each)."""

from pokerlab.evaluation.high import (
    HandCategory,
    HandValue,
    category_of,
    describe,
    evaluate,
    evaluate_batch,
)

__all__ = ["HandCategory", "HandValue", "category_of", "describe", "evaluate", "evaluate_batch"]
