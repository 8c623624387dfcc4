"""The state machine plays whole games in both variants with every invariant after every step."""

from hypothesis import settings
from hypothesis.stateful import run_state_machine_as_test

from hanamikoji.properties.hanamikoji.machine import games_machine

#: The state machine against the reference engine, as pytest collects it (the loaded profile).
TestHanamikojiGames = games_machine().TestCase


def test_the_machine_finishes_games_of_both_variants():
    seen = []

    class Counting(games_machine()):
        def teardown(self):
            seen.append((self.state.rules.name, self.finished, self.state.result is not None))

    run_state_machine_as_test(Counting, settings=settings(
        settings.default, max_examples=30, stateful_step_count=150, derandomize=True,
        database=None))
    finished = {name for name, count, over in seen if count or over}
    assert finished == {"standard", "italian-three-rounds"}
    assert sum(count for _, count, _ in seen) > 0
