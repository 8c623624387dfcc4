"""Limits of ``query --where`` that keep every reader of an expression from Python's recursion
limit: nesting past spec.core.expr.MAX_DEPTH (parentheses, not, minus signs, long sums) is one
line naming the column and the limit, exit 2, for every game; an expression at the limit is
parsed, checked, translated to z3 and evaluated. Digits and spaces are ASCII only."""

from __future__ import annotations

import pytest
import z3

from hanamikoji.cli.main import main
from hanamikoji.spec.core.expr import MAX_DEPTH, ExprError, Term, check, evaluate, parse, translate

GAMES = {"hanamikoji": ("charm(0)", []), "maiko": ("score(0)", ["--players", "2"])}

#: Expressions past the limit, as found (RecursionError, exit 3) with 400 levels.
TOO_DEEP = {
    "parentheses": lambda t: "(" * 400 + f"{t} == 1" + ")" * 400,
    "nots": lambda t: "not " * 400 + f"{t} == 1",
    "minus-signs": lambda t: f"{t} == " + "-" * 400 + "1",
    "a-long-sum": lambda t: f"{t} == " + "+".join(["1"] * 900),
    "just-past-the-limit": lambda t: "(" * (MAX_DEPTH + 1) + f"{t} == 1" + ")" * (MAX_DEPTH + 1),
}


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("shape", sorted(TOO_DEEP))
def test_nesting_past_the_limit_is_one_line_and_exit_2(game, shape, capsys):
    term, extra = GAMES[game]
    assert main(["query", "--game", game, *extra, "--where", TOO_DEEP[shape](term)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"deeper than {MAX_DEPTH} levels" in err, err
    assert "column " in err and "Traceback" not in err


def test_an_expression_at_the_limit_is_read_by_every_reader():
    """At MAX_DEPTH exactly (parentheses around, or a tree that deep), parse, check, the z3
    translation and evaluation all cope; one level more is refused."""
    terms = (Term("x", "x", "int"),)
    parens = "(" * MAX_DEPTH + "x == 1" + ")" * MAX_DEPTH
    signs = "x == " + "-" * (MAX_DEPTH - 2) + "1"  # comparison, signs, 1: MAX_DEPTH deep
    total = "x == " + "+".join(["1"] * (MAX_DEPTH - 1))  # comparison, sums, 1: MAX_DEPTH deep
    for text, x in ((parens, 1), (signs, (-1) ** MAX_DEPTH), (total, MAX_DEPTH - 1)):
        tree = parse(text)
        check(tree, terms)
        assert evaluate(tree, lambda name, arg, x=x: x) is True
        formula = translate(tree, terms, lambda name, arg, x=x: z3.IntVal(x),
                            lambda name, value: value)
        assert z3.is_true(z3.simplify(formula))
    for text in ("(" + parens + ")", signs.replace("-", "--", 1), total + "+1"):
        with pytest.raises(ExprError, match="deeper than"):
            parse(text)


def test_a_maiko_question_at_the_limit_is_answered(capsys):
    """Maiko's translation recursed deeper than Hanamikoji's and failed sooner."""
    text = "(" * (MAX_DEPTH - 3) + "score(0) == 1" + ")" * (MAX_DEPTH - 3)
    assert main(["query", "--game", "maiko", "--players", "2", "--where", text]) == 0
    assert "witness" in capsys.readouterr().out


@pytest.mark.parametrize("text", ["charm(0) == \u00b2", "charm(0) == \u0663",
                                  "charm(0)\u00a0== 1", "charm(\uff10) == 1",
                                  "charm(0) == 1\u2003"])
def test_digits_and_spaces_are_ascii(text, capsys):
    """``\\d`` and ``\\s`` took any Unicode digit or space; int() read "٣" as 3 and failed on
    "²" (ValueError, exit 3)."""
    assert main(["query", "--where", text]) == 2
    err = capsys.readouterr().err
    assert "unexpected character" in err and err.count("\n") == 1, err
