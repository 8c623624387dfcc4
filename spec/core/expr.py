"""The expression language of ad-hoc queries (``hanamikoji query --where EXPR``).

A small language over the end of a game, the same for every game; each game supplies its terms
(:class:`Term`). It is parsed by a recursive-descent parser (never ``eval``), checked against the
terms (types, argument ranges, the values an enumerated term takes), then either translated to a
z3 formula or evaluated on a final state of the engine: the two readings of one expression, so
that a witness found by z3 is checked again by plain Python.

Grammar (lowest precedence first)::

    expr    := and ("or" and)*
    and     := not ("and" not)*
    not     := "not" not | compare
    compare := sum (("==" | "!=" | "<" | "<=" | ">" | ">=") sum)?
    sum     := unary (("+" | "-") unary)*
    unary   := "-" unary | atom
    atom    := INTEGER | STRING | NAME | NAME "(" sum ")" | "(" expr ")"

An integer term (``charm(0)``) compares with integers and sums of them; an enumerated term
(``winner``, ``reason``, ``marker(3)``) compares with ``==`` or ``!=`` against one of its values
(``none``, ``0``, ``"shared"``). Any error is an :class:`ExprError` with the column (from 1).

>>> terms = (Term("charm", "charm of player p", "int", arity=1, domain=range(2)),
...          Term("winner", "the winner", "enum", values=(0, 1, "none")))
>>> tree = parse("charm(0) >= 11 and not winner == none")
>>> check(tree, terms)
>>> evaluate(tree, lambda name, arg: {"charm": 12, "winner": 0}[name])
True
>>> check(parse("charm(2) > 1"), terms)
Traceback (most recent call last):
...
hanamikoji.spec.core.expr.ExprError: column 7: charm takes an argument from 0 to 1, not 2
"""

from __future__ import annotations

import re
from typing import Any, Callable, Sequence

import attrs


class ExprError(ValueError):
    """A syntax error, an unknown term or a type error, at a column (counted from 1)."""

    def __init__(self, column: int, message: str) -> None:
        super().__init__(f"column {column}: {message}")
        self.column = column
        self.detail = message


@attrs.frozen
class Term:
    """A term of a game's language: ``kind`` "int" (arithmetic and every comparison) or "enum"
    (``==`` / ``!=`` against one of ``values``); ``arity`` 0 or 1 (``domain``: the arguments,
    ``argument``: what one names, for messages: ``"a player"``)."""

    name: str
    doc: str
    kind: str
    arity: int = 0
    domain: range | None = None
    values: tuple[Any, ...] = ()
    argument: str = "an argument"


# --- tokens ----------------------------------------------------------------------------------

# ASCII only: \d and \s would take any Unicode digit ("²", "٣") or space, which int() then
# reads, or fails to.
_TOKEN = re.compile(r"""\s*(?:
    (?P<int>\d+)
  | (?P<str>"[^"\\]*")
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op>==|!=|<=|>=|<|>|\(|\)|\+|-)
  )""", re.VERBOSE | re.ASCII)
_BLANK = " \t\n\r\f\v"
_KEYWORDS = ("and", "or", "not")
MAX_LENGTH = 2_000
#: How deep an expression may nest: parentheses, ``not``, minus signs, comparisons and each
#: ``+`` or ``-`` of a sum count a level each (``and`` and ``or`` chains do not). The readers
#: (checking, z3, evaluation) recurse once per level, so the limit keeps them far from Python's
#: recursion limit, for every game.
MAX_DEPTH = 40
_TOO_DEEP = (f"the expression nests deeper than {MAX_DEPTH} levels (each parenthesis, 'not', "
             "minus sign, comparison and + or - of a sum is a level); write it flatter")


@attrs.frozen
class Token:
    kind: str  # "int", "str", "name", "op", "end"
    text: str
    column: int


