"""irnb.datasets.model: the simulator's latent topics and run design — topic sizes and ease per
block of topics, decoys and near-topic aspects, how popular, novel and keyword runs rank, a
ranking with a clear top and bottom, and the pool bias of leaving a group out."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from irnb import evaluate
from irnb.datasets import (
    Collection,
    default,
)
from irnb.datasets import model

from sim_collections import ENDS_FLOOR, map_ends, top_sets


@pytest.fixture(scope="module")
def coll() -> Collection:
    return default()


def test_topic_sizes_and_ease_are_standardized_per_block_of_topics():
    """Per block of TOPIC_BLOCK topics the normals behind R_t and h_t have mean 0 and SD 1
    exactly (so every seed's default has the same spread), and topic t's value does not
    depend on how many topics there are."""
    B = model.TOPIC_BLOCK
    for seed in (0, 3):
        z = model._topic_normals(seed, 1, 2 * B + 7)
        assert z.shape == (2 * B + 7,)
        for block in (z[:B], z[B:2 * B]):
            assert block.mean() == pytest.approx(0.0, abs=1e-12) and block.std() == pytest.approx(1.0, abs=1e-12)
        assert np.array_equal(model._topic_normals(seed, 1, 10), z[:10])
        assert np.array_equal(model._topic_normals(seed, 1, B + 1), z[: B + 1])
    assert not np.array_equal(model._topic_normals(0, 1, B), model._topic_normals(1, 1, B))
    assert not np.array_equal(model._topic_normals(0, 1, B), model._topic_normals(0, 6, B))
    # hand check of the standardization: [1, 2, 3, 6] has mean 3 and SD √3.5
    assert model._standardized(np.array([1.0, 2.0, 3.0, 6.0])) == pytest.approx(np.array([-2, -1, 0, 3]) / np.sqrt(3.5))
    assert model._standardized(np.array([4.0])).tolist() == [0.0]
    assert model._standardized(np.array([2.0, 2.0])).tolist() == [0.0, 0.0]
    # the default's 50 topics: R spans a wide range; the ease is 1 + σ·z clipped to [0.2, 2]
    relevant = default().topics["relevant"].to_numpy()
    assert relevant.max() >= 10 * relevant.min()
    lat = model.draw_latents(0, num_topics=B, docs_per_topic=200, median_relevant=10.0, relevant_spread=0.8,
                             title_share=0.3, novel_share=0.2, difficulty_spread=0.5)
    z = model._topic_normals(0, model._DIFFICULTY, B)
    assert np.array_equal(lat.difficulty, np.clip(1.0 + 0.5 * z, model.EASE_LOW, model.EASE_HIGH))
    assert lat.difficulty.mean() == pytest.approx(1.0, abs=0.02)  # σ = 0.5: few topics reach a clip


def test_decoys_and_near_topic_aspects_change_only_what_they_say(monkeypatch):
    """DECOY_SHARE widens the content spread of that share of the near-topic documents (and of
    no other document); NEAR_ASPECT_BOOST lifts near-topic documents of the aspects a run's
    formulation matches; TOPICALITY keeps even a poor run on the topic. Each is set here (the
    default turns the first two on, TOPICALITY stays off)."""
    kwargs = dict(num_topics=2, docs_per_topic=2000, median_relevant=40.0, relevant_spread=0.5,
                  title_share=0.3, novel_share=0.2)
    monkeypatch.setattr(model, "DECOY_SHARE", 0.0)
    plain = model.draw_latents(3, **kwargs)
    monkeypatch.setattr(model, "DECOY_SHARE", 0.2)
    monkeypatch.setattr(model, "DECOY_SPREAD", 3.0)
    decoyed = model.draw_latents(3, **kwargs)
    near = (plain.family == model.NEAR) | (plain.family == model.NEAR_TITLE)
    assert np.array_equal(plain.family, decoyed.family) and np.array_equal(plain.aspect, decoyed.aspect)
    assert np.array_equal(plain.features[~near], decoyed.features[~near])  # other families: the same bits
    assert np.array_equal(plain.features[near][:, 1:], decoyed.features[near][:, 1:])  # only content moves
    moved = plain.features[near][:, 0] != decoyed.features[near][:, 0]
    assert 0.15 < moved.mean() < 0.25  # about DECOY_SHARE of them
    mean = model.FEATURE_MEANS[plain.family[near][moved], 0]
    deviation = (decoyed.features[near][moved, 0] - mean) / (plain.features[near][moved, 0] - mean)
    assert deviation == pytest.approx(3.0)  # the same draw, DECOY_SPREAD times as far from the family mean
    # every near-topic and main/title relevant document is about an aspect; background and novel ones are not
    about = near | (plain.family == model.REL_MAIN) | (plain.family == model.REL_TITLE)
    assert (plain.aspect[about] >= 0).all() and (plain.aspect[~about] == -1).all()

    monkeypatch.setattr(model, "DECOY_SHARE", 0.0)
    design = model.draw_design(3, num_runs=4, num_groups=2, novel_runs=0, keyword_runs=0, pooled_runs_per_group=1)
    share = {}
    for boost in (0.0, 1.5):
        monkeypatch.setattr(model, "NEAR_ASPECT_BOOST", boost)
        ranking, _ = model.rank_documents(3, plain, design, run_depth=200)
        fam_aspect = []
        for s in range(4):
            covered = design.aspect_cover[s][plain.aspect.clip(0)] * (plain.aspect >= 0)
            picked = (np.arange(2)[:, None], ranking[s])
            fam_aspect.append(((covered[picked] == 1) & near[picked]).sum() / max((near[picked]).sum(), 1))
        share[boost] = np.mean(fam_aspect)
    assert share[1.5] > share[0.0] + 0.05  # near documents of covered aspects crowd the top 200

    # TOPICALITY: even the poorest run retrieves on-topic documents; with ASPECT_TOPICALITY = 1 only
    # those of the aspects it covers (and aspect-less relevant-novel ones), never background noise
    monkeypatch.setattr(model, "NEAR_ASPECT_BOOST", 0.0)
    monkeypatch.setattr(model, "QUALITY_LOW", 0.03)  # the poorest run little better than chance
    design = model.draw_design(3, num_runs=4, num_groups=2, novel_runs=0, keyword_runs=0, pooled_runs_per_group=1)
    poorest = int(np.argmin(design.quality))
    background = {}
    for topicality, by_aspect in ((0.0, 0.0), (6.0, 0.0), (6.0, 1.0)):
        monkeypatch.setattr(model, "TOPICALITY", topicality)
        monkeypatch.setattr(model, "ASPECT_TOPICALITY", by_aspect)
        ranking, _ = model.rank_documents(3, plain, design, run_depth=200)
        picked = (np.arange(2)[:, None], ranking[poorest])
        background[topicality, by_aspect] = (plain.family[picked] == model.BACKGROUND).mean()
        if by_aspect:
            covered = design.aspect_cover[poorest][plain.aspect[picked].clip(0)] == 1
            assert (covered | (plain.aspect[picked] == -1)).mean() > 0.95
    assert background[0.0, 0.0] > 0.02 and background[6.0, 0.0] < background[0.0, 0.0] / 10  # 0.035 with TOPICALITY off


def test_popular_runs_overlap_more_than_novel_runs(coll):
    kind = coll.run_info["kind"].to_numpy()
    group = coll.run_info["group"].to_numpy()
    inc = top_sets(coll, 100).astype(np.float32)
    T = inc.shape[1]
    overlap = np.einsum("atn,btn->ab", inc, inc) / (100 * T)
    other_group = group[:, None] != group[None, :]
    pop = kind == "popular"
    pop_pop = overlap[np.outer(pop, pop) & other_group].mean()
    novel_pop = overlap[np.outer(kind == "novel", pop) & other_group].mean()
    assert pop_pop > novel_pop + 0.005


def test_novel_runs_find_relevant_documents_nobody_else_ranks_high(coll):
    kind = coll.run_info["kind"].to_numpy()
    inc = top_sets(coll, 100)
    relevant = coll.family >= model.REL_MAIN
    unique = []
    for s in range(inc.shape[0]):
        others = np.delete(inc, s, axis=0).any(axis=0)
        unique.append((inc[s] & relevant & ~others).sum() / inc.shape[1])
    unique = np.array(unique)
    assert unique[kind == "novel"].mean() > 3 * unique[kind == "popular"].mean()
    fam = coll.family[np.arange(50)[None, :, None], coll.ranking[:, :, :100]]
    novel_share = (fam == model.REL_NOVEL).mean(axis=(1, 2))
    assert novel_share[kind == "novel"].min() > novel_share[kind != "novel"].max()


def test_keyword_runs_favour_the_title_family(coll):
    kind = coll.run_info["kind"].to_numpy()
    fam = coll.family[np.arange(50)[None, :, None], coll.ranking[:, :, :100]]
    title_rel = (fam == model.REL_TITLE).sum(axis=(1, 2))
    main_rel = (fam == model.REL_MAIN).sum(axis=(1, 2))
    ratio = title_rel / np.maximum(main_rel, 1)
    assert ratio[kind == "keyword"].min() > ratio[kind == "popular"].max()


def test_system_ranking_has_a_clear_top_and_bottom(coll):
    """The best and the worst run stand apart from the middle of the ranking, as in the real
    collections (ENDS_FLOOR; test_the_real_rankings_have_the_ends_the_default_is_held_to)."""
    ap = evaluate(coll.experiment, ["AP"], truth=True).aggregate("AP")
    assert min(map_ends(ap)) >= ENDS_FLOOR, map_ends(ap)
    assert ap.max() > 3 * ap.min()
    # quality drives effectiveness: rank correlation over all runs
    rho = pd.Series(ap).corr(coll.run_info["quality"], method="spearman")
    assert rho > 0.6


def test_relevant_documents_per_topic_vary_widely(coll):
    relevant = coll.topics["relevant"].to_numpy()
    assert relevant.std() / relevant.mean() > 0.5
    assert relevant.max() > 5 * relevant.min()
    assert np.array_equal(relevant, (coll.family >= model.REL_MAIN).sum(axis=1))


def test_leaving_a_group_out_ap_underestimates_and_bpref_overestimates(coll):
    """Büttcher et al.'s headline on the simulated collection (pools computed here)."""
    exp = coll.experiment
    info = coll.run_info
    group = info["group"].to_numpy()
    contrib = info["contributor"].to_numpy()
    rank = exp.judgments.retrieved_rank
    full = evaluate(exp, ["AP", "Bpref"])
    delta = {"AP": [], "Bpref": []}
    for g in np.unique(group):
        keep = (rank[contrib & (group != g)] <= coll.params["pool_depth"]).any(axis=0)
        reduced = evaluate(exp, ["AP", "Bpref"], judged=keep)
        for m in delta:
            delta[m].extend((reduced.aggregate(m) - full.aggregate(m))[group == g])
    assert np.mean(delta["AP"]) < 0 and np.mean(delta["Bpref"]) > 0
