"""What a researcher meets first in the Gymnasium environment: the public action mask, opponents that are agents,
policies or pools, the tensor observation, the zero-sum reward, the episode bound, the Nutty solo training aid,
and a vector auto-reset that never hands out a mask without a legal action."""

from __future__ import annotations

import warnings
from collections.abc import Hashable
from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils import env_checker  # noqa: E402
from numpy.typing import NDArray  # noqa: E402

import oakwood  # noqa: E402
from oakwood.engine.agent import PlayerView  # noqa: E402
from oakwood.rl import gymnasium as og  # noqa: E402
from oakwood.rl.opponents import Pool  # noqa: E402
from oakwood.rl.tensors import action_mask  # noqa: E402


def play_out(env: og.OakwoodEnv, seed: int, rng: np.random.Generator) -> tuple[float, int]:
    """One episode of uniformly random legal actions read from ``action_masks()``: its last reward and length."""
    env.reset(seed=seed)
    steps = 0
    while True:
        _, reward, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        steps += 1
        if terminated or truncated:
            return float(reward), steps


class FirstLegal:
    """An agent object (no bot name): plays its first legal action and records the seats it was asked for."""

    name = "first-legal"

    def __init__(self) -> None:
        self.seats: list[int] = []

    def act(self, view: PlayerView) -> Hashable:
        self.seats.append(view.seat)
        return view.legal_actions[0]


# ---------------------------------------------------------------------- action_masks()
@pytest.mark.parametrize(("game", "players"), [("squarrels", 3), ("barrell", 2), ("nutty", 1), ("nutty", 2)])
def test_action_masks_is_the_learners_legal_set_as_a_fresh_bool_array(game: str, players: int) -> None:
    options = {"max_rounds": 2} if game == "nutty" and players > 1 else {}
    env = og.OakwoodEnv(game, players=players, options=options)
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(5)
    steps = 0
    while True:
        masks = env.action_masks()
        assert masks.dtype == np.bool_ and masks.shape == (env.action_space.n,)
        assert np.array_equal(masks, info["action_mask"].astype(bool))
        assert np.array_equal(masks, obs["action_mask"].astype(bool))
        assert np.array_equal(masks, action_mask(env.game, env.state, env.seat).astype(bool))
        masks[:] = False  # the caller's own array: changing it changes nothing in the environment
        assert env.action_masks().any()
        obs, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        steps += 1
        if terminated or truncated:
            break
    assert steps > 1 and not env.action_masks().any()  # over: no legal action


def test_action_masks_is_found_through_gymnasium_make_wrappers() -> None:
    env = gymnasium.make("oakwood/Barrell-v0", players=2)
    env.reset(seed=2)
    masks = env.get_wrapper_attr("action_masks")()  # how sb3-contrib reaches it through the wrappers
    assert np.array_equal(masks, env.unwrapped.action_masks())


def test_a_0d_integer_array_is_an_action_as_gymnasiums_discrete_allows() -> None:
    env = og.OakwoodEnv("barrell", players=2)
    env.reset(seed=0)
    index = int(np.flatnonzero(env.action_masks())[0])
    assert env.action_space.contains(np.array(index))
    env.step(np.array(index))  # what an sb3 model's predict returns for one observation
    with pytest.raises(ValueError, match="not a codec index"):
        env.step(np.array([int(np.flatnonzero(env.action_masks())[0])]))  # a batch of one is not an index
    with pytest.raises(ValueError, match="not a codec index"):
        env.step(np.array(0.0))


# ---------------------------------------------------------------------- opponents
def test_an_agent_object_is_an_opponent_and_is_asked_only_for_its_own_seat() -> None:
    bot = FirstLegal()
    env = og.OakwoodEnv("barrell", players=2, opponents=bot, seat=1)
    reward, _ = play_out(env, 3, np.random.default_rng(3))
    assert env.state.is_terminal() and reward == env.state.returns()[1]
    assert len(bot.seats) > 0 and set(bot.seats) == {0}
    assert env.agents == {0: bot}  # used as it is, not copied
    env.reset(seed=4)
    assert env.agents[0] is bot  # and the same object the next episode