def tokenize(text: str) -> list[Token]:
    if not isinstance(text, str):
        raise ExprError(1, f"expected an expression (text), not {type(text).__name__}")
    if len(text) > MAX_LENGTH:
        raise ExprError(MAX_LENGTH + 1, f"an expression has at most {MAX_LENGTH} characters")
    out, at = [], 0
    while at < len(text):
        if text[at:].strip(_BLANK) == "":
            break
        match = _TOKEN.match(text, at)
        if match is None or match.end() == at:
            column = at + len(text[at:]) - len(text[at:].lstrip(_BLANK)) + 1
            raise ExprError(column, f"unexpected character {text[column - 1]!r}")
        kind = match.lastgroup
        assert kind is not None
        out.append(Token(kind, match.group(kind), match.start(kind) + 1))
        at = match.end()
    out.append(Token("end", "", len(text) + 1))
    return out


# --- the tree --------------------------------------------------------------------------------


@attrs.frozen
class Node:
    """A node: ``op`` is "int", "str", "name", "call", "neg", "+", "-", a comparison, "not",
    "and" or "or"; ``args`` its children (or its value); ``column`` where it starts."""

    op: str
    args: tuple[Any, ...]
    column: int


_COMPARE = ("==", "!=", "<", "<=", ">", ">=")


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens = tokenize(text)
        self.at = 0
        self.nesting = 0  # parentheses, not, minus signs and arguments open around here

    def enter(self, token: Token) -> None:
        self.nesting += 1
        if self.nesting > MAX_DEPTH:
            raise ExprError(token.column, _TOO_DEEP)

    def peek(self) -> Token:
        return self.tokens[self.at]

    def take(self) -> Token:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def expect(self, text: str) -> Token:
        token = self.take()
        if token.text != text or token.kind == "str":
            raise ExprError(token.column, f"expected {text!r}, found {_shown(token)}")
        return token

    def keyword(self, word: str) -> bool:
        token = self.peek()
        return token.kind == "name" and token.text == word

    def expr(self) -> Node:
        items = [self.conjunction()]
        while self.keyword("or"):
            self.take()
            items.append(self.conjunction())
        return items[0] if len(items) == 1 else Node("or", tuple(items), items[0].column)

    def conjunction(self) -> Node:
        items = [self.negation()]
        while self.keyword("and"):
            self.take()
            items.append(self.negation())
        return items[0] if len(items) == 1 else Node("and", tuple(items), items[0].column)

    def negation(self) -> Node:
        if self.keyword("not"):
            token = self.take()
            self.enter(token)
            inner = self.negation()
            self.nesting -= 1
            return Node("not", (inner,), token.column)
        return self.comparison()

    def comparison(self) -> Node:
        left = self.sum()
        token = self.peek()
        if token.kind == "op" and token.text in _COMPARE:
            self.take()
            right = self.sum()
            follow = self.peek()
            if follow.kind == "op" and follow.text in _COMPARE:
                raise ExprError(follow.column, "comparisons do not chain; join them with 'and'")
            return Node(token.text, (left, right), left.column)
        return left

    def sum(self) -> Node:
        node = self.unary()
        while self.peek().kind == "op" and self.peek().text in ("+", "-"):
            op = self.take().text
            node = Node(op, (node, self.unary()), node.column)
        return node

    def unary(self) -> Node:
        if self.peek().kind == "op" and self.peek().text == "-":
            token = self.take()
            self.enter(token)
            inner = self.unary()
            self.nesting -= 1
            return Node("neg", (inner,), token.column)
        return self.atom()

    def atom(self) -> Node:
        token = self.take()
        if token.kind == "int":
            if len(token.text) > 9:
                raise ExprError(token.column, "an integer has at most 9 digits")
            return Node("int", (int(token.text),), token.column)
        if token.kind == "str":
            return Node("str", (token.text[1:-1],), token.column)
        if token.kind == "name" and token.text not in _KEYWORDS:
            if self.peek().kind == "op" and self.peek().text == "(":
                self.enter(self.take())
                argument = self.sum()
                self.expect(")")
                self.nesting -= 1
                return Node("call", (token.text, argument), token.column)
            return Node("name", (token.text,), token.column)
        if token.kind == "op" and token.text == "(":
            self.enter(token)
            inner = self.expr()
            self.expect(")")
            self.nesting -= 1
            return inner
        raise ExprError(token.column, f"expected a number, a term or '(', found {_shown(token)}")


