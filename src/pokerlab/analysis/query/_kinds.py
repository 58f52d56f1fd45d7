"""Feature kinds: the first column of a feature row (see ``_kernels.deal_features``). Kept
apart from the kernels so compiling a query does not load numba."""

EQUITY = 0
WINS_HI = 1
TIES_HI = 2
HAND_CAT = 3
OUTS = 4
NUT_HI = 5
RANK_AT = 6
SUIT_COUNT = 7
PAIRED_BOARD = 8
IN_RANGE = 9
BOARD_IN = 10
SCOOPS = 11
WINS_LO = 12
DRAW = 13
HITS = 14
KINDS = 15

HIT_DRAW_SCALE = 32
"""A ``HITS`` feature is ``made + HIT_DRAW_SCALE * draw_bits`` (``board_categories`` codes)."""