def test_a_policy_opponent_gets_its_own_seats_tensor_and_mask_and_its_answer_is_played() -> None:
    calls: list[int] = []

    def last_legal(observation: NDArray[np.float32], mask: NDArray[np.bool_]) -> int:
        # The seat asked is one of the opponents to act now (several in a commit): its tensor and mask, exactly.
        assert observation.dtype == np.float32 and mask.dtype == np.bool_
        assert any(
            np.array_equal(observation, env.encoder.encode(env.state.observe(seat)))
            and np.array_equal(mask, action_mask(env.game, env.state, seat).astype(bool))
            for seat in env.state.to_act()
            if seat != env.seat
        )
        calls.append(int(np.flatnonzero(mask)[-1]))
        return np.int64(calls[-1])  # a numpy integer, as a network's argmax gives

    env = og.OakwoodEnv("squarrels", players=3, opponents=last_legal, options={"single_round": True})
    play_out(env, 8, np.random.default_rng(8))
    assert len(calls) > 10 and env.state.is_terminal()


def test_a_policy_answering_an_array_as_model_predict_does_is_accepted() -> None:
    def predict_like(observation: NDArray[np.float32], mask: NDArray[np.bool_]) -> NDArray[np.int64]:
        return np.array([np.flatnonzero(mask)[0]])

    env = og.OakwoodEnv("barrell", players=2, opponents=predict_like)
    play_out(env, 1, np.random.default_rng(1))
    assert env.state.is_terminal()


def test_a_policy_opponents_illegal_answer_is_a_value_error_naming_it() -> None:
    def illegal(observation: NDArray[np.float32], mask: NDArray[np.bool_]) -> int:
        return int(np.flatnonzero(~mask)[0])

    env = og.OakwoodEnv("barrell", players=2, opponents=illegal, seat=1)
    with pytest.raises(ValueError, match=r"policy opponent .*illegal.* answered action \d+, not legal for seat 0"):
        env.reset(seed=0)
    env = og.OakwoodEnv("barrell", players=2, opponents=lambda o, m: "draw", seat=1)
    with pytest.raises(ValueError, match="answered 'draw', not a codec index"):
        env.reset(seed=0)


def test_a_pool_draws_each_episodes_opponent_with_the_seeded_generator_and_takes_new_members() -> None:
    first, second = FirstLegal(), FirstLegal()
    pool = Pool([first, second, "random"])
    env = og.OakwoodEnv("barrell", players=3, opponents=pool)
    draws = []
    for episode in range(30):
        env.reset(seed=episode)
        draws.append(tuple(type(a).__name__ if a not in (first, second) else id(a) for a in env.agents.values()))
    used = {d for pair in draws for d in pair}
    assert used == {id(first), id(second), "RandomAgent"}  # every member drawn, seats drawn independently
    assert len(set(draws)) > 3
    again = og.OakwoodEnv("barrell", players=3, opponents=pool)
    replay = []
    for episode in range(30):
        again.reset(seed=episode)
        replay.append(tuple(type(a).__name__ if a not in (first, second) else id(a) for a in again.agents.values()))
    assert replay == draws  # the same seeds draw the same opponents

    late = FirstLegal()
    weighted = Pool([first, second], weights=[0.0, 1.0])
    weighted.add(late, weight=3.0)  # e.g. the latest frozen copy of the learner, between episodes
    env = og.OakwoodEnv("barrell", players=2, opponents=weighted)
    drawn = []
    for episode in range(40):
        env.reset(seed=episode)
        drawn.append(env.agents[1])
    assert first not in drawn  # weight 0: never drawn
    assert drawn.count(late) > drawn.count(second) > 0  # 3 to 1


def test_a_pool_passed_through_gymnasium_make_and_make_vec_is_shared_so_members_added_later_play() -> None:
    pool = Pool(["random"])
    env = gymnasium.make("oakwood/Barrell-v0", players=2, opponents=pool)
    vector = gymnasium.make_vec("oakwood/Barrell-v0", num_envs=2, players=2, opponents=pool)
    assert env.unwrapped.opponents[0] is pool and all(e.opponents[0] is pool for e in vector.unwrapped.envs)
    late = FirstLegal()
    pool.add(late)
    drawn = []
    for episode in range(12):
        env.reset(seed=episode)
        drawn.append(env.unwrapped.agents[1])
    assert late in drawn


def test_a_list_gives_each_other_seat_its_own_kind_of_opponent() -> None:
    bot = FirstLegal()
    env = og.OakwoodEnv(
        "squarrels", players=4, seat=1, opponents=["random", bot, lambda o, m: int(np.flatnonzero(m)[0])]
    )
    play_out(env, 6, np.random.default_rng(6))
    assert type(env.agents[0]).__name__ == "RandomAgent" and env.agents[2] is bot
    assert type(env.agents[3]).__name__ == "PolicyAgent" and set(bot.seats) == {2}
    assert env.opponent_names[0] == "random" and env.opponent_names[1] == "FirstLegal"