def _shown(token: Token) -> str:
    return "the end of the expression" if token.kind == "end" else repr(token.text)


def parse(text: str) -> Node:
    """The tree of ``text``; :class:`ExprError` with the column on a syntax error."""
    parser = _Parser(text)
    if parser.peek().kind == "end":
        raise ExprError(1, "the expression is empty")
    tree = parser.expr()
    token = parser.peek()
    if token.kind != "end":
        raise ExprError(token.column, f"unexpected {_shown(token)} after a complete expression")
    _check_depth(tree)
    return tree


def _check_depth(tree: Node) -> None:
    """:class:`ExprError` at the first node deeper than :data:`MAX_DEPTH` (a long sum nests
    without parentheses: ``1 + 1 + 1`` is ``(1 + 1) + 1``). Iterative, so any tree the parser
    builds is measured."""
    stack, deepest = [(tree, 1)], []
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            deepest.append(node.column)
        else:
            stack.extend((child, depth + 1) for child in node.args if isinstance(child, Node))
    if deepest:
        raise ExprError(min(deepest), _TOO_DEEP)


# --- checking --------------------------------------------------------------------------------


def check(tree: Node, terms: Sequence[Term]) -> None:
    """:class:`ExprError` unless ``tree`` is a condition (true or false) over ``terms``."""
    by_name = {t.name: t for t in terms}
    if _kind(tree, by_name) != "bool":
        raise ExprError(tree.column, "the expression must be a condition (a comparison, or "
                                     "comparisons joined by and / or / not)")


def _literal(node: Node) -> Any:
    """The value of a literal node (int, str, or the word ``none``), else a marker object."""
    if node.op == "int":
        return node.args[0]
    if node.op == "neg" and node.args[0].op == "int":
        return -node.args[0].args[0]
    if node.op == "str":
        return node.args[0]
    if node.op == "name" and node.args[0] == "none":
        return "none"
    return _NOT_LITERAL


_NOT_LITERAL = object()


def _kind(node: Node, terms: dict[str, Term]) -> str:
    op = node.op
    if op in ("and", "or", "not"):
        for child in node.args:
            if _kind(child, terms) != "bool":
                raise ExprError(child.column, f"'{op}' joins conditions, not a value")
        return "bool"
    if op in _COMPARE:
        left, right = node.args
        kinds = (_kind(left, terms), _kind(right, terms))
        if "bool" in kinds:
            bad = left if kinds[0] == "bool" else right
            raise ExprError(bad.column, "a comparison compares values, not conditions")
        if kinds == ("int", "int"):
            return "bool"
        enum, other = (left, right) if kinds[0] == "enum" else (right, left)
        if "enum" not in kinds:
            raise ExprError(node.column, "compare a term with a value")
        if op not in ("==", "!="):
            raise ExprError(node.column, f"{_term_name(enum)} is compared only with == or !=")
        compared = terms[_term_name(enum)]
        value = _literal(other)
        if value is _NOT_LITERAL or value not in compared.values:
            raise ExprError(other.column, f"{compared.name} is one of "
                            + ", ".join(_show_value(v) for v in compared.values))
        return "bool"
    if op in ("int", "neg", "+", "-"):
        for child in node.args if op != "int" else ():
            if _kind(child, terms) != "int":
                raise ExprError(child.column, "arithmetic needs numbers")
        return "int"
    if op == "str":
        return "literal"
    if op == "name":
        name = node.args[0]
        if name == "none":
            return "literal"
        term = terms.get(name)
        if term is None:
            raise ExprError(node.column, _unknown(name, terms))
        if term.arity:
            raise ExprError(node.column, f"{name} takes an argument: {name}(...)")
        return term.kind
    if op == "call":
        name, argument = node.args
        term = terms.get(name)
        if term is None:
            raise ExprError(node.column, _unknown(name, terms))
        if not term.arity:
            raise ExprError(node.column, f"{name} takes no argument")
        value = _literal(argument)
        if not isinstance(value, int) or term.domain is None or value not in term.domain:
            low, high = (term.domain[0], term.domain[-1]) if term.domain else (0, 0)
            shown = _show_value(value) if value is not _NOT_LITERAL else "an expression"
            raise ExprError(argument.column, f"{name} takes {term.argument} from {low} to "
                                             f"{high}, not {shown}")
        return term.kind
    raise AssertionError(op)  # pragma: no cover - the parser makes no other node


