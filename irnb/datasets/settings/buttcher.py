"""Büttcher et al.'s setting: TREC 2006 Terabyte (GOV2), 50 topics, 80 runs from 20 groups (19 manual),
pool of depth 50 from 42 runs (11 manual, 31 automatic: the runs whose top 50 the qrels cover on every
topic, which the paper treats as the pool's, §4), measured on the top 10,000 documents."""

from __future__ import annotations

from .base import Setting

SETTINGS = (
    Setting(
        paper="buttcher2007",
        name="TREC 2006 Terabyte",
        reported={"collection": "TREC 2006 Terabyte (GOV2)", "topics": 50, "runs": 80, "groups": 20,
                  "manual_runs": 19, "contributors": 42, "pool_depth": 50, "run_depth": 10_000},
        where="Büttcher et al. (2007), Section 4 and Table 1",
        params={"num_topics": 50, "num_runs": 80, "num_groups": 20, "novel_runs": 19, "pooled_manual_runs": 11,
                "pooled_automatic_runs": 31, "pool_depth": 50, "run_depth": 1000, "facet_decoys": 4.0,
                "novel_subject_share": 0.6},
        mechanisms=(
            "11 manual and 31 automatic runs pooled, spread over the groups (pooled_manual_runs, "
            "pooled_automatic_runs), as the paper's 42",
            "manual formulations retrieve non-relevant documents of their own (facet_decoys: near-topic documents "
            "that look like the relevant documents only manual runs find), so the documents only manual runs pool "
            "are about as often relevant as the pool's, as in the paper's Table 4 (its original and automatic-only "
            "columns) and in TREC-COVID round 1; once "
            "the manual runs leave the pool, bpref no longer counts them above a manual run's relevant documents",
            "a topic has many more documents than the runs retrieve and the pool judges, so the relevant "
            "documents only manual runs pool are ones the automatic runs rarely retrieve at all, and the runs' "
            "recall of the known relevant documents rises when the manual runs leave the pool, as on GOV2",
            "the relevant documents only manual runs find read like the other relevant documents of their topic "
            "(novel_subject_share: their text takes most of its facet words from the topic's subject words), so a "
            "classifier trained on the automatic-only qrels finds them about as well as one trained on a random "
            "part of the qrels finds the rest, as in the paper's Table 6",
        ),
        differs=(
            "runs are 1,000 deep in 5,000 documents per topic, not 10,000 deep in GOV2: ten times the ranked "
            "entries would not build within the 5-second budget of a setting",
            "the pool judges more documents per topic than the paper's 640: the simulated automatic runs overlap "
            "less than GOV2's",
        ),
    ),
)
