"""numba kernel of the hand-ordering generator (private; see :mod:`pokerlab.ranges._order_gen`).

One *deal* draws three opponent hands and a five-card board uniformly from the deck (the 52
cards, or the short deck's 36 from the six up); every hero holding left in the deck (C(41, 2) =
820, or C(25, 2) = 300) is then scored against it. For a fixed
holding ``h`` the deals that avoid ``h`` are uniform over the deals the holding can meet, so the
per-class ratio ``share / count`` is a consistent estimate of the class's all-in equity against
three random hands; all 169 classes see the same deals (common random numbers), so their
*differences* — what the ordering depends on — are estimated more precisely than each value.

Pot shares are kept in integer twelfths (1, 1/2, 1/3, 1/4 of the pot are 12, 6, 4, 3), so the
sums are exact and the output does not depend on the order of the additions or on the number of
threads. The random numbers come from SplitMix64, one stream per chunk, seeded from
``(seed, chunk)``.
"""

from __future__ import annotations

import numpy as np
from numba import prange, uint64

from pokerlab._jit import njit
from pokerlab.evaluation._kernels import EMPTY_KEY, strength

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_LOW32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(1 << 32)


@njit(cache=True)
def _mix(z):
    """SplitMix64 output function."""
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(cache=True)
def _below(state, n):
    """A uniform integer in ``0..n-1`` (Lemire's method with rejection, on the top 32 bits of
    successive SplitMix64 outputs); returns ``(value, new_state)``."""
    threshold = (_TWO32 - n) % n
    while True:
        state = state + _GAMMA
        r = _mix(state) >> _S32
        m = r * n
        if (m & _LOW32) >= threshold:
            return m >> _S32, state


@njit(cache=True, parallel=True)
def class_shares(
    seed, chunks, deals, class_of, first, card_key, card_mask, multiplier, displace, values, share,
    count,
):  # fmt: skip
    """Fill ``share[k, c]`` (pot shares in twelfths) and ``count[k, c]`` (showdowns) for chunk
    ``k`` of ``deals`` deals and hand class ``c`` (``class_of[c1, c2]``, uint8 codes), dealing
    from the cards ``first..51`` (0: the full deck; 16: the short deck, whose ``values``
    table the caller passes)."""
    n = 52 - first
    for k in prange(chunks):
        state = _mix(uint64(seed) * _GAMMA + uint64(k) + uint64(1))
        deck = np.arange(first, 52).astype(np.uint8)
        for _ in range(deals):
            for i in range(11):
                j, state = _below(state, uint64(n - i))
                jj = i + np.int64(j)
                t = deck[i]
                deck[i] = deck[jj]
                deck[jj] = t
            board_key = EMPTY_KEY
            board_mask = uint64(0)
            for i in range(6, 11):
                board_key += card_key[deck[i]]
                board_mask |= card_mask[deck[i]]
            best = 0
            ties = 0
            for p in range(3):
                a = deck[2 * p]
                b = deck[2 * p + 1]
                s = strength(
                    board_key + card_key[a] + card_key[b],
                    board_mask | card_mask[a] | card_mask[b],
                    multiplier,
                    displace,
                    values,
                )
                if s > best:
                    best = s
                    ties = 1
                elif s == best:
                    ties += 1
            split = 12 // (ties + 1)
            for i in range(11, n - 1):  # every holding from the cards left
                a = deck[i]
                key_a = board_key + card_key[a]
                mask_a = board_mask | card_mask[a]
                for j in range(i + 1, n):
                    b = deck[j]
                    s = strength(
                        key_a + card_key[b], mask_a | card_mask[b], multiplier, displace, values
                    )
                    c = class_of[a, b]
                    count[k, c] += 1
                    if s > best:
                        share[k, c] += 12
                    elif s == best:
                        share[k, c] += split