def _term_name(node: Node) -> str:
    return node.args[0]


def _show_value(value: Any) -> str:
    return f'"{value}"' if isinstance(value, str) and value != "none" else str(value)


def _unknown(name: str, terms: dict[str, Term]) -> str:
    return f"unknown term {name!r}; the terms are: " + ", ".join(
        t.name + ("(...)" if t.arity else "") for t in terms.values())


# --- the two readings ------------------------------------------------------------------------


def _compare(op: str, a: Any, b: Any) -> Any:
    return {"==": lambda: a == b, "!=": lambda: a != b, "<": lambda: a < b,
            "<=": lambda: a <= b, ">": lambda: a > b, ">=": lambda: a >= b}[op]()


def translate(tree: Node, terms: Sequence[Term], term: Callable[[str, int | None], Any],
              encode: Callable[[str, Any], Any]) -> Any:
    """``tree`` (checked) as a z3 formula: ``term(name, arg)`` gives a term's z3 expression and
    ``encode(name, value)`` the z3 value of an enumerated term's literal."""
    import z3

    enums = {t.name for t in terms if t.kind == "enum"}

    def enum_of(node: Node) -> str | None:
        return node.args[0] if node.op in ("name", "call") and node.args[0] in enums else None

    def go(node: Node) -> Any:
        op = node.op
        if op == "and":
            return z3.And([go(c) for c in node.args])
        if op == "or":
            return z3.Or([go(c) for c in node.args])
        if op == "not":
            return z3.Not(go(node.args[0]))
        if op in _COMPARE:
            left, right = node.args
            for enum, other in ((left, right), (right, left)):
                name = enum_of(enum)
                if name is not None:
                    return _compare(op, value(enum), encode(name, _literal(other)))
            return _compare(op, value(left), value(right))
        raise AssertionError(op)  # pragma: no cover - check() allows no other condition

    def value(node: Node) -> Any:
        op = node.op
        if op == "int":
            return z3.IntVal(node.args[0])
        if op == "neg":
            return -value(node.args[0])
        if op in ("+", "-"):
            a, b = value(node.args[0]), value(node.args[1])
            return a + b if op == "+" else a - b
        if op == "name":
            return term(node.args[0], None)
        if op == "call":
            return term(node.args[0], _literal(node.args[1]))
        raise AssertionError(op)  # pragma: no cover

    return go(tree)


def evaluate(tree: Node, term: Callable[[str, int | None], Any]) -> bool:
    """``tree`` (checked) on plain values: ``term(name, arg)`` gives a term's value, an
    enumerated term's value being one of its literals (``"none"`` for none)."""

    def go(node: Node) -> Any:
        op = node.op
        if op == "and":
            return all(go(c) for c in node.args)
        if op == "or":
            return any(go(c) for c in node.args)
        if op == "not":
            return not go(node.args[0])
        if op in _COMPARE:
            left, right = node.args
            a = _literal(left) if _literal(left) is not _NOT_LITERAL else go(left)
            b = _literal(right) if _literal(right) is not _NOT_LITERAL else go(right)
            return _compare(op, a, b)
        if op == "int":
            return node.args[0]
        if op == "neg":
            return -go(node.args[0])
        if op in ("+", "-"):
            a, b = go(node.args[0]), go(node.args[1])
            return a + b if op == "+" else a - b
        if op == "name":
            return term(node.args[0], None)
        if op == "call":
            return term(node.args[0], _literal(node.args[1]))
        raise AssertionError(op)  # pragma: no cover

    return bool(go(tree))
