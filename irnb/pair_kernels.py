"""The all-pairs kernels of the paired significance tests in :mod:`irnb.stats`.

Every pair of runs (a, b), a before b, of an (S, T) score matrix (:class:`Scores`) is
handled in one vectorised pass over cache-sized blocks of pairs: the paired differences and
their summaries (:func:`pairs`, :func:`paired_summaries`, or from the Gram matrix in
:func:`pair_moments`), then the distributions the tests need — Student's t two-sided
p-values (:func:`t_two_sided_p`), the Wilcoxon signed-rank statistic with its exact,
permutation and normal p-values (:func:`wilcoxon_kernel`), and the studentized range
(:func:`studentized_range_sf`). The tests themselves, their inputs and their results are
:mod:`irnb.stats`'s; each kernel's agreement with scipy is tested there.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache

import numpy as np
from scipy import special

from .params import KEEP_DIFF

__all__ = ["Scores", "Pairs", "pairs", "paired_summaries", "pair_moments", "paired_t_kernel", "t_two_sided_p",
           "wilcoxon_kernel", "studentized_range_sf", "PERMUTATION_MAX_TOPICS", "EXACT_MAX_TOPICS"]


PERMUTATION_MAX_TOPICS = 13  # scipy: 2**13 sign flips are enumerated exactly (< 9999 resamples)


EXACT_MAX_TOPICS = 50  # scipy wilcoxon(method="auto"): the exact distribution up to 50 topics


@dataclass(frozen=True, eq=False)
class Scores:
    values: np.ndarray  # (S, T) float64; NaN = not evaluated
    run_names: tuple[str, ...]
    topics: tuple[str, ...]
    measure: str | None


_BLOCK = 4096  # pairs handled at a time in the all-pairs kernels: a block's arrays stay in the CPU cache


@dataclass(frozen=True, eq=False)
class Pairs:
    """Differences D[p, t] = a − b for every pair (NaN: topic not shared) and summaries."""

    a: np.ndarray
    b: np.ndarray
    diff: np.ndarray | None  # (P, T); None where the test needs no differences (see pair_moments)
    n: np.ndarray  # (P,) topics used
    mean_a: np.ndarray
    mean_b: np.ndarray
    mean: np.ndarray  # mean difference
    sd: np.ndarray  # sd of differences (ddof 1); exactly 0 when the difference is constant
    all_zero: np.ndarray  # every difference is 0 (and n ≥ 1)
    d_z: np.ndarray


def pairs(sc: Scores, *, keep_diff: bool = True) -> Pairs:
    """Every pair of runs a < b of the scores, paired by :func:`paired_summaries` in cache-sized
    blocks of pairs (the same arithmetic, row by row, as one call over all pairs);
    ``keep_diff=False`` drops the (P, T) differences (``diff`` is None)."""
    keep_diff = KEEP_DIFF.validate(keep_diff, "pairs")
    V = sc.values
    a, b = np.triu_indices(V.shape[0], 1)
    P, T = a.size, V.shape[1]
    if P <= _BLOCK:
        pr = paired_summaries(V[a], V[b], a=a, b=b)
        return pr if keep_diff else replace(pr, diff=None)
    diff = np.empty((P, T)) if keep_diff else None
    fields = {name: np.empty(P) for name in ("n", "mean_a", "mean_b", "mean", "sd", "d_z")}
    all_zero = np.empty(P, dtype=bool)
    for lo in range(0, P, _BLOCK):
        sl = slice(lo, min(P, lo + _BLOCK))
        part = paired_summaries(V[a[sl]], V[b[sl]], out=diff[sl] if keep_diff else None)
        all_zero[sl] = part.all_zero
        for name, out in fields.items():
            out[sl] = getattr(part, name)
    n = fields.pop("n").astype(np.int64)
    return Pairs(a, b, diff, n, all_zero=all_zero, **fields)


def paired_summaries(x: np.ndarray, y: np.ndarray, *, a: np.ndarray | None = None,
                     b: np.ndarray | None = None, out: np.ndarray | None = None) -> Pairs:
    """Paired summaries of rows x[p] and y[p] over the topics both have (NaN: a missing
    topic): (P, T) arrays in, per-row n, means, sd (ddof 1) and d_z out. ``a``, ``b`` name
    the runs behind each row (default: the row number); ``out`` receives the differences
    (default: a new array); :mod:`irnb.bias` shares this."""
    D = np.subtract(x, y, out=out)
    if a is None:
        a = b = np.arange(D.shape[0])
    with np.errstate(invalid="ignore", divide="ignore"):
        if np.isnan(D).any():
            valid = ~np.isnan(D)
            n = valid.sum(axis=1)
            mean = np.where(valid, D, 0.0).sum(axis=1) / n
            mean_a = np.where(valid, x, 0.0).sum(axis=1) / n
            mean_b = np.where(valid, y, 0.0).sum(axis=1) / n
            dev = np.where(valid, D - mean[:, None], 0.0)
            lo, hi = np.nanmin(np.where(valid, D, np.inf), axis=1), np.nanmax(np.where(valid, D, -np.inf), axis=1)
        else:
            n = np.full(D.shape[0], D.shape[1])
            mean = D.mean(axis=1)
            mean_a, mean_b = x.mean(axis=1), y.mean(axis=1)
            dev = D - mean[:, None]
            lo, hi = D.min(axis=1), D.max(axis=1)
        constant = (lo == hi) & (n > 0)
        dev *= dev  # squared in place: no second (P, T) array
        var = dev.sum(axis=1) / n * (n / (n - 1.0))  # scipy's _var(ddof=1) order of operations
        del dev
        var = np.where(constant, 0.0, var)
        sd = np.sqrt(var)
        all_zero = constant & (hi == 0)
        d_z = np.where(all_zero, 0.0, mean / sd)
    d_z = np.where(n < 2, np.nan, d_z)
    return Pairs(a, b, D, n, mean_a, mean_b, mean, sd, all_zero, d_z)


_SHAKY = 1e-3  # below this share, the Gram-matrix moments lose digits: recompute the pair directly


def pair_moments(sc: Scores) -> Pairs:
    """Paired summaries of every pair without the (P, T) differences (``diff`` is None), for
    the tests that need only means and standard deviations (t, ANOVA, Tukey).

    With every topic evaluated, Σ_t (d_t − d̄)² = G_aa + G_bb − 2·G_ab for the Gram matrix
    G = X Xᵀ of the centred scores X: one matrix product instead of P·T differences. Where
    that cancels badly (the pair's sum of squares or mean difference below 10⁻³ of the
    runs' own), the pair is recomputed from its differences as :func:`paired_summaries` does, so the
    values agree with scipy to 10⁻¹² relative. Missing topics (NaN): :func:`pairs`.
    """
    V = sc.values
    S, T = V.shape
    if T < 2 or np.isnan(V).any():
        return pairs(sc, keep_diff=False)
    a, b = np.triu_indices(S, 1)
    mean = V.mean(axis=1)
    X = V - mean[:, None]
    G = X @ X.T
    ss = np.diag(G)
    # np.take with flat indices: several times faster than fancy indexing G[a, b]
    ss_sum = np.take(ss, a) + np.take(ss, b)
    ss_d = ss_sum - 2.0 * np.take(G, a * S + b)
    mean_a, mean_b = np.take(mean, a), np.take(mean, b)
    mean_d = mean_a - mean_b
    shaky = ss_d <= _SHAKY * ss_sum
    size = np.abs(mean)
    shaky |= np.abs(mean_d) <= _SHAKY * (np.take(size, a) + np.take(size, b))
    with np.errstate(invalid="ignore", divide="ignore"):
        sd = np.sqrt(np.maximum(ss_d, 0.0) / (T - 1.0))
        d_z = mean_d / sd
    all_zero = np.zeros(a.size, dtype=bool)
    rows = np.flatnonzero(shaky)
    for lo in range(0, rows.size, _BLOCK):
        sel = rows[lo:lo + _BLOCK]
        part = paired_summaries(V[a[sel]], V[b[sel]])
        mean_d[sel], sd[sel], d_z[sel], all_zero[sel] = part.mean, part.sd, part.d_z, part.all_zero
    return Pairs(a, b, None, np.full(a.size, T), mean_a, mean_b, mean_d, sd, all_zero, d_z)


def paired_t_kernel(pr: Pairs) -> tuple[np.ndarray, np.ndarray]:
    n = pr.n.astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        t = pr.mean / (pr.sd / np.sqrt(n))
        p = t_two_sided_p(t, pr.n - 1)
    t = np.where(pr.all_zero, 0.0, np.where(n < 2, np.nan, t))
    p = np.where(pr.all_zero, 1.0, np.where(n < 2, np.nan, p))
    return t, p


_SERIES_MAX_DF = 100  # beyond this many degrees of freedom the series costs more than scipy's stdtr


_SERIES_MIN_P = 1e-4  # below this p the series' subtraction loses relative digits: scipy's stdtr instead


def t_two_sided_p(t: np.ndarray, df: np.ndarray) -> np.ndarray:
    """Two-sided p = 2·P(T_ν > |t|) of Student's t for integer ν = ``df`` (NaN where ν < 1),
    equal to ``2·scipy.special.stdtr(ν, −|t|)`` within 10⁻¹⁴ (absolute; 10⁻¹⁰ relative).

    For integer 2 ≤ ν ≤ 100 the CDF is a finite series (Abramowitz & Stegun 26.7.3–4) in
    θ = atan(|t|/√ν), c = cos²θ = ν/(ν + t²), s = sinθ:

    * ν even: p = 1 − s·Σ_{k<ν/2} a_k c^k, a_0 = 1, a_k = a_{k−1}·(2k − 1)/(2k);
    * ν odd:  p = (2/π)·(atan(√ν/|t|) − s·√c·Σ_{k≤(ν−3)/2} b_k c^k), b_0 = 1,
      b_k = b_{k−1}·2k/(2k + 1).

    Horner's rule costs ν/2 multiply-adds per pair, a quarter of scipy's incomplete beta
    at ν = 49. Where p < 10⁻⁴ (the subtraction would lose relative digits), t is not
    finite, or ν is 1 or above 100, the p-value comes from ``scipy.special.stdtr``. All pairs sharing ν
    are evaluated together, once per distinct ν.

    ν = 2, t = 2: c = 2/6, s = √(2/3), p = 1 − 0.8165 = 0.1835 (= 1 − t/√(ν + t²)).

    >>> round(float(t_two_sided_p(np.array([2.0]), np.array([2]))[0]), 4)
    0.1835
    """
    t = np.abs(np.asarray(t, dtype=np.float64))
    df = np.asarray(df)
    p = np.full(t.shape, np.nan)
    values = np.unique(df)
    for nu in values[values >= 1]:
        rows = None if values.size == 1 else np.flatnonzero(df == nu)
        x = t if rows is None else t[rows]
        series = 2 <= nu <= _SERIES_MAX_DF and nu == int(nu)
        got = _t_series_p(x, int(nu)) if series else np.full(x.shape, np.nan)
        redo = ~(got >= _SERIES_MIN_P)  # small p, NaN (t not finite) or ν beyond the series
        if redo.any():
            got[redo] = 2.0 * special.stdtr(float(nu), -x[redo])
        if rows is None:
            p = got
        else:
            p[rows] = got
    return p


def _t_series_p(t: np.ndarray, nu: int) -> np.ndarray:
    """The finite series of :func:`t_two_sided_p` for |t| (finite or not: inf gives NaN)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        root = np.sqrt(nu + t * t)
        c = nu / (root * root)
        s = t / root
        odd = nu % 2 == 1
        terms = (nu - 3) // 2 if odd else nu // 2 - 1  # highest power of c in the sum
        ratio = [(2 * k) / (2 * k + 1) if odd else (2 * k - 1) / (2 * k) for k in range(1, terms + 1)]
        coef = np.cumprod([1.0, *ratio])
        acc = np.full(t.shape, coef[-1])
        for k in range(terms - 1, -1, -1):  # Horner, in place
            np.multiply(acc, c, out=acc)
            np.add(acc, coef[k], out=acc)
        np.multiply(acc, s, out=acc)
        if not odd:
            return np.subtract(1.0, acc, out=acc)
        np.multiply(acc, np.sqrt(c), out=acc)
        acc = np.arctan2(np.sqrt(nu), t) - acc
        return np.multiply(acc, 2.0 / np.pi, out=acc)


@cache
def _wilcoxon_tables(n: int) -> tuple[np.ndarray, np.ndarray]:
    """P(R+ ≤ k) and P(R+ ≥ k) for k = 0 … n(n+1)/2 + 1 under H0 (no ties), n topics."""
    pmf = np.ones(1)
    for k in range(1, n + 1):  # the distribution of R+ built rank by rank (scipy's recurrence)
        prev = pmf
        pmf = np.zeros(k * (k + 1) // 2 + 1)
        pmf[: prev.size] = prev * 0.5
        pmf[-prev.size:] += prev * 0.5
    cdf = np.concatenate([np.cumsum(pmf), [1.0]])
    sf = np.concatenate([np.cumsum(pmf[::-1])[::-1], [0.0]])
    cdf.flags.writeable = False
    sf.flags.writeable = False
    return cdf, sf


def _wilcoxon_exact_p(r_plus: np.ndarray, count: np.ndarray) -> np.ndarray:
    """Two-sided exact p: 2·min(P(R+ ≥ ⌊r⌋), P(R+ ≤ ⌈r⌉)), as scipy (which rounds a
    non-integral statistic conservatively), clipped at 1."""
    p = np.empty(r_plus.shape)
    for n in np.unique(count):  # one table per distinct topic count (usually a single one)
        sel = count == n
        cdf_t, sf_t = _wilcoxon_tables(int(n))
        mn = n * (n + 1) / 4.0
        lo = np.floor(r_plus[sel]).astype(np.int64)
        hi = np.ceil(r_plus[sel]).astype(np.int64)
        top = cdf_t.size - 1
        sf = np.where(lo <= mn, sf_t[np.clip(lo, 0, top)], 1.0 - cdf_t[np.clip(lo - 1, 0, top)])
        cdf = np.where(hi <= mn, cdf_t[np.clip(hi, 0, top)], 1.0 - sf_t[np.clip(hi + 1, 0, top)])
        p[sel] = np.clip(2.0 * np.minimum(sf, cdf), 0.0, 1.0)
    return p




_INF_BITS = np.float64(np.inf).view(np.uint64)
_DROPPED_KEY = _INF_BITS << np.uint64(1)  # +inf, not positive: sorts after every |d|


def _signed_ranks(D: np.ndarray, dropped: np.ndarray, count: np.ndarray, n_zero: np.ndarray, zero_method: str,
                  want_ranks: bool):
    """Average ranks of |d| per row (dropped elements excluded; ``count`` kept per row,
    ``n_zero`` of them zero) and their sums.

    Each row is sorted once as values, not through an argsort: the bits of |d| (a
    non-negative float orders as its bits do, and its sign bit is free) shifted left by one,
    with d > 0 in the lowest bit — the order within a tie group of |d| is irrelevant. The
    tie groups are then found along the rank axis in a rank-major (T, P) layout, where
    numpy's running maximum and minimum go over contiguous rows of small integers (the
    first and last position of each element's group; twice an average rank is their sum
    plus 2). Only R+ and the tie term are summed element by element; the rest follows from
    the counts: the kept ranks sum to c(c + 1)/2, the z zeros (the smallest |d|, one tie
    group) hold ranks 1 … z, and the dropped elements (last, one group of k) add k³ − k to
    the tie term. Every sum is exact. Returns R+, R−, the tie term Σ_groups (t³ − t),
    whether a row has ties, R+ of the zeros (for ``zsplit``) and, when ``want_ranks``, the
    sorted ranks with the sign masks (for the permutation p-value)."""
    P, T = D.shape
    # +inf marks a dropped element (topic not shared, or a zero under "wilcox"): it sorts last
    # Every step writes into the arrays it has (no fresh (P, T) temporary where one can be
    # reused): a fresh array's first touch costs page faults, on some machines as much as
    # the arithmetic itself.
    key = np.abs(D).view(np.uint64)
    key <<= np.uint64(1)
    key |= D > 0  # NaN compares False
    np.copyto(key, _DROPPED_KEY, where=dropped)
    key.sort(axis=1)
    Y = key.T.copy()  # (T, P), sorted along axis 0
    del key  # its memory serves the arrays below
    positive = np.bitwise_and(Y, np.uint64(1)).astype(bool)
    Y >>= np.uint64(1)  # the bits of |d|
    small = np.int16 if T < 2**14 else np.int32
    idx = np.arange(T, dtype=small)[:, None]
    change = Y[1:] != Y[:-1]  # a new tie group starts at r + 1
    start = np.zeros((T, P), dtype=small)
    np.copyto(start[1:], idx[1:], where=change)
    end = np.full((T, P), T - 1, dtype=small)
    np.copyto(end[:-1], idx[:-1], where=change)
    for r in range(1, T):  # running max/min row by row: each step is one contiguous vector op
        np.maximum(start[r - 1], start[r], out=start[r])  # first position of each element's tie group
        np.minimum(end[T - r], end[T - r - 1], out=end[T - r - 1])  # its last position
    size = np.subtract(end, start, dtype=np.int32)  # tie group sizes minus 1
    end += start  # first + last position: twice the average rank, minus 2
    r_plus = (end * positive).sum(axis=0, dtype=np.int64) / 2.0 + np.count_nonzero(positive, axis=0)
    c = count.astype(np.float64)
    z = n_zero.astype(np.float64) if zero_method != "wilcox" else np.zeros(P)
    r_zero = z * (z + 1.0) / 2.0  # R of the zeros: ranks 1 … z
    r_minus = c * (c + 1.0) / 2.0 - r_plus - r_zero
    terms = size + 2
    terms *= size  # t² − 1 for an element of a group of t (< T², an int32)
    del size
    k = T - count.astype(np.int64)  # the dropped elements
    tie_correct = terms.sum(axis=0, dtype=np.int64) - (k * k * k - k)  # Σ_groups (t³ − t) = Σ_elements (t² − 1)
    has_ties = tie_correct > 0
    if zero_method == "pratt":
        tie_correct = tie_correct - (n_zero * n_zero * n_zero - n_zero)  # zeros do not enter the tie correction
    tie_correct = tie_correct.astype(np.float64)
    ranks = None
    if want_ranks:
        valid = Y != _INF_BITS
        zero_sorted = valid & (Y == 0)
        rank = np.where(valid, end * 0.5 + 1.0, 0.0)
        ranks = (rank.T, (valid & ~zero_sorted).T, zero_sorted.T)
    return r_plus, r_minus, tie_correct, has_ties, (r_zero / 2.0 if zero_method == "zsplit" else None), ranks


def wilcoxon_kernel(pr: Pairs, zero_method: str, continuity: float, method: str):
    """Wilcoxon's statistic and p-value of every pair; ``continuity`` is subtracted from the
    distance of R+ to its mean in the normal approximation (0.5: scipy's ``correction``;
    0: none). The options are checked by :func:`irnb.stats.wilcoxon_test`."""
    D = pr.diff
    P, T = D.shape
    n_total = pr.n
    zero = D == 0
    n_zero = zero.sum(axis=1)
    dropped = np.isnan(D) | zero if zero_method == "wilcox" else np.isnan(D)
    count = T - dropped.sum(axis=1)
    if method == "auto":
        used = np.where(n_total > EXACT_MAX_TOPICS, "asymptotic",
                        np.where(n_total <= PERMUTATION_MAX_TOPICS, "permutation", "exact"))
    else:
        used = np.full(P, method)
    r_plus, r_minus, tie_correct = np.empty(P), np.empty(P), np.empty(P)
    has_ties = np.empty(P, dtype=bool)
    r_zero = np.empty(P) if zero_method == "zsplit" else None
    perm_p = np.full(P, np.nan)
    for lo in range(0, P, _BLOCK):
        sl = slice(lo, min(P, lo + _BLOCK))
        want = bool((used[sl] == "permutation").any())
        rp, rm, tc, ht, rz, ranks = _signed_ranks(D[sl], dropped[sl], count[sl], n_zero[sl], zero_method, want)
        r_plus[sl], r_minus[sl], tie_correct[sl], has_ties[sl] = rp, rm, tc, ht
        if r_zero is not None:
            r_zero[sl] = rz
        if want:
            rows = np.flatnonzero(used[sl] == "permutation")
            rank, nonzero, zero_sorted = ranks
            rp_perm = rp[rows] + (rz[rows] if rz is not None else 0.0)
            perm_p[lo + rows] = _signflip_exact_p(rank[rows], nonzero[rows], zero_sorted[rows], rp_perm,
                                                  zero_method)
    if method == "auto":  # scipy: exact only without ties or zeros, else permutation (≤ 13) or normal
        simple = ~(has_ties | (n_zero > 0))
        used = np.where(n_total > EXACT_MAX_TOPICS, "asymptotic",
                        np.where(simple, "exact",
                                 np.where(n_total <= PERMUTATION_MAX_TOPICS, "permutation", "asymptotic")))
    if zero_method == "zsplit":
        r_plus, r_minus = r_plus + r_zero, r_minus + r_zero
    cnt = count.astype(np.float64)
    mn = cnt * (cnt + 1.0) * 0.25
    se = cnt * (cnt + 1.0) * (2.0 * cnt + 1.0)
    if zero_method == "pratt":
        nz = n_zero.astype(np.float64)
        mn = mn - nz * (nz + 1.0) * 0.25
        se = se - nz * (nz + 1.0) * (2.0 * nz + 1.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        se = np.sqrt((se - tie_correct / 2.0) / 24.0)
        z = (r_plus - mn) / se
    used = used.astype(object)
    p = np.full(P, np.nan)

    asym = used == "asymptotic"
    if asym.any():
        za = z[asym]
        if continuity:
            za = za - np.sign(za) * continuity / se[asym]
        with np.errstate(invalid="ignore"):
            p[asym] = 2.0 * special.ndtr(-np.abs(za))
    exact = used == "exact"
    if exact.any():
        p[exact] = _wilcoxon_exact_p(r_plus[exact], count[exact])
    perm = used == "permutation"
    if perm.any():
        p[perm] = perm_p[perm]

    statistic = np.minimum(r_plus, r_minus)
    p = np.where(pr.all_zero, 1.0, p)
    statistic = np.where(pr.all_zero, 0.0, statistic)
    return statistic, p, r_plus - r_minus, used


def _signflip_exact_p(rank: np.ndarray, nonzero: np.ndarray, zero: np.ndarray, r_plus: np.ndarray,
                      zero_method: str) -> np.ndarray:
    """scipy's permutation test for ≤ 13 topics: R+ over all 2^n sign flips (n ≤ 13), p =
    2·min(#(R+* ≤ r), #(R+* ≥ r)) / 2^n with scipy's relative tolerance, clipped at 1.

    Only non-zero differences carry rank into R+, and they occupy the first 13 sorted
    positions, so enumerating those positions gives the same proportions exactly."""
    m = min(PERMUTATION_MAX_TOPICS, rank.shape[1])
    weight = np.where(nonzero[:, :m], rank[:, :m], 0.0)
    bits = ((np.arange(2 ** m)[:, None] >> np.arange(m)[None, :]) & 1).astype(np.float64)
    null = weight @ bits.T  # (P, 2^m): R+ of every sign pattern
    if zero_method == "zsplit":
        zero_half = np.where(zero[:, :m], rank[:, :m], 0.0).sum(axis=1) / 2.0
        null = null + zero_half[:, None]
    gamma = np.abs(np.finfo(np.float64).eps * 100 * r_plus)[:, None]
    obs = r_plus[:, None]
    less = (null <= obs + gamma).sum(axis=1) / float(2 ** m)
    greater = (null >= obs - gamma).sum(axis=1) / float(2 ** m)
    return np.clip(2.0 * np.minimum(less, greater), 0.0, 1.0)


def studentized_range_sf(q, k: int, df: float) -> np.ndarray:
    """P(Q_{k, df} ≥ |q|), the studentized range's upper tail, for many q at once.

    Q = W / S with W the range of k standard normals and S² ~ χ²_df / df. The range's CDF
    W(w) = k ∫ φ(z) [Φ(z) − Φ(z − w)]^(k−1) dz is computed once on a grid of 8,193 w in
    [0, 24] (256-node Gauss–Legendre in z over [−9, 9], normalised so W(24) = 1) and
    interpolated by a cubic spline; the outer integral over s (256-node Gauss–Legendre
    between S's 10⁻¹⁴ and 1 − 10⁻¹⁴ quantiles) then costs one spline lookup per (q, s).
    Every pair of an all-pairs Tukey test shares (k, df), so the distribution is built once
    instead of once per pair. Error bound: within 10⁻⁸ of ``scipy.stats.studentized_range.sf``
    for 2 ≤ k ≤ 1,000 and df ≥ 1 (tests/test_stats.py checks it with hypothesis);
    ``q·s ≥ 24`` counts as W = 1 (the true tail is below 10⁻³⁰ there).
    """
    from scipy.interpolate import CubicSpline  # local: only Tukey needs it

    q = np.abs(np.asarray(q, dtype=np.float64))
    w_max, step = 24.0, 256
    node, weight = np.polynomial.legendre.leggauss(256)
    z = node * 9.0
    base = weight * 9.0 * k * np.exp(-0.5 * z * z) / np.sqrt(2.0 * np.pi)
    cdf_z = special.ndtr(z)
    w = np.linspace(0.0, w_max, 8193)
    W = np.empty(w.size)
    for lo in range(0, w.size, step):  # blocks of w keep the (w, z) table small
        block = w[lo:lo + step, None]
        W[lo:lo + step] = np.clip(cdf_z - special.ndtr(z - block), 0.0, 1.0) ** (k - 1) @ base
    spline = CubicSpline(w, W / W[-1])
    if df > 1e7:  # S = 1 to double precision
        s, s_weight = np.ones(1), np.ones(1)
    else:
        s_lo, s_hi = np.sqrt(special.chdtri(df, 1.0 - 1e-14) / df), np.sqrt(special.chdtri(df, 1e-14) / df)
        node, weight = np.polynomial.legendre.leggauss(256)
        half = (s_hi - s_lo) / 2.0
        s = s_lo + (node + 1.0) * half
        log_pdf = (np.log(2.0) + (df / 2.0) * np.log(df / 2.0) - special.gammaln(df / 2.0)
                   + (df - 1.0) * np.log(s) - df * s * s / 2.0)
        s_weight = weight * half * np.exp(log_pdf)
        s_weight /= s_weight.sum()
    x = q[..., None] * s
    inside = np.where(x >= w_max, 1.0, np.clip(spline(np.minimum(x, w_max)), 0.0, 1.0))
    return np.clip(1.0 - inside @ s_weight, 0.0, 1.0)
