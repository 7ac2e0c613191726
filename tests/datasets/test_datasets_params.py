"""irnb.datasets.params: the simulator declares its parameters and the relations between them;
the defaults satisfy each relation, and the first one broken is told."""

from __future__ import annotations

import pytest


def test_the_simulator_declares_its_relations():
    from irnb.datasets.params import RELATIONS, SIMULATION_PARAMS, defaults, validate_params

    assert len(RELATIONS) == 8 and all(set(r.names) <= set(SIMULATION_PARAMS) for r in RELATIONS)
    for relation in RELATIONS:                                                        # the defaults satisfy each
        relation.check(validate_params(defaults()), "f")
    with pytest.raises(ValueError) as caught:                                         # the first one broken is told
        validate_params({**defaults(), "num_groups": 50, "pool_depth": 2000}, owner="g")
    assert str(caught.value) == "g: num_groups (50) must be ≤ num_runs (40): every group submits a run"


def test_the_simulate_command_has_one_option_per_declared_parameter_with_its_default():
    import argparse

    from irnb.datasets.params import SIMULATION_PARAMS, configure_simulate_parser, defaults

    parser = configure_simulate_parser(argparse.ArgumentParser(prog="irnb simulate"))
    args = vars(parser.parse_args(["--out", "somewhere", "--num-topics", "5", "--title-share", "0.25"]))
    assert set(args) == {"seed", "out", "force", *SIMULATION_PARAMS}
    assert args == {**defaults(), "seed": 0, "out": "somewhere", "force": False, "num_topics": 5, "title_share": 0.25}
    assert defaults()["num_topics"] != 5 and defaults()["title_share"] != 0.25  # the given values were read
