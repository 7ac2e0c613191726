"""Scaled DCG@k (Ravana & Moffat 2010): binary-gain DCG@k over the DCG@k of an all-relevant
ranking, so that SDCG@k ≤ 1 and has score intervals. The paper says only "the DCG score
divided by the DCG score that would be achieved by an 'all relevant' ranking of that depth"
(citing Järvelin & Kekäläinen); irnb's choice: discount 1/log2(rank + 1), as trec_eval's nDCG."""

from __future__ import annotations

import numpy as np

from ..kernels import Judged, cut_depth, dcg, sdcg_normaliser
from .base import Family, register


def _sdcg(view: Judged, k: int) -> np.ndarray:
    d = cut_depth(view, k)
    return dcg(view.rel[:, :, :d].astype(np.float64), d) / sdcg_normaliser(k)


register(Family("SDCG", "scaled DCG@k: binary-gain DCG@k (discount 1/log2(rank+1), irnb's choice) over the DCG@k of "
                        "an all-relevant ranking",
                "Ravana & Moffat 2010", cutoff="required", interval=True, kernel=lambda v, m: _sdcg(v, m.cutoff)))