class NotAnAgent:
    act = "not a method"


@pytest.mark.parametrize(
    ("opponents", "error", "message"),
    [
        (42, TypeError, r"the opponent at seat 1 is int 42; an opponent is a bot name"),
        (FirstLegal, TypeError, r"seat 1 is the class FirstLegal: pass an instance"),
        (NotAnAgent(), TypeError, r"NotAnAgent.act is not a method"),
        ([FirstLegal(), None], TypeError, r"the opponent at seat 2 is NoneType None"),
        (Pool(["random", 3.5]), TypeError, r"member 1 of the pool of the opponent at seat 1 is float 3.5"),
        (Pool(["random", "grandmaster"]), Exception, r"no agent 'grandmaster'"),
        (["random"] * 3, ValueError, r"3 opponents for the 2 other seats.*Pool"),
    ],
)
def test_a_refused_opponent_names_what_was_wrong(opponents: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        og.OakwoodEnv("barrell", players=3, opponents=opponents)


def test_a_pool_refuses_nothing_to_draw_and_bad_weights() -> None:
    with pytest.raises(ValueError, match="at least one member"):
        Pool([])
    with pytest.raises(ValueError, match="2 weights for 1 pool members"):
        Pool(["random"], weights=[1.0, 2.0])
    with pytest.raises(ValueError, match="not all 0"):
        Pool(["random"], weights=[0.0])
    with pytest.raises(TypeError, match="Pool"):
        Pool([Pool(["random"])])
    with pytest.raises(ValueError, match="weight exactly when"):
        Pool(["random"]).add("easy", weight=2.0)


# ---------------------------------------------------------------------- observation, reward, episode bound
def test_the_tensor_observation_is_a_box_and_passes_gymnasiums_checker() -> None:
    env = og.OakwoodEnv("barrell", players=2, obs_type="tensor", illegal_action="lose")
    assert isinstance(env.observation_space, gymnasium.spaces.Box)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env_checker.check_env(env)
    obs, info = env.reset(seed=1)
    assert env.observation_space.contains(obs)
    assert np.array_equal(obs, env.encoder.encode(env.state.observe(0))) and info["action_mask"].any()
    with pytest.raises(ValueError, match="obs_type"):
        og.OakwoodEnv("barrell", obs_type="image")


@pytest.mark.parametrize(
    ("game", "players"), [("squarrels", 2), ("squarrels", 6), ("barrell", 4), ("nutty", 1), ("nutty", 5)]
)
def test_the_observation_space_has_real_bounds(game: str, players: int) -> None:
    env = og.OakwoodEnv(game, players=players)
    box = env.observation_space["observation"]
    fields = env.encoder.layout.fields
    # Bounded where the encoder can prove it: flags and one-hots in [0, 1], counts by the cards or acorns the
    # game holds; unbounded only where the game's points are (scores may be negative and have no cap).
    assert np.isfinite(box.low).mean() > 0.9 and np.isfinite(box.high).mean() > 0.9
    for f in fields:
        assert (box.low[f.offset : f.offset + f.size] == np.float32(f.low)).all()
        assert (box.high[f.offset : f.offset + f.size] == np.float32(f.high)).all()
        if f.high == np.inf:
            assert any(word in f.name for word in ("score", "total", "last_round", "points", "provisional",
                                                   "sappy", "out_of_play", "market", "ap", "turns_left"))  # fmt: skip
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(200):  # the encoder sweeps check every step of many games; here: through the environment
        assert env.observation_space.contains(obs)
        obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if terminated or truncated:
            obs, _ = env.reset()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_zero_sum_reward_is_plus_one_to_a_sole_winner_and_sums_to_zero(players: int) -> None:
    seen = set()
    for episode in range(12):
        zero = og.OakwoodEnv("barrell", players=players, reward="zero_sum", seat=episode % players)
        share = og.OakwoodEnv("barrell", players=players, seat=episode % players)
        reward, _ = play_out(zero, episode, np.random.default_rng(episode))
        same, _ = play_out(share, episode, np.random.default_rng(episode))  # the same game, as win share
        returns = zero.state.returns()
        assert same == returns[zero.seat] and reward == pytest.approx((players * same - 1) / (players - 1))
        zero_sum = [(players * r - 1) / (players - 1) for r in returns]
        assert sum(zero_sum) == pytest.approx(0.0)
        if sorted(returns) == [0.0] * (players - 1) + [1.0]:
            assert max(zero_sum) == 1.0 and min(zero_sum) == pytest.approx(-1 / (players - 1))
        seen.add(round(reward, 6))
    assert 1.0 in seen and round(-1 / (players - 1), 6) in seen
    with pytest.raises(ValueError, match="reward"):
        og.OakwoodEnv("barrell", reward="score")


def test_max_episode_steps_comes_from_the_games_bound_and_truncates() -> None:
    assert og.OakwoodEnv("nutty", players=1).max_episode_steps == 3000  # NS-17g: solo_max_actions
    assert og.OakwoodEnv("nutty", players=1, options={"solo_max_actions": 40}).max_episode_steps == 40
    assert og.OakwoodEnv("barrell", players=2).max_episode_steps == og.DEFAULT_MAX_STEPS  # no bound in the rules
    assert og.episode_step_bound(oakwood.load("squarrels"), 2) is None
    env = og.OakwoodEnv("barrell", players=2, max_steps=3)
    env.reset(seed=0)
    outcomes = [env.step(int(np.flatnonzero(env.action_masks())[0]))[2:4] for _ in range(3)]
    assert outcomes == [(False, False), (False, False), (False, True)]
    # Solo's own bound ends the game (a termination), never a truncation first.
    solo = og.OakwoodEnv("nutty", players=1, options={"solo_max_actions": 12}, mask_end_game_while_moves_remain=True)
    _, steps = play_out(solo, 0, np.random.default_rng(0))
    assert steps <= 12 and solo.state.is_terminal()


# ---------------------------------------------------------------------- the Nutty solo training aid
def test_the_nutty_solo_aid_masks_end_game_while_moves_remain_and_leaves_the_rule_alone() -> None:
    env = og.OakwoodEnv("nutty", players=1, options={"solo_max_actions": 300}, mask_end_game_while_moves_remain=True)
    plain = og.OakwoodEnv("nutty", players=1, options={"solo_max_actions": 300})
    end = og.end_game_index(env.game)
    assert end is not None and str(env.game.decode(end)) == "end game"
    env.reset(seed=0)
    assert env.game.decode(end) in env.state.legal_actions(0)  # the rule: legal from the first move
    assert not env.action_masks()[end]  # the aid: masked
    with pytest.raises(ValueError, match=r"masked while other moves remain.*training aid"):
        env.step(end)
    rng = np.random.default_rng(1)
    lengths, plain_lengths = [], []
    for seed in range(20):
        env.reset(seed=seed)
        steps = 0
        while True:
            mask = env.action_masks()
            legal = env.state.legal_actions(0)
            assert mask[end] == (legal == (env.game.decode(end),))  # offered only when it is the one move
            _, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
            steps += 1
            if terminated or truncated:
                break
        lengths.append(steps)
        plain_lengths.append(play_out(plain, seed, rng)[1])
    # Random exploration lives far longer with the aid (without it, "end game" is drawn within a few moves).
    assert np.mean(lengths) > 4 * np.mean(plain_lengths)


def test_the_aid_is_refused_for_a_game_without_end_game() -> None:
    with pytest.raises(ValueError, match=r"no 'end game' action.*Nutty"):
        og.OakwoodEnv("barrell", players=2, mask_end_game_while_moves_remain=True)


# ---------------------------------------------------------------------- vector auto-reset
def test_vector_auto_reset_never_hands_out_a_mask_without_a_legal_action() -> None:
    envs = og.make_vector("barrell", 4, players=2)
    obs, info = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(600):
        masks = obs["action_mask"]
        assert masks.any(axis=1).all()  # every copy, every step, the step after an auto-reset included
        assert np.array_equal(masks, info["action_mask"])
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, terminated, truncated, info = envs.step(actions)
        for i in np.flatnonzero(terminated | truncated):
            final = info["final_obs"][i]  # Gymnasium's same-step auto-reset: the last observation is in info
            assert not final["action_mask"].any() and final["observation"].shape == obs["observation"][i].shape
            assert rewards[i] in (0.0, 0.5, 1.0) and not info["final_info"]["action_mask"][i].any()
            finished += 1
    assert finished >= 10
    envs.close()
